"""The High Water board drawing: well-formed SVG, clicks that are legal moves, most legal
moves on the board, no secret trick card shown to anyone else, every player count."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import cove
from cove.core.actions import legal_forms
from cove.core.state import State
from cove.core.svg import reachable, targets, titles
from cove.games.high_water.data import DATA
from cove.games.high_water.web_board import draw

GAME = "high-water"
SECRET = "your secret card for this trick"


def positions(players: int, seed: int, limit: int = 400, every: int = 1) -> Iterator[State]:
    """Every `every`-th of the first `limit` positions of one seeded random playout, and
    its last position."""
    state = cove.load(GAME).new(players=players, seed=seed)
    rng = random.Random(seed)
    for k in range(limit):
        if k % every == 0 or state.is_over:
            yield state
        if state.is_over:
            return
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_target_is_legal_and_most_moves_are_on_the_board(players: int) -> None:
    legal_total = on_board = 0
    over = False
    for state in positions(players, seed=players, limit=100_000, every=5):
        over = state.is_over
        assert ("Game over · winner" in draw(state.view(None), [], None)) == over
        for seat in [*state.to_move(), None]:
            legal = legal_forms(state, seat)
            on_board += len(reachable(draw(state.view(seat), legal, seat), legal))
            legal_total += len(legal)
    # Measured 1.0 (every legal move has a target); the floor leaves room for new actions.
    assert over and legal_total > 0
    assert on_board / legal_total >= 0.98


@pytest.mark.parametrize("players", [2, 5])
def test_a_secret_trick_card_is_drawn_only_for_its_owner(players: int) -> None:
    seen_secret = False
    for state in positions(players, seed=11, limit=150):
        assert SECRET not in titles(draw(state.view(None), [], None))
        for seat in range(players):
            committed = state.view(seat).get("my_commit") is not None
            drawn = SECRET in titles(draw(state.view(seat), [], seat))
            assert drawn == committed
            seen_secret |= drawn
    assert seen_secret, "no trick card was committed in the playout"


def test_dice_crates_and_market_cards_are_the_targets_of_their_moves() -> None:
    kinds_seen: set[str] = set()
    for state in positions(3, seed=4):
        if state.is_over:
            break
        seat = state.to_move()[0]
        legal = legal_forms(state, seat)
        for label, moves in targets(draw(state.view(seat), legal, seat)):
            for move in moves:
                kind = next(a["json"]["kind"] for a in legal if a["text"] == move)
                kinds_seen.add(kind)
                if kind == "take":
                    assert label.startswith("crate ")
                elif kind in ("use", "mark", "pay", "return"):
                    assert label.startswith(f"P{seat + 1} die ") and move.split()[-1] in label
                elif kind == "buy":
                    assert move.removeprefix("buy ") in label.lower()
    assert {"take", "use", "buy", "play"} <= kinds_seen


def test_dice_are_painted_with_their_colours_fill_from_the_data_file() -> None:
    state = next(positions(4, seed=2, limit=1))
    svg = draw(state.view(None), [], None)
    colours = {c.id: c for c in DATA.colours}
    shown = {label.rstrip("0123456789") for crate in state.view(None)["crates"]
             for label in crate}
    assert len(shown) >= 3
    for cid in shown:
        assert f'fill="{colours[cid].fill}"' in svg
