"""The browser table's speed in Chromium over loopback (a script, not a test), and its
screenshots.

1. First load: a table page opened in a fresh browser context (empty cache): the time to
   DOMContentLoaded and to the board first drawn (the page's own ``performance.now()``,
   from navigation start), and the bytes the page loaded; median and max over ``--loads``.
2. Click to board: two human seats of every game clicked by this script (a board target
   meaning a single move, or the legal-move list where a board has none); for each click
   the page records the time from its click handler sending the move to the first
   animation frame after the new board is in the document (the move applied on the
   server, the update pushed over the websocket, the board fetched and swapped in);
   median, p90 and max per game, and the server's CPU time to draw a board (the board
   route's ``Server-Timing``, the figure that does not grow with the machine's load).

    python benchmarks/web.py                          # both parts
    python benchmarks/web.py --clicks 20 --loads 5
    python benchmarks/web.py --screenshots docs/screenshots   # also save every game's table

The server runs in this process (uvicorn in a thread, a temp SQLite db). Needs the web
extra and Debian's Chromium (``.ci/chromium.sh``); without them the script says so and exits.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

try:
    import uvicorn
    from playwright.sync_api import Browser, Page, sync_playwright

    from cove.serve import Settings, create_app
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.exit(f"benchmarks/web.py needs the web extra (pip install -e '.[web]'): {e}")

import cove

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

PICK_JS = """([seed, preferList]) => {
  const targets = [...document.querySelectorAll('#board .target')].map((t, i) => {
    let m = []; try { m = JSON.parse(t.getAttribute('data-moves') || '[]'); } catch (e) {}
    return [i, m];
  }).filter(([i, m]) => m.length === 1);
  if (targets.length && !preferList) return ['board', targets[seed % targets.length][0]];
  const moves = [...document.querySelectorAll('#moves button.move')];
  return moves.length ? ['list', seed % moves.length] : ['none', -1];
}"""


DRAW_JS = """() => performance.getEntriesByType('resource')
  .filter(r => r.name.includes('/board'))
  .flatMap(r => r.serverTiming.filter(t => t.name === 'draw').map(t => t.duration))"""


def start_server(db: Path) -> tuple[str, Any, uvicorn.Server, threading.Thread]:
    app = create_app(Settings(db=f"sqlite:///{db}", rate=1000.0, burst=1000,
                              create_rate=1000.0, create_burst=1000))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", app, server, thread


def create(url: str, game: str, seats: list[str], seed: int) -> dict[str, Any]:
    body = json.dumps({"game": game, "seats": seats, "seed": seed}).encode()
    req = urllib.request.Request(url + "/api/tables", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        out: dict[str, Any] = json.loads(res.read())
    return out


def seat_url(url: str, table: dict[str, Any], seat: int) -> str:
    return f"{url}/web/tables/{table['id']}?token={table['seats'][seat]['token']}"


def shown(page: Page) -> int:
    raw = page.evaluate("() => document.body.dataset.moves")
    return int(raw) if raw else -1


def click_moves(app: Any, table: dict[str, Any], pages: dict[int, Page], clicks: int,
                rng: random.Random) -> tuple[int, int]:
    """Click ``clicks`` moves (board targets when there are, else the list); returns the
    numbers of board and list clicks."""
    board = listed = 0
    made = 0
    deadline = time.monotonic() + 120
    while made < clicks and time.monotonic() < deadline:
        state = app.state.hub.tables[table["id"]].state
        if state.is_over:
            break
        n = state.decisions
        movers = [p for p in state.to_move() if p in pages]
        if not movers:
            time.sleep(0.01)
            continue
        page = pages[movers[0]]
        page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=n)
        if app.state.hub.tables[table["id"]].state.decisions != n:
            continue
        where, i = page.evaluate(PICK_JS, [rng.randrange(1 << 20), False])
        if where == "board":
            page.locator("#board .target").nth(i).click()
            board += 1
        elif where == "list":
            page.locator("#moves button.move").nth(i).click()
            listed += 1
        else:
            continue
        made += 1
        page.wait_for_function("n => Number(document.body.dataset.moves) > n"
                               " || !document.querySelector('#error').hidden", arg=n)
    return board, listed


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def first_loads(browser: Browser, url: str, loads: int) -> dict[str, Any]:
    table = create(url, "tricky-tides", ["human", "human", "random"], 1)
    dcl, board, size = [], [], []
    for _ in range(loads):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        page.goto(seat_url(url, table, 0))
        page.wait_for_function("() => window.coveFirstBoard !== undefined")
        nav = page.evaluate("() => performance.getEntriesByType('navigation')[0].toJSON()")
        res = page.evaluate("() => performance.getEntriesByType('resource')"
                            ".map(r => r.transferSize)")
        dcl.append(float(nav["domContentLoadedEventEnd"]))
        board.append(float(page.evaluate("() => window.coveFirstBoard")))
        size.append(float(nav["transferSize"]) + sum(float(x) for x in res))
        ctx.close()
    return {"loads": loads, "dom_ms_median": statistics.median(dcl), "dom_ms_max": max(dcl),
            "board_ms_median": statistics.median(board), "board_ms_max": max(board),
            "kib_median": statistics.median(size) / 1024}


def clicks_per_game(browser: Browser, url: str, app: Any, clicks: int) -> list[dict[str, Any]]:
    rows = []
    for game in cove.all_games():
        table = create(url, game.id, ["human", "human"], 5)
        ctxs = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
        pages = {}
        for seat, ctx in enumerate(ctxs):
            pages[seat] = ctx.new_page()
            pages[seat].goto(seat_url(url, table, seat))
            pages[seat].wait_for_function("() => document.body.dataset.moves !== undefined")
        board, listed = click_moves(app, table, pages, clicks, random.Random(7))
        time.sleep(0.1)  # the last click's animation frame
        times: list[float] = []
        draw: list[float] = []
        parts: list[list[float]] = []
        for page in pages.values():
            times += page.evaluate("() => window.coveTimings")
            parts += page.evaluate("() => window.coveParts")
            draw += page.evaluate(DRAW_JS)
        rows.append({"game": game.id, "clicks": len(times), "board_clicks": board,
                     "list_clicks": listed, "median_ms": statistics.median(times),
                     "p90_ms": pct(times, 0.9), "max_ms": max(times),
                     "draw_cpu_ms_median": statistics.median(draw),
                     "update_ms_median": statistics.median(p[0] for p in parts),
                     "fetch_ms_median": statistics.median(p[1] for p in parts),
                     "paint_ms_median": statistics.median(p[2] for p in parts)})
        for ctx in ctxs:
            ctx.close()
    return rows


def screenshots(browser: Browser, url: str, app: Any, out: Path, moves: int) -> list[str]:
    """Every game's table as seat P1 sees it after a few moves, at a laptop's width."""
    out.mkdir(parents=True, exist_ok=True)
    saved = []
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    lobby = ctx.new_page()
    lobby.goto(url + "/web/")
    lobby.select_option("#game", "the-tide")
    lobby.locator("#create button[type=submit]").click()
    lobby.locator("#created input[readonly]").first.wait_for()
    lobby.screenshot(path=str(out / "lobby.png"), full_page=True)
    saved.append(str(out / "lobby.png"))
    ctx.close()
    for game in cove.all_games():
        table = create(url, game.id, ["human", "human", "easy"], 3)
        ctxs = [browser.new_context(viewport={"width": 1280, "height": 900})
                for _ in range(2)]
        pages = {s: c.new_page() for s, c in enumerate(ctxs)}
        for s, page in pages.items():
            page.goto(seat_url(url, table, s))
            page.wait_for_function("() => document.body.dataset.moves !== undefined")
        click_moves(app, table, pages, moves, random.Random(11))
        state = app.state.hub.tables[table["id"]].state
        deadline = time.monotonic() + 30
        while not state.is_over and 0 not in state.to_move() and time.monotonic() < deadline:
            time.sleep(0.05)  # let the bot and P2 finish: P1 deciding is the picture
            state = app.state.hub.tables[table["id"]].state
            if 1 in state.to_move():
                click_moves(app, table, {1: pages[1]}, 1, random.Random(1))
        pages[0].wait_for_function("n => Number(document.body.dataset.moves) >= n",
                                   arg=state.decisions)
        path = out / f"{game.id}.png"
        pages[0].screenshot(path=str(path), full_page=True)
        saved.append(str(path))
        for c in ctxs:
            c.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--clicks", type=int, default=30, help="clicks per game (default 30)")
    ap.add_argument("--loads", type=int, default=10, help="first loads (default 10)")
    ap.add_argument("--screenshots", type=Path, help="save every game's table here and stop")
    ap.add_argument("--moves", type=int, default=8, help="moves before a screenshot")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        sys.exit(f"no Chromium at {CHROMIUM}: run .ci/chromium.sh (Debian's package)")
    with tempfile.TemporaryDirectory() as tmp:
        url, app, server, thread = start_server(Path(tmp) / "cove.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                if args.screenshots is not None:
                    for path in screenshots(browser, url, app, args.screenshots, args.moves):
                        print("saved", path)
                    return 0
                load = first_loads(browser, url, args.loads)
                rows = clicks_per_game(browser, url, app, args.clicks)
                browser.close()
        finally:
            server.should_exit = True
            thread.join(10)
    if args.json:
        print(json.dumps({"first_load": load, "click_to_board": rows}, indent=1))
        return 0
    print(f"first load of a table page ({load['loads']} fresh contexts, "
          f"{load['kib_median']:.0f} KiB): DOMContentLoaded median "
          f"{load['dom_ms_median']:.0f} ms (max {load['dom_ms_max']:.0f}); board drawn "
          f"median {load['board_ms_median']:.0f} ms (max {load['board_ms_max']:.0f})")
    print("click -> board redrawn (ms): median, p90, max; the median split into the update "
          "arriving, the board fetched, the board in the page at the next frame; the server's "
          "CPU ms to draw a board")
    print(f"{'game':<18} {'clicks':>6} {'board':>5} {'list':>4} {'median':>7} {'p90':>6} "
          f"{'max':>6} {'update':>7} {'fetch':>6} {'paint':>6} {'draw CPU':>8}")
    for r in rows:
        print(f"{r['game']:<18} {r['clicks']:>6} {r['board_clicks']:>5} {r['list_clicks']:>4} "
              f"{r['median_ms']:>7.1f} {r['p90_ms']:>6.1f} {r['max_ms']:>6.1f} "
              f"{r['update_ms_median']:>7.1f} {r['fetch_ms_median']:>6.1f} "
              f"{r['paint_ms_median']:>6.1f} {r['draw_cpu_ms_median']:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
