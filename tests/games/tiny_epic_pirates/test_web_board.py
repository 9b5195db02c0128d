"""The Tiny Epic Pirates board drawing: well-formed SVG, clicks that are legal moves, most
legal moves on the board, a spectator offered nothing, every player count (solo included)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import cove
from cove.core import State
from cove.core.actions import legal_forms
from cove.core.svg import reachable, targets, titles
from cove.games.tiny_epic_pirates.web_board import draw

GAME = "tiny-epic-pirates"


def positions(players: int, seed: int, every: int = 1) -> Iterator[State]:
    """Every `every`-th position of one seeded random playout, and its last position."""
    state = cove.load(GAME).new(players=players, seed=seed)
    rng = random.Random(seed)
    k = 0
    while not state.is_over:
        if k % every == 0:
            yield state
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
        k += 1
    yield state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_target_is_legal_and_most_moves_are_on_the_board(players: int) -> None:
    legal_total = on_board = 0
    for state in positions(players, seed=players, every=4):
        for seat in [*state.to_move(), None]:
            legal = legal_forms(state, seat)
            on_board += len(reachable(draw(state.view(seat), legal, seat), legal))
            legal_total += len(legal)
    # Measured 1.0 (every legal move has a target); the floor leaves room for new actions.
    assert legal_total > 0
    assert on_board / legal_total >= 0.98


@pytest.mark.parametrize("players", [1, 4])
def test_every_pirate_is_drawn_and_a_spectator_is_offered_no_move(players: int) -> None:
    for state in positions(players, seed=7, every=25):
        svg_text = draw(state.view(None), [], None)
        assert targets(svg_text) == []
        labels = titles(svg_text)
        for pirate in state.view(None)["pirates"]:
            assert any(t.startswith(f"{pirate['name']} captain ") for t in labels)
            if pirate["cell"]:
                assert any(t.startswith(f"{pirate['name']} ship at {pirate['cell']}")
                           for t in labels)


def test_sailing_is_a_click_on_the_card_sailed_to() -> None:
    checked = 0
    for state in positions(2, seed=3):
        if state.is_over:
            break
        seat = state.to_move()[0]
        legal = legal_forms(state, seat)
        sails = [a["text"] for a in legal if a["json"]["kind"] == "sail"]
        if not sails:
            continue
        by_label = dict(targets(draw(state.view(seat), legal, seat)))
        for move in sails:
            cell = move.split()[-1]
            assert any(label.startswith(f"{cell} ") and move in moves
                       for label, moves in by_label.items())
            checked += 1
    assert checked > 0
