"""The Tricky Tides board drawing: well-formed SVG, clicks that are legal moves, most legal
moves on the board, no hidden hand drawn, every player count and module."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import cove
from cove.core import State
from cove.core.actions import legal_forms
from cove.core.svg import reachable, targets, titles
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.web_board import _ink, draw
from tests.games.tricky_tides.helpers import new

GAME = "tricky-tides"
SETTINGS: list[dict[str, Any]] = [{}, {"events": True, "monsters": True}]


def positions(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Every position of one seeded random playout."""
    state = cove.load(GAME).new(players=players, seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_over:
        yield state
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    yield state


def hand_titles(svg_text: str) -> set[str]:
    return {t.split(" (")[0].removeprefix("in hand: ") for t in titles(svg_text)
            if t.startswith("in hand: ")}


@pytest.mark.parametrize("options", SETTINGS, ids=["base", "modules"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_target_is_legal_and_most_moves_are_on_the_board(
    players: int, options: dict[str, Any]
) -> None:
    legal_total = on_board = 0
    for state in positions(players, options, seed=players * 10 + len(options)):
        movers = state.to_move() if not state.is_over else []
        for seat in [*movers, None]:
            legal = legal_forms(state, seat)
            on_board += len(reachable(draw(state.view(seat), legal, seat), legal))
            legal_total += len(legal)
    # Measured 1.0 (every legal move has a target); the floor leaves room for new actions.
    assert legal_total > 0
    assert on_board / legal_total >= 0.98


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_sees_only_its_own_hand_and_a_spectator_none(players: int) -> None:
    for k, state in enumerate(positions(players, SETTINGS[1], seed=players)):
        if k % 7:
            continue
        spectator = draw(state.view(None), [], None)
        assert hand_titles(spectator) == set()
        assert not any("sightings card" in t for t in titles(spectator))
        for seat in range(players):
            own = {c["card"] for c in state.view(seat).get("hand", [])}
            drawn = draw(state.view(seat), [], seat)
            assert hand_titles(drawn) == own
            assert sum("sightings card" in t for t in titles(drawn)) == 1


def test_the_anchor_and_headings_are_targets_when_sailing() -> None:
    for state in positions(3, {}, seed=5):
        if state.is_over or state.view(state.to_move()[0])["decision"]["kind"] != "sail":
            continue
        seat = state.to_move()[0]
        legal = legal_forms(state, seat)
        labelled = {label: moves for label, moves in targets(draw(state.view(seat), legal,
                                                                    seat))}
        sails = {a["text"] for a in legal if a["json"]["kind"] == "sail"}
        assert sails and all(f"sail {t.split()[-1]}" in labelled for t in sails)
        if any(a["json"]["kind"] == "drop_anchor" for a in legal):
            assert labelled["drop anchor"] == ["drop anchor"]
        return
    pytest.fail("no sailing decision in the playout")


def test_colours_and_names_come_from_the_data() -> None:
    """Cubes are drawn in their goods type's fill, with the text colour that reads on it,
    cards in their suit's colour, each named as the data names them."""
    state = new(3, 2)                                # ships placed, islands stocked
    seat = state.to_move()[0]
    board = draw(state.view(seat), legal_forms(state, seat), seat)
    on_map = {g for c in state.view(None)["map"] for g in c["goods"]}
    assert on_map
    for g in on_map:
        fill = DATA.fills[DATA.goods.index(g)]
        assert f'fill="{fill}"' in board and f">{g[:2].title()}<" in board
    for card in state.view(seat)["hand"]:
        assert f'fill="{DATA.suit_fills[DATA.suits.index(card["suit"])]}"' in board
    assert _ink("#f4f1ea") == "#222" and _ink("#6b4226") == "#fff"
