"""Bots a public server can afford: every move held to the server's budget (specs beyond it
refused at creation), every bot in a worker process, workers shared fairly between tables
and gone with the server (also after ``kill -9``), tables of bots only paced and archived
when nobody watches, a move whose write failed stored once the disk takes writes again,
and one process playing a table's bots when several share a PostgreSQL database."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest

import cove
from cove.bots import make_bot
from cove.bots import worker as worker_module
from cove.bots.budget import Budget, OverBudget
from cove.bots.worker import BotError, ProcessBots
from cove.serve.store import TableRow, open_store
from tests.serve.conftest import make_client, reset_postgres
from tests.serve.helpers import long_turn_based_game, new_table
from tests.serve.test_process import server

FAST = {"rate": 1e6, "burst": 10**6, "create_rate": 1e6, "create_burst": 10**6}
LONG_GAME = long_turn_based_game().id
"""A registered game whose random games run for hundreds of moves, one seat at a time,
P1 first."""


def turn_based() -> cove.Game:
    return cove.load(LONG_GAME)


# -- budgets: refused at creation -------------------------------------------------------------
@pytest.mark.parametrize(("spec", "named"), [
    ("mcts:iterations=1000000000,steps=0",
     "asks for 1000000000 iterations (at most 4000), steps=0, no limit (at most 200000)"),
    ("mcts:steps=0", "asks for steps=0, no limit (at most 200000)"),
    ("mcts:time=86400", "asks for time=86400 (at most 2)"),
    ("mcts:scale=1000000", "asks for 500000000 iterations (with scale=1000000) (at most "
     "4000), 40000000000 steps (with scale=1000000) (at most 200000)"),
    ("mcts:iterations=999999999999999999999999",
     "asks for 999999999999999999999999 iterations (at most 4000)"),
    ("mcts:iterations=4000,steps=300000", "asks for 300000 steps (at most 200000)"),
    ("greedy:samples=256", "asks for samples=256 (at most 32)"),
])
def test_a_spec_beyond_the_budget_is_refused_naming_the_limit(
        spec: str, named: str, sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        r = client.post("/api/tables", json={"game": LONG_GAME, "players": 2,
                                             "seats": ["human", spec]})
        assert r.status_code == 422, r.text
        body = r.json()
        assert body["error"] == "bad_seats"
        assert named in body["reason"]
        assert "bot budget (2 s of thinking a move" in body["reason"]
        assert client.get("/api/tables?status=all").json()["tables"] == []


def test_levels_and_specs_within_the_budget_are_accepted(sqlite_url: str) -> None:
    """The levels are the server's presets (held to the budget as they think); a larger
    budget (``--bot-budget``) admits a longer spec."""
    fits = ["easy", "medium", "hard", "random", "greedy:samples=32", "mcts:time=2",
            "mcts:iterations=4000,steps=200000", "mcts:scale=4"]
    with make_client(sqlite_url, bot_pace=0, **FAST) as client:
        for spec in fits:
            r = client.post("/api/tables", json={"game": LONG_GAME, "players": 2,
                                                 "seats": ["human", spec]})
            assert r.status_code == 201, (spec, r.text)
        assert client.post("/api/tables", json={"game": LONG_GAME, "players": 2,
                                                "seats": ["human", "mcts:time=5"]}
                           ).status_code == 422
    with make_client(sqlite_url, bot_budget=10, **FAST) as client:
        r = client.post("/api/tables", json={"game": LONG_GAME, "players": 2,
                                             "seats": ["human", "mcts:time=5"]})
        assert r.status_code == 201, r.text


def test_a_spec_longer_than_the_limit_is_refused_and_never_stored(sqlite_url: str) -> None:
    """The whole text is checked: a valid bot name padded to 200 characters with 30 KB
    after it is refused, not stored."""
    spec = "random" + " " * 194 + "<img src=x onerror=alert(1)>" + "Z" * 30000
    with make_client(sqlite_url, **FAST) as client:
        r = client.post("/api/tables", json={"game": LONG_GAME, "players": 2,
                                             "seats": ["human", spec]})
        assert r.status_code == 422
        assert "at most 200 characters; this one has 30228" in r.json()["reason"]
        assert client.get("/api/tables?status=all").json()["tables"] == []
    db = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
    assert db.execute("SELECT count(*) FROM cove_tables").fetchone() == (0,)
    db.close()


# -- budgets: held as they think ---------------------------------------------------------------
def test_a_bot_is_held_to_the_budget_whatever_its_spec() -> None:
    """A stored spec from before the budget (or a level) cannot think past it: a search
    stops at the budget's time and counts, greedy averages at most its samples."""
    game = turn_based()
    state = game.new(2, 3)
    seat = state.to_move()[0]
    budget = Budget.for_seconds(0.3)
    bot = make_bot("mcts:iterations=1000000000,steps=0", 1)
    bot.bound(budget)
    start = time.perf_counter()
    bot.act(state, seat)
    took = time.perf_counter() - start
    assert took < 0.3 + 0.5  # one iteration past the deadline at most, on a loaded machine
    assert 0 < bot.last_iterations <= budget.iterations  # type: ignore[attr-defined]
    assert bot.steps == budget.steps and bot.time == 0.3  # type: ignore[attr-defined]
    greedy = make_bot("greedy:samples=256", 1)
    greedy.bound(Budget.for_seconds(0.25))
    assert Budget.for_seconds(0.25).samples == 4
    assert greedy.over_budget(Budget.for_seconds(0.25)) == "samples=256 (at most 4)"


def test_a_move_over_its_cpu_time_is_stopped_in_the_worker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's CPU clock stops a bot that ignores its budget (twice the budget, at
    least a second more), and the worker carries on."""
    def spin(*args: Any) -> str:
        while True:
            sum(range(1000))

    monkeypatch.setattr(worker_module, "think", spin)
    state = turn_based().new(2, 1)
    job = worker_module.job_of("random", 1, state, 0, Budget.for_seconds(0.05))
    old = signal.signal(signal.SIGPROF, worker_module._on_cpu_limit)
    try:
        start = time.process_time()
        with pytest.raises(OverBudget):
            worker_module._run(job)
        used = time.process_time() - start
    finally:
        signal.signal(signal.SIGPROF, old)
    assert 1.0 <= used < 3.0  # the limit is 0.05 + 1 s of CPU
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_a_bot_over_its_budget_gets_a_fallback_move_without_a_second_try(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(sqlite_url, bot_pace=0, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        calls: list[int] = []
        opened = threading.Event()

        async def over(spec: str, seed: int, state: Any, seat: int, timeout: float,
                       owner: str = "", lane: int = 0) -> str:
            while not opened.is_set():  # until the test's websocket listens
                await asyncio.sleep(0.01)
            calls.append(state.decisions)
            raise BotError("OverBudget", "the move went over its CPU time")

        monkeypatch.setattr(hub.bot_processes, "think", over)
        game = turn_based()
        t = new_table(client, game.id, 2, ["greedy", "human"], seed=2)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            opened.set()
            while msg.get("type") != "notice":
                msg = ws.receive_json()
        assert calls.count(0) == 1  # asked once: a second try would only overrun again
        assert msg["notice"] == "bot_failed" and msg["moves"] == 0
        assert "went over this server's think time (2 s a move)" in msg["reason"]


# -- every bot in a worker process ---------------------------------------------------------------
def test_every_bot_thinks_in_a_worker_process(sqlite_url: str) -> None:
    """``random`` and ``greedy`` included: no bot thread in the server, and the table's
    moves were thought in the workers."""
    game = turn_based()
    with make_client(sqlite_url, bot_pace=0, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert all(hub.in_process(s) for s in ("random", "greedy", "easy", "medium", "hard",
                                               "greedy:samples=32"))
        t = new_table(client, game.id, 2, ["greedy", "random"], seed=4)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            while msg["moves"] < 6:
                msg = ws.receive_json()
        assert hub.bot_threads is None
        assert hub.bot_processes.jobs >= 6
        assert hub.bot_processes.processes()


def test_a_game_registered_at_run_time_plays_in_the_workers(
        sqlite_url: str, toy_registered: str) -> None:
    """A worker learns the server's own registry entry for the table's game."""
    with make_client(sqlite_url, bot_pace=0, **FAST) as client:
        t = new_table(client, toy_registered, 2, ["random", "random"], seed=6)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            while not msg["over"]:
                assert msg.get("type") != "notice", msg
                msg = ws.receive_json()
        record = client.get(f"/api/tables/{t['id']}/record").json()
        assert cove.replay(record).scores() == msg["scores"]


# -- the fair queue ------------------------------------------------------------------------------
class FakeWorker:
    """A worker without a process: the fair queue's order is all this test looks at."""

    def __init__(self) -> None:
        self.process = None

    def end(self) -> None:
        pass


@pytest.mark.parametrize(("share", "order"), [
    (1, ["A0", "B0", "C0", "A1", "A2", "A3"]),
    (2, ["A0", "A1", "B0", "C0", "A2", "A3"]),
])
def test_workers_are_shared_fairly_between_tables(
        share: int, order: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Table A asks for four slow moves, then B and C for one each: B and C do not wait
    behind all of A's (a table holds at most ``share`` workers, and a free worker goes to
    the table served least recently)."""
    started: list[str] = []

    async def ask(worker: Any, job: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        started.append(job[0])
        await asyncio.sleep(0.05)
        return ("ok", job[0])

    monkeypatch.setattr(worker_module, "Worker", FakeWorker)
    monkeypatch.setattr(ProcessBots, "_ask", staticmethod(ask))
    state = turn_based().new(2, 1)

    async def scenario() -> list[str]:
        bots = ProcessBots(2, share=share)
        jobs = [asyncio.ensure_future(bots.think(f"A{i}", 1, state, 0, 10, "A"))
                for i in range(4)]
        await asyncio.sleep(0)
        jobs += [asyncio.ensure_future(bots.think(f"{t}0", 1, state, 0, 10, t))
                 for t in ("B", "C")]
        done = await asyncio.gather(*jobs)
        assert bots.running() == {} and bots.waiting() == {}
        assert bots._turn == {} and bots._lane == {}  # tables with no jobs are forgotten
        return list(done)

    assert sorted(asyncio.run(scenario())) == sorted(order)
    assert started == order


def test_tables_where_people_wait_come_before_tables_of_bots_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables of bots only never hold the last free worker: a table where a person waits
    finds one at once, however many bots-only jobs are queued."""
    started: list[str] = []
    running: set[str] = set()
    most = [0]

    async def ask(worker: Any, job: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        started.append(job[0])
        running.add(job[0])
        most[0] = max(most[0], sum(1 for j in running if j[0] in "XYZ"))
        await asyncio.sleep(0.05)
        running.discard(job[0])
        return ("ok", job[0])

    monkeypatch.setattr(worker_module, "Worker", FakeWorker)
    monkeypatch.setattr(ProcessBots, "_ask", staticmethod(ask))
    state = turn_based().new(2, 1)

    async def scenario() -> None:
        bots = ProcessBots(2, share=1)
        jobs = [asyncio.ensure_future(bots.think(f"{t}{i}", 1, state, 0, 10, t, lane=1))
                for i in range(2) for t in "XYZ"]
        await asyncio.sleep(0.01)
        assert started == ["X0"] and bots.waiting() == {"X": 1, "Y": 2, "Z": 2}
        jobs.append(asyncio.ensure_future(bots.think("H0", 1, state, 0, 10, "H", lane=0)))
        await asyncio.sleep(0.01)
        assert started == ["X0", "H0"]  # at once, before any queued bots-only job
        await asyncio.gather(*jobs)
        assert bots._later == 0 and bots._lane == {} and bots._turn == {}

    asyncio.run(scenario())
    assert sorted(started[2:]) == ["X1", "Y0", "Y1", "Z0", "Z1"]
    assert most[0] == 1  # bots-only tables together held one of the two workers


def test_jobs_cancelled_at_once_give_back_every_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server stopping cancels running and waiting jobs together: the queue does not
    hand a worker to a job already cancelled (which once hung the shutdown), and every
    worker is free again."""
    async def ask(worker: Any, job: tuple[Any, ...], timeout: float) -> tuple[Any, ...]:
        await asyncio.sleep(30)
        return ("ok", job[0])

    monkeypatch.setattr(worker_module, "Worker", FakeWorker)
    monkeypatch.setattr(ProcessBots, "_ask", staticmethod(ask))
    state = turn_based().new(2, 1)

    async def scenario() -> None:
        bots = ProcessBots(2, share=1)
        jobs = [asyncio.ensure_future(bots.think(f"{t}{i}", 1, state, 0, 10, t))
                for t in "AB" for i in range(3)]
        await asyncio.sleep(0.05)
        assert bots.running() == {"A": 1, "B": 1} and bots.waiting() == {"A": 2, "B": 2}
        for job in jobs:
            job.cancel()
        done = await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), 5)
        assert all(isinstance(d, asyncio.CancelledError) for d in done)
        assert bots._free == 2 and bots.running() == {} and bots.waiting() == {}
        assert bots._turn == {} and bots._lane == {}

    asyncio.run(scenario())


# -- bots-only tables: paced, archived when idle ----------------------------------------------
def stored_moves(url: str, table_id: str) -> int:
    store = open_store(url)
    try:
        row = store.load(table_id)
        assert row is not None
        return row.moves
    finally:
        store.close()


def test_a_table_of_bots_only_is_paced(sqlite_url: str) -> None:
    game = turn_based()
    with make_client(sqlite_url, bot_pace=10, **FAST) as client:
        t = new_table(client, game.id, 2, ["random", "random"], seed=3)
        start = time.monotonic()
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            while msg["moves"] < 15:
                msg = ws.receive_json()
        took = time.monotonic() - start
        mixed = new_table(client, game.id, 2, ["human", "random"], seed=3)
    assert took >= 14 / 10  # at most 10 a second: 15 moves need 1.4 s at least
    assert mixed["seats"][0]["kind"] == "human"  # (a table with a person is never paced)


def test_an_unwatched_table_of_bots_only_is_archived_then_resumes_when_asked_for(
        sqlite_url: str) -> None:
    game = turn_based()
    with make_client(sqlite_url, bot_pace=20, bot_idle=0.5, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        idle = new_table(client, game.id, 2, ["random", "random"], seed=3)
        watched = new_table(client, game.id, 2, ["random", "random"], seed=4)
        with client.websocket_connect(f"/ws/tables/{watched['id']}") as ws:
            deadline = time.monotonic() + 20
            while idle["id"] in hub.tables:
                assert time.monotonic() < deadline, "the idle table was not archived"
                ws.receive_json()
            parked = stored_moves(sqlite_url, idle["id"])
            assert parked > 0
            for _ in range(20):  # the watched table plays on, well past the idle time
                msg = ws.receive_json()
            assert watched["id"] in hub.tables and not msg["over"]
        time.sleep(0.3)
        assert stored_moves(sqlite_url, idle["id"]) == parked  # its bots stopped
        row = open_store(sqlite_url).load(idle["id"])
        assert row is not None and not row.bot_turn  # not restored at start-up
    with make_client(sqlite_url, bot_pace=20, bot_idle=0.5, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert idle["id"] not in hub.tables
        assert client.get(f"/api/tables/{idle['id']}").json()["moves"] == parked
        deadline = time.monotonic() + 20
        while stored_moves(sqlite_url, idle["id"]) < parked + 3:  # asked for: plays on
            assert time.monotonic() < deadline, "the archived table did not resume"
            time.sleep(0.1)


# -- a failed write is retried ---------------------------------------------------------------------
def test_bots_resume_on_their_own_once_the_disk_takes_writes_again(
        sqlite_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A full database (SQLite's page limit on the writer's connection: the same
    ``database or disk is full`` as a full disk) stops the bots; once it has room, they go
    on without anyone asking for the table."""
    game = turn_based()
    caplog.set_level(logging.INFO, logger="cove.serve.hub")
    with make_client(sqlite_url, bot_pace=50, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]

        def limit(pages: int | None) -> None:
            conn = hub.store._conn()  # the writer thread's own connection
            if pages is None:
                pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count={pages}")

        t = new_table(client, game.id, 2, ["random", "random"], seed=3)
        asyncio.run_coroutine_threadsafe(hub.commits.run(limit, None), hub.loop).result(10)
        deadline = time.monotonic() + 30
        while "could not be stored" not in caplog.text:
            assert time.monotonic() < deadline, "the database never filled up"
            time.sleep(0.1)
        stuck = stored_moves(sqlite_url, t["id"])
        time.sleep(1.0)
        assert stored_moves(sqlite_url, t["id"]) == stuck  # full: nothing more stored
        assert "database or disk is full" in caplog.text
        asyncio.run_coroutine_threadsafe(hub.commits.run(limit, 10**9), hub.loop).result(10)
        deadline = time.monotonic() + 30
        while stored_moves(sqlite_url, t["id"]) < stuck + 5:  # no request wakes it
            assert time.monotonic() < deadline, "the bots did not resume"
            time.sleep(0.1)
        assert "stored after" in caplog.text
    store = open_store(sqlite_url)
    try:
        row = store.load(t["id"])
        assert row is not None  # every move stored once, in order
        assert len(store.moves(t["id"])) == row.moves >= stuck + 5
    finally:
        store.close()


# -- flags ---------------------------------------------------------------------------------------
def test_the_serve_flags_set_the_bot_settings() -> None:
    from cove.cli import CliError, bot_settings, build_parser

    def flags(*args: str) -> dict[str, Any]:
        return bot_settings(build_parser().parse_args(["serve", *args]))

    assert flags() == {}
    assert flags("--bot-budget", "5", "--bot-pace", "0", "--bot-idle", "30") == {
        "bot_budget": 5.0, "bot_timeout": 17.0, "bot_pace": 0.0, "bot_idle": 30.0}
    assert flags("--bot-workers", "4", "--bot-share", "1", "--bot-lease", "5") == {
        "bot_workers": 4, "bot_share": 1, "bot_lease": 5.0}
    for bad, words in ((["--bot-budget", "0"], "--bot-budget must be above 0"),
                       (["--bot-budget", "nan"], "--bot-budget must be above 0"),
                       (["--bot-workers", "0"], "--bot-workers must be at least 1"),
                       (["--bot-pace", "-1"], "--bot-pace must be at least 0"),
                       (["--bot-budget", "5", "--bot-timeout", "4"],
                        "--bot-timeout (4 s) must be above --bot-budget (5 s)")):
        with pytest.raises(CliError, match=words.replace("(", r"\(").replace(")", r"\)")):
            flags(*bad)


# -- real server processes ---------------------------------------------------------------------
def children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (info := proc_stat(int(entry))) is not None:
            state, ppid = info
            if ppid == pid and state != "Z":
                out.append(int(entry))
    return out


def proc_stat(pid: int) -> tuple[str, int] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])


def proc_state(pid: int) -> str:
    info = proc_stat(pid)
    return "" if info is None else info[0]


def alive(pid: int) -> bool:
    info = proc_stat(pid)
    return info is not None and info[0] != "Z"


def worker_pids(pid: int) -> list[int]:
    """The server's bot workers (and multiprocessing's resource tracker)."""
    out = []
    for child in children(pid):
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"multiprocessing" in cmd:
            out.append(child)
    return out


def wait_moves(base: str, table: str, at_least: int, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        g: dict[str, Any] = httpx2.get(f"{base}/api/tables/{table}", timeout=10).json()
        if g["moves"] >= at_least or g["over"]:
            return g
        assert time.monotonic() < deadline, f"table {table} stayed at {g['moves']} moves"
        time.sleep(0.1)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_workers_die_with_the_server_after_kill_9(tmp_path: Path) -> None:
    """The server is killed with SIGKILL while a worker is in the middle of a 20-second
    move: no worker is left running 3 s later (they watch their server and exit within a
    fraction of a second; a thinking worker would otherwise notice only when its answer
    found the pipe closed)."""
    db = f"sqlite:///{tmp_path / 'cove.db'}"
    log = tmp_path / "server.log"
    slow = "mcts:iterations=60000,steps=3000000,time=20"
    with server(db, log, "--bot-pace", "0", "--bot-budget", "30") as (base, proc):
        body = {"game": LONG_GAME, "players": 2, "seats": [slow, slow], "seed": 5}
        assert httpx2.post(base + "/api/tables", json=body, timeout=10).status_code == 201
        deadline = time.monotonic() + 30
        while not any(proc_state(w) == "R" for w in worker_pids(proc.pid)):
            assert time.monotonic() < deadline, "no bot worker was seen thinking"
            time.sleep(0.02)
        workers = worker_pids(proc.pid)
        time.sleep(0.5)  # well into its move
        os.kill(proc.pid, signal.SIGKILL)  # while a worker thinks
        proc.wait()
        deadline = time.monotonic() + 3
        while left := [p for p in workers if alive(p)]:
            assert time.monotonic() < deadline, f"orphaned workers still running: {left}"
            time.sleep(0.1)


def postgres_or_skip() -> str:
    url = os.environ.get("COVE_TEST_POSTGRES")
    if not url:
        pytest.skip("COVE_TEST_POSTGRES is not set: no PostgreSQL server for this run "
                    "(.ci/run starts one)")
    reset_postgres(url)
    return url


def bot_moves(base: str, table: str, seat: int) -> int:
    """How many moves ``seat`` has made (from the table's record, redacted or not)."""
    record = httpx2.get(f"{base}/api/tables/{table}/record", timeout=10).json()
    return sum(1 for p, _ in record["actions"] if p == seat)


def play_until_the_bot_moved(base: str, table: str, token: str, bot: int, times: int,
                             seconds: float = 40) -> None:
    """Make moves for the human seat through ``base`` (its first legal move each time)
    until seat ``bot`` has made ``times`` more moves."""
    goal = bot_moves(base, table, bot) + times
    deadline = time.monotonic() + seconds
    with httpx2.Client(base_url=base, timeout=10) as http:
        while bot_moves(base, table, bot) < goal:
            assert time.monotonic() < deadline, "the bot stopped moving"
            g = http.get(f"/api/tables/{table}", params={"token": token}).json()
            assert not g["over"]
            if not g["legal"]:
                time.sleep(0.05)
                continue
            r = http.post(f"/api/tables/{table}/actions",
                          json={"token": token, "action": g["legal"][0]["text"],
                                "expect": g["moves"]})
            assert r.status_code == 200, r.text


def test_one_process_plays_a_tables_bots_and_another_takes_over_when_it_dies(
        tmp_path: Path) -> None:
    """Two servers on one PostgreSQL: a table made on A and played through B has its bots
    played by A alone (B never starts a bot worker); after A is killed, B takes the bots
    over once A's lease lapses."""
    url = postgres_or_skip()
    log = tmp_path / "server.log"
    lease = ("--bot-lease", "2")
    with server(url, log, *lease) as (a, pa), server(url, log, *lease) as (b, pb):
        body = {"game": LONG_GAME, "players": 2, "seats": ["human", "medium"], "seed": 7}
        t = httpx2.post(a + "/api/tables", json=body, timeout=10).json()
        table, token = t["id"], t["seats"][0]["token"]
        with httpx2.Client(base_url=b, timeout=10) as http:  # B loads it and follows it
            assert http.get(f"/api/tables/{table}").status_code == 200
        play_until_the_bot_moved(b, table, token, 1, 5)
        assert worker_pids(pa.pid), "A played no bot move"
        assert not worker_pids(pb.pid), "B computed bot moves too"
        os.kill(pa.pid, signal.SIGKILL)
        pa.wait()
        play_until_the_bot_moved(b, table, token, 1, 3)  # B took the bots over
        assert worker_pids(pb.pid)
        moves = httpx2.get(f"{b}/api/tables/{table}", timeout=10).json()["moves"]
    store = open_store(url)
    try:
        row = store.load(table)
        assert row is not None and row.moves >= moves  # (its bots played on till the end)
        assert len(store.moves(table)) == row.moves  # every move stored once, in order
    finally:
        store.close()


def test_a_stored_spec_beyond_the_budget_is_held_to_it_after_a_restart(
        sqlite_url: str) -> None:
    """A table stored with the attack's spec (before the server had a budget) resumes
    after a restart, but its bots stop at the budget: the next moves come in seconds,
    not after the 60 s timeout and a fallback."""
    game = turn_based()
    state = game.new(2, 9)
    attack = "mcts:iterations=1000000000,steps=0"
    store = open_store(sqlite_url)
    store.create(TableRow(id="attack", game=game.id, players=2, options={}, seed=9,
                          seats=[{"kind": "bot", "spec": attack}] * 2, created=0.0,
                          updated=0.0, moves=0, over=False, state=state.to_json(),
                          bot_turn=True))
    store.close()
    with make_client(sqlite_url, bot_budget=0.3, bot_pace=0, **FAST) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert "attack" in hub.tables  # restored at start-up: its bots play on
        with client.websocket_connect("/ws/tables/attack") as ws:
            msg = ws.receive_json()
            start = time.monotonic()
            while msg.get("moves", 0) < 4:
                msg = ws.receive_json()
                assert msg.get("type") != "notice", msg  # no move fell back
        took = time.monotonic() - start
    assert took < 4 * (0.3 + 1.0) + 5  # 0.3 s a move (+ a worker's start-up)
