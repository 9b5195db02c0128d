""""My games": a named player's tables, the ones waiting for them first (the longest-waiting
first), then their other unfinished tables, then the finished ones; their personal key
opens their seat; a database made before the list existed lists its named seats too."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cove.serve.store import SCHEMA, open_store
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6, "read_rate": 1e6, "read_burst": 10**6,
        "create_rate": 1e6, "create_burst": 10**6}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def player(client: TestClient, name: str) -> str:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    key: str = r.json()["key"]
    return key


def sit(client: TestClient, t: dict[str, Any], seat: int, key: str) -> None:
    r = client.post(f"/api/tables/{t['id']}/sit", json={"token": token_of(t, seat),
                                                        "player": key})
    assert r.status_code == 200, r.text


def move(client: TestClient, t: dict[str, Any], token: str) -> dict[str, Any]:
    """The seat's first legal move."""
    url = f"/api/tables/{t['id']}"
    g = client.get(url, params={"token": token}).json()
    assert g["legal"], g
    r = client.post(url + "/actions", json={"token": token, "action": g["legal"][0]["text"]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def play_out(client: TestClient, t: dict[str, Any], tokens: list[str]) -> None:
    """Every human seat (a token; "" for a bot) makes its first legal move until the end."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        g = client.get(f"/api/tables/{t['id']}").json()
        if g["over"]:
            return
        people = [p for p in g["to_move"] if tokens[p]]
        for p in people:
            move(client, t, tokens[p])
        if not people:
            time.sleep(0.01)  # a bot thinks
    raise AssertionError("the game did not end")


def mine(client: TestClient, key: str) -> Any:
    return client.get("/api/players/me/tables", headers={"Authorization": f"Bearer {key}"})


def test_my_games_lists_waiting_tables_first_then_live_then_finished(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        ada, bea, cid = player(client, "Ada"), player(client, "Bea"), player(client, "Cid")
        two = ["human", "human"]
        # t1: both to bid (Ada's turn since its creation: the longest wait)
        t1 = new_table(client, "toy", 2, two)
        sit(client, t1, 0, ada)
        sit(client, t1, 1, bea)
        time.sleep(0.02)
        # t2: Ada bid; the other seat (nobody named) is to move: not Ada's turn
        t2 = new_table(client, "toy", 2, two)
        sit(client, t2, 0, ada)
        move(client, t2, token_of(t2, 0))
        time.sleep(0.02)
        # t3: finished
        t3 = new_table(client, "toy", 2, two, options={"plays": 2})
        sit(client, t3, 0, ada)
        sit(client, t3, 1, bea)
        play_out(client, t3, [token_of(t3, 0), token_of(t3, 1)])
        time.sleep(0.02)
        # t4: Bea bid, Ada is to move since then (a shorter wait than t1's)
        t4 = new_table(client, "toy", 2, two)
        sit(client, t4, 0, ada)
        sit(client, t4, 1, bea)
        move(client, t4, token_of(t4, 1))

        r = mine(client, ada)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["name"] == "Ada"
        rows = got["tables"]
        assert [row["id"] for row in rows] == [t1["id"], t4["id"], t2["id"], t3["id"]]
        assert [row["your_turn"] for row in rows] == [True, True, False, False]
        assert [row["over"] for row in rows] == [False, False, False, True]
        done = client.get(f"/api/tables/{t3['id']}").json()
        assert (rows[3]["scores"], rows[3]["winners"]) == (done["scores"], done["winners"])
        assert "scores" not in rows[0]
        assert rows[0]["updated"] < rows[1]["updated"]  # the longest-waiting first
        assert all(row["seat"] == 0 and row["game"] == "toy" for row in rows)
        assert rows[0]["link"] == f"/web/tables/{t1['id']}?me=1"
        assert rows[0]["seats"][1] == {"seat": 1, "kind": "human", "name": "Bea"}
        assert "player" not in json.dumps(got)  # no key hashes

        # Bea's list: only the tables she sits at, from her side
        bea_rows = mine(client, bea).json()["tables"]
        assert [row["id"] for row in bea_rows] == [t1["id"], t4["id"], t3["id"]]
        assert [row["your_turn"] for row in bea_rows] == [True, False, False]
        assert all(row["seat"] == 1 for row in bea_rows)
        assert mine(client, cid).json() == {"name": "Cid", "tables": []}

        # the key opens the player's seat, as the list's links use it
        g = client.get(f"/api/tables/{t1['id']}", params={"token": ada}).json()
        assert g["seat"] == 0 and g["legal"]
        assert client.get(f"/api/tables/{t2['id']}", params={"token": bea}).status_code == 403


def test_a_missing_or_wrong_key_is_refused_saying_why(client: TestClient) -> None:
    r = client.get("/api/players/me/tables")
    assert r.status_code == 401 and r.json()["error"] == "no_player"
    assert "Authorization: Bearer" in r.json()["reason"]
    r = mine(client, "not a key anybody has")
    assert r.status_code == 403 and r.json()["error"] == "unknown_player"
    assert "no player has this key" in r.json()["reason"]
    r = client.get("/api/players/me/tables", headers={"Authorization": "Basic eDp5"})
    assert r.status_code == 400 and "Bearer" in r.json()["reason"]


def test_a_database_made_before_the_list_lists_its_named_seats(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:  # the schema as it was, one named seat
        for stmt in SCHEMA:
            db.execute(stmt)
        seats = [{"kind": "human", "token_hash": "t0", "player": "hashA", "name": "Ada"},
                 {"kind": "bot", "spec": "random"}]
        db.execute("INSERT INTO cove_tables (id, game, players, options, seed, seats, "
                   "created, updated, moves, over, snap_moves, bot_turn, state) VALUES "
                   "('old1', 'toy', 2, '{}', 1, ?, 1.0, 2.0, 0, 0, 0, 0, 'null')",
                   (json.dumps(seats),))
    store = open_store(f"sqlite:///{path}")
    try:
        rows = store.player_seats("hashA", 10)
        assert [(r["id"], r["seat"], r["rated"]) for r in rows] == [("old1", 0, False)]
        assert store.player_seats("hashB", 10) == []
    finally:
        store.close()
