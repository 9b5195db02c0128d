"""Chat at a table: stored with it (across a restart, for late joiners and spectators),
pushed to every connection, limited in size and rate, written by the seated players (and
by spectators only where the creator allowed it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cove.serve.store import open_store
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def say(client: TestClient, t: dict[str, Any], text: Any, seat: int | None = None,
        **extra: Any) -> Any:
    body = {"text": text, **extra}
    if seat is not None:
        body["token"] = token_of(t, seat)
    return client.post(f"/api/tables/{t['id']}/chat", json=body)


def chat(client: TestClient, t: dict[str, Any], **params: Any) -> Any:
    r = client.get(f"/api/tables/{t['id']}/chat", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_messages_survive_a_restart_and_reach_late_joiners(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        t = new_table(client, "toy", 3, ["human", "human", "random"])
        first = say(client, t, "  good   luck  all ", 0)
        assert first.status_code == 201, first.text
        assert {k: first.json()[k] for k in ("n", "seat", "name", "text")} == {
            "n": 0, "seat": 0, "name": "P1", "text": "good luck all"}
        assert say(client, t, "<script>alert(1)</script>", 1).json()["n"] == 1
    with make_client(db_url, **FAST) as client:  # the same database, a new server
        seen = chat(client, t)  # a spectator who came later
        assert [(m["seat"], m["text"]) for m in seen["messages"]] == [
            (0, "good luck all"), (1, "<script>alert(1)</script>")]  # stored as written
        assert seen["next"] == 2 and seen["can_write"] is False
        assert seen["spectators_write"] is False
        assert say(client, t, "and you", 1).json()["n"] == 2  # numbering goes on
        later = chat(client, t, since=2, token=token_of(t, 0))
        assert [m["text"] for m in later["messages"]] == ["and you"]
        assert later["can_write"] is True and later["next"] == 3


def test_every_connection_gets_a_message_players_and_spectators(client: TestClient) -> None:
    t = new_table(client, "toy", 2, ["human", "human"])
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={token_of(t, 1)}") as seat, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as watcher:
        seat.receive_json()
        watcher.receive_json()
        assert say(client, t, "hello <img src=x onerror=alert(1)>", 0).status_code == 201
        for ws in (seat, watcher):
            got = ws.receive_json()
            assert got["type"] == "chat"
            assert got["message"]["text"] == "hello <img src=x onerror=alert(1)>"
            assert got["message"]["seat"] == 0


@pytest.mark.parametrize("text, status, words", [
    ("", 422, "empty"), ("   \n ", 422, "empty"), ("x" * 501, 422, "at most 500"),
    (7, 422, "1 to 500 characters"), ("bell\x07", 422, "control characters")])
def test_a_bad_message_is_refused_saying_why(client: TestClient, text: Any, status: int,
                                             words: str) -> None:
    t = new_table(client, "toy", 2, ["human", "human"])
    r = say(client, t, text, 0)
    assert r.status_code == status and r.json()["error"] == "bad_chat", r.text
    assert words in r.json()["reason"]
    assert chat(client, t)["messages"] == []  # nothing stored


def test_the_longest_message_is_500_characters(client: TestClient) -> None:
    t = new_table(client, "toy", 2, ["human", "human"])
    assert say(client, t, "y" * 500, 1).status_code == 201
    assert chat(client, t)["messages"][0]["text"] == "y" * 500


def test_unknown_keys_and_wrong_tokens_are_refused(client: TestClient) -> None:
    t = new_table(client, "toy", 2, ["human", "human"])
    r = say(client, t, "hi", 0, colour="red")
    assert r.status_code == 400 and "colour" in r.json()["reason"]
    r = client.post(f"/api/tables/{t['id']}/chat", json={"token": "nope", "text": "hi"})
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    assert client.post("/api/tables/nope/chat", json={"text": "hi"}).status_code == 404


def test_each_sender_is_rate_limited_on_its_own(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST, chat_burst=3, chat_rate=0.01) as client:
        t = new_table(client, "toy", 2, ["human", "human"])
        for i in range(3):
            assert say(client, t, f"msg {i}", 0).status_code == 201
        r = say(client, t, "one too many", 0)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert "chat messages from one sender" in r.json()["reason"]
        assert int(r.headers["Retry-After"]) >= 1
        assert say(client, t, "my own bucket", 1).status_code == 201  # P2 is not P1
        assert len(chat(client, t)["messages"]) == 4


def test_spectators_read_but_write_only_where_the_creator_allowed(client: TestClient) -> None:
    closed = new_table(client, "toy", 2, ["human", "human"])
    r = say(client, closed, "let me in")
    assert r.status_code == 403 and "spectators read" in r.json()["reason"]
    opened = new_table(client, "toy", 2, ["human", "human"], spectator_chat=True)
    assert opened["spectator_chat"] is True
    r = say(client, opened, "go P2!")
    assert r.status_code == 201 and r.json()["seat"] is None and r.json()["name"] == ""
    seen = chat(client, opened)
    assert seen["spectators_write"] is True and seen["can_write"] is True
    assert chat(client, closed)["messages"] == []
    bad = client.post("/api/tables", json={"game": "toy", "players": 2,
                                           "spectator_chat": "yes"})
    assert bad.status_code == 400 and "spectator_chat is true" in bad.json()["reason"]


def test_a_named_player_writes_by_their_key_under_their_name(client: TestClient) -> None:
    t = new_table(client, "toy", 2, ["human", "human"], spectator_chat=True)
    ada = client.post("/api/players", json={"name": "Ada"}).json()["key"]
    assert client.post(f"/api/tables/{t['id']}/sit",
                       json={"token": token_of(t, 1), "player": ada}).status_code == 200
    r = say(client, t, "hi from Ada", player=ada)  # the key alone: her seat
    assert (r.json()["seat"], r.json()["name"]) == (1, "Ada")
    bea = client.post("/api/players", json={"name": "Bea"}).json()["key"]
    r = say(client, t, "hi from the rail", player=bea)  # not seated here: a named spectator
    assert (r.json()["seat"], r.json()["name"]) == (None, "Bea")
    assert say(client, t, "who?", player="no such key").status_code == 404


def test_a_database_made_before_chat_and_play_again_opens_and_chats(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    open_store(str(path)).close()
    with sqlite3.connect(path) as db:  # as a server before chat left it
        db.execute("DROP TABLE cove_chat")
        db.execute("DROP TABLE cove_chat_open")
        db.execute("DROP TABLE cove_again")
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    assert not {"cove_chat", "cove_again"} & names
    with make_client(f"sqlite:///{path}", **FAST) as client:
        t = new_table(client, "toy", 2, ["human", "human"])
        assert say(client, t, "still here", 0).status_code == 201
        assert chat(client, t)["messages"][0]["text"] == "still here"
        assert client.get(f"/api/tables/{t['id']}/again").json()["table"] is None
