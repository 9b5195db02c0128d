"""The HTTP and websocket API on SQLite and PostgreSQL: tables, seats, spectators, moves,
bad input, limits, races and a restart."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import cove
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6}
TURNS = {"bidding": False, "plays": 12}
"""The toy without its simultaneous bid: one seat to move at a time, for as many moves
as its cards last (10 for two)."""


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    """Every table here is of the toy."""
    return toy_registered


@pytest.fixture
def short_snapshots(monkeypatch: pytest.MonkeyPatch) -> int:
    """A snapshot every 4 moves (not every 32), so that the toy's short games pass one."""
    import cove.serve.hub as hub

    monkeypatch.setattr(hub, "SNAPSHOT_EVERY", 4)
    return 4


def two_humans(client: TestClient, **extra: Any) -> dict[str, Any]:
    return new_table(client, "toy", 2, ["human", "human"], seed=11, options=TURNS, **extra)


def mover(client: TestClient, table: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The token of a seat to move and its payload."""
    g = client.get(f"/api/tables/{table['id']}").json()
    seat = g["to_move"][0]
    token = token_of(table, seat)
    return token, client.get(f"/api/tables/{table['id']}", params={"token": token}).json()


def test_games_are_listed_as_cove_games_json(client: TestClient) -> None:
    r = client.get("/api/games")
    assert r.status_code == 200
    assert r.json() == [g.describe() for g in cove.all_games()]


def test_create_returns_tokens_for_human_seats_only(client: TestClient) -> None:
    t = new_table(client, "toy", 3, ["human", "greedy", "human"], seed=None)
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "human"]
    assert "token" not in t["seats"][1] and t["seats"][1]["bot"] == "greedy"
    tokens = {t["seats"][0]["token"], t["seats"][2]["token"]}
    assert len(tokens) == 2 and all(len(x) >= 32 for x in tokens)
    # a random seed is not told while the game runs: its commitment is
    assert "seed" not in t and t["deal"]["chosen"] is False
    other = new_table(client, "toy", 3, ["human", "greedy", "human"], seed=None)
    assert other["deal"]["commitment"] != t["deal"]["commitment"]


def test_each_seat_sees_its_own_view_and_legal_moves(client: TestClient) -> None:
    t = two_humans(client)
    _, g = mover(client, t)
    assert g["seat"] in (0, 1) and g["view"]["you"] == g["seat"]
    assert g["legal"] and all(set(a) == {"text", "json"} for a in g["legal"])
    assert not g["decision"]["waiting"]
    other = token_of(t, 1 - g["seat"])
    h = client.get(f"/api/tables/{t['id']}", params={"token": other}).json()
    assert h["legal"] == [] and h["decision"]["waiting"]
    spectator = client.get(f"/api/tables/{t['id']}").json()
    assert spectator["seat"] is None and spectator["view"]["you"] is None
    assert spectator["legal"] == []
    for key in ("moves", "over", "to_move", "view", "decision", "legal", "events"):
        assert key in spectator


def test_a_move_by_text_or_json_is_applied_and_pushed(client: TestClient) -> None:
    t = two_humans(client)
    token, g = mover(client, t)
    url = f"/api/tables/{t['id']}"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as spectator:
        first = spectator.receive_json()
        assert first["type"] == "state" and first["moves"] == g["moves"]
        r = client.post(url + "/actions", json={"token": token, "action": g["legal"][0]["json"],
                                                "expect": g["moves"]})
        assert r.status_code == 200, r.text
        assert r.json()["moves"] == g["moves"] + 1
        pushed = spectator.receive_json()
        assert pushed["type"] == "update" and pushed["moves"] == g["moves"] + 1
    token, g = mover(client, t)
    r = client.post(url + "/actions", json={"token": token, "action": g["legal"][-1]["text"]})
    assert r.status_code == 200 and r.json()["moves"] == g["moves"] + 1


def test_illegal_and_stale_moves_change_nothing(client: TestClient) -> None:
    t = two_humans(client)
    token, g = mover(client, t)
    url = f"/api/tables/{t['id']}"
    r = client.post(url + "/actions", json={"token": token, "action": "fly to the moon",
                                            "expect": g["moves"]})
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "illegal_action" and "legal:" in body["reason"]
    r = client.post(url + "/actions", json={"token": token, "action": {"kind": "nope"}})
    assert r.status_code == 422
    r = client.post(url + "/actions", json={"token": token, "action": g["legal"][0]["text"],
                                            "expect": g["moves"] - 1})
    assert r.status_code == 409 and r.json()["moves"] == g["moves"]
    waiting = token_of(t, 1 - g["seat"])
    r = client.post(url + "/actions", json={"token": waiting, "action": g["legal"][0]["text"]})
    assert r.status_code == 422 and "turn" in r.json()["reason"]
    assert client.get(url).json()["moves"] == g["moves"]


def test_tokens_are_checked(client: TestClient) -> None:
    t = two_humans(client)
    token, g = mover(client, t)
    url = f"/api/tables/{t['id']}"
    act = g["legal"][0]["text"]
    assert client.get(url, params={"token": token}).json()["seat"] == g["seat"]
    assert client.get(url, params={"token": "not-a-token"}).status_code == 403
    r = client.post(url + "/actions", json={"token": "not-a-token", "action": act})
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    r = client.post(url + "/actions", json={"action": act})
    assert r.status_code == 403
    other = two_humans(client)  # a token of another table opens nothing here
    r = client.post(url + "/actions", json={"token": token_of(other, 0), "action": act})
    assert r.status_code == 403
    assert client.get(url).json()["moves"] == g["moves"]


def test_bad_requests_say_what_is_wrong(client: TestClient) -> None:
    def create(body: Any) -> Any:
        return client.post("/api/tables", json=body)

    r = create({"game": "chess", "players": 2})
    assert r.status_code == 422 and cove.ids()[0] in r.json()["reason"]  # the games listed
    r = create({"game": "toy", "players": 9})
    assert r.status_code == 422 and "2 to 4" in r.json()["reason"]
    r = create({"game": "toy", "players": 2, "options": {"no_such": 1}})
    assert r.status_code == 422 and "no_such" in r.json()["reason"]
    r = create({"game": "toy", "players": 2, "seats": ["human", "clever"]})
    assert r.status_code == 422 and "random" in r.json()["reason"]
    r = create({"game": "toy", "players": 3, "seats": ["human"]})
    assert r.status_code == 422
    r = create({"game": "toy", "players": 2, "seed": "x"})
    assert r.status_code == 422
    r = create({"game": "toy", "colour": "red"})
    assert r.status_code == 400 and "valid keys" in r.json()["reason"]
    r = client.post("/api/tables", content=b"{not json")
    assert r.status_code == 400 and r.json()["error"] == "bad_json"
    r = client.post("/api/tables", content=b"[" + b"1," * 40000 + b"1]")
    assert r.status_code == 413
    assert client.get("/api/tables/nosuchtable").status_code == 404
    r = client.post("/api/tables/nosuchtable/actions", json={"token": "t", "action": "x"})
    assert r.status_code == 404 and r.json()["error"] == "unknown_table"
    t = two_humans(client)
    r = client.post(f"/api/tables/{t['id']}/actions", content=b"\xff\xfe")
    assert r.status_code == 400
    r = client.post(f"/api/tables/{t['id']}/actions", json={"token": token_of(t, 0),
                                                          "action": 7})
    assert r.status_code == 400
    assert client.get("/no/such/route").status_code == 404


def test_options_and_listing(client: TestClient) -> None:
    t = new_table(client, "toy", 2, ["random", "random"], seed=3, options={"plays": 3})
    assert t["options"]["plays"] == 3
    open_ids = {x["id"] for x in client.get("/api/tables").json()["tables"]}
    finished = client.get("/api/tables", params={"status": "finished"}).json()["tables"]
    assert t["id"] in open_ids or t["id"] in {x["id"] for x in finished}
    assert client.get("/api/tables", params={"status": "weird"}).status_code == 400


def test_two_moves_racing_exactly_one_wins(db_url: str) -> None:
    with make_client(db_url, **FAST) as client:
        t = two_humans(client)
        token, g = mover(client, t)
        url = f"/api/tables/{t['id']}/actions"
        results: list[int] = []
        go = threading.Barrier(4)

        def post(i: int) -> None:
            go.wait()
            act = g["legal"][i % len(g["legal"])]["text"]
            r = client.post(url, json={"token": token, "action": act, "expect": g["moves"]})
            results.append(r.status_code)

        threads = [threading.Thread(target=post, args=(i,)) for i in range(4)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(results) == [200, 409, 409, 409]
        assert client.get(f"/api/tables/{t['id']}").json()["moves"] == g["moves"] + 1


def test_rate_limit(sqlite_url: str) -> None:
    with make_client(sqlite_url, rate=0.01, burst=3) as client:
        t = two_humans(client)
        token, _ = mover(client, t)
        url = f"/api/tables/{t['id']}/actions"
        codes = [client.post(url, json={"token": token, "action": "x"}).status_code
                 for _ in range(5)]
        assert codes == [422, 422, 422, 429, 429]


def test_websocket_moves_errors_and_limits(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_body=2000, **FAST) as client:
        t = two_humans(client)
        token, g = mover(client, t)
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
            assert ws.receive_json()["legal"] == g["legal"]
            ws.send_json({"type": "action", "action": "zz nonsense", "expect": g["moves"]})
            err = ws.receive_json()
            assert err["type"] == "error" and err["status"] == 422
            ws.send_text("not json")
            assert ws.receive_json()["error"] == "bad_json"
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "action", "action": g["legal"][0]["json"],
                          "expect": g["moves"]})
            assert ws.receive_json()["moves"] == g["moves"] + 1
            ws.send_text("x" * 3000)
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009
        with client.websocket_connect(f"/ws/tables/{t['id']}?since=10000") as ws:
            assert ws.receive_json()["events"] == []
        with client.websocket_connect(f"/ws/tables/{t['id']}?since=0") as ws:
            assert ws.receive_json()["events"]
        with client.websocket_connect(f"/ws/tables/{t['id']}?token=bad") as ws:
            err = ws.receive_json()
            assert err["status"] == 403
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
        with client.websocket_connect("/ws/tables/nope") as ws:
            assert ws.receive_json()["status"] == 404


def test_a_restarted_server_continues_every_table(db_url: str, short_snapshots: int) -> None:
    with make_client(db_url, **FAST) as client:
        t = two_humans(client)
        for _ in range(short_snapshots + 2):  # past a snapshot: restoring replays moves after it
            token, g = mover(client, t)
            r = client.post(f"/api/tables/{t['id']}/actions",
                            json={"token": token, "action": g["legal"][0]["text"]})
            assert r.status_code == 200
        before = client.get(f"/api/tables/{t['id']}").json()
        bots = new_table(client, "toy", 2, ["random", "random"], seed=4)
    with make_client(db_url, bot_pace=0, **FAST) as client:
        after = client.get(f"/api/tables/{t['id']}").json()
        assert after == before
        token, g = mover(client, t)
        r = client.post(f"/api/tables/{t['id']}/actions",
                        json={"token": token, "action": g["legal"][0]["text"],
                              "expect": before["moves"]})
        assert r.status_code == 200
        with client.websocket_connect(f"/ws/tables/{bots['id']}") as ws:
            msg = ws.receive_json()
            while not msg["over"]:
                msg = ws.receive_json()
        record = client.get(f"/api/tables/{bots['id']}/record").json()
        assert cove.replay(record).scores() == msg["scores"]


def test_a_table_whose_snapshot_an_upgrade_cannot_read_is_replayed_from_its_moves(
        sqlite_url: str, short_snapshots: int) -> None:
    """A stored snapshot is a cache: when a newer build of the game refuses it (its state
    fields changed, its rules did not), the table is rebuilt from its seed and moves."""
    import sqlite3

    with make_client(sqlite_url, **FAST) as client:
        t = two_humans(client)
        for _ in range(short_snapshots + 2):  # past a snapshot
            token, g = mover(client, t)
            r = client.post(f"/api/tables/{t['id']}/actions",
                            json={"token": token, "action": g["legal"][0]["text"]})
            assert r.status_code == 200
        before = client.get(f"/api/tables/{t['id']}").json()
    db = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))
    with db:
        db.execute("UPDATE cove_tables SET state = ? WHERE id = ?",
                   ('{"format": "an older build"}', t["id"]))
    db.close()
    with make_client(sqlite_url, **FAST) as client:
        assert client.get(f"/api/tables/{t['id']}").json() == before
        token, g = mover(client, t)
        r = client.post(f"/api/tables/{t['id']}/actions",
                        json={"token": token, "action": g["legal"][0]["text"],
                              "expect": before["moves"]})
        assert r.status_code == 200


def test_records_are_redacted_until_the_end(client: TestClient) -> None:
    t = two_humans(client)
    running = client.get(f"/api/tables/{t['id']}/record").json()
    assert "seed" not in running and running["redacted_for"] is None
    mine = client.get(f"/api/tables/{t['id']}/record",
                      params={"token": token_of(t, 0)}).json()
    assert mine["redacted_for"] == 0


def test_bots_think_off_the_event_loop(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot that does not return (until released) holds up no other table."""
    import cove.serve.hub as hub

    release = threading.Event()
    started = threading.Event()
    real = hub.think

    def slow(spec: str, seed: int, state: Any, seat: int) -> str:
        started.set()
        assert release.wait(60)
        return real(spec, seed, state, seat)

    monkeypatch.setattr(hub, "think", slow)
    with make_client(sqlite_url, bot_processes=False, **FAST) as client:
        stuck = new_table(client, "toy", 2, ["random", "random"], seed=1)
        assert started.wait(30)
        t = two_humans(client)
        for _ in range(5):
            token, g = mover(client, t)
            r = client.post(f"/api/tables/{t['id']}/actions",
                            json={"token": token, "action": g["legal"][0]["text"]})
            assert r.status_code == 200
        assert client.get(f"/api/tables/{stuck['id']}").json()["moves"] == 0
        release.set()


def test_bots_in_worker_processes(sqlite_url: str) -> None:
    # a registered game: a worker process knows the games of the registry only
    game = cove.load(cove.ids()[0])
    players = max(2, game.min_players)
    with make_client(sqlite_url, bot_pace=0, **FAST) as client:
        t = new_table(client, game.id, players, ["random"] * players, seed=2)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            while not msg["over"]:
                msg = ws.receive_json()
        assert msg["winners"]
