""""Your turn" webhooks, against a receiver this test starts on a free port: one call per
turn (a simultaneous decision included), in a body Discord and Slack read; tried again
after a 500; held to the player's rate limit; none for a player without a webhook; never
slowing a move; and a URL the server will not call refused saying why."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, states_by_move, token_of
from tests.serve.test_my_games import FAST, move, play_out, player, sit

HOOKS: dict[str, Any] = {**FAST, "bot_processes": False, "webhook_private": True,
                         "webhook_backoff": 0.05, "webhook_rate": 1000.0,
                         "webhook_burst": 1000}
TURNS = {"bidding": False, "plays": 8}
"""Toy tables where P1 plays first and then every other move: several turns, no bid."""


class Receiver:
    """An HTTP server that keeps every JSON body POSTed to it and answers with the statuses
    queued (then 204), each after ``delay`` seconds."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.statuses: list[int] = []
        self.delay = 0.0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length))
                time.sleep(receiver.delay)
                with receiver.lock:
                    receiver.bodies.append(body)
                    status = receiver.statuses.pop(0) if receiver.statuses else 204
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait_for(self, n: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The bodies once there are ``n``; then a moment more, to see that no more come."""
        deadline = time.monotonic() + timeout
        while len(self.bodies) < n:
            assert time.monotonic() < deadline, f"{len(self.bodies)} calls, not {n}"
            time.sleep(0.01)
        time.sleep(0.3)
        return list(self.bodies)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def hook(client: TestClient, key: str, url: Any) -> Any:
    return client.put("/api/players/me/webhook", json={"url": url},
                      headers={"Authorization": f"Bearer {key}"})


def turns_of(record: dict[str, Any], seat: int) -> int:
    """How many times ``seat`` became one to move after another seat's move."""
    history = record["actions"]
    states = states_by_move(record)
    return sum(1 for i in range(1, len(states))
               if seat in states[i].to_move() and history[i - 1][0] != seat)


def test_one_call_per_turn_over_a_game_with_a_bot(sqlite_url: str,
                                                  receiver: Receiver) -> None:
    with make_client(sqlite_url, **HOOKS) as client:
        ada = player(client, "Ada")
        r = hook(client, ada, receiver.url)
        assert r.status_code == 200 and r.json() == {"url": receiver.url}
        got = client.get("/api/players/me/webhook", headers={"Authorization": f"Bearer {ada}"})
        assert got.json() == {"url": receiver.url}
        t = new_table(client, "toy", 2, ["human", "random"], options=TURNS)
        sit(client, t, 0, ada)
        play_out(client, t, [token_of(t, 0), ""])
        record = client.get(f"/api/tables/{t['id']}/record").json()
        want = turns_of(record, 0)
        assert want >= 3  # a game of several turns: the count means something
        bodies = receiver.wait_for(want)
        assert len(bodies) == want
        link = f"http://testserver/web/tables/{t['id']}?me=1"
        for b in bodies:
            assert b["content"] == b["text"] == f"Your turn in Toy (play): {link}"
            assert (b["game"], b["table"], b["link"], b["seat"]) == ("Toy", t["id"], link, 0)


def test_a_simultaneous_decision_calls_each_seat_once(sqlite_url: str,
                                                      receiver: Receiver) -> None:
    with make_client(sqlite_url, **HOOKS) as client:
        ada, bea = player(client, "Ada"), player(client, "Bea")
        for key in (ada, bea):
            assert hook(client, key, receiver.url).status_code == 200
        t = new_table(client, "toy", 3, ["human"] * 3)  # opens with a simultaneous bid
        sit(client, t, 0, ada)
        sit(client, t, 1, bea)
        move(client, t, token_of(t, 2))  # P3 (no name) bids: Ada and Bea are still to
        bodies = receiver.wait_for(2)
        assert sorted(b["seat"] for b in bodies) == [0, 1]
        assert all("(bid)" in b["text"] for b in bodies)
        move(client, t, token_of(t, 0))  # Ada bids: still Bea's same turn
        assert len(receiver.wait_for(2)) == 2


def test_a_failed_call_is_tried_again(sqlite_url: str, receiver: Receiver) -> None:
    receiver.statuses = [500, 500]
    with make_client(sqlite_url, **HOOKS) as client:
        ada = player(client, "Ada")
        hook(client, ada, receiver.url)
        t = new_table(client, "toy", 2, ["human", "random"], options=TURNS)
        sit(client, t, 0, ada)
        move(client, t, token_of(t, 0))  # the bot answers: Ada's turn, told once
        bodies = receiver.wait_for(3)
        assert len(bodies) == 3 and bodies[0] == bodies[1] == bodies[2]
        assert client.app.state.hub.webhooks.calls == 3  # type: ignore[attr-defined]


def test_calls_past_the_players_rate_limit_are_dropped(sqlite_url: str,
                                                       receiver: Receiver) -> None:
    with make_client(sqlite_url, **{**HOOKS, "webhook_rate": 0.0001,
                                    "webhook_burst": 2}) as client:
        ada = player(client, "Ada")
        hook(client, ada, receiver.url)
        t = new_table(client, "toy", 2, ["human", "random"], options=TURNS)
        sit(client, t, 0, ada)
        play_out(client, t, [token_of(t, 0), ""])
        assert turns_of(client.get(f"/api/tables/{t['id']}/record").json(), 0) >= 3
        assert len(receiver.wait_for(2)) == 2


def test_no_call_without_a_webhook_and_none_slows_a_move(sqlite_url: str,
                                                          receiver: Receiver) -> None:
    receiver.delay = 2.0  # a receiver that takes its time
    with make_client(sqlite_url, **{**HOOKS, "webhook_timeout": 10.0}) as client:
        bea = player(client, "Bea")  # no webhook
        ada = player(client, "Ada")
        hook(client, ada, receiver.url)
        hook(client, ada, None)  # ... and removed again
        cid = player(client, "Cid")
        hook(client, cid, receiver.url)
        for key in (bea, ada):
            t = new_table(client, "toy", 2, ["human", "random"], options=TURNS)
            sit(client, t, 0, key)
            play_out(client, t, [token_of(t, 0), ""])
        time.sleep(0.3)
        assert receiver.bodies == []
        # Cid's receiver answers after 2 s; his moves do not wait for it
        t = new_table(client, "toy", 2, ["human", "random"], options=TURNS)
        sit(client, t, 0, cid)
        start = time.monotonic()
        play_out(client, t, [token_of(t, 0), ""])
        assert time.monotonic() - start < 1.5
        assert len(receiver.wait_for(1, timeout=15)) >= 1


@pytest.mark.parametrize("url, why", [
    ("ftp://example.org/x", "is not an http or https URL"),
    ("https://", "is not an http or https URL"),
    ("https://example.org/" + "x" * 500, "at most 500 characters"),
    ("https://exa mple.org/x", "spaces"),
    (42, "as text"),
])
def test_a_bad_webhook_url_is_refused_saying_why(client: TestClient, url: Any,
                                                 why: str) -> None:
    key = player(client, "Ada")
    r = hook(client, key, url)
    assert r.status_code == 422 and r.json()["error"] == "bad_webhook", r.text
    assert why in r.json()["reason"]
    assert "http:// or https:// URL of at most 500" in r.json()["reason"]


def test_the_server_restricts_where_webhooks_go(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:  # private addresses: not by default
        key = player(client, "Ada")
        for url in ("http://127.0.0.1:8080/x", "http://localhost/x", "http://10.1.2.3/x",
                    "http://169.254.169.254/latest"):
            r = hook(client, key, url)
            assert r.status_code == 422 and "private" in r.json()["reason"], url
        assert hook(client, key, "https://discord.com/api/webhooks/1/a").status_code == 200
        assert client.put("/api/players/me/webhook", json={"url": None}).status_code == 401
        r = client.put("/api/players/me/webhook", json={"link": "x"},
                       headers={"Authorization": f"Bearer {key}"})
        assert r.status_code == 400
    with make_client(sqlite_url, **FAST, webhook_hosts="discord.com,.slack.com") as client:
        key = player(client, "Bea")
        assert hook(client, key, "https://hooks.slack.com/services/T/B/x").status_code == 200
        r = hook(client, key, "https://example.org/hook")
        assert r.status_code == 422 and "discord.com, .slack.com" in r.json()["reason"]
    with make_client(sqlite_url, **FAST, webhook_hosts="none") as client:
        key = player(client, "Cid")
        r = hook(client, key, "https://discord.com/api/webhooks/1/a")
        assert r.status_code == 422 and r.json()["error"] == "webhooks_off"


def test_the_serve_flags_set_where_webhooks_go(monkeypatch: pytest.MonkeyPatch) -> None:
    import cove.serve
    from cove import cli

    seen: list[Any] = []
    monkeypatch.setattr(cove.serve, "run", lambda host, port, settings: seen.append(settings)
                        or 0)
    assert cli.main(["serve", "--webhook-hosts", "discord.com", "--webhook-private"]) == 0
    assert (seen[0].webhook_hosts, seen[0].webhook_private) == ("discord.com", True)
    assert cli.main(["serve"]) == 0
    assert (seen[1].webhook_hosts, seen[1].webhook_private) == ("*", False)


def test_a_restarted_server_does_not_call_again_for_the_same_turn(
        sqlite_url: str, receiver: Receiver) -> None:
    with make_client(sqlite_url, **HOOKS) as client:
        ada = player(client, "Ada")
        hook(client, ada, receiver.url)
        t = new_table(client, "toy", 2, ["human", "human"], options=TURNS)
        sit(client, t, 0, ada)
        move(client, t, token_of(t, 0))
        move(client, t, token_of(t, 1))  # Ada's turn: told
        assert len(receiver.wait_for(1)) == 1
    with make_client(sqlite_url, **HOOKS) as client:  # the same turn, seen by a new process
        hub = client.app.state.hub  # type: ignore[attr-defined]
        client.get(f"/api/tables/{t['id']}")

        async def again() -> None:  # as a catch-up of another process's move would
            hub.webhooks.after_move(hub.tables[t["id"]])

        client.portal.call(again)  # type: ignore[union-attr]  # (in the server's loop)
        assert len(receiver.wait_for(1)) == 1
        move(client, t, token_of(t, 0))
        move(client, t, token_of(t, 1))  # the next turn is told
        assert len(receiver.wait_for(2)) == 2
