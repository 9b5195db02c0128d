"""`cove serve` under load over loopback (a script, not a test).

1. Latency: ``--tables`` tables (default 200) of ``--game`` with one human seat played by
   this script and random bots in the others, each with two websocket clients (the human
   seat and a spectator). For every human move the time from sending its POST to the
   moment *every* connected client of that table has the update for that move (bots
   think after the update is pushed, so their thinking is excluded); p50, p99 and max.
   Also moves applied per second (human and bot moves) over the run.
2. Restart: ``--stored`` tables (default 1000, each a few moves in) in a fresh database;
   the server is stopped and started again: the time from starting the process to its
   answering requests (tables a bot is to move at are restored before it serves), next to
   the same start on an empty database, then the time to GET every stored table once
   (the others are restored on first use), so start + GETs is the whole restore.

    .venv/bin/python benchmarks/serve.py                     # both parts, SQLite
    .venv/bin/python benchmarks/serve.py --seconds 10 --tables 50 --stored 200
    .venv/bin/python benchmarks/serve.py --db postgresql://cove:cove@127.0.0.1/cove_bench

The server runs in its own process with the rate limits raised (one client machine makes
all the moves). Needs the web extra (python3 dev.py bench does not install it: use
python3 dev.py test or pip install -e '.[web]'); without it the script says so and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    import httpx2
    import websockets
    HAVE_WEB = True
except ImportError:  # python3 dev.py bench installs only the bench extra
    HAVE_WEB = False

SERVER = """
import sys, uvicorn
from cove.serve import Settings, create_app
settings = Settings(db=sys.argv[2], rate=1e6, burst=10**6, create_rate=1e6,
                    create_burst=10**6, bot_workers=2)
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning", timeout_keep_alive=300, backlog=4096,
            ws_max_size=settings.max_body, ws_per_message_deflate=False)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: str) -> tuple[subprocess.Popen[bytes], str, float]:
    """Start a server; returns it, its URL and the seconds until it answered."""
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), db],
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


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(30)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play_table(http: Any, base: str, game: str, players: int, seed: int,
                     deadline: float, latencies: list[float]) -> int:
    body = {"game": game, "players": players, "seed": seed,
            "seats": ["human"] + ["random"] * (players - 1)}
    t = (await http.post("/api/tables", json=body)).json()
    tid, token = t["id"], t["seats"][0]["token"]
    ws_base = base.replace("http", "ws")
    async with websockets.connect(f"{ws_base}/ws/tables/{tid}?token={token}",
                                  open_timeout=120) as mine, \
            websockets.connect(f"{ws_base}/ws/tables/{tid}", open_timeout=120) as spectator:
        latest = json.loads(await mine.recv())
        await spectator.recv()
        while not latest["over"] and time.perf_counter() < deadline:
            if not latest["legal"]:
                latest = json.loads(await mine.recv())
                continue
            n = latest["moves"]
            action = latest["legal"][(seed + n) % len(latest["legal"])]["text"]
            t0 = time.perf_counter()
            try:
                r = await http.post(f"/api/tables/{tid}/actions",
                                    json={"token": token, "action": action, "expect": n})
            except httpx2.TransportError:  # a dropped connection: expect makes a retry safe
                r = await http.post(f"/api/tables/{tid}/actions",
                                    json={"token": token, "action": action, "expect": n})
            if r.status_code not in (200, 409):
                raise RuntimeError(f"move refused: {r.text}")
            arrived = []
            for ws in (mine, spectator):
                while True:
                    msg = json.loads(await ws.recv())
                    if msg.get("moves", -1) > n:
                        arrived.append(time.perf_counter())
                        break
                if ws is mine:
                    latest = msg
            latencies.append(max(arrived) - t0)
            # catch up with the bots' moves already pushed to this seat
            while True:
                try:
                    latest = json.loads(await asyncio.wait_for(mine.recv(), 0.001))
                except TimeoutError:
                    break
            if not latest["legal"] and not latest["over"]:
                latest = json.loads(await mine.recv())
    final = (await http.get(f"/api/tables/{tid}")).json()
    moves: int = final["moves"]
    return moves


async def latency_run(base: str, args: argparse.Namespace) -> dict[str, Any]:
    latencies: list[float] = []
    limits = httpx2.Limits(max_connections=args.tables, max_keepalive_connections=args.tables)
    async with httpx2.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        t0 = time.perf_counter()
        deadline = t0 + args.seconds
        moves = await asyncio.gather(*(
            play_table(http, base, args.game, args.players, i, deadline, latencies)
            for i in range(args.tables)))
        elapsed = time.perf_counter() - t0
    return {"tables": args.tables, "human_moves": len(latencies),
            "p50_ms": 1000 * statistics.median(latencies), "p99_ms": 1000 * pct(latencies, 0.99),
            "max_ms": 1000 * max(latencies), "moves": sum(moves), "seconds": elapsed,
            "moves_per_s": sum(moves) / elapsed}


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
    """Seconds to GET every table once (each is restored on its first request)."""
    limits = httpx2.Limits(max_connections=20)
    async with httpx2.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        sem = asyncio.Semaphore(20)

        async def one(tid: str) -> None:
            async with sem:
                r = await http.get(f"/api/tables/{tid}")
                assert r.status_code == 200, r.text

        t0 = time.perf_counter()
        await asyncio.gather(*(one(t) for t in ids))
        return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--game", default="tricky-tides")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--stored", type=int, default=1000)
    ap.add_argument("--db", help="database URL (default: a fresh SQLite file per part); "
                    "a PostgreSQL database is emptied first")
    ap.add_argument("--json", action="store_true")
    args, _ = ap.parse_known_args()  # python3 dev.py bench passes every script its args
    if not HAVE_WEB:
        print("benchmarks/serve.py: skipped, the web extra is not installed "
              "(pip install -e '.[web]')")
        return 0
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        def fresh(name: str) -> str:
            if args.db is None:
                return f"sqlite:///{Path(tmp) / name}"
            if args.db.startswith("postgres"):
                import psycopg

                with psycopg.connect(args.db, autocommit=True) as conn:
                    conn.execute("DROP TABLE IF EXISTS cove_moves, cove_tables")
            return str(args.db)

        proc, base, _ = start(fresh("latency.db"))
        try:
            out["latency"] = asyncio.run(latency_run(base, args))
        finally:
            stop(proc)
        db = fresh("restart.db")
        proc, base, empty = start(db)
        try:
            ids = asyncio.run(fill(base, args))
        finally:
            stop(proc)
        proc, base, restart = start(db)
        try:
            every = asyncio.run(fetch_all(base, ids))
        finally:
            stop(proc)
        out["restart"] = {"stored": args.stored, "start_empty_s": empty,
                          "restart_s": restart, "then_every_table_s": every}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    lat, rs = out["latency"], out["restart"]
    print(f"{lat['tables']} tables, {os.cpu_count()} cores: {lat['human_moves']} human moves, "
          f"POST -> every client's update p50 {lat['p50_ms']:.1f} ms, "
          f"p99 {lat['p99_ms']:.1f} ms, max {lat['max_ms']:.1f} ms")
    print(f"moves applied: {lat['moves']} in {lat['seconds']:.1f} s = "
          f"{lat['moves_per_s']:.0f} moves/s (human and bot)")
    print(f"restart with {rs['stored']} stored tables: {rs['restart_s']:.2f} s to serving "
          f"(an empty database: {rs['start_empty_s']:.2f} s), then "
          f"{rs['then_every_table_s']:.2f} s to GET every table (each restored on first use)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
