"""Clocks over the API: a table made with a clock shows each seat's time in every payload,
derived from the stored log (the same after a restart); a seat out of time lets the others
choose a bot for this decision or for the rest of the game (never by itself), which is
stored and restored, and its player takes the seat back; a real-time table shows who is
away. The server's clock is a fake the test moves (``Hub.now``): nothing sleeps but the
polls for a bot's move."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

from cove.serve.timing import TAKEOVER_BOT
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of
from tests.serve.test_process import server

FAST = {"rate": 1e6, "burst": 10**6, "bot_processes": False}
TURNS = {"bidding": False, "plays": 12}
BIDS = {"bidding": True, "plays": 12}
REALTIME = {"mode": "realtime", "allowance": 600, "per_move": 20}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


class FakeTime:
    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@contextlib.contextmanager
def serving(url: str, now: FakeTime) -> Iterator[TestClient]:
    """A server whose clocks read ``now``."""
    with make_client(url, **FAST) as c:
        c.app.state.hub.now = now  # type: ignore[attr-defined]
        yield c


@contextlib.contextmanager
def clocked(url: str) -> Iterator[tuple[TestClient, dict[str, Any], FakeTime]]:
    """A server on a fake time, and a real-time table for two made on it."""
    now = FakeTime()
    with serving(url, now) as client:
        yield client, two_seats(client), now


def two_seats(client: TestClient, **extra: Any) -> dict[str, Any]:
    """A table of the toy for two people, real-time (10 min + 20 s) unless ``extra`` says."""
    return new_table(client, "toy", 2, ["human", "human"],
                     **{"options": TURNS, "clock": REALTIME, **extra})


def hold_bots(client: TestClient) -> threading.Event:
    """Bots think until the event returned is set (to act while one is deciding)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    release = threading.Event()
    real = hub._bot_action

    async def slow(table: Any, p: int, st: Any) -> Any:
        while not release.is_set():
            await asyncio.sleep(0.01)
        return await real(table, p, st)

    hub._bot_action = slow
    return release


def get(client: TestClient, t: dict[str, Any], seat: int | None) -> dict[str, Any]:
    params = {} if seat is None else {"token": token_of(t, seat)}
    r = client.get(f"/api/tables/{t['id']}", params=params)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def clock_of(g: dict[str, Any]) -> dict[int, tuple[float, bool]]:
    return {c["seat"]: (c["remaining"], c["running"]) for c in g["clock"]["seats"]}


def move(client: TestClient, t: dict[str, Any], seat: int) -> Any:
    g = get(client, t, seat)
    return client.post(f"/api/tables/{t['id']}/actions",
                       json={"token": token_of(t, seat), "action": g["legal"][0]["text"],
                             "expect": g["moves"]})


def post(client: TestClient, t: dict[str, Any], what: str, by: int, **body: Any) -> Any:
    return client.post(f"/api/tables/{t['id']}/{what}",
                       json={"token": token_of(t, by), **body})


def until_moves(client: TestClient, t: dict[str, Any], n: int) -> dict[str, Any]:
    """Poll (briefly, in real time) until the table has made ``n`` moves: a bot's move."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        g = get(client, t, None)
        if g["moves"] >= n:
            return g
        time.sleep(0.05)
    raise AssertionError(f"no move {n} within 20 s")


def test_the_clock_counts_for_the_seat_to_move_and_survives_a_restart(
        sqlite_url: str) -> None:
    with clocked(sqlite_url) as (client, t, now):
        g = get(client, t, 0)
        assert g["clock"]["mode"] == "realtime" and g["clock"]["as_of"] == now.t
        assert clock_of(g) == {0: (600, True), 1: (600, False)}
        now.t += 100
        assert move(client, t, 0).status_code == 200  # 500 left, + 20
        now.t += 30
        g = get(client, t, 1)
        assert clock_of(g) == {0: (520, False), 1: (570, True)}
        assert [c["shown"] for c in g["clock"]["seats"]] == ["8:40", "9:30"]
    now.t += 50  # the server was down 50 s: it counts for the seat to move
    with serving(sqlite_url, now) as client:
        assert clock_of(get(client, t, None)) == {0: (520, False), 1: (520, True)}


def test_simultaneous_decisions_run_every_clock_at_once(sqlite_url: str) -> None:
    now = FakeTime()
    with serving(sqlite_url, now) as client:
        t = two_seats(client, options=BIDS)
        now.t += 40
        assert move(client, t, 0).status_code == 200
        now.t += 10
        assert clock_of(get(client, t, 0)) == {0: (580, False), 1: (550, True)}


def test_updates_carry_the_clock(sqlite_url: str) -> None:
    with clocked(sqlite_url) as (client, t, now), client.websocket_connect(
            f"/ws/tables/{t['id']}?token={token_of(t, 1)}") as ws:
        first = ws.receive_json()
        assert clock_of(first)[0] == (600, True)
        now.t += 60
        assert move(client, t, 0).status_code == 200
        msg = ws.receive_json()
        while msg["type"] != "update":
            msg = ws.receive_json()
        assert clock_of(msg) == {0: (560, False), 1: (600, True)}
        assert msg["clock"]["as_of"] == now.t


@pytest.mark.parametrize("clock, says", [
    ({"mode": "realtime", "allowance": 10, "per_move": 0}, "counted in minutes"),
    ({"mode": "turn-based", "allowance": 600, "per_move": 0}, "hours or days"),
    ({"mode": "realtime", "allowance": 600, "per_move": 900}, "from 0 to the allowance"),
    ({"mode": "correspondence", "allowance": 600, "per_move": 0}, "realtime, turn-based"),
])
def test_a_bad_clock_is_refused_with_what_is_valid(sqlite_url: str, clock: Any,
                                                   says: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        r = client.post("/api/tables", json={"game": "toy", "players": 2,
                                             "seats": ["human", "human"], "clock": clock})
        assert r.status_code == 422 and r.json()["error"] == "bad_clock", r.text
        assert says in r.json()["reason"]
        t = two_seats(client, clock=None)
        assert "clock" not in get(client, t, 0)  # no clock: the default, as before


def test_the_listing_says_each_tables_clock(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        plain = two_seats(client, clock=None)
        fast = two_seats(client)
        slow = two_seats(client, clock={"mode": "turn-based", "allowance": 3 * 86400,
                                         "per_move": 86400})
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert "clock" not in listed[plain["id"]]
        assert listed[fast["id"]]["clock"] == REALTIME
        assert listed[slow["id"]]["clock"]["mode"] == "turn-based"
        page = client.get("/web/").text  # the lobby's open tables, in words
        assert "real-time, 10 minutes + 20 seconds a move" in page
        assert "turn-based, 3 days + 1 day a move" in page


def test_no_choice_while_the_clock_has_time_and_only_for_the_others(sqlite_url: str) -> None:
    with clocked(sqlite_url) as (client, t, now):
        now.t += 599
        r = post(client, t, "timeout", 1, seat=0, choice="decision")
        assert r.status_code == 422 and r.json()["error"] == "time_left", r.text
        assert "0:01 left" in r.json()["reason"]
        now.t += 1
        assert get(client, t, 1)["out_of_time"] == [0]
        r = post(client, t, "timeout", 0, seat=0, choice="decision")
        assert r.status_code == 422 and "not its own player" in r.json()["reason"]
        r = post(client, t, "timeout", 1, seat=1, choice="decision")
        assert r.status_code == 422  # P2 is not out of time (and the own seat)
        r = post(client, t, "timeout", 1, seat=0, choice="forfeit")
        assert r.status_code == 400 and "decision" in r.json()["reason"]
        r = client.post(f"/api/tables/{t['id']}/timeout", json={"seat": 0, "choice": "game"})
        assert r.status_code == 403  # a spectator does not choose
        time.sleep(0.2)  # never taken by itself: nothing moved
        g = get(client, t, 1)
        assert g["moves"] == 0 and g["bots_for"] == [] and g["out_of_time"] == [0]


def test_a_bot_plays_one_decision_then_the_seat_is_its_players(sqlite_url: str) -> None:
    with clocked(sqlite_url) as (client, t, now):
        now.t += 700
        r = post(client, t, "timeout", 1, seat=0, choice="decision")
        assert r.status_code == 200, r.text
        assert r.json() == {"seat": 0, "bot": TAKEOVER_BOT, "until": "decision"}
        g = until_moves(client, t, 1)
        assert g["bots_for"] == []  # that decision only
        assert clock_of(g)[0] == (20, False)  # out of time, then + 20 s for the move
        assert move(client, t, 1).status_code == 200
        g = get(client, t, 0)
        assert g["legal"] and clock_of(g)[0] == (20, True)
        time.sleep(0.2)
        assert get(client, t, 0)["moves"] == 2  # the bot did not play the next one


def test_a_bot_takes_the_seat_over_across_a_restart_until_reclaimed(
        sqlite_url: str) -> None:
    with clocked(sqlite_url) as (client, t, now):
        now.t += 601
        r = post(client, t, "timeout", 1, seat=0, choice="game")
        assert r.status_code == 200, r.text
        g = until_moves(client, t, 1)
        assert g["bots_for"] == [{"seat": 0, "bot": TAKEOVER_BOT, "until": "game"}]
    # the server stopped with the seat taken over: a new one restores it
    with serving(sqlite_url, now) as client:
        g = get(client, t, 0)
        assert g["bots_for"] == [{"seat": 0, "bot": TAKEOVER_BOT, "until": "game"}]
        release = hold_bots(client)
        assert move(client, t, 1).status_code == 200
        g = get(client, t, 0)
        assert g["to_move"] == [0] and g["legal"]
        assert clock_of(g)[0] == (20, False)  # a seat a bot plays has no running clock
        r = move(client, t, 0)  # P1's own move while the bot holds the seat: refused
        assert r.status_code == 409 and r.json()["error"] == "bot_playing", r.text
        r = post(client, t, "reclaim", 1)
        assert r.status_code == 422 and "no bot plays P2" in r.json()["reason"]
        release.set()
        until_moves(client, t, 3)  # the bot plays on for P1 after the restart
        r = post(client, t, "reclaim", 0)
        assert r.status_code == 200, r.text
        assert r.json()["reclaimed"] is True and not r.json()["from_next_decision"]
        g = get(client, t, 0)
        assert g["bots_for"] == [] and g["seats"][0]["kind"] == "human"
    with serving(sqlite_url, now) as client:  # and the reclaim is stored too
        assert get(client, t, 0)["bots_for"] == []
        assert move(client, t, 1).status_code == 200
        time.sleep(0.2)
        g = get(client, t, 0)
        assert g["moves"] == 4 and g["legal"]  # P1 decides again, in person
        assert move(client, t, 0).status_code == 200


def test_a_takeover_stored_before_the_bot_moved_is_played_after_a_restart(
        sqlite_url: str) -> None:
    with clocked(sqlite_url) as (client, t, now):
        hold_bots(client)  # the server stops before the bot has moved
        now.t += 601
        assert post(client, t, "timeout", 1, seat=0, choice="decision").status_code == 200
        assert get(client, t, None)["moves"] == 0
    with serving(sqlite_url, now) as client:
        # restored as it starts (a bot is to move there), not when first asked for
        assert t["id"] in client.app.state.hub.tables  # type: ignore[attr-defined]
        g = until_moves(client, t, 1)
        assert g["bots_for"] == [] and clock_of(g)[0] == (20, False)


def test_a_clock_survives_kill_9_exactly(tmp_path: Path) -> None:
    """A real server, real time: P1 moves, the server is killed; started again, P1's
    stopped clock is what it was to the millisecond, and P2's ran on for the time between
    the two answers."""
    db = f"sqlite:///{tmp_path / 'cove.db'}"
    log = tmp_path / "server.log"
    body = {"game": "toy", "players": 2, "seats": ["human", "human"], "options": TURNS,
            "clock": REALTIME}
    with server(db, log) as (base, proc):
        t = httpx2.post(base + "/api/tables", json=body).json()
        url = f"{base}/api/tables/{t['id']}"
        token = t["seats"][0]["token"]
        g = httpx2.get(url, params={"token": token}).json()
        r = httpx2.post(url + "/actions", json={"token": token, "action": g["legal"][0]["text"]})
        assert r.status_code == 200
        before = r.json()["clock"]
        os.kill(proc.pid, signal.SIGKILL)  # right after the acknowledged move
        proc.wait()
    with server(db, log) as (base, _):
        after = httpx2.get(f"{base}/api/tables/{t['id']}").json()["clock"]
    was, now = (clock_of({"clock": c}) for c in (before, after))
    assert now[0] == was[0] and not now[0][1]  # P1 moved: stopped, as it was
    ran = after["as_of"] - before["as_of"]
    assert now[1][1] and abs(now[1][0] - (was[1][0] - ran)) < 0.01


def test_a_reclaim_while_the_bot_decides_takes_effect_from_the_next_decision(
        sqlite_url: str) -> None:
    now = FakeTime()
    with serving(sqlite_url, now) as client:
        release = hold_bots(client)
        t = two_seats(client)
        now.t += 601
        assert post(client, t, "timeout", 1, seat=0, choice="game").status_code == 200
        r = post(client, t, "reclaim", 0)
        assert r.status_code == 200 and r.json()["from_next_decision"] is True
        g = get(client, t, 0)
        assert g["bots_for"] == [{"seat": 0, "bot": TAKEOVER_BOT, "until": "finishing"}]
        assert clock_of(g)[0] == (0, False)
        release.set()
        g = until_moves(client, t, 1)  # the bot finished the decision it was making
        assert g["bots_for"] == []
        assert move(client, t, 1).status_code == 200
        time.sleep(0.2)
        g = get(client, t, 0)
        assert g["moves"] == 2 and g["legal"] and clock_of(g)[0] == (20, True)


def test_no_clock_no_timeout(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = two_seats(client, clock=None)
        r = post(client, t, "timeout", 1, seat=0, choice="game")
        assert r.status_code == 422 and r.json()["error"] == "no_clock"


def test_away_at_once_when_the_last_websocket_closes(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = two_seats(client)
        base = f"/ws/tables/{t['id']}?token="
        with client.websocket_connect(base + token_of(t, 0)) as ws0:
            first = ws0.receive_json()
            assert first["away"] == [1]  # P2 has not opened the table
            assert ws0.receive_json() == {"type": "presence", "away": [1]}
            with client.websocket_connect(base + token_of(t, 1)) as ws1:
                assert ws0.receive_json() == {"type": "presence", "away": []}
                assert ws1.receive_json()["away"] == []
                assert get(client, t, 0)["away"] == []
            assert ws0.receive_json() == {"type": "presence", "away": [1]}
            assert get(client, t, None)["away"] == [1]


def test_turn_based_tables_show_no_one_away(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], options=TURNS,
                      clock={"mode": "turn-based", "allowance": 3 * 86400,
                             "per_move": 86400})
        g = get(client, t, 0)
        left, running = clock_of(g)[0]
        assert g["away"] == [] and running and 3 * 86400 - 60 < left <= 3 * 86400
        assert g["clock"]["seats"][1]["shown"] == "3 d 0 h"


def test_a_database_made_before_clocks_opens_and_gets_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with make_client(url, **FAST) as client:
        old = two_seats(client, clock=None)
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute("DROP TABLE cove_clocks")
        db.execute("DROP TABLE cove_seat_log")
    with make_client(url, **FAST) as client:
        assert "clock" not in get(client, old, 0)
        assert move(client, old, 0).status_code == 200
        t = two_seats(client)
        assert clock_of(get(client, t, 0))[0][1] is True
