"""Closing abandoned tables: the creator closes a table nobody else has played at (with
the key its creation returned), and unfinished tables idle for ``open_idle`` leave the open
listing; both kept across a restart."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6}
TURNS = {"bidding": False, "plays": 12}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def listed(client: TestClient) -> list[str]:
    return [t["id"] for t in client.get("/api/tables", params={"status": "open"}).json()[
        "tables"]]


def close(client: TestClient, t: dict[str, Any], key: Any) -> Any:
    return client.post(f"/api/tables/{t['id']}/close", json={"token": key})


def play(client: TestClient, t: dict[str, Any], seat: int) -> Any:
    g = client.get(f"/api/tables/{t['id']}", params={"token": token_of(t, seat)}).json()
    text = g["legal"][0]["text"] if g["legal"] else "play 1"
    return client.post(f"/api/tables/{t['id']}/actions",
                       json={"token": token_of(t, seat), "action": text})


def test_the_creator_closes_a_table_nobody_else_played_at(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=3, options=TURNS)
        other = new_table(client, "toy", 2, ["human", "random"], seed=4, options=TURNS)
        assert t["owner"] != other["owner"] and len(t["owner"]) >= 32
        assert play(client, t, 0).status_code == 200  # the creator's own move is no join
        assert close(client, t, other["owner"]).status_code == 403
        assert close(client, t, token_of(t, 0)).status_code == 403  # a seat is no owner
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token_of(t, 1)}") as ws:
            ws.receive_json()
            r = close(client, t, t["owner"])
            assert r.status_code == 200 and r.json() == {"id": t["id"], "closed": True}
            told = ws.receive_json()
        assert told["closed"] is True and told["legal"] == []
        assert t["id"] not in listed(client) and other["id"] in listed(client)
        r = play(client, t, 1)
        assert r.status_code == 409 and r.json()["error"] == "closed"
        assert close(client, t, t["owner"]).status_code == 200  # again: still closed
    with make_client(db_url, **FAST) as client:
        assert t["id"] not in listed(client)
        g = client.get(f"/api/tables/{t['id']}").json()
        assert g["closed"] is True and g["moves"] == 1


def test_a_table_others_played_at_or_finished_is_not_closed(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=3, options=TURNS)
        play(client, t, 0)
        play(client, t, 1)
        r = close(client, t, t["owner"])
        assert r.status_code == 409 and "P2 has played here" in r.json()["reason"]
        bots = new_table(client, "toy", 2, ["random", "random"], seed=5, options=TURNS)
        with client.websocket_connect(f"/ws/tables/{bots['id']}") as ws:
            while not ws.receive_json()["over"]:
                pass
        r = close(client, bots, bots["owner"])
        assert r.status_code == 409 and r.json()["error"] == "over"


def test_idle_open_tables_leave_the_listing(sqlite_url: str) -> None:
    with make_client(sqlite_url, open_idle=0.5, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"], seed=3, options=TURNS)
        assert t["id"] in listed(client)
        time.sleep(0.6)
        assert t["id"] not in listed(client)
        assert client.get(f"/api/tables/{t['id']}").status_code == 200  # its links still work
        play(client, t, 0)
        assert t["id"] in listed(client)  # active again
