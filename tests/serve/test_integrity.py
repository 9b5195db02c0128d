"""What the server does when its database fails or holds damaged data, and the seed's
commitment: a failed write is a 503 with Retry-After that changes nothing; a database the
server cannot write is refused at start-up in one line; a damaged table is quarantined
while the others are served; a snapshot that fails a check is rebuilt from the moves; the
seed stays secret until the game ends, then opens the commitment published at creation."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import pwd
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient
from websockets.sync.client import connect

import cove
from cove.serve.hub import ApiError, GroupCommit
from cove.serve.store import Move, SqliteStore, open_store
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of
from tests.serve.test_process import ROOT, SERVE_WITH_TOY, free_port, stop, wait_until_up
from tests.serve.test_robust import stored_table

FAST = {"rate": 1e6, "burst": 10**6}
TURNS = {"bidding": False, "plays": 12}
"""The toy without its simultaneous bid: one seat to move at a time, for as many moves
as its cards last (10 for two)."""


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    """Every table here is of the toy."""
    return toy_registered


@pytest.fixture
def short_snapshots(monkeypatch: pytest.MonkeyPatch) -> int:
    """A snapshot every 4 moves (not every 32), so that the toy's short games pass one."""
    import cove.serve.hub as hub

    monkeypatch.setattr(hub, "SNAPSHOT_EVERY", 4)
    return 4


def sql(url: str, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run one statement on the server's database behind its back (``?`` placeholders)."""
    if url.startswith("sqlite:///"):
        db = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            with db:
                return db.execute(statement, args).fetchall()
        finally:
            db.close()
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(statement.replace("?", "%s"), args)  # type: ignore[arg-type]
        return cur.fetchall() if cur.description else []


def two_humans(client: TestClient, seed: int | None = 11) -> dict[str, Any]:
    return new_table(client, "toy", 2, ["human", "human"], seed=seed, options=TURNS)


def move(client: TestClient, table: dict[str, Any]) -> tuple[int, str]:
    """One move by the seat to move (its first legal move); returns (move number, text)."""
    g = client.get(f"/api/tables/{table['id']}").json()
    token = token_of(table, g["to_move"][0])
    mine = client.get(f"/api/tables/{table['id']}", params={"token": token}).json()
    text = mine["legal"][0]["text"]
    r = client.post(f"/api/tables/{table['id']}/actions",
                    json={"token": token, "action": text, "expect": mine["moves"]})
    assert r.status_code == 200, r.text
    return mine["moves"], text


def views(client: TestClient, table: dict[str, Any]) -> list[dict[str, Any]]:
    """What the spectator and each seat are sent for the table now."""
    url = f"/api/tables/{table['id']}"
    out = [client.get(url).json()]
    for seat in (0, 1):
        out.append(client.get(url, params={"token": token_of(table, seat)}).json())
    return out


# -- damaged tables --------------------------------------------------------------------------
DAMAGE = {
    "options": "UPDATE cove_tables SET options = 'nope' WHERE id = ?",
    "seats": "UPDATE cove_tables SET seats = '5' WHERE id = ?",
    "game": "UPDATE cove_tables SET game = 'no-such-game' WHERE id = ?",
    "move": "UPDATE cove_moves SET action = 'nonsense' WHERE table_id = ? AND n = 0",
    "moves": "UPDATE cove_tables SET moves = 7, snap_moves = 0 WHERE id = ?",
}
"""Rows no server could restore: each is quarantined alone."""


def test_damaged_tables_are_quarantined_and_the_others_served(
        db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Every table below is one a bot is to move at, so the server restores it as it
    starts: a damaged one used to stop the start-up of the whole server."""
    with make_client(db_url, **FAST) as client:
        healthy = [two_humans(client) for _ in range(2)]
        garbled = two_humans(client)  # its snapshot is not JSON: rebuilt from its moves
        damaged = {kind: two_humans(client) for kind in DAMAGE}
        if db_url.startswith("sqlite"):
            damaged["utf8"] = two_humans(client)
        for t in [*healthy, garbled, *damaged.values()]:
            move(client, t)
            move(client, t)
        before = {t["id"]: views(client, t) for t in [*healthy, garbled]}
    sql(db_url, "UPDATE cove_tables SET bot_turn = 1")
    sql(db_url, "UPDATE cove_tables SET state = '{garbage' WHERE id = ?", garbled["id"])
    for kind, statement in DAMAGE.items():
        sql(db_url, statement, damaged[kind]["id"])
    if "utf8" in damaged:  # bytes that are not UTF-8 in a text column
        sql(db_url, "UPDATE cove_tables SET seats = CAST(X'5B7BFF' AS TEXT) WHERE id = ?",
            damaged["utf8"]["id"])
    caplog.set_level(logging.INFO, logger="cove.serve")
    with make_client(db_url, **FAST) as client:  # starts: it used to exit here
        for t in [*healthy, garbled]:
            assert views(client, t) == before[t["id"]]
            move(client, t)
        for kind, t in damaged.items():
            r = client.get(f"/api/tables/{t['id']}")
            assert r.status_code == 500, (kind, r.text)
            assert r.json()["error"] == "quarantined"
            assert "quarantined" in r.json()["reason"] and "other tables" in r.json()["reason"]
            r = client.post(f"/api/tables/{t['id']}/actions",
                            json={"token": token_of(t, 0), "action": "x"})
            assert r.status_code == 500 and r.json()["error"] == "quarantined"
        listed = client.get("/api/tables", params={"status": "all"})
        assert listed.status_code == 200
        ids = {x["id"] for x in listed.json()["tables"]}
        assert {t["id"] for t in [*healthy, garbled]} <= ids
        assert not ids & {t["id"] for t in damaged.values()}
        assert client.post("/api/tables", json={"game": "toy"}).status_code == 201
    logged = caplog.text
    for kind, t in damaged.items():
        assert re.search(f"table {re.escape(t['id'])} is quarantined: .+", logged), kind
    assert f"table {garbled['id']}: its snapshot is not trusted" in logged
    assert "3 tables where a bot is to move" in logged and f"{len(damaged)} quarantined" in logged


def test_tables_are_read_one_by_one_when_reading_them_together_fails(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A damaged page of the file fails the query that reads every table a bot is to move
    at; the server then reads them one by one and quarantines only the one that fails."""
    with make_client(sqlite_url, **FAST) as client:
        good, bad = two_humans(client), two_humans(client)
        move(client, good)
    sql(sqlite_url, "UPDATE cove_tables SET bot_turn = 1")
    real_tables, real_load = SqliteStore.tables, SqliteStore.load

    def tables(self: SqliteStore, **kw: Any) -> Any:
        if kw.get("with_state"):
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_tables(self, **kw)

    def load(self: SqliteStore, table_id: str) -> Any:
        if table_id == bad["id"]:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_load(self, table_id)

    monkeypatch.setattr(SqliteStore, "tables", tables)
    monkeypatch.setattr(SqliteStore, "load", load)
    caplog.set_level(logging.INFO, logger="cove.serve")
    with make_client(sqlite_url, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert good["id"] in hub.tables  # restored as the server started
        assert "malformed" in hub.quarantined[bad["id"]]
        assert client.get(f"/api/tables/{good['id']}").json()["moves"] == 1
        assert client.get(f"/api/tables/{bad['id']}").json()["error"] == "quarantined"
    assert "cannot be read together" in caplog.text


# -- snapshots -------------------------------------------------------------------------------
def tamper(url: str, table_id: str, how: str, other: str) -> None:
    """Spoil the stored snapshot of ``table_id`` (at move 4, with 2 moves after it)."""
    state, snap = sql(url, "SELECT state, snap_moves FROM cove_tables WHERE id = ?",
                      table_id)[0]
    doc = json.loads(state)
    if how == "hands":  # seat 0 also holds seat 1's cards (a bit flip, a bad edit)
        doc["state"]["hands"][0] = doc["state"]["hands"][0] + doc["state"]["hands"][1]
        sql(url, "UPDATE cove_tables SET state = ? WHERE id = ?", json.dumps(doc), table_id)
    elif how == "ahead":  # the row says the snapshot is newer than the table
        sql(url, "UPDATE cove_tables SET snap_moves = moves + 3 WHERE id = ?", table_id)
    elif how == "other":  # another table's snapshot
        theirs = sql(url, "SELECT state FROM cove_tables WHERE id = ?", other)[0][0]
        sql(url, "UPDATE cove_tables SET state = ? WHERE id = ?", theirs, table_id)
    elif how == "older":  # the snapshot of move 0 where the row says move 4
        seed, options = sql(url, "SELECT seed, options FROM cove_tables WHERE id = ?",
                            table_id)[0]
        start = cove.load("toy").start(2, int(seed), options=json.loads(options)).to_json()
        sql(url, "UPDATE cove_tables SET state = ? WHERE id = ?", json.dumps(start),
            table_id)
        assert snap == 4


@pytest.mark.parametrize("how", ["hands", "ahead", "other", "older"])
def test_a_snapshot_that_fails_a_check_is_rebuilt_from_its_moves(
        db_url: str, short_snapshots: int, how: str,
        caplog: pytest.LogCaptureFixture) -> None:
    with make_client(db_url, **FAST) as client:
        t, other = two_humans(client), two_humans(client, seed=12)
        for _ in range(short_snapshots + 2):  # a snapshot at move 4, then 2 moves
            move(client, t)
            move(client, other)
        before = views(client, t)
    tamper(db_url, t["id"], how, other["id"])
    caplog.set_level(logging.INFO, logger="cove.serve")
    with make_client(db_url, **FAST) as client:
        assert views(client, t) == before  # what the moves make, not the bad snapshot
        assert move(client, t)[0] == short_snapshots + 2
    assert f"table {t['id']}: its snapshot is not trusted" in caplog.text


# -- failing writes --------------------------------------------------------------------------
@contextmanager
def serving(db: str, *flags: str,
            **popen: Any) -> Iterator[tuple[str, subprocess.Popen[bytes], list[str]]]:
    """A real ``cove serve`` (with ``flags``) whose output is read through a pipe (a file
    could not grow either when the test takes the server's room to write away): yields
    its URL, process and output lines so far."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVE_WITH_TOY, "--port", str(port),
                             "--db", db, *flags], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=ROOT, **popen)
    lines: list[str] = []
    assert proc.stdout is not None
    pipe = proc.stdout
    reader = threading.Thread(target=lambda: lines.extend(
        x.decode(errors="replace") for x in pipe), daemon=True)
    reader.start()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, proc, lambda: "".join(lines))
        yield base, proc, lines
    finally:
        stop(proc)
        reader.join(5)


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux's prlimit")
def test_a_full_disk_answers_503_with_retry_after_and_loses_nothing(tmp_path: Path) -> None:
    """The server's files may not grow (RLIMIT_FSIZE, as a full disk): a move is refused
    with the API's JSON error, 503 and Retry-After, over HTTP and websocket, and the table
    is unchanged; with room again the same move is applied, and after ``kill -9`` every
    acknowledged move is there."""
    db = f"sqlite:///{tmp_path / 'cove.db'}"
    acked: list[tuple[int, str]] = []
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # inherited: EFBIG, not death
    try:
        with serving(db) as (base, proc, lines), httpx2.Client(base_url=base) as http:
            t = http.post("/api/tables", json={"game": "toy", "players": 2,
                                               "seats": ["human", "human"],
                                               "options": TURNS}).json()
            url = f"/api/tables/{t['id']}"

            def next_move() -> tuple[str, dict[str, Any]]:
                g = http.get(url).json()
                token = token_of(t, g["to_move"][0])
                return token, http.get(url, params={"token": token}).json()

            for _ in range(3):
                token, g = next_move()
                r = http.post(url + "/actions", json={"token": token, "expect": g["moves"],
                                                      "action": g["legal"][0]["text"]})
                assert r.status_code == 200
                acked.append((g["moves"], g["legal"][0]["text"]))
            room = max(p.stat().st_size for p in tmp_path.iterdir())
            resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (room, resource.RLIM_INFINITY))
            for _ in range(40):  # the file in use grows past the room within a move or two
                token, g = next_move()
                body = {"token": token, "expect": g["moves"], "action": g["legal"][0]["text"]}
                r = http.post(url + "/actions", json=body)
                if r.status_code != 200:
                    break
                acked.append((g["moves"], body["action"]))
            assert r.status_code == 503, r.text
            assert r.headers["retry-after"] == "5"
            assert r.headers["content-type"] == "application/json"
            assert r.json() == {"error": "unavailable", "retry_after": 5,
                                "reason": "the database cannot be read or written now (the "
                                "server's log says why); nothing was changed: try again in "
                                "5 s"}
            assert http.get(url).json()["moves"] == len(acked)  # not applied
            ws_url = base.replace("http", "ws") + f"/ws/tables/{t['id']}?token={token}"
            with connect(ws_url, open_timeout=10) as ws:
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
                ws.send(json.dumps({"type": "action", "action": body["action"],
                                    "expect": body["expect"]}))
                err = json.loads(ws.recv(timeout=10))
                assert (err["type"], err["status"], err["error"]) == ("error", 503,
                                                                      "unavailable")
                ws.send(json.dumps({"type": "ping"}))  # the socket stays open
                assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
            resource.prlimit(proc.pid, resource.RLIMIT_FSIZE,
                             (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            r = http.post(url + "/actions", json=body)  # the same move, once there is room
            assert r.status_code == 200, r.text
            acked.append((body["expect"], body["action"]))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        failures = [x for x in lines if "the database failed" in x]
        assert failures and len(failures) <= 2  # one line per 10 s, not one per request
        assert not any("Traceback" in x for x in lines)
    finally:
        signal.signal(signal.SIGXFSZ, old)
    with serving(db) as (base, _, _):
        record = httpx2.get(f"{base}/api/tables/{t['id']}/record",
                            params={"token": token_of(t, 0)}).json()
    assert [n for n, _ in acked] == list(range(len(acked)))  # each acknowledged once
    assert [a[1] for a in record["actions"]] == [text for _, text in acked]


def test_a_damaged_table_fails_only_its_own_move_in_a_shared_transaction(
        db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Moves of many tables share a transaction; when one table's rows are inconsistent (a
    move already stored under the number its row says is next), the others' moves are
    still stored."""
    store = open_store(db_url)
    tables = [f"t{i}" for i in range(8)]
    for tid in tables:
        store.create(stored_table(tid))
    sql(db_url, "INSERT INTO cove_moves (table_id, n, seat, action, at) "
        "VALUES ('t3', 0, 0, 'old', 0)")
    commits = GroupCommit(store, batch=256)

    async def run() -> list[Any]:
        return await asyncio.gather(*(commits.append(Move(t, 0, 0, "m0", False))
                                      for t in tables), return_exceptions=True)

    caplog.set_level(logging.WARNING, logger="cove.serve")
    try:
        done = asyncio.run(run())
        assert done[:3] + done[4:] == [True] * 7
        assert isinstance(done[3], Exception) and not isinstance(done[3], ApiError)
        assert all(store.moves(t) == [(0, "m0")] for t in tables if t != "t3")
        assert store.moves("t3") == [(0, "old")]
        row = store.load("t3")
        assert row is not None and row.moves == 0
    finally:
        commits.close()
        store.close()
    assert "a transaction of 8 moves failed" in caplog.text


def test_a_lost_postgres_connection_answers_503_then_recovers(postgres_url: str) -> None:
    """PostgreSQL ends the server's connections (a restart, a failover): the move in
    flight is refused with 503 and not applied; the next one connects again."""
    name = "cove-integrity-test"
    url = postgres_url + ("&" if "?" in postgres_url else "?") + f"application_name={name}"
    with make_client(url, **FAST) as client:
        t = two_humans(client)
        move(client, t)
        g = client.get(f"/api/tables/{t['id']}").json()
        token = token_of(t, g["to_move"][0])
        mine = client.get(f"/api/tables/{t['id']}", params={"token": token}).json()
        ended = sql(postgres_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = ?", name)
        assert ended
        body = {"token": token, "action": mine["legal"][0]["text"], "expect": mine["moves"]}
        r = client.post(f"/api/tables/{t['id']}/actions", json=body)
        assert r.status_code == 503 and r.headers["retry-after"] == "5"
        assert r.json()["error"] == "unavailable"
        assert client.get(f"/api/tables/{t['id']}").json()["moves"] == 1
        r = client.post(f"/api/tables/{t['id']}/actions", json=body)
        assert r.status_code == 200 and r.json()["moves"] == 2
    assert sql(postgres_url, "SELECT moves FROM cove_tables WHERE id = ?", t["id"]) == [(2,)]


# -- a database the server cannot write ------------------------------------------------------
def start_fails(db: str, **popen: Any) -> str:
    """``cove serve --db DB`` must exit at once with status 2 and one line; returns it."""
    done = subprocess.run([sys.executable, "-c", SERVE_WITH_TOY, "--port", str(free_port()),
                           "--db", db], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          **popen)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cove: error: "), done.stderr
    return lines[0]


@contextmanager
def read_only_place() -> Iterator[tuple[Path, dict[str, Any]]]:
    """A directory (and how to run a process) where a database file exists but cannot be
    written: as root, whom permissions do not stop, the server runs as ``nobody``."""
    base = Path(tempfile.mkdtemp(prefix="cove-ro-"))
    popen: dict[str, Any] = {}
    try:
        base.chmod(0o755)
        if os.geteuid() == 0:
            try:
                popen["user"] = pwd.getpwnam("nobody").pw_uid
            except KeyError:
                pytest.skip("running as root and there is no user nobody to drop to")
            probe = subprocess.run([sys.executable, "-c", "import cove.serve"], cwd=ROOT,
                                   capture_output=True, timeout=60, **popen)
            if probe.returncode != 0:
                pytest.skip("running as root, and user nobody cannot read this checkout")
        yield base, popen
    finally:
        for p in [base, *base.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        shutil.rmtree(base)


def test_a_read_only_database_is_refused_at_start_in_one_line(tmp_path: Path) -> None:
    with read_only_place() as (base, popen):
        writable_dir = base / "file-ro"
        writable_dir.mkdir()
        SqliteStore(str(writable_dir / "cove.db")).close()
        (writable_dir / "cove.db").chmod(0o444)
        writable_dir.chmod(0o777)
        line = start_fails(f"sqlite:///{writable_dir / 'cove.db'}", **popen)
        assert "attempt to write a readonly database" in line
        assert "needs a database it can write" in line and "-wal" in line

        ro_dir = base / "dir-ro"  # as on a read-only filesystem
        ro_dir.mkdir()
        SqliteStore(str(ro_dir / "cove.db")).close()
        for p in ro_dir.iterdir():
            p.unlink() if p.name != "cove.db" else p.chmod(0o444)
        ro_dir.chmod(0o555)
        line = start_fails(f"sqlite:///{ro_dir / 'cove.db'}", **popen)
        assert f"cannot use the database sqlite:///{ro_dir / 'cove.db'}" in line
        line = start_fails(f"sqlite:///{ro_dir / 'new.db'}", **popen)
        assert "unable to open database file" in line


def test_a_read_only_postgres_is_refused_at_start_in_one_line(postgres_url: str) -> None:
    """As a hot standby is: every transaction read-only."""
    ro = postgres_url + ("&" if "?" in postgres_url else "?") + (
        "options=-c%20default_transaction_read_only%3Don")
    line = start_fails(ro)
    assert "read-only transaction" in line and "needs a database it can write" in line
    if ":" in postgres_url.partition("://")[2].partition("@")[0]:  # a password in the URL
        assert ":***@" in line and postgres_url.partition("@")[0] not in line


# -- the seed ----------------------------------------------------------------------------------
def test_the_seed_is_secret_until_the_end_then_opens_its_commitment(db_url: str) -> None:
    seen: list[str] = []  # every text the server sends while the game runs
    with make_client(db_url, **FAST) as client:
        r = client.post("/api/tables", json={"game": "toy", "players": 2,
                                             "seats": ["human", "human"], "options": TURNS})
        assert r.status_code == 201
        t = r.json()
        seen.append(r.text)
        assert "seed" not in t
        commitment = t["deal"]["commitment"]
        assert re.fullmatch("[0-9a-f]{64}", commitment) and t["deal"] == {
            "commitment": commitment, "chosen": False}
        url = f"/api/tables/{t['id']}"
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            while True:
                g = client.get(url)
                if g.json()["over"]:
                    break
                seen.append(g.text)
                assert g.json()["deal"] == t["deal"]
                for who in (None, 0, 1):
                    params = {} if who is None else {"token": token_of(t, who)}
                    seen.append(client.get(url + "/record", params=params).text)
                    seen.append(client.get(url, params=params).text)
                seen.append(client.get("/api/tables").text)
                move(client, t)
                pushed = ws.receive_json()
                if not pushed["over"]:
                    seen.append(json.dumps(pushed))
        end = client.get(url).json()
        record = client.get(url + "/record").json()
    deal = end["deal"]
    seed, salt = deal["seed"], deal["salt"]
    assert re.fullmatch("[0-9a-f]{32}", salt) and deal["commitment"] == commitment
    assert hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest() == commitment
    assert record["seed"] == seed and record["deal"] == deal
    assert cove.replay(record).scores() == end["scores"]
    assert len(seen) > 50 and not [x for x in seen if str(seed) in x or salt in x]
    with make_client(db_url, **FAST) as client:  # the salt is stored with the table
        assert client.get(url).json()["deal"] == deal


def test_a_chosen_seed_is_said_to_everyone(client: TestClient) -> None:
    t = two_humans(client, seed=5)
    assert t["seed"] == 5 and t["deal"]["chosen"] is True
    view = client.get(f"/api/tables/{t['id']}", params={"token": token_of(t, 1)}).json()
    assert view["deal"] == t["deal"]


def test_a_database_made_before_commitments_undos_and_closing_gets_their_columns(
        db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        old = two_humans(client)
        move(client, old)
    for column in ("salt", "seed_chosen", "undos", "owner_hash", "closed"):
        sql(db_url, f"ALTER TABLE cove_tables DROP COLUMN {column}")
    with make_client(db_url, **FAST) as client:
        g = client.get(f"/api/tables/{old['id']}").json()
        assert g["moves"] == 1 and g["deal"] == {"commitment": None, "chosen": False}
        assert g["version"] == 1 and g["closed"] is False
        assert client.post(f"/api/tables/{old['id']}/close", json={"token": "x"}
                           ).status_code == 403  # made before keys: nobody closes it
        assert old["id"] in [t["id"] for t in client.get("/api/tables").json()["tables"]]
        new = two_humans(client, seed=None)
        assert client.get(f"/api/tables/{new['id']}").json()["deal"]["commitment"]
    with make_client(db_url, **FAST) as client:
        assert client.get(f"/api/tables/{new['id']}").json()["deal"] == new["deal"]
