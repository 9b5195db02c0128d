"""Undo without cheating (cove.core.undo): over random games of every title, no undo the
core allows crosses another player's decision, a chance draw or a reveal, checked with
six times the worlds the core looks at; taking back and deciding again gives the same
game."""

from __future__ import annotations

import pytest

import cove
from cove.core.rng import Rng
from cove.core.undo import WORLDS, before_last, why_not

GAMES = [g.id for g in cove.all_games()]


@pytest.mark.parametrize("game_id", GAMES)
def test_no_allowed_undo_crosses_a_decision_a_draw_or_a_reveal(game_id: str) -> None:
    game = cove.load(game_id)
    players = max(game.min_players, min(3, game.max_players))
    allowed = refused = 0
    for seed in (1, 2):
        state, rng = game.new(players, seed, log=False), Rng(seed)
        while not state.is_over and state.decisions < 160:
            p = state.to_move()[rng.below(len(state.to_move()))]
            state.apply(p, rng.choice(state.legal_actions(p)))
            if state.decisions % 4:
                continue
            asked = state.to_move()[0] if state.to_move() else p
            for player in {p, asked}:
                if not state.can_undo(player):
                    refused += 1
                    continue
                allowed += 1
                last_player, last_action = state.history[-1]
                assert last_player == player  # nobody else decided since
                before = before_last(state)
                tape = state.record().get("chance")
                if tape is not None:  # no chance outcome was drawn since
                    assert before.record()["chance"] == tape
                assert before.rng.state == state.rng.state
                assert why_not(state, player, worlds=6 * WORLDS) == "", "a reveal"
                again = state.undone(player)
                again.apply(player, last_action)
                assert again.fingerprint() == state.fingerprint()
    assert allowed and refused, (allowed, refused)


def test_an_undo_is_refused_with_the_reason(toy_registered: str) -> None:
    game = cove.load(toy_registered)
    state = game.new(2, 4, log=False, bidding=False)
    assert not state.can_undo(0)
    with pytest.raises(ValueError, match="P1 cannot take back their last decision: nobody"):
        state.undone(0)
    state.apply(0, state.legal_actions(0)[0])  # P1 plays a card and draws the next one
    assert why_not(state, 0) == "it showed you something hidden"
    assert why_not(state, 1) == "you have not decided yet"
