"""Players with names: a player gets a personal key for the name they chose, and a seat
they take with it shows the name to everyone (the table, the listing), across a restart."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def player(client: TestClient, name: Any) -> Any:
    return client.post("/api/players", json={"name": name})


def sit(client: TestClient, t: dict[str, Any], seat: int, key: str) -> Any:
    return client.post(f"/api/tables/{t['id']}/sit",
                       json={"token": token_of(t, seat), "player": key})


def test_a_named_player_takes_a_seat_and_everyone_sees_the_name(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        ada = player(client, "  Ada   Lovelace ")
        assert ada.status_code == 201 and ada.json()["name"] == "Ada Lovelace"
        key = ada.json()["key"]
        t = new_table(client, "toy", 3, ["human", "human", "random"], seed=2)
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token_of(t, 1)}") as ws:
            ws.receive_json()
            r = sit(client, t, 0, key)
            assert r.status_code == 200 and r.json() == {"seat": 0, "name": "Ada Lovelace"}
            told = ws.receive_json()
        assert told["seats"][0] == {"seat": 0, "kind": "human", "name": "Ada Lovelace"}
        assert "player" not in str(told["seats"])  # the key's hash stays on the server
        assert sit(client, t, 0, key).status_code == 200  # again: the same
        bea = player(client, "Bea").json()["key"]
        r = sit(client, t, 0, bea)
        assert r.status_code == 409 and "Ada Lovelace took this seat" in r.json()["reason"]
        assert sit(client, t, 1, "no such key").status_code == 404
        listed = client.get("/api/tables").json()["tables"]
        assert [s.get("name") for s in listed[0]["seats"]] == ["Ada Lovelace", None, None]
    with make_client(db_url, **FAST) as client:
        g = client.get(f"/api/tables/{t['id']}").json()
        assert g["seats"][0]["name"] == "Ada Lovelace"
        assert sit(client, t, 1, bea).status_code == 200  # the key outlives the server


@pytest.mark.parametrize("name, why", [
    ("", "cannot be a name"), ("x" * 25, "cannot be a name"), ("bell\x07", "cannot be"),
    ("P2", "a seat's own name"), (7, "as text")])
def test_a_bad_name_is_refused_saying_what_a_name_is(client: TestClient, name: Any,
                                                     why: str) -> None:
    r = player(client, name)
    assert r.status_code == 422 and why in r.json()["reason"]
    assert "1 to 24" in r.json()["reason"]


def test_the_end_screen_and_scores_name_the_players() -> None:
    import cove
    from cove.web import fragments

    state = cove.load("toy").start(2, 3)
    while not state.is_over:
        p = state.to_move()[0]
        state.apply(p, state.legal_actions(p)[0])
    seats = [{"seat": 0, "kind": "human", "name": "Ada"}, {"seat": 1, "kind": "human"}]
    end = fragments.end(state, state.view(1), 1, seats)
    assert "Ada (P1)" in end and "P2 (you)" in end
    table = fragments.scores(state.game, state.view(0), seats, 0, state.scores())
    assert "Ada (P1) (you)" in table and "<th scope=\"col\">P2</th>" in table
