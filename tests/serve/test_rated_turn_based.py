"""Issue 37's whole evening in one game: two named players and a bot play a rated,
turn-based game (a clock in days) that a server restart interrupts; the ratings then move
exactly as openskill's Plackett-Luce model moves them for the final scores, and each
player's "your turn" webhook reached the local receiver once for every turn they had."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("openskill", reason="the web extra is not installed")

from openskill.models import PlackettLuce

from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of
from tests.serve.test_my_games import move, play_out, player, sit
from tests.serve.test_ratings import counted, expected
from tests.serve.test_webhooks import HOOKS, TURNS, Receiver, hook, turns_of

DAYS = {"mode": "turn-based", "allowance": 3 * 86400, "per_move": 86400}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def settle(receiver: Receiver) -> int:
    """The calls received once no more arrive for half a second (calls are background)."""
    seen = -1
    while seen != len(receiver.bodies):
        seen = len(receiver.bodies)
        time.sleep(0.5)
    return seen


def test_a_rated_turn_based_game_across_a_restart(sqlite_url: str) -> None:
    receiver = Receiver()
    try:
        with make_client(sqlite_url, **HOOKS) as client:
            ada, bea = player(client, "Ada"), player(client, "Bea")
            for key in (ada, bea):
                assert hook(client, key, receiver.url).status_code == 200
            t = new_table(client, "toy", 3, ["human", "human", "random"], seed=None,
                          rated=True, clock=DAYS, options=TURNS)
            assert t["rated"] is True
            sit(client, t, 0, ada)
            sit(client, t, 1, bea)
            tokens = [token_of(t, 0), token_of(t, 1), ""]
            url = f"/api/tables/{t['id']}"
            for _ in range(4):  # the first moves, then the server goes down
                g = client.get(url).json()
                people = [p for p in g["to_move"] if tokens[p]]
                if people:
                    move(client, t, tokens[people[0]])
                else:
                    time.sleep(0.02)
            before = client.get(url).json()
            assert not before["over"] and before["moves"] >= 3
            told_before = settle(receiver)
            assert told_before >= 1
        with make_client(sqlite_url, **HOOKS) as client:  # the same database, restarted
            after = client.get(url).json()
            assert after["moves"] == before["moves"] and after["clock"]["mode"] == "turn-based"
            assert [s["seat"] for s in after["clock"]["seats"]] == [0, 1]
            play_out(client, t, tokens)
            end: dict[str, Any] = client.get(url).json()
            assert end["over"]
            pool = counted(client, 1, 3)
            fresh = (PlackettLuce().rating().mu, PlackettLuce().rating().sigma)
            for name, want in zip(["Ada", "Bea", "random"],
                                  expected([fresh] * 3, end["scores"]), strict=True):
                assert (pool[name].mu, pool[name].sigma) == pytest.approx(want, abs=1e-9)
            record = client.get(url + "/record").json()
            settle(receiver)
        turns = {seat: turns_of(record, seat) for seat in (0, 1)}
        told = {seat: sum(1 for b in receiver.bodies if b["seat"] == seat) for seat in (0, 1)}
        assert told == turns and min(turns.values()) >= 2
        assert len(receiver.bodies) > told_before  # calls came on both sides of the restart
    finally:
        receiver.close()
