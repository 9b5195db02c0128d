"""The Tide's SVG board: well-formed, every click target names legal moves only, nearly
every legal move can be clicked on the board, every player count and option draws, and a
spectator gets no targets."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from cove.core.actions import legal_forms
from cove.core.registry import load
from cove.core.svg import reachable, targets
from cove.games.the_tide import web_board
from cove.games.the_tide.data import DATA

NS = "{http://www.w3.org/2000/svg}"
REACH_FLOOR = 1.0  # measured: every legal move of 2-6 players over these playouts


def _targets(svg_text: str) -> list[tuple[list[str], str]]:
    """(data-moves, title) of every click target; parsing fails on malformed XML."""
    root = ET.fromstring(svg_text)
    assert root.tag == f"{NS}svg" and root.get("viewBox")
    out = []
    for label, moves in targets(svg_text):
        assert label
        out.append((moves, label))
    return out


def _playout(players: int, seed: int, steps: int, **options: Any) -> tuple[int, int]:
    """Random play for `steps` decisions, drawing the mover's board each time; returns
    (legal moves seen, of them reachable by a click on the board)."""
    state = load("the-tide").new(players, seed=seed, **options)
    rng = random.Random(seed)
    seen = reached = 0
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move()[0]
        legal = legal_forms(state, seat)
        seen += len(legal)  # reachable() raises on a target offering an illegal move
        reached += len(reachable(web_board.draw(state.view(seat), legal, seat), legal))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return seen, reached


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_targets_are_legal_and_reach_the_legal_moves(players: int) -> None:
    seen, reached = _playout(players, seed=players, steps=120)
    assert seen > 0
    assert reached / seen >= REACH_FLOOR


@pytest.mark.parametrize("options", [{"move_dirs": 8, "pile_visibility": "all"},
                                     {"check_timing": "every_turn", "connectivity": 8}])
def test_options_draw_with_every_move_clickable(options: dict[str, Any]) -> None:
    seen, reached = _playout(4, seed=11, steps=150, **options)
    assert seen > 0 and reached == seen


def test_board_shows_squares_piles_and_players() -> None:
    state = load("the-tide").new(3, seed=5)
    seat = state.to_move()[0]
    view = state.view(seat)
    svg_text = web_board.draw(view, legal_forms(state, seat), seat)
    root = ET.fromstring(svg_text)
    titles = {t.text for t in root.iter(f"{NS}title")}
    for r, row in enumerate(view["beach"]):
        for c, tile in enumerate(row):
            assert any(t and t.startswith(f"{'abcdef'[c]}{r + 1}: {tile or 'empty'}")
                       for t in titles)
    assert sum(1 for t in titles if t and t.startswith("pile ")) == 6
    words = "".join(root.itertext())
    for p in range(3):
        assert f"P{p + 1}" in words


def test_placing_a_friend_targets_the_free_squares() -> None:
    state = load("the-tide").new(2, seed=1)
    seat = state.to_move()[0]
    legal = legal_forms(state, seat)
    decision = state.view(seat)["decision"]
    assert decision["kind"] == "place"
    svg_text = web_board.draw(state.view(seat), legal, seat)
    squares = {label.split(":")[0] for _m, label in _targets(svg_text)}
    want = {a["text"].rsplit(" ", 1)[1] for a in legal}
    assert want and want <= squares
    assert f"placing a friend of P{decision['owner'] + 1}" in svg_text


def test_spectator_board_has_no_targets() -> None:
    state = load("the-tide").new(4, seed=2)
    rng = random.Random(2)
    for _ in range(30):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    svg_text = web_board.draw(state.view(None), [], None)
    assert _targets(svg_text) == []
    assert "(you)" not in svg_text


def test_finished_game_draws_the_end() -> None:
    state = load("the-tide").new(2, seed=3)
    rng = random.Random(3)
    while not state.is_over:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    svg_text = web_board.draw(state.view(0), [], 0)
    assert _targets(svg_text) == []
    assert "game over" in svg_text
    for p in state.view(0)["winners"]:
        assert f"P{p + 1}" in svg_text.split("Game over", 1)[1].split("scores")[0]


def test_tiles_are_drawn_in_the_data_files_colours_and_letters() -> None:
    state = load("the-tide").new(3, seed=4, pile_visibility="all")
    svg_text = web_board.draw(state.view(None), [], None)
    words = " ".join(ET.fromstring(svg_text).itertext())
    for t in range(1, 6):  # the players' table shows every tile type
        assert f'fill="{DATA.fills[t]}"' in svg_text and DATA.inks[t] in svg_text
        assert f"{DATA.letters[t]} {DATA.names[t]}" in words  # the piles' legend
