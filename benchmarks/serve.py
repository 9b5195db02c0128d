"""`cove serve` under load over loopback (a script, not a test).

1. Latency: ``--tables`` tables (default 200) of ``--game`` with one human seat played by
   this script and random bots in the others, each with two websocket clients (the human
   seat and a spectator). For every human move the time from sending its POST to the
   moment *every* connected client of that table has the update for that move (bots
   think after the update is pushed, so their thinking is excluded); p50, p99 and max.
   Also moves applied per second (human and bot moves) over the run. All tables are
   created and connected before the clock starts. The person at each table thinks
   ``--think`` seconds on average (default 5) before a move, as people do; with
   ``--think 0`` every table moves as fast as the server answers, which measures the
   server saturated (moves/s), where each move waits behind all 200 tables' moves.
2. Restart: ``--stored`` tables (default 1000, each a few moves in) in a fresh database;
   the server is stopped and started again: the time from starting the process to its
   answering requests, next to the same start on an empty database, then the time to GET
   every stored table once (tables a bot is to move at are restored before serving, the
   others on their first request), so start + GETs is the whole restore; and the server's
   CPU seconds for all of it, which unlike the times do not grow with the machine's load.

    .venv/bin/python benchmarks/serve.py                     # both parts, SQLite
    .venv/bin/python benchmarks/serve.py --seconds 10 --tables 50 --stored 200
    .venv/bin/python benchmarks/serve.py --db postgresql://cove:cove@127.0.0.1/cove_bench
    .venv/bin/python benchmarks/serve.py --baseline /tmp/old/src --rounds 2

``--baseline DIR`` runs the same measurements against a second server whose ``cove`` comes
from DIR (e.g. ``git archive main src | tar -x -C /tmp/old``), interleaved with this one
round by round (A B A B ...), so both see the same machine load; each side's server CPU
seconds are read from /proc, and the load average is printed with the figures.

The server runs in its own process with the rate limits raised (one client machine makes
all the moves). Needs the web extra (python3 dev.py bench does not install it: use
python3 dev.py test or pip install -e '.[web]'); without it the script says so and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cove

try:
    import httpx2
    import orjson
    import websockets
    HAVE_WEB = True
except ImportError:  # python3 dev.py bench installs only the bench extra
    HAVE_WEB = False

SERVER = """
import sys, uvicorn
from cove.serve import Settings, create_app
settings = Settings(db=sys.argv[2], rate=1e6, burst=10**6, create_rate=1e6,
                    client_websockets=10**6, max_websockets=10**6, max_bots=10**6,
                    max_tables=10**6, client_connections=10**6, max_connections=10**6,
                    create_burst=10**6, bot_workers=2)
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning", timeout_keep_alive=300, backlog=4096,
            ws_max_size=settings.max_body, ws_per_message_deflate=False)
"""


def arun(coro: Any) -> Any:
    """Run the client on uvloop when installed (uvicorn[standard] brings it), as the
    server does: the client shares the machine, so its own cost matters."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: str, src: str | None = None) -> tuple[subprocess.Popen[bytes], str, float]:
    """Start a server (with ``cove`` from ``src`` when given); returns it, its URL and the
    seconds until it answered."""
    port = free_port()
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), db], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx2.get(base + "/api/tables?limit=1", timeout=30).status_code == 200:
                return proc, base, time.perf_counter() - t0
        except httpx2.HTTPError:
            pass
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            sys.exit(f"the server did not start:\n{err[-2000:]}")
        time.sleep(0.02)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(proc: subprocess.Popen[bytes]) -> float:
    """Stop a server; returns the CPU seconds it used."""
    used = cpu_seconds(proc.pid)
    proc.terminate()
    proc.wait(30)
    return used


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Http:
    """One keep-alive HTTP/1.1 connection for one table's moves: a few lines of asyncio
    instead of a general client, whose pool costs more CPU than the server's work under
    test (this client shares the machine with the server)."""

    def __init__(self, base: str) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None or self.reader is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = b"" if body is None else json.dumps(body).encode()
        self.writer.write(f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                          f"Content-Type: application/json\r\nContent-Length: {len(data)}"
                          "\r\n\r\n".encode() + data)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, orjson.loads(await self.reader.readexactly(length))

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Clock:
    """Every table is created and connected first; then all play from ``go`` for
    ``seconds`` (so setting up 200 tables is not counted as playing time)."""

    def __init__(self, tables: int, seconds: float, think: float) -> None:
        self.waiting = tables
        self.seconds = seconds
        self.think = think
        self.go = asyncio.Event()
        self.start = self.deadline = 0.0
        self.moves_at_start = 0

    async def ready(self, moves: int) -> None:
        self.moves_at_start += moves
        self.waiting -= 1
        if self.waiting == 0:
            self.start = time.perf_counter()
            self.deadline = self.start + self.seconds
            self.go.set()
        await self.go.wait()


async def newest(ws: Any, latest: dict[str, Any]) -> dict[str, Any]:
    """The last of the messages already waiting on ``ws`` (``latest`` when none)."""
    while True:
        try:
            latest = orjson.loads(await asyncio.wait_for(ws.recv(), 0.001))
        except TimeoutError:
            return latest


async def play_table(base: str, game: str, players: int, seed: int,
                     clock: Clock, latencies: list[float]) -> int:
    body = {"game": game, "players": players, "seed": seed,
            "seats": ["human"] + ["random"] * (players - 1)}
    http = Http(base)
    try:
        return await play(http, base, body, seed, clock, latencies)
    finally:
        await http.close()


async def play(http: Http, base: str, body: dict[str, Any], seed: int, clock: Clock,
               latencies: list[float]) -> int:
    _, t = await http.request("POST", "/api/tables", body)
    tid, token = t["id"], t["seats"][0]["token"]
    ws_base = base.replace("http", "ws")
    async with websockets.connect(f"{ws_base}/ws/tables/{tid}?token={token}",
                                  open_timeout=120) as mine, \
            websockets.connect(f"{ws_base}/ws/tables/{tid}", open_timeout=120) as spectator:
        await spectator.recv()
        latest = orjson.loads(await mine.recv())
        await clock.ready(latest["moves"])
        latest = await newest(mine, latest)  # the bots' moves made meanwhile
        rng = random.Random(seed)
        while not latest["over"] and time.perf_counter() < clock.deadline:
            if not latest["legal"]:
                latest = orjson.loads(await mine.recv())
                continue
            if clock.think:  # a person thinks a while (0.5 to 1.5 times --think)
                await asyncio.sleep(clock.think * rng.uniform(0.5, 1.5))
                latest = await newest(mine, latest)
                if time.perf_counter() >= clock.deadline:
                    break
            n = latest["moves"]
            action = latest["legal"][(seed + n) % len(latest["legal"])]["text"]
            t0 = time.perf_counter()
            status, reply = await http.request("POST", f"/api/tables/{tid}/actions",
                                               {"token": token, "action": action, "expect": n})
            if status not in (200, 409):
                raise RuntimeError(f"move refused: {reply}")
            arrived = []
            for ws in (mine, spectator):
                while True:
                    msg = orjson.loads(await ws.recv())
                    if msg.get("moves", -1) > n:
                        arrived.append(time.perf_counter())
                        break
                if ws is mine:
                    latest = msg
            latencies.append(max(arrived) - t0)
            latest = await newest(mine, latest)  # the bots' moves already pushed
            if not latest["legal"] and not latest["over"]:
                latest = orjson.loads(await mine.recv())
    _, final = await http.request("GET", f"/api/tables/{tid}")
    moves: int = final["moves"]
    return moves


async def latency_run(base: str, args: argparse.Namespace) -> dict[str, Any]:
    latencies: list[float] = []
    cpu0 = time.process_time()
    clock = Clock(args.tables, args.seconds, args.think)
    moves = await asyncio.gather(*(
        play_table(base, args.game, args.players, i, clock, latencies)
        for i in range(args.tables)))
    elapsed = time.perf_counter() - clock.start
    played = sum(moves) - clock.moves_at_start
    return {"tables": args.tables, "human_moves": len(latencies),
            "p50_ms": 1000 * statistics.median(latencies), "p99_ms": 1000 * pct(latencies, 0.99),
            "max_ms": 1000 * max(latencies), "moves": played, "seconds": elapsed,
            "moves_per_s": played / elapsed, "latencies": latencies,
            "client_cpu_s": time.process_time() - cpu0, "load": os.getloadavg()[0]}


async def fill(base: str, args: argparse.Namespace) -> list[str]:
    limits = httpx2.Limits(max_connections=20)
    async with httpx2.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        sem = asyncio.Semaphore(20)
        ids: list[str] = []

        async def one(i: int) -> None:
            async with sem:
                body = {"game": args.game, "players": args.players, "seed": i,
                        "seats": ["human"] + ["random"] * (args.players - 1)}
                r = await http.post("/api/tables", json=body)
                t = r.json()
                ids.append(t["id"])
                token = t["seats"][0]["token"]
                for _ in range(3):  # a few human moves; the bots answer each
                    for _ in range(200):
                        g = (await http.get(f"/api/tables/{t['id']}",
                                            params={"token": token})).json()
                        if g["legal"] or g["over"]:
                            break
                        await asyncio.sleep(0.01)
                    if g["over"]:
                        return
                    await http.post(f"/api/tables/{t['id']}/actions",
                                    json={"token": token, "action": g["legal"][0]["text"]})

        await asyncio.gather(*(one(i) for i in range(args.stored)))
    return ids


async def fetch_all(base: str, ids: list[str]) -> float:
    """Seconds to GET every table once, over 20 connections (each table is restored in
    the background or on its first request)."""
    todo = list(ids)

    async def worker() -> None:
        http = Http(base)
        try:
            while todo:
                tid = todo.pop()
                status, reply = await http.request("GET", f"/api/tables/{tid}")
                assert status == 200, reply
        finally:
            await http.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(20)))
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--game", default=cove.ids()[-1])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--stored", type=int, default=1000)
    ap.add_argument("--db", help="database URL (default: a fresh SQLite file per part); "
                    "a PostgreSQL database is emptied first")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--baseline", metavar="DIR", help="also measure a server whose cove "
                    "package is in DIR (its src folder), interleaved with this one")
    ap.add_argument("--rounds", type=int, default=1, help="latency runs per side")
    ap.add_argument("--think", type=float, default=5.0, help="seconds a person thinks "
                    "before a move, on average (0: move at once, which measures the "
                    "server saturated: latency is then the queue of 200 tables)")
    args, _ = ap.parse_known_args()  # python3 dev.py bench passes every script its args
    if not HAVE_WEB:
        print("benchmarks/serve.py: skipped, the web extra is not installed "
              "(pip install -e '.[web]')")
        return 0
    sides: list[tuple[str, str | None]] = [("this", None)]
    if args.baseline:
        sides.insert(0, ("baseline", str(Path(args.baseline).resolve())))
    out: dict[str, Any] = {name: {"rounds": []} for name, _ in sides}
    with tempfile.TemporaryDirectory() as tmp:
        def fresh(name: str) -> str:
            if args.db is None:
                path = Path(tmp) / name
                for extra in ("", "-wal", "-shm"):
                    Path(f"{path}{extra}").unlink(missing_ok=True)
                return f"sqlite:///{path}"
            if args.db.startswith("postgres"):
                import psycopg

                with psycopg.connect(args.db, autocommit=True) as conn:
                    conn.execute("DROP TABLE IF EXISTS cove_moves, cove_tables, cove_players")
            return str(args.db)

        for _ in range(args.rounds):  # A B A B: both sides under the same load
            for name, src in sides:
                proc, base, _ = start(fresh("latency.db"), src)
                try:
                    lat = arun(latency_run(base, args))
                finally:
                    lat["server_cpu_s"] = stop(proc)
                out[name]["rounds"].append(lat)
        if args.stored:
            db = fresh("restart.db")
            proc, base, empty = start(db)
            try:
                ids = arun(fill(base, args))
            finally:
                stop(proc)
            for name, src in sides:
                copy = db
                if args.db is None:  # each side restarts from the same stored tables
                    copy = fresh(f"restart-{name}.db")
                    shutil.copy(db[len("sqlite:///"):], copy[len("sqlite:///"):])
                proc, base, restart = start(copy, src)
                try:
                    every = arun(fetch_all(base, ids))
                finally:
                    cpu = stop(proc)
                out[name]["restart"] = {"stored": args.stored, "start_empty_s": empty,
                                        "restart_s": restart, "then_every_table_s": every,
                                        "server_cpu_s": cpu, "load": os.getloadavg()[0]}
    for name, _ in sides:
        rounds = out[name]["rounds"]
        if not rounds:  # --rounds 0: the restart only
            continue
        every_latency = [x for r in rounds for x in r.pop("latencies")]
        moves = sum(r["moves"] for r in rounds)
        out[name]["latency"] = {
            "tables": args.tables, "human_moves": len(every_latency),
            "p50_ms": 1000 * statistics.median(every_latency),
            "p99_ms": 1000 * pct(every_latency, 0.99), "max_ms": 1000 * max(every_latency),
            "moves": moves, "seconds": sum(r["seconds"] for r in rounds),
            "moves_per_s": moves / sum(r["seconds"] for r in rounds),
            "server_cpu_ms_per_move": 1000 * sum(r["server_cpu_s"] for r in rounds) / moves,
            "load": [round(r["load"], 1) for r in rounds]}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    for name, src in sides:
        print(f"[{name}{'' if src is None else ' ' + src}]")
        lat = out[name].get("latency")
        if lat:
            summary(lat, args)
        rs = out[name].get("restart")
        if rs:
            print(f"  restart with {rs['stored']} stored tables: {rs['restart_s']:.2f} s to "
                  f"serving (an empty database: {rs['start_empty_s']:.2f} s), then "
                  f"{rs['then_every_table_s']:.2f} s to GET every table (each restored on "
                  f"first use); server CPU for all of it "
                  f"{rs['server_cpu_s']:.2f} s; load average {rs['load']:.1f}")
    return 0


def summary(lat: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"  {lat['tables']} tables, {os.cpu_count()} cores, think {args.think:g} s, "
          f"{args.rounds} round(s): {lat['human_moves']} human moves, POST -> every "
          f"client's update p50 {lat['p50_ms']:.1f} ms, p99 {lat['p99_ms']:.1f} ms, "
          f"max {lat['max_ms']:.1f} ms")
    print(f"  moves applied: {lat['moves']} in {lat['seconds']:.1f} s = "
          f"{lat['moves_per_s']:.0f} moves/s (human and bot); server CPU "
          f"{lat['server_cpu_ms_per_move']:.2f} ms per move; load average at the end "
          f"of each round: {lat['load']}")


if __name__ == "__main__":
    sys.exit(main())
