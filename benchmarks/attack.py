"""Bounded attacks on a real ``cove serve`` on loopback, and what a player feels meanwhile
(a script, not a timed test).

    .venv/bin/python benchmarks/attack.py [--seconds 8] [--attack NAME ...] [--json]

A server is started as a host would start it (``cove serve`` with its default limits, a
fresh SQLite file). A *victim* plays a normal table through the API, two human seats
moving in turn, and every move's round trip is timed. First a quiet baseline, then each
attack for ``--seconds`` while the victim keeps playing; the attack's own outcome (what
the server answered it) is counted too. Reported per attack: the victim's moves and their
median, p99 and max latency and the requests the server refused it (none, when it is
fair), next to the baseline of the same run. Every attack is
bounded (a fixed number of connections, a fixed rate) and aims only at 127.0.0.1 (and
other loopback addresses, 127.0.0.x, to play many clients).

The attacks reproduce the security test of 6 December 2026 (H1, H2, M1, M3, M4, L7):

- ``budget``: tables of search bots with budgets far past the server's (H1); refused,
  then the most expensive bots-only tables the server allows, all at once;
- ``idle``: hundreds of idle connections, partial headers and partial bodies (H2);
- ``sockets``: hundreds of spectator websockets from one client (H2);
- ``greedy``: bots-only tables of the greediest allowed greedy bots (M1);
- ``ws-moves``: one seat's moves sent as fast as possible over eight websockets (M3);
- ``create``: tables created as fast as possible from 30 loopback addresses (M3);
- ``reads``: boards, tables and websocket ``state`` requests as fast as possible (M4);
- ``bots-only``: random bots-only tables left to play (L7).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cove
from cove.bots.budget import Budget

try:
    import httpx2 as httpx
    from websockets.sync.client import connect

    from cove.serve.hub import Settings
    HAVE_WEB = True
except ImportError:  # the web extra
    HAVE_WEB = False

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def serve(extra: list[str] | None = None, home: Path | None = None) -> Iterator[str]:
    """A real ``cove serve`` on a free port; yields its URL. Its database ``cove.db`` and
    its log ``serve.log`` are in ``home`` (a fresh directory by default)."""
    tmp = str(home) if home is not None else tempfile.mkdtemp(prefix="cove-attack-")
    port = free_port()
    log = open(os.path.join(tmp, "serve.log"), "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "cove", "serve", "--port", str(port),
                             "--db", f"sqlite:///{tmp}/cove.db", *(extra or [])],
                            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(Exception):
                if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start: "
                                   + Path(tmp, "serve.log").read_text()[-2000:])
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def client(base: str, source: str = "127.0.0.99") -> Any:
    """An HTTP client whose connections come from ``source`` (another loopback address:
    to the server, another client than the victim at 127.0.0.1)."""
    return httpx.Client(base_url=base, timeout=30,
                        transport=httpx.HTTPTransport(local_address=source))


def ws_connect(url: str, source: str = "127.0.0.99") -> Any:
    """A websocket to ``url`` from ``source`` (another client than the victim's)."""
    return connect(url, open_timeout=5, source_address=(source, 0))


def victim_game() -> cove.Game:
    """A game two people play in turn (no simultaneous decisions), for the victim."""
    for game in cove.all_games():
        if not game.simultaneous and game.min_players <= 2 <= game.max_players:
            return game
    return cove.all_games()[0]


PAUSE = 0.15
"""Seconds the victim waits between moves: a very quick player, whose reads (two a move)
stay within the server's default read limit for one address (20 a second)."""


@dataclass
class Victim:
    """Two human seats of one table, moving in turn through the API, every move timed."""

    base: str
    game: str
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=30) as http:
            while not self.stop.is_set():
                r = http.post("/api/tables", json={"game": self.game, "players": 2,
                                                   "seats": ["human", "human"]})
                if r.status_code != 201:
                    self.errors[f"create {r.status_code}"] += 1
                    time.sleep(0.5)
                    continue
                table = r.json()
                tokens = [s["token"] for s in table["seats"]]
                self._play(http, table["id"], tokens)

    def _play(self, http: Any, table: str, tokens: list[str]) -> None:
        while not self.stop.is_set():
            g = None
            for token in tokens:
                got = http.get(f"/api/tables/{table}", headers={"Authorization":
                                                                f"Bearer {token}"})
                if got.status_code == 200 and got.json()["legal"]:
                    g, mover = got.json(), token
                    break
            if g is None:
                return  # over (or nothing to do: a new table)
            move = g["legal"][len(self.latencies) % len(g["legal"])]["text"]
            t0 = time.perf_counter()
            r = http.post(f"/api/tables/{table}/actions",
                          json={"token": mover, "action": move, "expect": g["moves"]})
            took = time.perf_counter() - t0
            if r.status_code == 200:
                self.latencies.append(took)
            else:
                self.errors[str(r.status_code)] += 1
            time.sleep(PAUSE)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


# -- the attacks: each runs until ``stop`` is set and returns what the server answered ---
Attack = Callable[[str, threading.Event], Counter[str]]


def budget(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    game = cove.all_games()[-1]
    with client(base) as http:
        for spec in ("mcts:iterations=1000000000,steps=0", "mcts:time=86400",
                     "mcts:scale=1000000", "greedy:samples=1000000"):
            r = http.post("/api/tables", json={"game": game.id, "players": game.max_players,
                                               "seats": [spec] * game.max_players})
            seen[f"over budget: {r.status_code}"] += 1
        for _ in range(4):  # the most expensive tables allowed: every seat a hard bot
            r = http.post("/api/tables", json={"game": game.id, "players": game.max_players,
                                               "seats": ["hard"] * game.max_players})
            seen[f"hard bots-only table: {r.status_code}"] += 1
    stop.wait()
    return seen


def idle(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    port = int(base.rsplit(":", 1)[1])
    socks: list[socket.socket] = []
    for i in range(900):  # 30 clients of 30 connections each
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind((f"127.0.0.{2 + i % 30}", 0))
            s.connect(("127.0.0.1", port))
        except OSError as e:
            seen[f"connect refused: {type(e).__name__}"] += 1
            s.close()
            continue
        kind = i % 3
        with contextlib.suppress(OSError):
            if kind == 1:
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # headers never end
            elif kind == 2:
                s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: "
                          b"application/json\r\nContent-Length: 60000\r\n\r\n{\"ga")
        socks.append(s)
    seen["opened"] = len(socks)
    stop.wait()
    closed = 0
    for s in socks:
        s.setblocking(False)
        try:
            s.recv(4096)  # an answer (408, 429, 503) or the end: the server let go
            closed += 1
        except BlockingIOError:
            pass  # still held open
        except OSError:
            closed += 1
        s.close()
    seen["let go by the server"] = closed
    return seen


def sockets(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    ws_base = base.replace("http://", "ws://")
    with client(base) as http:
        game = victim_game()
        table = http.post("/api/tables", json={"game": game.id, "players": 2,
                                               "seats": ["human", "human"]}).json()
    with contextlib.ExitStack() as held:
        for _ in range(400):
            try:
                ws = held.enter_context(ws_connect(f"{ws_base}/ws/tables/{table['id']}"))
                first = json.loads(ws.recv(timeout=5))
                seen[f"{first.get('type')} {first.get('status', '')}".strip()] += 1
            except Exception as e:  # a refused socket is the point
                seen[f"refused: {type(e).__name__}"] += 1
        stop.wait()
    return seen


def greedy(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    game = cove.all_games()[-1]
    most = Budget.for_seconds(Settings.bot_budget).samples  # the greediest the server allows
    with client(base) as http:
        for samples in (256, most, most):
            r = http.post("/api/tables", json={"game": game.id, "players": game.max_players,
                                               "seats": [f"greedy:samples={samples}"]
                                               * game.max_players})
            seen[f"greedy:samples={samples} table: {r.status_code}"] += 1
    stop.wait()
    return seen


def ws_moves(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    ws_base = base.replace("http://", "ws://")
    with client(base) as http:
        game = victim_game()
        table = http.post("/api/tables", json={"game": game.id, "players": 2,
                                               "seats": ["human", "human"]}).json()
        tokens = [s["token"] for s in table["seats"]]
        g = {}
        for token in tokens:
            g = http.get(f"/api/tables/{table['id']}",
                         headers={"Authorization": f"Bearer {token}"}).json()
            if g["legal"]:
                break
    move = {"type": "action", "action": g["legal"][0]["text"], "expect": g["moves"] + 1}
    with contextlib.ExitStack() as opened:
        socks = [opened.enter_context(ws_connect(f"{ws_base}/ws/tables/{table['id']}?token="
                                              f"{token}")) for _ in range(8)]
        hammer(socks, move, seen, stop)
    return seen


def hammer(socks: list[Any], move: dict[str, Any], seen: Counter[str],
           stop: threading.Event) -> None:
    """Send ``move`` on every socket as fast as they take it, counting the answers."""
    while not stop.is_set():
        for ws in socks:
            with contextlib.suppress(Exception):
                ws.send(json.dumps(move))  # a stale move: refused, but counted first
        for ws in socks:
            with contextlib.suppress(Exception):
                while True:
                    msg = json.loads(ws.recv(timeout=0))
                    seen[f"{msg.get('type')} {msg.get('status', '')}".strip()] += 1
        time.sleep(0.001)


def create(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    game = victim_game()
    body = {"game": game.id, "players": 2, "seats": ["human", "random"]}
    clients = [client(base, f"127.0.0.{2 + i}") for i in range(30)]
    try:
        while not stop.is_set():
            for c in clients:
                try:
                    seen[str(c.post("/api/tables", json=body).status_code)] += 1
                except httpx.HTTPError as e:
                    seen[type(e).__name__] += 1
    finally:
        for c in clients:
            c.close()
    return seen


def reads(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    game = cove.all_games()[-1]
    with client(base) as http:
        table = http.post("/api/tables", json={"game": game.id, "players": 2,
                                               "seats": ["human", "random"]}).json()
        url = f"{base.replace('http://', 'ws://')}/ws/tables/{table['id']}"
        with ws_connect(url) as ws:
            json.loads(ws.recv(timeout=5))  # the first state, sent to every socket
            while not stop.is_set():
                for path in (f"/web/tables/{table['id']}/board",
                             f"/api/tables/{table['id']}"):
                    try:
                        seen[str(http.get(path).status_code)] += 1
                    except httpx.HTTPError as e:
                        seen[type(e).__name__] += 1
                ws.send(json.dumps({"type": "state"}))
                msg = json.loads(ws.recv(timeout=5))
                seen[f"ws {msg.get('type')} {msg.get('status', '')}".strip()] += 1
    return seen


def bots_only(base: str, stop: threading.Event) -> Counter[str]:
    seen: Counter[str] = Counter()
    game = cove.all_games()[0]
    with client(base) as http:
        for _ in range(3):
            r = http.post("/api/tables", json={"game": game.id, "players": game.max_players,
                                               "seats": ["random"] * game.max_players})
            seen[f"bots-only table: {r.status_code}"] += 1
    stop.wait()
    return seen


ATTACKS: dict[str, Attack] = {"budget": budget, "idle": idle, "sockets": sockets,
                              "greedy": greedy, "ws-moves": ws_moves, "create": create,
                              "reads": reads, "bots-only": bots_only}


def phase(base: str, seconds: float, attack: Attack | None) -> dict[str, Any]:
    """The victim plays for ``seconds`` while ``attack`` (if any) runs."""
    victim = Victim(base, victim_game().id)
    stop = threading.Event()
    outcome: Counter[str] = Counter()

    def run_attack() -> None:
        assert attack is not None
        outcome.update(attack(base, stop))

    attacker = threading.Thread(target=run_attack, daemon=True) if attack else None
    if attacker is not None:
        attacker.start()
        time.sleep(min(2.0, seconds / 4))  # the attack in full swing first
    player = threading.Thread(target=victim.run, daemon=True)
    player.start()
    time.sleep(seconds)
    victim.stop.set()
    stop.set()
    player.join(60)
    if attacker is not None:
        attacker.join(60)
    lat = [x * 1000 for x in victim.latencies]
    return {"moves": len(lat), "median_ms": statistics.median(lat) if lat else float("nan"),
            "p99_ms": percentile(lat, 0.99), "max_ms": max(lat, default=float("nan")),
            "victim_errors": dict(victim.errors), "answered": dict(outcome)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=8.0, help="per phase")
    ap.add_argument("--attack", action="append", choices=sorted(ATTACKS),
                    help="an attack to run (repeatable; default: all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not HAVE_WEB:
        print("needs the web extra: pip install -e '.[web]'", file=sys.stderr)
        return 2
    rows: dict[str, dict[str, Any]] = {}
    names = args.attack or list(ATTACKS)
    for name in ["quiet", *names]:
        with serve() as base:  # each attack against a fresh server, after its own baseline
            if name != "quiet":
                rows[f"{name} (quiet)"] = phase(base, args.seconds / 2, None)
            rows[name] = phase(base, args.seconds, None if name == "quiet" else ATTACKS[name])
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'phase':<20}{'moves':>7}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}"
          f"{'refused':>9}  the server answered the attack")
    for name, r in rows.items():
        answered = ", ".join(f"{k} x{v}" for k, v in r["answered"].items())
        refused = sum(r["victim_errors"].values())
        print(f"{name:<20}{r['moves']:>7}{r['median_ms']:>11.1f}{r['p99_ms']:>9.1f}"
              f"{r['max_ms']:>9.1f}{refused:>9}  {answered[:120]}")
    if any(r["victim_errors"] for r in rows.values()):
        print("the victim was refused:", {n: r["victim_errors"] for n, r in rows.items()
                                          if r["victim_errors"]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
