"""Play again: a finished table's seat starts a new table of the same game, options and
seats with a new seed; every connection of the old table is told; each seat's holder takes
their own seat there with their old token (named players keep their names, bots their
specs); nobody else can."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6, "bot_processes": False}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def finish(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    """Play the human seats' first legal moves until the game is over."""
    url = f"/api/tables/{t['id']}"
    for _ in range(500):
        g = client.get(url).json()
        if g["over"]:
            return dict(g)
        for s in t["seats"]:
            if s["kind"] != "human":
                continue
            mine = client.get(url, params={"token": s["token"]}).json()
            if mine["legal"]:
                client.post(url + "/actions", json={"token": s["token"], "expect":
                                                    mine["moves"],
                                                    "action": mine["legal"][0]["text"]})
    raise AssertionError("the game did not end")


def again(client: TestClient, t: dict[str, Any], seat: int | None) -> Any:
    body = {} if seat is None else {"token": token_of(t, seat)}
    return client.post(f"/api/tables/{t['id']}/again", json=body)


def test_play_again_keeps_game_options_seats_and_names_with_a_new_seed(
        sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, "toy", 3, ["human", "greedy", "human"], seed=None,
                      options={"plays": 2})
        ada = client.post("/api/players", json={"name": "Ada"}).json()["key"]
        assert client.post(f"/api/tables/{t['id']}/sit", json={
            "token": token_of(t, 2), "player": ada}).status_code == 200
        finish(client, t)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        old = hub.tables[t["id"]]
        assert client.get(f"/api/tables/{t['id']}/again").json() == {"table": None,
                                                                      "by": None}
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token_of(t, 0)}") as p1, \
                client.websocket_connect(f"/ws/tables/{t['id']}") as watcher:
            p1.receive_json()
            watcher.receive_json()
            r = again(client, t, 2)  # Ada, at P3, starts it
            assert r.status_code == 201, r.text
            made = r.json()
            for ws in (p1, watcher):
                told = ws.receive_json()
                assert told == {"type": "again", "table": made["id"], "by": 2,
                                "name": "Ada (P3)"}
        assert made["seat"] == 2 and made["created"] is True
        assert made["link"] == f"/web/tables/{made['id']}?token={made['token']}"
        new = client.get(f"/api/tables/{made['id']}", params={"token": made["token"]}).json()
        assert new["seat"] == 2 and new["moves"] >= 0 and not new["over"]
        assert new["seats"] == [{"seat": 0, "kind": "human"},
                                {"seat": 1, "kind": "bot", "bot": "greedy"},
                                {"seat": 2, "kind": "human", "name": "Ada"}]
        table = hub.tables[made["id"]]
        assert table.state.options.to_dict() == old.state.options.to_dict()
        assert table.state.options.to_dict()["plays"] == 2
        assert table.seed != old.seed and not table.seed_chosen
        listed = client.get(f"/api/tables/{t['id']}/again").json()
        assert listed == {"table": made["id"], "by": 2, "name": "Ada (P3)"}

        # P1 follows with their own old token: their seat, a token that opens it
        joined = again(client, t, 0)
        assert joined.status_code == 200 and joined.json()["created"] is False
        assert (joined.json()["id"], joined.json()["seat"]) == (made["id"], 0)
        mine = client.get(f"/api/tables/{made['id']}",
                          params={"token": joined.json()["token"]}).json()
        assert mine["seat"] == 0
        # no token of the old table opens the new one
        for s in (0, 2):
            r = client.get(f"/api/tables/{made['id']}", params={"token": token_of(t, s)})
            assert r.status_code == 403
        # a second press for a seat gives a fresh token; the earlier one stops opening it
        again_ada = again(client, t, 2).json()
        assert again_ada["token"] != made["token"]
        assert client.get(f"/api/tables/{made['id']}",
                          params={"token": made["token"]}).status_code == 403
    with make_client(sqlite_url, **FAST) as client:  # the link outlives a restart
        assert client.get(f"/api/tables/{t['id']}/again").json()["table"] == made["id"]
        assert again(client, t, 0).json()["id"] == made["id"]


def test_only_a_seat_of_a_finished_table_plays_again(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "random"])
        r = again(client, t, 0)
        assert r.status_code == 409 and r.json()["error"] == "not_over"
        finish(client, t)
        r = again(client, t, None)
        assert r.status_code == 403 and "spectators" in r.json()["reason"]
        r = client.post(f"/api/tables/{t['id']}/again", json={"token": "wrong"})
        assert r.status_code == 403
        r = client.post(f"/api/tables/{t['id']}/again", json={"token": token_of(t, 0), "x": 1})
        assert r.status_code == 400 and "unknown key 'x'" in r.json()["reason"]
        assert client.get(f"/api/tables/{t['id']}/again").json()["table"] is None
