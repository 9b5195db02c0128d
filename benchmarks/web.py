"""The browser table's speed in Chromium over loopback (a script, not a test), and its
screenshots.

1. First load: a table page opened in a fresh browser context (empty cache): the time to
   DOMContentLoaded and to the board first drawn (the page's own ``performance.now()``,
   from navigation start), and the bytes the page loaded (its first websocket message,
   which carries the board, included); median and max over ``--loads``.
2. Click to board: two human seats of every game clicked by this script (a board target
   meaning a single move, or the legal-move list where a board has none); for each click
   the page records the time from its click handler sending the move to the first
   animation frame after the new board is in the document, split into: the update
   arriving over the websocket (the move applied and pushed), the board fetched (zero when
   the update carried it), parsed (JSON, prompt, moves and log), swapped into the page,
   and the wait for the next frame; and the server's CPU time to draw the board (the
   figure that does not grow with the machine's load). Each game is played on two tables
   side by side, clicks interleaved: ``push`` (the page's websocket asks for the board in
   each update, as the page does by default) and ``fetch`` (the page asks the board route
   after each update, ``?board=fetch``), so their ratio holds under any load.

    python benchmarks/web.py                          # both parts
    python benchmarks/web.py --clicks 20 --loads 5
    python benchmarks/web.py --screenshots docs/screenshots   # also save every game's table

The server runs in its own process (this script with ``--serve``: uvicorn, a temp SQLite
db), so the browser driver and the server do not share an interpreter. Needs the web extra
and Debian's Chromium (``.ci/chromium.sh``); without them the script says so and exits.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

try:
    import uvicorn
    from playwright.sync_api import Browser, Page, WebSocket, sync_playwright

    from cove.serve import Settings, create_app
except ImportError as e:  # pragma: no cover - depends on the environment
    sys.exit(f"benchmarks/web.py needs the web extra (pip install -e '.[web]'): {e}")

import cove
from cove.testing.short import short_game

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
MODES = ("push", "fetch")
PARTS = ("update", "fetch", "parse", "swap", "frame", "draw_cpu")

PICK_JS = """([seed, preferList]) => {
  const targets = [...document.querySelectorAll('#board .target')].map((t, i) => {
    let m = []; try { m = JSON.parse(t.getAttribute('data-moves') || '[]'); } catch (e) {}
    return [i, m];
  }).filter(([i, m]) => m.length === 1);
  if (targets.length && !preferList) return ['board', targets[seed % targets.length][0]];
  const moves = [...document.querySelectorAll('#moves button.move')];
  return moves.length ? ['list', seed % moves.length] : ['none', -1];
}"""


def serve(port: int, db: str) -> None:
    """The server of a benchmark run (``--serve``): generous rate limits, no logs."""
    app = create_app(Settings(db=f"sqlite:///{db}", rate=1000.0, burst=1000,
                              create_rate=1000.0, create_burst=1000))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning",
                ws_per_message_deflate=False)


def start_server(db: Path) -> tuple[str, subprocess.Popen[bytes]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), str(db)])
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/api/games"):
                return url, proc
        except (urllib.error.URLError, ConnectionError):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                sys.exit("the benchmark's server did not start")
            time.sleep(0.1)


def create(url: str, game: str, seats: list[str], seed: int,
           options: dict[str, Any] | None = None) -> dict[str, Any]:
    body = json.dumps({"game": game, "seats": seats, "seed": seed,
                       **({"options": options} if options else {})}).encode()
    req = urllib.request.Request(url + "/api/tables", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        out: dict[str, Any] = json.loads(res.read())
    return out


def table_now(url: str, table: dict[str, Any]) -> dict[str, Any]:
    """The table as seat P1 sees it (its move count, who is to move, whether it is over)."""
    token = table["seats"][0]["token"]
    since = 999_999_999  # no events wanted
    with urllib.request.urlopen(f"{url}/api/tables/{table['id']}?token={token}"
                                f"&since={since}") as res:
        out: dict[str, Any] = json.loads(res.read())
    return out


def seat_url(url: str, table: dict[str, Any], seat: int, mode: str = "push") -> str:
    tail = "&board=fetch" if mode == "fetch" else ""
    return f"{url}/web/tables/{table['id']}?token={table['seats'][seat]['token']}{tail}"


class Clicks:
    """One table's human seats, clicked one move at a time."""

    def __init__(self, url: str, table: dict[str, Any], pages: dict[int, Page],
                 rng: random.Random) -> None:
        self.url, self.table, self.pages, self.rng = url, table, pages, rng
        self.board = self.listed = 0

    def one(self, timeout: float = 60) -> bool:
        """Click one move (a board target when there is one, else the list); False when
        the game is over or no seat of ours came to move in time."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            now = table_now(self.url, self.table)
            if now["over"]:
                return False
            n = now["moves"]
            movers = [p for p in now["to_move"] if p in self.pages]
            if not movers:
                time.sleep(0.01)
                continue
            page = self.pages[movers[0]]
            page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=n)
            if table_now(self.url, self.table)["moves"] != n:
                continue
            where, i = page.evaluate(PICK_JS, [self.rng.randrange(1 << 20), False])
            if where == "board":
                page.locator("#board .target").nth(i).click()
                self.board += 1
            elif where == "list":
                page.locator("#moves button.move").nth(i).click()
                self.listed += 1
            else:
                continue
            page.wait_for_function("n => Number(document.body.dataset.moves) > n"
                                   " || !document.querySelector('#error').hidden", arg=n)
            return True
        return False


def open_seats(browser: Browser, url: str, table: dict[str, Any], seats: list[int],
               mode: str = "push", width: int = 1280, height: int = 900,
               **context: Any) -> tuple[list[Any], dict[int, Page]]:
    ctxs = [browser.new_context(viewport={"width": width, "height": height}, **context)
            for _ in seats]
    for ctx in ctxs:
        ctx.add_init_script(RETURNING)
    pages = {}
    for seat, ctx in zip(seats, ctxs, strict=True):
        pages[seat] = ctx.new_page()
        pages[seat].goto(seat_url(url, table, seat, mode))
        pages[seat].wait_for_function("() => document.body.dataset.moves !== undefined")
    return ctxs, pages


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def count_frames(sizes: list[int], ws: WebSocket) -> None:
    """Append the size of each message ``ws`` receives to ``sizes``."""
    ws.on("framereceived", lambda data: sizes.append(len(data)))


def first_loads(browser: Browser, url: str, loads: int) -> dict[str, Any]:
    game = cove.load(cove.ids()[-1])
    table = create(url, game.id, ["human", "human", "random"][:game.max_players], 1)
    dcl, board, size = [], [], []
    for _ in range(loads):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        frames: list[int] = []  # the websocket's first message carries the first board
        page.on("websocket", functools.partial(count_frames, frames))
        page.goto(seat_url(url, table, 0))
        page.wait_for_function("() => window.coveFirstBoard !== undefined")
        nav = page.evaluate("() => performance.getEntriesByType('navigation')[0].toJSON()")
        res = page.evaluate("() => performance.getEntriesByType('resource')"
                            ".map(r => r.transferSize)")
        dcl.append(float(nav["domContentLoadedEventEnd"]))
        board.append(float(page.evaluate("() => window.coveFirstBoard")))
        size.append(float(nav["transferSize"]) + sum(float(x) for x in res) + sum(frames[:1]))
        ctx.close()
    return {"loads": loads, "dom_ms_median": statistics.median(dcl), "dom_ms_max": max(dcl),
            "board_ms_median": statistics.median(board), "board_ms_max": max(board),
            "kib_median": statistics.median(size) / 1024}


def clicks_per_game(browser: Browser, url: str, clicks: int) -> list[dict[str, Any]]:
    """Every game on a push table and a fetch table (same seed), clicks interleaved."""
    rows = []
    for game in cove.all_games():
        runs = {}
        for mode in MODES:
            table = create(url, game.id, ["human", "human"], 5)
            ctxs, pages = open_seats(browser, url, table, [0, 1], mode)
            runs[mode] = (ctxs, pages, Clicks(url, table, pages, random.Random(7)))
        live = set(MODES)
        for _ in range(clicks):
            for mode in MODES:
                if mode in live and not runs[mode][2].one():
                    live.discard(mode)
        time.sleep(0.1)  # the last click's animation frame
        for mode in MODES:
            ctxs, pages, run = runs[mode]
            times: list[float] = []
            parts: list[list[float]] = []
            for page in pages.values():
                times += page.evaluate("() => window.coveTimings")
                parts += page.evaluate("() => window.coveParts")
            row = {"game": game.id, "mode": mode, "clicks": len(times),
                   "board_clicks": run.board, "list_clicks": run.listed,
                   "median_ms": statistics.median(times), "p90_ms": pct(times, 0.9),
                   "max_ms": max(times)}
            for i, name in enumerate(PARTS):
                row[name + "_ms_median"] = statistics.median(p[i] for p in parts)
            rows.append(row)
            for ctx in ctxs:
                ctx.close()
    return rows


def screenshots(browser: Browser, url: str, out: Path, moves: int) -> list[str]:
    """The lobby, and every game's table as seat P1 sees it at the start, after a few
    moves and at the end (a short game: ``cove.testing.short``), each at a laptop's width
    (the whole page) and on a phone (390 px wide, the first screen)."""
    out.mkdir(parents=True, exist_ok=True)
    saved = []
    ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    lobby = ctx.new_page()
    lobby.goto(url + "/web/")
    lobby.select_option("#game", cove.ids()[0])
    lobby.locator("#create button[type=submit]").click()
    lobby.locator("#created input[readonly]").first.wait_for()
    lobby.locator("#open-tables li").first.wait_for()
    saved.append(_save(lobby, out / "lobby", full_page=True))
    ctx.close()
    for game in cove.all_games():
        table = create(url, game.id, ["human", "human", "easy"], 3)
        ctxs, pages = open_seats(browser, url, table, [0, 1])
        saved += _shoot(browser, url, table, pages[0], out / f"{game.id}-start")
        run = Clicks(url, table, pages, random.Random(11))
        for _ in range(moves):
            if not run.one():
                break
        deadline = time.monotonic() + 30
        now = table_now(url, table)
        while not now["over"] and 0 not in now["to_move"] and time.monotonic() < deadline:
            time.sleep(0.05)  # let the bot and P2 finish: P1 deciding is the picture
            if 1 in now["to_move"]:
                Clicks(url, table, {1: pages[1]}, random.Random(1)).one()
            now = table_now(url, table)
        saved += _shoot(browser, url, table, pages[0], out / f"{game.id}-mid")
        for c in ctxs:
            c.close()
        bots, options = short_game(game.id)
        table = create(url, game.id, ["human", *bots], 5, options)
        ctxs, pages = open_seats(browser, url, table, [0])
        run = Clicks(url, table, pages, random.Random(5))
        while run.one():
            pass
        saved += _shoot(browser, url, table, pages[0], out / f"{game.id}-end")
        for c in ctxs:
            c.close()
    return saved


def _shoot(browser: Browser, url: str, table: dict[str, Any], page: Page,
           stem: Path) -> list[str]:
    """P1's table as ``page`` shows it now (the whole page), and on a phone."""
    moves = table_now(url, table)["moves"]
    page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=moves)
    # from the top: a page scrolled by the clicks would draw its sticky end banner over
    # the middle of a whole-page picture, where no reader sees it
    page.evaluate("window.scrollTo(0, 0)")
    desktop = _save(page, stem, full_page=True)
    phone = browser.new_context(**PHONE)
    phone.add_init_script(RETURNING)
    small = phone.new_page()
    small.goto(seat_url(url, table, 0))
    small.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=moves)
    path = _save(small, stem.with_name(stem.name + "-phone"))
    phone.close()
    return [desktop, path]


JPEG = [False]
"""``--jpeg``: save the screenshots as JPEG (quality 80), a fifth of the PNG's size."""


def _save(page: Page, stem: Path, full_page: bool = False) -> str:
    if JPEG[0]:
        path = stem.with_name(stem.name + ".jpg")
        page.screenshot(path=str(path), full_page=full_page, type="jpeg", quality=80)
    else:
        path = stem.with_name(stem.name + ".png")
        page.screenshot(path=str(path), full_page=full_page)
    return str(path)


RETURNING = "localStorage.setItem('cove.player.later', '1')"
"""A player who has seen the name form and said "Not now": table pages show the table."""

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
                         "is_mobile": True, "has_touch": True}
"""Playwright's iPhone-like screen (the size of its "iPhone 13" device)."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--clicks", type=int, default=30, help="clicks per game and mode "
                    "(default 30)")
    ap.add_argument("--loads", type=int, default=10, help="first loads (default 10)")
    ap.add_argument("--screenshots", type=Path, help="save every game's table here and stop")
    ap.add_argument("--moves", type=int, default=8, help="moves before a screenshot")
    ap.add_argument("--jpeg", action="store_true", help="screenshots as JPEG, not PNG")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(int(args.serve[0]), args.serve[1])
        return 0
    if not Path(CHROMIUM).exists():
        sys.exit(f"no Chromium at {CHROMIUM}: run .ci/chromium.sh (Debian's package)")
    with tempfile.TemporaryDirectory() as tmp:
        url, proc = start_server(Path(tmp) / "cove.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                if args.screenshots is not None:
                    JPEG[0] = args.jpeg
                    for path in screenshots(browser, url, args.screenshots, args.moves):
                        print("saved", path)
                    return 0
                load = first_loads(browser, url, args.loads)
                rows = clicks_per_game(browser, url, args.clicks)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    if args.json:
        print(json.dumps({"first_load": load, "click_to_board": rows}, indent=1))
        return 0
    print(f"first load of a table page ({load['loads']} fresh contexts, "
          f"{load['kib_median']:.0f} KiB with the first websocket message): "
          f"DOMContentLoaded median "
          f"{load['dom_ms_median']:.0f} ms (max {load['dom_ms_max']:.0f}); board drawn "
          f"median {load['board_ms_median']:.0f} ms (max {load['board_ms_max']:.0f})")
    print("click -> board redrawn (ms): median, p90, max; the median of each part: the "
          "update arriving, the board fetched, parsed, swapped in, the next frame; the "
          "server's CPU ms to draw a board. push: the board in the update; fetch: asked "
          "after it (the two interleaved, click by click)")
    print(f"{'game':<18} {'mode':<5} {'clicks':>6} {'board':>5} {'list':>4} {'median':>7} "
          f"{'p90':>6} {'max':>6} {'update':>7} {'fetch':>6} {'parse':>6} {'swap':>6} "
          f"{'frame':>6} {'draw CPU':>8}")
    for r in rows:
        print(f"{r['game']:<18} {r['mode']:<5} {r['clicks']:>6} {r['board_clicks']:>5} "
              f"{r['list_clicks']:>4} {r['median_ms']:>7.1f} {r['p90_ms']:>6.1f} "
              f"{r['max_ms']:>6.1f} " + " ".join(f"{r[n + '_ms_median']:>6.1f}"
                                                for n in PARTS[:-1])
              + f" {r['draw_cpu_ms_median']:>8.1f}")
    by = {(r["game"], r["mode"]): r for r in rows}
    for game in cove.all_games():
        a, b = by.get((game.id, "push")), by.get((game.id, "fetch"))
        if a and b:
            print(f"{game.id:<18} push/fetch median ratio {a['median_ms'] / b['median_ms']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
