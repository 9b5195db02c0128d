"""Trails of Tucana's SVG board: well-formed, every click target names legal moves only,
every legal move can be clicked on the board, every player count and both maps draw, and
neither a spectator nor another player sees a segment committed but not yet revealed."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from cove.bots import make_bot
from cove.core.actions import legal_forms
from cove.core.registry import load
from cove.core.svg import reachable, targets
from cove.games.trails_of_tucana import web_board as board
from cove.games.trails_of_tucana.data import TABLES

NS = "{http://www.w3.org/2000/svg}"
REACH_FLOOR = 1.0  # measured: every draw, bonus and pass over these playouts


def _parse(svg_text: str) -> ET.Element:
    root = ET.fromstring(svg_text)
    assert root.tag == f"{NS}svg" and root.get("viewBox")
    return root


def _targets(svg_text: str) -> list[list[str]]:
    """The move lists of every click target, each of which must carry a title."""
    assert all(label for label, _moves in targets(svg_text))
    return [moves for _label, moves in targets(svg_text)]


def _trails(root: ET.Element) -> list[str]:
    return [el.get("data-seg") or "" for el in root.iter(f"{NS}line")
            if el.get("class") == "trail"]


def _playout(players: int, seed: int, steps: int, **options: Any) -> tuple[int, int]:
    """Random play for `steps` steps (a step: every mover decides), each mover's board
    drawn at each; returns (legal moves seen, of them reachable by a click on the board)."""
    state = load("trails-of-tucana").new(players, seed=seed, **options)
    rng = random.Random(seed)
    seen = reached = 0
    for _ in range(steps):
        if state.is_over:
            break
        for seat in state.to_move():
            legal = legal_forms(state, seat)
            seen += len(legal)  # reachable() raises on a target offering an illegal move
            reached += len(reachable(board.draw(state.view(seat), legal, seat), legal))
        for seat in state.to_move():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    if state.is_over:  # the end draws too: no targets, the winners named
        svg_text = board.draw(state.view(0), [], 0)
        assert _targets(svg_text) == [] and "Game over" in svg_text
    return seen, reached


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6, 7, 8])
def test_targets_are_legal_and_reach_the_legal_moves(players: int) -> None:
    island = "petit" if players % 2 else "grande"
    seen, reached = _playout(players, seed=players, steps=12 if players > 2 else 10_000,
                             map=island)
    assert seen > 0
    assert reached / seen >= REACH_FLOOR


@pytest.mark.parametrize("island", ["petit", "grande"])
def test_every_space_and_drawn_segment_is_on_the_board(island: str) -> None:
    state = load("trails-of-tucana").new(3, seed=4, map=island)
    rng = random.Random(4)
    for _ in range(12):
        for seat in state.to_move():
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.view(0)
    root = _parse(board.draw(view, legal_forms(state, 0), 0))
    hexes = sum(1 for el in root.iter(f"{NS}polygon"))
    assert hexes == 2 * len(TABLES.islands[island].coords)  # own island, the small one shared
    assert sum(1 for el in root.iter(f"{NS}use")) == 2  # by the two other players
    others = [el.get("data-seat") for el in root.iter(f"{NS}g")
              if el.get("class") == "other-island"]
    assert others == ["1", "2"]
    drawn = _trails(root)
    for sheet in view["sheets"]:
        for seg in sheet["segments"]:
            assert seg in drawn
    assert len(drawn) == sum(len(s["segments"]) for s in view["sheets"])
    words = "".join(root.itertext())
    assert view["map_name"] in words
    for card in view["cards"]:
        assert card in words


def test_unrevealed_segment_is_hidden_from_others() -> None:
    state = load("trails-of-tucana").new(2, seed=7)
    draws = [a for a in state.legal_actions(0) if str(a).startswith("draw ")]
    assert draws
    state.apply(0, draws[0])
    seg = str(draws[0]).split(" ", 1)[1]
    mine = _trails(_parse(board.draw(state.view(0), [], 0)))
    assert seg in mine
    for seat in (None, 1):
        view = state.view(seat)
        legal = legal_forms(state, 1) if seat == 1 else []
        assert seg not in _trails(_parse(board.draw(view, legal, seat)))


def test_spectator_board_has_no_targets() -> None:
    state = load("trails-of-tucana").new(4, seed=3)
    svg_text = board.draw(state.view(None), [], None)
    root = _parse(svg_text)
    assert _targets(svg_text) == []
    assert "Your island" not in "".join(root.itertext())


def test_bonus_step_offers_every_free_edge_and_pass() -> None:
    state = load("trails-of-tucana").new(1, seed=0)
    bot = make_bot("greedy", 0)
    while state.view(0)["decision"]["kind"] != "bonus":  # greedy earns one by decision 8
        assert not state.is_over
        state.apply(0, bot.act(state, 0))
    legal = legal_forms(state, 0)
    svg_text = board.draw(state.view(0), legal, 0)
    root = _parse(svg_text)
    clickable = {m for moves in _targets(svg_text) for m in moves}
    assert {a["text"] for a in legal} == clickable
    assert any(t.startswith("bonus ") for t in clickable) and "pass" in clickable
    assert "bonus segment" in "".join(root.itertext())


def test_variant_options_draw_what_their_view_holds() -> None:
    options = {"special_bonus": True, "hide_earlier_cards": True, "compulsory_bonus": True}
    seen, reached = _playout(5, seed=9, steps=8, **options)
    assert seen > 0 and reached == seen
    state = load("trails-of-tucana").new(5, seed=9, **options)
    words = "".join(_parse(board.draw(state.view(2), legal_forms(state, 2), 2)).itertext())
    assert "red cards:" in words and "cards seen this round" not in words
    assert "Your island (P3)" in words


@pytest.mark.parametrize("island", ["petit", "grande"])
def test_the_island_has_the_column_letters_and_row_numbers_of_the_move_texts(
        island: str) -> None:
    state = load("trails-of-tucana").new(2, seed=3, map=island)
    view = state.view(0)
    root = _parse(board.draw(view, legal_forms(state, 0), 0))
    axes = [(el.text or "", float(el.get("x", 0)), float(el.get("y", 0)))
            for el in root.iter(f"{NS}text") if el.get("class") == "axis"]
    isl = TABLES.islands[view["map"]]
    columns = {label[0] for label in isl.labels}
    rows = {label[1:] for label in isl.labels}
    letters = [(t, x) for t, x, _ in axes if t.isalpha()]
    numbers = [(t, y) for t, _, y in axes if t.isdigit()]
    assert {t for t, _ in letters} == columns
    assert {t for t, _ in numbers} == rows
    # in reading order: letters left to right, numbers top to bottom
    assert [t for t, _ in sorted(letters, key=lambda p: p[1])] == sorted(columns)
    assert [t for t, _ in sorted(numbers, key=lambda p: p[1])] == sorted(rows, key=int)


def test_a_spectator_is_told_nothing_about_its_own_segments_or_clicks() -> None:
    state = load("trails-of-tucana").new(2, seed=5)
    words = " ".join(t for t in _parse(board.draw(state.view(None), [], None)).itertext())
    assert "click" not in words and "your" not in words and "dark lines: trails" in words
    mine = " ".join(_parse(board.draw(state.view(0), legal_forms(state, 0), 0)).itertext())
    assert "click one" in mine and "your segments" in mine
