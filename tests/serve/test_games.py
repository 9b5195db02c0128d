"""Every game played to the end through the API: one human seat driven over HTTP and
websocket, bots in the others, on SQLite and PostgreSQL; no message to a seat or a
spectator holds another seat's hidden information."""

from __future__ import annotations

from typing import Any

import pytest

import cove
from cove.core.rng import Rng
from tests.serve.conftest import make_client
from tests.serve.helpers import leaks, new_table, play_human, states_by_move, token_of

GAMES = cove.ids()
ONE_OF_EACH = [next(g.id for g in cove.all_games() if g.simultaneous is simultaneous)
               for simultaneous in (False, True)]
"""The first game that takes turns one seat at a time, and the first with simultaneous
steps."""


def drain(ws: Any, until_moves: int, into: list[dict[str, Any]]) -> None:
    """Read websocket messages until one shows the table at ``until_moves`` moves."""
    while True:
        msg = ws.receive_json()
        into.append(msg)
        if msg.get("moves") == until_moves and msg.get("over"):
            return


@pytest.mark.parametrize("game_id", GAMES)
def test_full_game_through_the_api(game_id: str, sqlite_url: str) -> None:
    play_whole_game(game_id, sqlite_url)


@pytest.mark.parametrize("game_id", ONE_OF_EACH)
def test_full_game_on_postgres(game_id: str, postgres_url: str) -> None:
    play_whole_game(game_id, postgres_url)


def play_whole_game(game_id: str, db_url: str) -> None:
    game = cove.load(game_id)
    players = min(max(game.min_players, 2), game.max_players)
    seats = ["human"] + ["random"] * (players - 1)
    with make_client(db_url, rate=1e6, burst=10**6) as client:
        table = new_table(client, game_id, players, seats, seed=5)
        tid, token = table["id"], token_of(table, 0)
        sent: list[dict[str, Any]] = []
        watched: list[dict[str, Any]] = []
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws, \
                client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            last = play_human(client, tid, token, ws, Rng(7), sent)
            drain(spectator, last["moves"], watched)
        assert last["over"] and last["scores"] and last["winners"]
        record = client.get(f"/api/tables/{tid}/record").json()
        assert len(record["actions"]) == last["moves"]
        replayed = cove.replay(record)
        assert replayed.is_over and replayed.scores() == last["scores"]
        states = states_by_move(record)
        human = [p for p, _ in record["actions"] if p == 0]
        assert human, "the human seat never moved"
        assert leaks(sent, states, 0) == []
        assert leaks(watched, states, None) == []
        listed = client.get("/api/tables", params={"status": "finished"}).json()["tables"]
        assert [t["id"] for t in listed] == [tid]


def test_the_secrecy_check_can_fail(toy_registered: str) -> None:
    """Hand seat 0 another seat's view: the check must find that seat's hidden items."""
    state = cove.load(toy_registered).new(players=3, seed=2)
    rng = Rng(3)
    while not state.private_items(1)["hand"]:
        p = state.to_move()[0]
        legal = state.legal_actions(p)
        state.apply(p, legal[rng.below(len(legal))])
    states = states_by_move(state.record())
    n = state.decisions
    assert leaks([{"moves": n, "view": state.view(0)}], states, 0) == []
    found = leaks([{"moves": n, "view": state.view(1)}], states, 0)
    assert found and "P2's hand" in found[0]
