"""Real `cove serve` processes: killed with SIGKILL mid-game and restarted, and two
processes sharing one PostgreSQL database."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

import cove
from cove.core.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
SERVE_WITH_TOY = ("import sys\n"
                  "from cove.core import registry\n"
                  "registry.REGISTRY['toy'] = 'cove.example_game'\n"
                  "from cove.cli import main\n"
                  "sys.exit(main(['serve'] + sys.argv[1:]))")
"""``cove serve`` with the tutorial game registered as ``toy`` (as tests/conftest.py
registers it in this process)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(db: str, log: Path, *flags: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``cove serve`` (with the toy registered) on a free port, with ``flags``; its
    output appended to ``log``."""
    port = free_port()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", SERVE_WITH_TOY, "--port", str(port), "--db", db, *flags],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, proc, log.read_text)
        yield base, proc
    finally:
        stop(proc)


def wait_until_up(base: str, proc: subprocess.Popen[bytes], output: Callable[[], str]) -> None:
    """Wait (at most a minute) until the server at ``base`` answers; AssertionError with
    its ``output()`` when it exits or never answers."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx2.get(base + "/api/games", timeout=2).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AssertionError("the server did not start:\n" + output())
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate ``proc`` if it runs, and kill it if it has not gone in 10 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def get_json(http: Any, url: str, **params: Any) -> Any:
    """A GET's JSON, waiting as a real client does when the server says 429 (reads are
    limited per client: 20 a second by default)."""
    for _ in range(200):
        r = http.get(url, params=params or None)
        if r.status_code != 429:
            assert r.status_code == 200, r.text
            return r.json()
        time.sleep(float(r.headers.get("retry-after", "0.2")) or 0.2)
    raise AssertionError(f"{url}: rate limited for too long")


def human_moves(base: str, table: str, token: str, count: int, rng: Rng,
                sent: list[tuple[int, str]]) -> dict[str, Any]:
    """Make ``count`` moves for one seat (waiting for the bots between them)."""
    g: dict[str, Any] = {}
    with httpx2.Client(base_url=base, timeout=10) as http:
        while count > 0:
            g = get_json(http, f"/api/tables/{table}", token=token)
            if g["over"]:
                break
            if not g["legal"]:
                time.sleep(0.01)
                continue
            text = g["legal"][rng.below(len(g["legal"]))]["text"]
            r = http.post(f"/api/tables/{table}/actions",
                          json={"token": token, "action": text, "expect": g["moves"]})
            if r.status_code == 429:  # the default rate limit: a real client waits too
                time.sleep(0.2)
                continue
            assert r.status_code == 200, r.text
            sent.append((g["moves"], text))
            count -= 1
            g = r.json()
    return g


def test_kill_9_mid_game_then_restart_and_finish(tmp_path: Path, toy_registered: str) -> None:
    db = f"sqlite:///{tmp_path / 'cove.db'}"
    log = tmp_path / "server.log"
    rng = Rng(5)
    sent: list[tuple[int, str]] = []
    with server(db, log) as (base, proc):
        body = {"game": "toy", "players": 3, "seats": ["human", "random", "random"],
                "seed": 8, "options": {"plays": 12}}  # the human seat moves 4 times
        t = httpx2.post(base + "/api/tables", json=body).json()
        table, token = t["id"], t["seats"][0]["token"]
        acked = human_moves(base, table, token, 2, rng, sent)
        os.kill(proc.pid, signal.SIGKILL)  # right after an acknowledged move
        proc.wait()
    assert sent and acked["moves"] == sent[-1][0] + 1
    with server(db, log) as (base, _):
        g = httpx2.get(f"{base}/api/tables/{table}").json()
        assert g["moves"] >= acked["moves"]
        human_moves(base, table, token, 10**6, rng, sent)
        deadline = time.monotonic() + 60
        while not (g := get_json(httpx2, f"{base}/api/tables/{table}"))["over"]:
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.05)
        record = httpx2.get(f"{base}/api/tables/{table}/record").json()
    for n, text in sent:  # every acknowledged move is in the record, where it was made
        assert record["actions"][n] == [0, text]
    assert cove.replay(record).scores() == g["scores"]


def test_two_processes_share_tables_through_postgres(tmp_path: Path) -> None:
    url = os.environ.get("COVE_TEST_POSTGRES")
    if not url:
        pytest.skip("COVE_TEST_POSTGRES is not set: no PostgreSQL server for this run "
                    "(.ci/run starts one)")
    from tests.serve.conftest import reset_postgres

    reset_postgres(url)
    log = tmp_path / "server.log"
    with server(url, log) as (a, _), server(url, log) as (b, _):
        body = {"game": "toy", "players": 2, "seats": ["human", "human"], "seed": 3,
                "options": {"bidding": False}}  # one seat to move at a time
        t = httpx2.post(a + "/api/tables", json=body).json()
        table = t["id"]
        spectate = httpx2.get(f"{b}/api/tables/{table}").json()
        seat = spectate["to_move"][0]
        token = t["seats"][seat]["token"]
        g = httpx2.get(f"{a}/api/tables/{table}", params={"token": token}).json()
        ws_url = b.replace("http", "ws") + f"/ws/tables/{table}"
        with connect(ws_url, open_timeout=10) as ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["moves"] == g["moves"]
            r = httpx2.post(f"{a}/api/tables/{table}/actions",
                            json={"token": token, "action": g["legal"][0]["text"],
                                  "expect": g["moves"]})
            assert r.status_code == 200
            pushed = json.loads(ws.recv(timeout=10))  # told by NOTIFY from process A
            assert pushed["type"] == "update" and pushed["moves"] == g["moves"] + 1
        # the same move sent to both processes at once: exactly one is applied
        g = httpx2.get(f"{a}/api/tables/{table}").json()
        seat = g["to_move"][0]
        token = t["seats"][seat]["token"]
        mine = httpx2.get(f"{b}/api/tables/{table}", params={"token": token}).json()
        codes: list[int] = []

        def post(base: str, i: int) -> None:
            act = mine["legal"][i % len(mine["legal"])]["text"]
            codes.append(httpx2.post(f"{base}/api/tables/{table}/actions",
                                     json={"token": token, "action": act,
                                           "expect": mine["moves"]}, timeout=10).status_code)

        threads = [threading.Thread(target=post, args=(base, i))
                   for i, base in enumerate((a, b, a, b))]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(codes) == [200, 409, 409, 409]
        ga = httpx2.get(f"{a}/api/tables/{table}").json()
        gb = httpx2.get(f"{b}/api/tables/{table}").json()
        assert ga["moves"] == gb["moves"] == mine["moves"] + 1
        assert ga["view"] == gb["view"]


def test_a_busy_port_fails_in_one_line_before_the_database_is_created(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from cove.cli import main

    monkeypatch.chdir(tmp_path)   # the default --db is ./cove.db
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "uvicorn" not in err.lower(), err
    assert f"port {port} on 127.0.0.1 is busy" in err and "--port" in err, err
    assert list(tmp_path.iterdir()) == []   # no cove.db, no -wal, no -shm
    assert main(["serve", "--host", "no-such-host.invalid", "--port", "8765"]) == 2
    assert "--host no-such-host.invalid: not an address" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
