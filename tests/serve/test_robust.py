"""What keeps tables going under load and failure: moves of many tables committed together
(each still guarded on its own), one rendered update shared by all spectators (and by all
connections of one seat), and bots that raise, time out or answer nonsense."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

import cove
from cove.bots.worker import BotError, ProcessBots, WorkerDied
from cove.example_game import GAME as TOY
from cove.serve.hub import GroupCommit
from cove.serve.store import Move, TableRow, open_store
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6}
TURNS = {"bidding": False, "plays": 12}
"""The toy without its simultaneous bid: one seat to move at a time, for as many moves
as its cards last (10 for two)."""


def stored_table(table_id: str) -> TableRow:
    state = TOY.new(players=2, seed=1)
    return TableRow(id=table_id, game=TOY.id, players=2, options={}, seed=1,
                    seats=[{"kind": "bot", "spec": "random"}] * 2, created=0.0, updated=0.0,
                    moves=0, over=False, state=state.to_json())


# -- group commit ----------------------------------------------------------------------------
def test_one_transaction_guards_each_move_on_its_own(db_url: str) -> None:
    store = open_store(db_url)
    try:
        for tid in ("a", "b", "c"):
            store.create(stored_table(tid))
        done = store.append_many([Move("a", 0, 0, "x", False), Move("b", 5, 0, "y", False),
                                  Move("c", 0, 1, "z", False), Move("a", 0, 1, "w", False)])
        assert done == [True, False, True, False]  # b was not at move 5; a took move 0 once
        assert store.moves("a") == [(0, "x")]
        assert store.moves("b") == []
        assert store.moves("c") == [(1, "z")]
        row = store.load("b")
        assert row is not None and row.moves == 0
    finally:
        store.close()


def test_moves_of_many_tables_share_transactions(db_url: str) -> None:
    store = open_store(db_url)
    tables = [f"t{i}" for i in range(60)]
    for tid in tables:
        store.create(stored_table(tid))
    commits = GroupCommit(store, batch=256)

    async def run() -> list[bool]:
        first = await asyncio.gather(*(commits.append(Move(t, 0, 0, "m0", False))
                                       for t in tables))
        again = await asyncio.gather(*(commits.append(Move(t, 0, 1, "late", False))
                                       for t in tables[:5]))
        return first + again

    try:
        done = asyncio.run(run())
        assert done == [True] * 60 + [False] * 5
        assert commits.transactions < 60  # moves that arrived together were committed together
        assert all(store.moves(t) == [(0, "m0")] for t in tables)
    finally:
        commits.close()
        store.close()


# -- one update for all spectators -------------------------------------------------------------
def test_spectators_share_one_rendered_update(sqlite_url: str, toy_registered: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, toy_registered, 2, ["human", "human"], seed=11, options=TURNS)
        tid = t["id"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        g = client.get(f"/api/tables/{tid}").json()
        seat = g["to_move"][0]
        token = token_of(t, seat)
        urls = [f"/ws/tables/{tid}"] * 4 + [f"/ws/tables/{tid}?token={token}"] * 2 + [
            f"/ws/tables/{tid}?token={token_of(t, 1 - seat)}"]
        sockets = [client.websocket_connect(u) for u in urls]
        conns = [s.__enter__() for s in sockets]
        try:
            for ws in conns:
                assert ws.receive_json()["type"] == "state"
            before = hub.renders
            mine = client.get(f"/api/tables/{tid}", params={"token": token}).json()
            r = client.post(f"/api/tables/{tid}/actions",
                            json={"token": token, "action": mine["legal"][0]["text"],
                                  "expect": mine["moves"]})
            assert r.status_code == 200
            got = [ws.receive_text() for ws in conns]
            # three seats' worth (spectators, the mover, the other seat), not seven
            assert hub.renders - before == 3
            assert len(set(got[:4])) == 1 and len(set(got[4:6])) == 1
            assert len(set(got)) == 3
            spectator = client.get(f"/api/tables/{tid}").json()
            pushed = json.loads(got[0])
            assert pushed["type"] == "update" and pushed["view"] == spectator["view"]
            assert pushed["seat"] is None and pushed["legal"] == []
            own = json.loads(got[4])  # the mover's websocket and its POST's answer agree
            assert own.pop("type") == "update" and own == r.json()
            assert own == client.get(f"/api/tables/{tid}", params={
                "token": token, "since": mine["next_event"]}).json()
        finally:
            for s in reversed(sockets):
                s.__exit__(None, None, None)


# -- bots that fail ----------------------------------------------------------------------------
def watch_to_end(client: TestClient, tid: str, opened: threading.Event,
                 limit: int = 5000) -> list[dict[str, Any]]:
    """Every message a spectator gets until the game is over (``opened`` is set once it
    is connected: the test's bot waits for it before its first move)."""
    seen = []
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        opened.set()
        for _ in range(limit):
            msg = ws.receive_json()
            seen.append(msg)
            if msg.get("over"):
                return seen
    raise AssertionError("the game did not end")


def test_a_bot_that_always_raises_is_replaced_by_legal_moves(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture, toy_registered: str) -> None:
    import cove.serve.hub as hub

    calls = []
    opened = threading.Event()

    def broken(spec: str, seed: int, state: Any, seat: int) -> str:
        opened.wait(10)
        calls.append(seed)
        raise RuntimeError("the bot fell over")

    monkeypatch.setattr(hub, "think", broken)
    caplog.set_level(logging.WARNING, logger="cove.serve.hub")
    with make_client(sqlite_url, bot_processes=False, bot_pace=0, **FAST) as client:
        t = new_table(client, toy_registered, 2, ["random", "random"], seed=6,
                      options=TURNS)
        seen = watch_to_end(client, t["id"], opened)
        record = client.get(f"/api/tables/{t['id']}/record").json()
    notices = [m for m in seen if m.get("type") == "notice"]
    moves = len(record["actions"])
    assert moves > 5  # every move was a fallback, and the clients were told of each
    assert [m["moves"] for m in notices] == list(range(moves))
    assert len(calls) == 2 * moves  # each asked twice (bot_tries) before the fallback
    for m in notices:
        assert m["notice"] == "bot_failed" and m["bot"] == "random"
        assert m["seat"] == record["actions"][m["moves"]][0]
        assert "raised RuntimeError" in m["reason"]
        assert "fell over" not in m["reason"]  # a bot's own words could hold its secrets
    assert cove.replay(record).is_over
    assert "the bot fell over" in caplog.text


def test_a_bot_that_raises_once_is_asked_again(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch, toy_registered: str) -> None:
    import cove.serve.hub as hub

    real = hub.think
    failed = threading.Event()
    opened = threading.Event()

    def flaky(spec: str, seed: int, state: Any, seat: int) -> str:
        if not failed.is_set():
            failed.set()
            raise ValueError("a passing hiccup")
        return real(spec, seed, state, seat)

    monkeypatch.setattr(hub, "think", flaky)
    with make_client(sqlite_url, bot_processes=False, bot_pace=0, **FAST) as client:
        t = new_table(client, toy_registered, 2, ["random", "random"], seed=6)
        seen = watch_to_end(client, t["id"], opened)
    assert failed.is_set()
    assert not [m for m in seen if m.get("type") == "notice"]  # the second try answered


@pytest.mark.parametrize("fault", ["timeout", "illegal"])
def test_a_bot_that_hangs_or_answers_nonsense_does_not_stall_its_table(
        fault: str, sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
        toy_registered: str) -> None:
    import cove.serve.hub as hub

    real = hub.think
    release = threading.Event()
    opened = threading.Event()
    faults = []

    def bad_first_move(spec: str, seed: int, state: Any, seat: int) -> str:
        if state.decisions == 0:
            opened.wait(10)
            faults.append(seed)
            if fault == "timeout":
                release.wait(30)
                return real(spec, seed, state, seat)
            return "sail to the moon"
        return real(spec, seed, state, seat)

    monkeypatch.setattr(hub, "think", bad_first_move)
    try:
        with make_client(sqlite_url, bot_timeout=0.3, bot_workers=4, bot_processes=False,
                         bot_pace=0, **FAST) as client:
            t = new_table(client, toy_registered, 2, ["random", "random"], seed=6,
                          options=TURNS)
            start = time.monotonic()
            seen = watch_to_end(client, t["id"], opened)
            assert time.monotonic() - start < 25
    finally:
        release.set()
    notices = [m for m in seen if m.get("type") == "notice"]
    assert len(notices) == 1 and notices[0]["moves"] == 0 and len(faults) == 2
    words = "no move within 0.3 s" if fault == "timeout" else "illegal move"
    assert "moon" not in notices[0]["reason"]
    assert words in notices[0]["reason"]
    assert seen[-1]["over"] and seen[-1]["moves"] > 5


SLOW = "mcts:iterations=60000,steps=3000000,time=30"
"""A bot that thinks for 30 seconds whatever the machine (under a 30 s bot budget): no
iteration or forward-model budget it could reach first (the default 40000 steps took
under 0.5 s in a card game's late positions once its moves got faster, so a stuck bot
was not stuck)."""


def test_a_search_bot_over_its_time_in_a_worker_process_is_ended(sqlite_url: str) -> None:
    """Bots in processes: the stuck worker alone is killed and the table goes on, bot
    after bot (this hung now and then while bots shared a ProcessPoolExecutor). A worker
    process knows the registry's games only: the first one that takes turns one seat at
    a time."""
    game = next(g for g in cove.all_games() if not g.simultaneous)
    players = max(2, game.min_players)
    with make_client(sqlite_url, bot_budget=30, bot_timeout=0.5, bot_tries=1,
                     bot_pace=0, **FAST) as client:
        t = new_table(client, game.id, players, [SLOW] * players, seed=6)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        notices: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            while len(notices) < 3:
                msg = ws.receive_json()
                if msg.get("type") == "notice":
                    notices.append(msg)
            while msg.get("moves", 0) < 3:
                msg = ws.receive_json()
        assert all("no move within 0.5 s" in n["reason"] for n in notices)
        assert [n["moves"] for n in notices] == [0, 1, 2]
        assert hub.bot_processes.ended >= 3  # each stuck worker was killed...
        assert all(p.is_alive() for p in hub.bot_processes.processes())  # ...none left


def test_a_worker_process_that_dies_or_raises_is_reported_and_replaced() -> None:
    """cove.bots.worker on its own: a crash and a bot error become exceptions the server
    turns into notices; the next job gets a fresh worker (of a registered game: a worker
    knows the registry's games only)."""
    game = cove.load(cove.ids()[0])
    state = game.new(max(2, game.min_players), 1)
    seat = state.to_move()[0]

    async def scenario() -> list[str]:
        bots = ProcessBots(1)
        out = []
        try:
            out.append(await bots.think("random", 1, state, seat, 60))
            (proc,) = bots.processes()
            kill = asyncio.get_running_loop().call_later(
                0.5, os.kill, proc.pid or 0, signal.SIGKILL)
            try:
                await bots.think(SLOW, 1, state, seat, 60)
            except WorkerDied as e:
                out.append(f"died: {e}")
            kill.cancel()
            try:
                await bots.think("no-such-bot", 1, state, seat, 60)
            except BotError as e:
                out.append(f"raised {e.kind}")
            out.append(await bots.think("greedy", 1, state, seat, 60))
        finally:
            bots.close()
        return out

    first, died, raised, last = asyncio.run(scenario())
    assert state.find_action(seat, first) is not None
    assert died.startswith("died: the bot's worker process died")
    assert raised.startswith("raised ")
    assert state.find_action(seat, last) is not None


def test_search_bots_think_in_processes_and_quick_ones_in_threads(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_processes=None) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert [hub.in_process(s) for s in ("random", "greedy", "easy", "mcts:time=1",
                                            "medium", "hard")] == [False] * 3 + [True] * 3
    with make_client(sqlite_url, bot_processes=False) as client:
        assert not client.app.state.hub.in_process("mcts")  # type: ignore[attr-defined]
