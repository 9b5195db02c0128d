"""What one client, or many, may take of the server: moves per seat over every connection,
reads and tables per client address, caps on live tables and bots, websockets and TCP
connections per address and in all, header, body and idle timeouts; and requests that must
be refused cleanly: malformed JSON, binary frames, cross-site posts, tokens in logs."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

import cove
from cove.core.record import replay as replay_record
from cove.serve import Settings
from cove.serve.app import ANSWERS
from cove.serve.limits import Buckets, client_key, redact
from cove.web import fragments
from cove.web.routes import BOARDS, REPLAYS
from tests.serve.conftest import make_client
from tests.serve.helpers import game_of_length, new_table, token_of
from tests.serve.test_process import server

TURNS = {"bidding": False, "plays": 12}
"""The toy with one seat to move at a time."""
FAST = {"rate": 1e6, "burst": 10**6}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def two_humans(client: TestClient, **headers: str) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 11,
                                         "seats": ["human", "human"], "options": TURNS},
                    headers=headers)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def to_move(client: TestClient, t: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    g = client.get(f"/api/tables/{t['id']}").json()
    token = token_of(t, g["to_move"][0])
    return token, client.get(f"/api/tables/{t['id']}", params={"token": token}).json()


def proxied(ip: str) -> dict[str, str]:
    return {"X-Forwarded-For": ip}


# -- moves, reads, tables --------------------------------------------------------------------
def test_a_seat_has_one_move_bucket_over_http_and_all_its_websockets(sqlite_url: str) -> None:
    with make_client(sqlite_url, rate=0.001, burst=5, read_rate=1e6, read_burst=10**6) as c:
        t = two_humans(c)
        token, _ = to_move(c, t)
        url = f"/ws/tables/{t['id']}?token={token}"
        codes: list[int] = []
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b:
            a.receive_json()
            b.receive_json()
            for i in range(9):  # three ways in turn: HTTP, websocket a, websocket b
                if i % 3 == 0:
                    r = c.post(f"/api/tables/{t['id']}/actions",
                               json={"token": token, "action": "zz"})
                    codes.append(r.status_code)
                else:
                    ws = a if i % 3 == 1 else b
                    ws.send_json({"type": "action", "action": "zz"})
                    codes.append(ws.receive_json()["status"])
        assert codes == [422] * 5 + [429] * 4  # five moves in all, not five per connection
        r = c.post(f"/api/tables/{t['id']}/actions", json={"token": token, "action": "zz"})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert r.json()["retry_after"] >= 1 and "all its websockets" in r.json()["reason"]
        other = token_of(t, 1 - t["seats"].index(next(s for s in t["seats"]
                                                       if s.get("token") == token)))
        r = c.post(f"/api/tables/{t['id']}/actions", json={"token": other, "action": "zz"})
        assert r.status_code == 422  # the other seat has a bucket of its own


def test_reads_are_limited_per_client_address_on_every_read_route(sqlite_url: str) -> None:
    with make_client(sqlite_url, read_rate=0.001, read_burst=4,
                     forwarded_allow_ips="*") as c:
        t = two_humans(c)
        tid = t["id"]
        a, b = proxied("10.0.0.1"), proxied("10.0.0.2")
        reads = [f"/api/tables/{tid}", f"/api/tables/{tid}/record", "/api/tables",
                 f"/web/tables/{tid}/board"]
        assert [c.get(u, headers=a).status_code for u in reads] == [200] * 4
        for u in [*reads, f"/web/tables/{tid}/replay", "/web/lobby/tables"]:
            r = c.get(u, headers=a)
            assert r.status_code == 429, u
            assert r.json()["error"] == "rate_limited" and r.headers["Retry-After"]
        assert c.get("/web/", headers=a).status_code == 429  # the lobby says so in HTML
        assert c.get("/api/games", headers=a).status_code == 200  # the same for all
        r = c.post("/api/tables/nosuchtable/actions", json={"token": "x", "action": "y"},
                   headers=a)
        assert r.status_code == 429  # an unknown table is a lookup: a read
        with c.websocket_connect(f"/ws/tables/{tid}", headers=a) as ws:
            assert ws.receive_json()["status"] == 429  # its first state is a read
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013  # try again later
        with c.websocket_connect(f"/ws/tables/{tid}", headers=b) as ws:  # another address
            assert ws.receive_json()["type"] == "state"
            answers = []
            for _ in range(4):  # each state request is a read too
                ws.send_json({"type": "state"})
                answers.append(ws.receive_json())
            assert [m["type"] for m in answers] == ["state"] * 3 + ["error"]
            assert answers[-1]["status"] == 429


def test_creation_is_limited_per_client_and_live_tables_and_bots_are_capped(
        sqlite_url: str) -> None:
    with make_client(sqlite_url, create_rate=0.001, create_burst=3, client_tables=2,
                     max_tables=4, max_bots=3, forwarded_allow_ips="*") as c:
        a, b, d = proxied("10.0.0.1"), proxied("10.0.0.2"), proxied("10.0.0.3")
        two_humans(c, **a)
        two_humans(c, **a)
        r = c.post("/api/tables", json={"game": "toy", "seats": ["human", "human"]},
                   headers=a)
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
        assert "2 live tables" in r.json()["reason"] and r.headers["Retry-After"]
        r = c.post("/api/tables", json={"game": "toy", "seats": ["human", "human"]},
                   headers=a)
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"  # 3 asked
        bots = {"game": "toy", "players": 4, "seats": ["human", "random", "random", "random"]}
        r = c.post("/api/tables", json=bots, headers=b)
        assert r.status_code == 201  # 3 bots, the cap
        r = c.post("/api/tables", json={**bots, "players": 2, "seats": ["human", "random"]},
                   headers=b)
        assert r.status_code == 503 and r.json()["error"] == "server_full"
        assert "bots" in r.json()["reason"] and r.headers["Retry-After"]
        two_humans(c, **b)  # 4 live tables: the cap
        r = c.post("/api/tables", json={"game": "toy", "seats": ["human", "human"]},
                   headers=d)
        assert r.status_code == 503 and "500" not in r.json()["reason"]
        assert "4 live tables" in r.json()["reason"]


def test_a_finished_or_forgotten_table_is_not_live(sqlite_url: str) -> None:
    with make_client(sqlite_url, client_tables=1, table_idle=0.2, **FAST) as c:
        two_humans(c)
        assert c.post("/api/tables", json={"game": "toy"}).status_code == 429
        time.sleep(0.3)  # nobody moved or watched since
        assert c.post("/api/tables", json={"game": "toy", "seats": ["human", "human"]},
                      ).status_code == 201


def test_forwarded_addresses_are_believed_only_from_trusted_proxies(sqlite_url: str) -> None:
    with make_client(sqlite_url, create_burst=1, create_rate=0.001) as c:
        assert c.post("/api/tables", json={"game": "toy"}, headers=proxied("1.2.3.4")
                      ).status_code == 201
        assert c.post("/api/tables", json={"game": "toy"}, headers=proxied("5.6.7.8")
                      ).status_code == 429  # the header is ignored: one client
    with make_client(sqlite_url, create_burst=1, create_rate=0.001,
                     forwarded_allow_ips="10.0.0.0/8") as c:  # the test client is not in it
        c.post("/api/tables", json={"game": "toy"}, headers=proxied("1.2.3.4"))
        assert c.post("/api/tables", json={"game": "toy"}, headers=proxied("5.6.7.8")
                      ).status_code == 429
    with make_client(sqlite_url, create_burst=1, create_rate=0.001,
                     forwarded_allow_ips="*") as c:
        c.post("/api/tables", json={"game": "toy"}, headers=proxied("1.2.3.4"))
        assert c.post("/api/tables", json={"game": "toy"}, headers=proxied("5.6.7.8")
                      ).status_code == 201


def test_client_keys_count_an_ipv6_host_by_its_network() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9")
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:10.0.0.1") == client_key("10.0.0.1") == "10.0.0.1"
    assert client_key(None) == "?"


def test_buckets_forget_full_buckets_first_and_stay_bounded() -> None:
    buckets = Buckets(size=100)
    busy = buckets.get("busy", 0.001, 2)
    busy.take()
    for i in range(1000):  # a flood of new keys
        buckets.get(f"k{i}", 1e6, 1)
    assert len(buckets.buckets) <= 100
    assert buckets.get("busy", 0.001, 2) is busy  # a bucket in use is kept


# -- websockets ------------------------------------------------------------------------------
def test_websockets_are_capped_per_client_and_in_all(sqlite_url: str) -> None:
    with make_client(sqlite_url, client_websockets=2, max_websockets=3,
                     forwarded_allow_ips="*", **FAST) as c:
        t = two_humans(c)
        url = f"/ws/tables/{t['id']}"
        a, b = proxied("10.0.0.1"), proxied("10.0.0.2")
        with c.websocket_connect(url, headers=a) as w1, \
                c.websocket_connect(url, headers=a) as w2:
            assert w1.receive_json()["type"] == w2.receive_json()["type"] == "state"
            with c.websocket_connect(url, headers=a) as w3:
                err = w3.receive_json()
                assert err["status"] == 429 and err["error"] == "too_many_connections"
                assert err["retry_after"] > 0
                with pytest.raises(WebSocketDisconnect) as closed:
                    w3.receive_json()
                assert closed.value.code == 1013
            with c.websocket_connect(url, headers=b) as w4:
                assert w4.receive_json()["type"] == "state"  # the third in all
                with c.websocket_connect(url, headers=proxied("10.0.0.3")) as w5:
                    err = w5.receive_json()
                    assert err["status"] == 503 and err["error"] == "overloaded"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        w5.receive_json()
                    assert closed.value.code == 1013
        conns = c.app.state.conns  # type: ignore[attr-defined]
        assert conns.websockets == 0 and conns.ws_by_client == {}  # all given back
        with c.websocket_connect(url, headers=a) as again:
            assert again.receive_json()["type"] == "state"


# -- malformed input -------------------------------------------------------------------------
def test_malformed_input_gets_a_4xx_or_a_close_code(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as c:
        t = two_humans(c)
        token, g = to_move(c, t)
        url = f"/api/tables/{t['id']}/actions"
        deep = b"[" * 30000 + b"]" * 30000
        r = c.post(url, content=deep, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "nested" in r.json()["reason"]
        r = c.post("/api/tables", content=deep, headers={"Content-Type": "application/json"})
        assert r.status_code == 400
        r = c.post(url, json={"token": token, "action": "zz", "seat": 0})
        assert r.status_code == 400 and "'seat'" in r.json()["reason"]
        r = c.post(url, json={"token": token, "action": g["legal"][0]["text"],
                              "expect": int("9" * 4000)})
        assert r.status_code == 409 and r.json()["moves"] == g["moves"]
        assert len(r.text) < 300  # the 4000 digits are not echoed
        with c.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
            ws.receive_json()
            ws.send_text("[" * 30000 + "]" * 30000)
            err = ws.receive_json()
            assert err["status"] == 400 and err["error"] == "bad_json"
            ws.send_json({"type": "action", "action": "zz", "seat": 1})
            assert ws.receive_json()["status"] == 400
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}  # still open
            ws.send_bytes(b"\x00\x01binary")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1003
        assert c.get(f"/api/tables/{t['id']}").json()["moves"] == g["moves"]


def test_an_error_never_shows_where_the_server_keeps_its_files(
        sqlite_url: str, data_game: cove.Game) -> None:
    with make_client(sqlite_url) as c:
        for path in ("/etc/passwd", "../../../../etc/passwd", "~/x.toml"):
            r = c.post("/api/tables", json={"game": data_game.id,
                                            "options": {"data_file": path}})
            assert r.status_code == 422
            reason = r.json()["reason"]
            assert "allowed now: <cove>/games" in reason
            for secret in (str(Path(cove.__file__).resolve().parent), str(Path.home()),
                           str(Path.cwd())):
                assert secret not in reason


# -- tokens ----------------------------------------------------------------------------------
def test_a_token_in_the_authorization_header_or_none_at_all(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as c:
        t = two_humans(c)
        token, g = to_move(c, t)
        tid = t["id"]
        bearer = {"Authorization": f"Bearer {token}"}
        assert c.get(f"/api/tables/{tid}", headers=bearer).json()["seat"] == g["seat"]
        assert c.get(f"/api/tables/{tid}/board", headers=bearer).status_code == 404
        assert c.get(f"/web/tables/{tid}/board", headers=bearer).status_code == 200
        spectator = c.get(f"/api/tables/{tid}?token=")
        assert spectator.status_code == 200 and spectator.json()["seat"] is None
        r = c.get(f"/api/tables/{tid}", params={"token": "other"}, headers=bearer)
        assert r.status_code == 400 and "two different tokens" in r.json()["reason"]
        r = c.get(f"/api/tables/{tid}", headers={"Authorization": f"Basic {token}"})
        assert r.status_code == 400
        r = c.post(f"/api/tables/{tid}/actions", headers=bearer,
                   json={"action": g["legal"][0]["text"], "expect": g["moves"]})
        assert r.status_code == 200 and r.json()["moves"] == g["moves"] + 1
        r = c.post(f"/api/tables/{tid}/actions", json={"token": "", "action": "x"})
        assert r.status_code == 403
        token, g = to_move(c, t)
        with c.websocket_connect(f"/ws/tables/{tid}",
                                 headers={"Authorization": f"Bearer {token}"}) as ws:
            assert ws.receive_json()["seat"] == g["seat"]


def test_tokens_in_log_lines_are_redacted() -> None:
    line = '127.0.0.1:5 - "GET /api/tables/abc?since=3&token=s3cr3t-_x HTTP/1.1" 200'
    assert redact(line) == line.replace("s3cr3t-_x", "REDACTED")
    assert redact("/ws/tables/abc?token=t0k&board=web") == "/ws/tables/abc?token=REDACTED&board=web"
    assert redact("no token here") == "no token here"


# -- pages and other sites -------------------------------------------------------------------
def test_pages_forbid_framing_sniffing_and_referrers(sqlite_url: str) -> None:
    with make_client(sqlite_url) as c:
        t = two_humans(c)
        for url in ("/web/", f"/web/tables/{t['id']}", "/api/games", "/web/static/cove.js"):
            r = c.get(url)
            assert r.status_code == 200, url
            assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
            assert "script-src 'self'" in r.headers["Content-Security-Policy"]
            assert r.headers["X-Content-Type-Options"] == "nosniff"
            assert r.headers["Referrer-Policy"] == "no-referrer"
            assert r.headers["X-Frame-Options"] == "DENY"


def test_another_site_cannot_create_tables_or_move(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as c:
        body = json.dumps({"game": "toy", "seats": ["human", "human"]})
        r = c.post("/api/tables", content=body, headers={"Content-Type": "text/plain"})
        assert r.status_code == 415 and "application/json" in r.json()["reason"]
        r = c.post("/api/tables", content=body,
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 415
        r = c.post("/api/tables", content=body, headers={
            "Content-Type": "text/plain", "Origin": "http://evil.example"})
        assert r.status_code == 403 and r.json()["error"] == "cross_site"
        r = c.post("/api/tables", content=body, headers={
            "Content-Type": "application/json", "Origin": "null"})
        assert r.status_code == 403
        r = c.post("/api/tables", content=body, headers={
            "Content-Type": "text/plain", "Origin": "http://testserver"})
        assert r.status_code == 201  # this server's own page
        t = r.json()
        token = token_of(t, 0)
        r = c.post(f"/api/tables/{t['id']}/actions", headers={"Origin": "https://evil.example",
                                                              "Content-Type": "text/plain"},
                   content=json.dumps({"token": token, "action": "x"}))
        assert r.status_code == 403
        r = c.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 201  # a program: JSON, no Origin


# -- caches ----------------------------------------------------------------------------------
def test_a_board_is_drawn_once_per_move_and_seat(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as c:
        t = two_humans(c)
        token, g = to_move(c, t)
        tid = t["id"]
        before = BOARDS.drawn
        boards = [c.get(f"/web/tables/{tid}/board", params={"token": token}) for _ in range(5)]
        assert BOARDS.drawn == before + 1
        assert len({b.content for b in boards}) == 1
        assert boards[1].headers["Server-Timing"].startswith("draw;dur=0")
        with c.websocket_connect(f"/ws/tables/{tid}?token={token}&board=web") as ws:
            first = ws.receive_json()
            assert first["board"] == boards[0].json()
            ws.send_json({"type": "state"})
            assert ws.receive_json()["board"] == boards[0].json()
            assert BOARDS.drawn == before + 1  # the same position and seat: not drawn again
            ws.send_json({"type": "action", "action": g["legal"][0]["json"],
                          "expect": g["moves"]})
            pushed = ws.receive_json()
            assert pushed["moves"] == g["moves"] + 1 and pushed["board"]["moves"] == g["moves"] + 1
            assert BOARDS.drawn == before + 2
            again = c.get(f"/web/tables/{tid}/board", params={"token": token}).json()
            assert again == pushed["board"] and BOARDS.drawn == before + 2


def test_the_state_of_one_position_is_rendered_once(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as c:
        t = two_humans(c)
        token, g = to_move(c, t)
        url = f"/api/tables/{t['id']}"
        before = ANSWERS.made  # to_move asked for it once already
        got = [c.get(url, params={"token": token}) for _ in range(4)]
        assert ANSWERS.made == before and len({r.content for r in got}) == 1
        assert got[0].json() == g and got[0].headers["content-type"] == "application/json"
        since = c.get(url, params={"token": token, "since": g["next_event"] + 1}).json()
        assert since["events"] == [] and ANSWERS.made == before + 1
        with c.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
            ws.receive_json()
            states = []
            for _ in range(3):
                ws.send_json({"type": "state"})
                states.append(ws.receive_json())
            assert ANSWERS.made == before + 2
            assert states[0] == {**g, "type": "state"} and states[0] == states[2]
            ws.send_json({"type": "action", "action": g["legal"][0]["text"],
                          "expect": g["moves"]})
            assert ws.receive_json()["moves"] == g["moves"] + 1
            ws.send_json({"type": "state"})
            assert ws.receive_json()["moves"] == g["moves"] + 1  # a new position: new state
        assert c.get(url, params={"token": token}).json()["moves"] == g["moves"] + 1


def test_a_replay_step_is_the_records_and_costs_a_few_moves(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_pace=0, **FAST) as c:
        game = game_of_length(4, 200)
        t = new_table(c, game.id, 4, ["random"] * 4, seed=4)
        with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            msg = ws.receive_json()
            while not msg["over"]:
                msg = ws.receive_json()
        record = c.get(f"/api/tables/{t['id']}/record").json()
        total = len(record["actions"])
        assert total > 140
        for step, seat in [(total, None), (total - 1, 1), (0, None), (70, 2), (65, 0),
                           (130, 3)]:
            r = c.get(f"/web/tables/{t['id']}/replay",
                      params={"step": step, **({"as": seat} if seat is not None else {})})
            assert r.status_code == 200
            view = replay_record(record, upto=step).view(seat)
            assert r.json()["board"] == fragments.board(game, view, [], seat)[0]
            assert r.json()["step"] == step and r.json()["total"] == total
        kept = REPLAYS.items[t["id"]]
        assert sorted(kept.marks) == list(range(0, total, 64))  # every 64th move
        assert (70, 2) in kept.answers
        r = c.get(f"/web/tables/{t['id']}/replay", params={"step": "9" * 30})
        assert r.status_code == 400


def test_a_replay_step_drawn_now_costs_four_reads_and_one_drawn_before(
        sqlite_url: str) -> None:
    with make_client(sqlite_url, rate=1e6, burst=10**6, read_rate=0.001,
                     read_burst=10**6) as c:
        t = new_table(c, "toy", 2, ["random", "random"], seed=4)
        with c.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            while not ws.receive_json()["over"]:
                pass
    with make_client(sqlite_url, read_rate=0.001, read_burst=10) as c:  # reads in all:
        url = f"/web/tables/{t['id']}/replay"
        assert c.get(url, params={"step": 1}).status_code == 200  # 4
        assert c.get(url, params={"step": 2}).status_code == 200  # 8
        assert c.get(url, params={"step": 1}).status_code == 200  # 9: drawn before
        r = c.get(url, params={"step": 3})  # 10, then 3 more refused
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        assert c.get(url, params={"step": 2}).status_code == 429  # none left


# -- a real server: connections, timeouts, the log -------------------------------------------
@contextmanager
def serve(tmp_path: Path, *flags: str) -> Iterator[tuple[str, int, Path]]:
    """A real server on a fresh SQLite file in ``tmp_path``: its URL, port and log."""
    log = tmp_path / "server.log"
    with server(f"sqlite:///{tmp_path / 'cove.db'}", log, *flags) as (base, _):
        yield base, int(base.rsplit(":", 1)[1]), log


def dial(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.settimeout(5)
    return s


def answer(s: socket.socket) -> bytes:
    """What the server sends until it closes the connection."""
    out = b""
    while chunk := s.recv(65536):
        out += chunk
    return out


def test_a_real_server_caps_connections_and_times_out_slow_clients(tmp_path: Path) -> None:
    with serve(tmp_path, "--client-connections", "3", "--max-connections", "5",
               "--header-timeout", "1", "--body-timeout", "1", "--idle-timeout", "1") as (
            base, port, log):
        idle = [dial(port) for _ in range(3)]
        time.sleep(0.2)
        refused = dial(port)
        got = answer(refused)
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 429") and b"retry-after: " in head.lower()
        assert json.loads(body)["error"] == "too_many_connections"
        others = [dial(port, "127.0.0.2"), dial(port, "127.0.0.3")]  # 5 in all
        time.sleep(0.2)
        full = answer(dial(port, "127.0.0.4"))
        assert full.startswith(b"HTTP/1.1 503") and b"retry-after" in full.lower()
        assert json.loads(full.partition(b"\r\n\r\n")[2])["error"] == "overloaded"
        started = time.monotonic()
        for s in idle + others:  # sent nothing: closed without an answer
            assert answer(s) == b""
            s.close()
        assert time.monotonic() - started < 3
        slow = dial(port)
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # no end of headers
        got = answer(slow)
        assert got.startswith(b"HTTP/1.1 408") and b"headers" in got
        slow = dial(port)
        slow.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 100\r\n\r\n{\"game\"")
        got = answer(slow)
        assert got.startswith(b"HTTP/1.1 408") and b"body" in got
        kept = dial(port)  # kept alive after an answer, then idle
        kept.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer(kept).startswith(b"HTTP/1.1 200")  # and closed after the idle time
        with httpx2.Client(base_url=base, timeout=5) as http:  # every count given back
            t = http.post("/api/tables", json={"game": "toy", "seats": ["human", "human"],
                                               "options": TURNS}).json()
            token = t["seats"][0]["token"]
            ws_url = base.replace("http", "ws") + f"/ws/tables/{t['id']}?token={token}"
            for _ in range(4):  # a websocket holds a connection until it closes
                with connect(ws_url, open_timeout=5) as ws:
                    assert json.loads(ws.recv(timeout=5))["type"] == "state"
            assert http.get(f"/api/tables/{t['id']}", params={"token": token}
                            ).status_code == 200
        text = log.read_text()
        assert token not in text
        assert re.search(r"GET /api/tables/\S+\?token=REDACTED", text)
        assert re.search(r"WebSocket /ws/tables/\S+\?token=REDACTED", text)


def test_cove_serve_flags_set_the_settings_and_name_their_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    import cove.serve
    from cove.cli import build_parser, main

    got: list[Settings] = []
    monkeypatch.setattr(cove.serve, "run", lambda host, port, s: got.append(s) or 0)
    assert main(["serve", "--max-tables", "7", "--header-timeout", "2.5",
                 "--forwarded-allow-ips", "10.0.0.0/8"]) == 0
    assert got[0] == Settings(max_tables=7, header_timeout=2.5,
                              forwarded_allow_ips="10.0.0.0/8")
    serve = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
                 ).choices["serve"]
    named = 0
    for action in serve._actions:
        said = re.search(r"\(default ([\d.]+)\)", action.help or "")
        if said and action.dest in Settings.__dataclass_fields__:
            assert float(said.group(1)) == getattr(Settings, action.dest), action.dest
            named += 1
    assert named >= 13
    from cove.serve.limits import Trusted

    with pytest.raises(ValueError, match="not an IP address or network"):
        Trusted("10.0.0.1,proxy.example")

    def bad(host: str, port: int, s: Settings) -> int:
        Trusted(s.forwarded_allow_ips)
        return 0

    monkeypatch.setattr(cove.serve, "run", bad)
    assert main(["serve", "--forwarded-allow-ips", "proxy.example"]) == 2  # one line, no trace


def test_the_connection_cap_fits_the_open_file_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    from cove.serve import fit_file_limit

    asked: list[tuple[int, int]] = []

    def refuse(which: int, limits: tuple[int, int]) -> None:
        asked.append(limits)
        raise ValueError("not allowed")

    monkeypatch.setattr(resource, "getrlimit", lambda which: (600, 800))
    monkeypatch.setattr(resource, "setrlimit", refuse)
    fitted = fit_file_limit(Settings(max_connections=1000))
    assert asked == [(800, 800)]  # raised as far as allowed (it was not)
    assert fitted.max_connections == 600 - 256  # room kept for the database and workers
    monkeypatch.setattr(resource, "setrlimit", lambda which, limits: asked.append(limits))
    assert fit_file_limit(Settings(max_connections=500)).max_connections == 500
    assert asked[-1] == (756, 800)
