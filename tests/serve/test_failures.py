"""Failure injection: real clients over real sockets (a `cove serve` app under uvicorn, the
`websockets` client) that vanish, stop answering and come back late, at real-time and
turn-based tables of all five games. Every game reaches its end; a seat out of time waits
for the others' choice, a bot plays it as chosen, its player takes it back; a vanished
real-time seat is shown away at once; and every move the server acknowledged is in the
table's record after a restart.

The server's clock is a fake the test moves forward (``Hub.now``), so running out of time
takes no waiting; everything else is real: TCP, websocket close and silence, the SQLite
file, the restart. Real browsers that close, and the same choices made on the page by keys,
are in tests/web/test_clock.py and test_failures.py there."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import cove
from cove.core.rng import Rng
from tests.web.conftest import free_port

pytest.importorskip("uvicorn", reason="the web extra is not installed")
websockets_sync = pytest.importorskip("websockets.sync.client")

GAMES = [g.id for g in cove.all_games()]
FOR_TWO = next(g.id for g in cove.all_games() if g.min_players <= 2 <= g.max_players)
CLOCKS = {"realtime": {"mode": "realtime", "allowance": 60, "per_move": 0},
          "turn-based": {"mode": "turn-based", "allowance": 3600, "per_move": 0}}
WARM_UP = 4
"""Moves the two players make before one of them fails."""


class FakeTime:
    """The server's clock: real time plus an offset the test moves forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


class Live:
    """`cove serve`'s app under uvicorn in a thread, on a SQLite file; ``restart`` stops
    it and starts a new one on the same file (and the same fake time)."""

    def __init__(self, db: Path, now: FakeTime) -> None:
        self.db, self.now = db, now
        self.url = ""
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self.start()

    def start(self) -> None:
        import uvicorn

        from cove.serve import Settings, create_app

        app = create_app(Settings(db=f"sqlite:///{self.db}", rate=1e6, burst=10**6,
                                  create_rate=1e6, create_burst=10**6, bot_processes=False,
                                  bot_budget=0.05, bot_timeout=5.0))
        port = free_port()
        self._server = uvicorn.Server(uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
            ws_per_message_deflate=False))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            assert time.monotonic() < deadline and self._thread.is_alive(), "no server"
            time.sleep(0.02)
        app.state.hub.now = self.now  # the hub is made as the app starts
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self._server.should_exit = True
        assert self._thread is not None
        self._thread.join(15)
        assert not self._thread.is_alive(), "the server did not stop"

    def restart(self) -> None:
        self.stop()
        self.start()

    def call(self, method: str, path: str, body: dict[str, Any] | None = None
             ) -> tuple[int, dict[str, Any]]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


@dataclass
class Player:
    """One person's client: a seat token, a websocket it may drop or stop reading, and
    every move the server acknowledged to it: (move number, seat, text)."""

    live: Live
    table: str
    seat: int
    token: str
    rng: Rng
    acked: list[tuple[int, int, str]] = field(default_factory=list)
    ws: Any = None
    sockets: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def connect(self) -> dict[str, Any]:
        ws_url = self.live.url.replace("http", "ws", 1)
        self.ws = self.sockets.enter_context(websockets_sync.connect(
            f"{ws_url}/ws/tables/{self.table}?token={self.token}"))
        first: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        assert first["type"] == "state" and first["seat"] == self.seat
        return first

    def vanish(self) -> None:
        """Gone without a goodbye: the TCP connection dropped, no websocket close."""
        self.ws.socket.shutdown(socket.SHUT_RDWR)
        self.ws.socket.close()
        self.ws = None

    def look(self) -> dict[str, Any]:
        code, body = self.live.call("GET", f"/api/tables/{self.table}?token={self.token}")
        assert code == 200, body
        return body

    def move(self) -> bool:
        """One random legal move if this seat has one now; True when it was acknowledged."""
        g = self.look()
        if g["over"] or not g["legal"]:
            return False
        pick = g["legal"][self.rng.below(len(g["legal"]))]["text"]
        code, body = self.live.call("POST", f"/api/tables/{self.table}/actions",
                                    {"token": self.token, "action": pick,
                                     "expect": g["moves"]})
        if code in (409,):  # another seat (or a bot) moved first, or a bot plays it
            return False
        assert code == 200, body
        self.acked.append((g["moves"], self.seat, pick))
        return True

    def post(self, what: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self.live.call("POST", f"/api/tables/{self.table}/{what}",
                              {"token": self.token, **body})

    def messages_until(self, kind: str, seconds: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=deadline - time.monotonic()))
            if msg.get("type") == kind:
                return msg
        raise AssertionError(f"no {kind} message within {seconds} s")


def until(check: Any, what: str, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"{what}: not within {seconds} s")


def play_until(a: Player, b: Player | None, stop: Any, limit: int = 4000) -> dict[str, Any]:
    """``a`` (and ``b`` unless it is None) move in turn until ``stop(payload)`` or the end."""
    for _ in range(limit):
        g = a.look()
        if g["over"] or stop(g):
            return g
        moved = a.move()
        if b is not None:
            moved = b.move() or moved
        if not moved:
            time.sleep(0.005)  # a bot is thinking
    raise AssertionError("the game did not get there")


def to_move_alone(seat: int) -> Any:
    return lambda g: g["to_move"] == [seat]


@contextlib.contextmanager
def served(tmp_path: Path) -> Iterator[tuple[Live, FakeTime]]:
    now = FakeTime()
    live = Live(tmp_path / "cove.db", now)
    try:
        yield live, now
    finally:
        live.stop()


def seated(live: Live, game: str, mode: str, seed: int) -> tuple[Player, Player]:
    code, t = live.call("POST", "/api/tables", {"game": game, "players": 2, "seed": seed,
                                                "seats": ["human", "human"],
                                                "clock": CLOCKS[mode]})
    assert code == 201, t
    return tuple(Player(live, t["id"], p, t["seats"][p]["token"], Rng(seed * 10 + p))
                 for p in (0, 1))  # type: ignore[return-value]


def run_out(now: FakeTime, mode: str) -> None:
    now.offset += CLOCKS[mode]["allowance"] + 1


def check_acknowledged(live: Live, players: list[Player]) -> dict[str, Any]:
    """After a restart, the finished table's record holds every acknowledged move."""
    live.restart()
    table = players[0].table
    code, rec = live.call("GET", f"/api/tables/{table}/record")
    assert code == 200, rec
    actions = rec["actions"]
    for p in players:
        for n, seat, text in p.acked:
            assert actions[n] == [seat, text], (n, seat, text, actions[n])
    assert cove.replay(rec).is_over
    return rec


@pytest.mark.parametrize("mode", list(CLOCKS))
@pytest.mark.parametrize("game", GAMES)
def test_a_player_fails_and_the_game_still_ends(tmp_path: Path, game: str, mode: str) -> None:
    """P2 vanishes (real-time) or stops reading (turn-based); P1 sees what the clock and the
    presence say, lets a bot play one decision, then hands the seat to a bot for the game;
    P2 comes back late, takes the seat back, and both finish. Turn-based tables are
    restarted while the bot plays."""
    seed = 1 + GAMES.index(game)
    with served(tmp_path) as (live, now):
        a, b = seated(live, game, mode, seed)
        a.connect()
        b.connect()
        play_until(a, b, lambda g: g["moves"] >= WARM_UP)

        if mode == "realtime":  # gone: shown away at once
            b.vanish()
            assert a.messages_until("presence")["away"] == [1]
        else:  # still connected but silent; a turn-based table shows nobody away
            assert a.look()["away"] == []
        g = play_until(a, None, to_move_alone(1))
        if g["over"]:
            pytest.fail(f"{game} ended before P2 had to move alone; pick another seed")
        clock = {s["seat"]: s for s in g["clock"]["seats"]}
        assert clock[1]["running"] and not clock[0]["running"]

        # nothing happens by itself: with time left the choice is refused, and out of
        # time the seat waits until someone chooses
        code, body = a.post("timeout", {"seat": 1, "choice": "decision"})
        assert (code, body["error"]) == (422, "time_left")
        run_out(now, mode)
        g = a.look()
        assert g["out_of_time"] == [1] and g["bots_for"] == []
        time.sleep(0.2)
        assert a.look()["moves"] == g["moves"]  # no bot moved by itself

        # a bot plays this one decision; the seat is P2's again after it
        code, body = a.post("timeout", {"seat": 1, "choice": "decision"})
        assert code == 200 and body["until"] == "decision", body
        until(lambda: a.look()["moves"] > g["moves"], "the bot's one decision")
        g = until(lambda: (x := a.look())["bots_for"] == [] and x, "the seat back to P2")

        # P2 is out of time again when it is to move: a bot for the rest of the game
        g = play_until(a, None, lambda x: 1 in x["to_move"] and 1 in x["out_of_time"])
        if not g["over"]:
            code, body = a.post("timeout", {"seat": 1, "choice": "game"})
            assert code == 200 and body["until"] == "game", body
            mark = a.look()["moves"]
            play_until(a, None, lambda x: x["moves"] >= mark + 6)
            if mode == "turn-based":  # a restart in the middle: the bot plays on
                live.restart()
                mark = a.look()["moves"]
                assert a.look()["bots_for"][0]["until"] == "game"
                play_until(a, None, lambda x: x["moves"] >= mark + 2)

            # P2 comes back late: the whole table again, then the seat back
            first = b.connect()
            assert first["moves"] >= mark and first["bots_for"] != []
            code, body = b.post("reclaim", {})
            assert code == 200 and body["reclaimed"], body
            until(lambda: a.look()["bots_for"] == [], "the seat taken back")
            if mode == "realtime":
                assert a.look()["away"] == []

        end = play_until(a, b, lambda x: False)
        assert end["over"] and end["scores"] is not None
        rec = check_acknowledged(live, [a, b])
        a.sockets.close()
        b.sockets.close()
    assert len(a.acked) >= 2 and len(b.acked) >= 2
    acked_b = {n for n, _, _ in b.acked}
    by_bot = [n for n, (seat, _) in enumerate(rec["actions"]) if seat == 1 and n not in acked_b]
    assert by_bot, "a bot played for P2"


def test_a_client_that_stops_reading_never_stalls_the_table(tmp_path: Path) -> None:
    """A seat's websocket left unread while hundreds of updates go out: the others keep
    moving at full speed, and the silent client, when it reads again or reconnects, gets
    the table as it is (the server drops a client that falls too far behind)."""
    with served(tmp_path) as (live, _):
        code, t = live.call("POST", "/api/tables", {
            "game": FOR_TWO, "players": 2, "seed": 5, "seats": ["human", "random"]})
        assert code == 201, t
        a = Player(live, t["id"], 0, t["seats"][0]["token"], Rng(5))
        silent = Player(live, t["id"], 0, t["seats"][0]["token"], Rng(6))
        silent.connect()  # and never read again
        started = time.monotonic()
        end = play_until(a, None, lambda x: False)
        assert end["over"] and time.monotonic() - started < 120
        fresh = silent.connect()
        assert fresh["over"] and fresh["moves"] == end["moves"]
        check_acknowledged(live, [a])
        silent.sockets.close()
