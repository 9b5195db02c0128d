"""Safe undo over the API (``POST /api/tables/{id}/undo`` and the websocket's ``undo``):
allowed only when ``State.can_undo`` says so, refused with the reason otherwise, stored as
an entry of the table's log (no row deleted), so a restarted (or killed) server is at the
position the undo left, and pushed to everyone at the table. And the hint route."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient

import cove
from cove.core.undo import why_not
from cove.serve.store import UNDO, open_store
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of
from tests.serve.test_process import server

FAST = {"rate": 1e6, "burst": 10**6}
BIDS = {"bidding": True, "plays": 12}
"""The toy with its secret bid first: a bid shows nothing until both have bid."""
TURNS = {"bidding": False, "plays": 12}
"""The toy without the bid: a card played draws one (a hidden card shown) until the deck
is empty, from the 9th move on (2 players)."""


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def table_of(client: TestClient, t: dict[str, Any], seat: int | None) -> dict[str, Any]:
    params = {} if seat is None else {"token": token_of(t, seat)}
    out: dict[str, Any] = client.get(f"/api/tables/{t['id']}", params=params).json()
    return out


def play(client: TestClient, t: dict[str, Any], seat: int, pick: int = 0) -> dict[str, Any]:
    g = table_of(client, t, seat)
    r = client.post(f"/api/tables/{t['id']}/actions",
                    json={"token": token_of(t, seat), "action": g["legal"][pick]["text"],
                          "expect": g["moves"]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def undo(client: TestClient, t: dict[str, Any], seat: int, **body: Any) -> Any:
    return client.post(f"/api/tables/{t['id']}/undo",
                       json={"token": token_of(t, seat), **body})


def test_a_player_takes_back_a_move_nobody_answered(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=11, options=BIDS)
        start = table_of(client, t, 0)
        assert start["can_undo"] is False and start["version"] == 0
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token_of(t, 1)}") as ws:
            assert ws.receive_json()["type"] == "state"
            bid = play(client, t, 0)
            assert bid["can_undo"] is True and bid["moves"] == 1
            assert table_of(client, t, 1)["can_undo"] is False  # not theirs to take back
            assert ws.receive_json()["type"] == "update"
            r = undo(client, t, 0, expect=1)
            assert r.status_code == 200, r.text
            back = r.json()
            told = ws.receive_json()  # the other seat is told: the whole table again
        assert told["type"] == "state" and told["undone"] == 0
        assert told["moves"] == 0 and told["version"] == 2
        assert [e["text"] for e in told["events"]] == [
            e["text"] for e in table_of(client, t, 1)["events"]]
        same = ("moves", "legal", "view", "decision", "to_move", "can_undo")
        assert {k: back[k] for k in same} == {k: start[k] for k in same}
        assert back["version"] == 2 and back["events"] == start["events"]


def test_undo_is_refused_with_the_reason(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=11, options=BIDS)
        r = undo(client, t, 0)
        assert r.status_code == 422 and r.json()["error"] == "cannot_undo"
        assert "nobody has decided yet" in r.json()["reason"]
        play(client, t, 0)
        play(client, t, 1)  # both bids are shown now
        before = table_of(client, t, 0)
        assert before["can_undo"] is False
        r = undo(client, t, 0)
        assert r.status_code == 422 and "P2 decided last" in r.json()["reason"]
        r = undo(client, t, 1)
        assert r.status_code == 422 and "showed you something hidden" in r.json()["reason"]
        assert client.post(f"/api/tables/{t['id']}/undo", json={}).status_code == 403
        assert undo(client, t, 1, expect=1).status_code == 409
        assert undo(client, t, 1, move="x").status_code == 400
        assert table_of(client, t, 0) == before  # nothing changed


def first_draw(limit: int = 60) -> tuple[str, int]:
    """A game (of two players, seed 5, each playing its first legal move) and the move
    count after its first move that drew a chance outcome."""
    for game in cove.all_games():
        state = game.start(2, 5) if game.min_players <= 2 <= game.max_players else None
        while state is not None and not state.is_over and state.decisions < limit:
            seat = state.to_move()[0]
            state.apply(seat, state.legal_actions(seat)[0])
            if "chance" in why_not(state, seat):
                return game.id, state.decisions
    raise AssertionError("no game drew a chance outcome")


def test_undo_is_refused_after_a_draw(sqlite_url: str) -> None:
    """A move that drew a chance outcome (a die, a shuffle) cannot be taken back."""
    game, drawn = first_draw()
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, game, 2, ["human", "human"], seed=5)
        for _ in range(drawn):
            seat = table_of(client, t, None)["to_move"][0]
            played = play(client, t, seat)
        assert played["moves"] == drawn and played["can_undo"] is False
        r = undo(client, t, seat)
        assert r.status_code == 422 and "chance outcome was drawn" in r.json()["reason"]


def test_an_undo_is_a_log_entry_and_survives_a_restart(db_url: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import cove.serve.hub as hub

    monkeypatch.setattr(hub, "SNAPSHOT_EVERY", 4)  # snapshots before and after the undo
    with make_client(db_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=11, options=TURNS)
        for i in range(8):
            play(client, t, i % 2)
        first = play(client, t, 0)  # the deck is empty now: nothing is shown by a play
        assert first["can_undo"] is True
        assert undo(client, t, 0, expect=9).status_code == 200
        other = play(client, t, 0, pick=-1)  # another card this time: move 9 again
        assert other["moves"] == 9 and other["version"] == 11
        assert other["view"] != first["view"]
        play(client, t, 1)
        play(client, t, 0)
        before = {seat: table_of(client, t, seat) for seat in (0, 1, None)}
    store = open_store(db_url)
    try:
        entries = store.moves(t["id"])
    finally:
        store.close()
    assert len(entries) == 13 and entries[9] == (0, UNDO)  # the move taken back stays too
    with make_client(db_url, **FAST) as client:
        assert {seat: table_of(client, t, seat) for seat in (0, 1, None)} == before
        record = client.get(f"/api/tables/{t['id']}/record", params={
            "token": token_of(t, 0)}).json()
        assert len(record["actions"]) == 11


def test_an_acknowledged_undo_survives_kill_9(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cove.db'}"
    log = tmp_path / "server.log"
    with server(db, log) as (base, proc):
        body = {"game": "toy", "players": 2, "seats": ["human", "human"], "seed": 3,
                "options": BIDS}
        t = httpx2.post(base + "/api/tables", json=body).json()
        token = t["seats"][0]["token"]
        url = f"{base}/api/tables/{t['id']}"
        g = httpx2.get(url, params={"token": token}).json()
        r = httpx2.post(url + "/actions", json={"token": token, "action": g["legal"][0]["text"]})
        assert r.status_code == 200 and r.json()["can_undo"]
        assert httpx2.post(url + "/undo", json={"token": token}).status_code == 200
        os.kill(proc.pid, signal.SIGKILL)  # right after the acknowledged undo
        proc.wait()
    with server(db, log) as (base, _):
        after = httpx2.get(f"{base}/api/tables/{t['id']}", params={"token": token}).json()
    assert after["moves"] == 0 and after["version"] == 2
    assert after["legal"] == g["legal"] and after["view"] == g["view"]


def test_undo_over_the_websocket(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=11, options=BIDS)
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token_of(t, 0)}") as ws:
            first = ws.receive_json()
            ws.send_json({"type": "action", "action": first["legal"][0]["text"]})
            moved = ws.receive_json()
            assert moved["type"] == "update" and moved["can_undo"] is True
            ws.send_json({"type": "undo", "expect": moved["moves"]})
            back = ws.receive_json()
            assert back["type"] == "state" and back["undone"] == 0
            assert back["legal"] == first["legal"] and back["version"] == 2
            ws.send_json({"type": "undo"})
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == 422


def test_a_hint_is_the_search_bots_move_for_the_seat(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_processes=False, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=11, options=TURNS)
        url = f"/api/tables/{t['id']}/hint"
        mover = table_of(client, t, None)["to_move"][0]
        r = client.get(url, params={"token": token_of(t, mover)})
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["moves"] == 0
        assert hint["hint"] in [a["text"] for a in table_of(client, t, mover)["legal"]]
        assert client.get(url, params={"token": token_of(t, mover)}).json() == hint
        r = client.get(url, params={"token": token_of(t, 1 - mover)})
        assert r.status_code == 422 and "none now" in r.json()["reason"]
        assert client.get(url).status_code == 403
