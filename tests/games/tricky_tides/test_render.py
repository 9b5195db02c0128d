"""The terminal screen (``render.py``): what it shows of a view, and that it fits the
width it is given."""

from __future__ import annotations

import re

import pytest

from cove.core import Rng
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.decision_stack import MONSTER, PLACE
from cove.games.tricky_tides.geometry import CELL_NAMES
from cove.games.tricky_tides.state import TidesState
from cove.testing.screens import screen_problems, turn_screens
from tests.games.tricky_tides.helpers import new, play_random

GID = "tricky-tides"


def test_render_shows_map_hand_secret_card_and_holdings() -> None:
    s = new(3, 5)
    assert GAME.render is not None
    text = GAME.render(s.view(0), False)
    for c in ("a1", "b1", "c1", "a4", "c4"):
        assert c in text
    for c in range(12):
        if not s.sea[c]:
            assert DATA.islands[s.layout[c]].name in text            # which island is which
    assert "open sea" in text                                         # 3 players: 2 flipped
    assert "Your hand:" in text and "headings" in text
    assert f"sightings card {DATA.sightings[s.sightings[0]].id}" in text
    assert "leader (rum barrel): P" in text and "round 1/3  hand 1/6" in text
    for p in range(3):
        assert f"P{p + 1}" in text and "hold " in text
    assert "Your hand" not in GAME.render(s.view(None), False)
    coloured = GAME.render(s.view(1), True)
    assert "\x1b[" in coloured


def test_render_at_placement_and_at_the_end() -> None:
    s = GAME.new(2, 3)
    assert GAME.render is not None
    assert "place ship" in GAME.render(s.view(None), False)
    assert isinstance(s, TidesState)
    play_random(s, 3)
    end = GAME.render(s.view(0), False)
    assert "GAME OVER" in end and "final score" in end and "Winner" in end


def test_render_shows_event_and_monsters_on_the_map() -> None:
    assert GAME.render is not None
    s = new(3, 1, events=True, monsters=True)
    rng = Rng(3)
    while s.phase != MONSTER:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    text = GAME.render(s.view(s.to_move()[0]), False)
    ev = DATA.events[s.modules.event]
    flat = " ".join(text.split())                      # long lines are wrapped to the width
    assert f"EVENT this round: {ev.name} - {ev.text}" in flat
    assert "In force until the round ends: " in flat
    for m, c in enumerate(s.modules.monster_cells):     # every monster drawn in its cell
        assert f"<<{DATA.suits[m].upper()}>>" in text
        assert f"{DATA.suits[m]} at {CELL_NAMES[c]}: " in flat
    assert "Now: P" in flat and " activates the " in flat
    assert "\x1b[" in GAME.render(s.view(0), True)
    plain = GAME.render(new(3, 1).view(0), False)
    assert "EVENT" not in plain and "<<" not in plain and "Monsters" not in plain


def test_render_shows_running_scores() -> None:
    """GAME-DONE "scores": each seat's score so far; the viewer's own includes their secret
    sightings bonus, the others' show only the public part (orders + goods sold)."""
    s = new(3, 5)
    s.delivered = ((0, 27), (9,), ())            # O01 octopus 2 gold, O28 whale 2 gold;
                                                 # O10 sea dragon 2 gold
    v0, v1 = s.view(0), s.view(1)
    assert v0["my_score"] == s.scores()[0] and v1["my_score"] == s.scores()[1]
    sold = [sum(s.hold[p * 5 + t] // DATA.sell[t] for t in range(5)) for p in range(3)]
    assert [x["public_score"] for x in v0["seats"]] == [4 + sold[0], 2 + sold[1], sold[2]]
    assert v0["seats"] == v1["seats"]      # the same public figures for everyone
    assert GAME.render is not None
    text = GAME.render(v0, False)
    assert f"score {s.scores()[0]:g} incl. sightings" in text
    assert f"score {2 + sold[1]} + secret sightings" in text
    assert "my_score" not in s.view(None)


def test_no_line_wider_than_80_columns() -> None:
    assert screen_problems(GID, 80, games=2, every=11) == []


def test_a_screen_fits_100_by_40() -> None:
    assert screen_problems(GID, 100, 40, games=2, every=11) == []


def test_map_has_axis_labels_and_a_legend() -> None:
    assert GAME.render is not None
    for width in (80, 100):
        lines = GAME.render(new(3, 5).view(0), False, width=width).splitlines()
        if width == 100:   # the compact map's cells name their column
            assert ["a", "b", "c"] in [ln.split() for ln in lines]    # column letters
        rows = [ln.split()[0] for ln in lines if re.match(r" ?\d \|? ?[abc]\d", ln)]
        assert rows == ["1", "2", "3", "4"]                            # row numbers
        flat = " ".join(" ".join(lines).split())
        assert ("[n] island's goods number" if width == 100 else "a1 [4] = cell and goods "
                "number") in flat and "Su=sugar" in flat
        assert "P1-P4 ships" in flat and "north is up" in flat
        assert "(in brackets: the headings a card sails)" in flat
        assert max(len(ln) for ln in lines) <= width


@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {}),
                                             (3, {"monsters": True})])
def test_the_whole_map_and_your_hand_fit_80_by_24(players: int,
                                                  options: dict[str, bool]) -> None:
    """At 80x24 (a terminal's default) the play screen shows every row of the map, every
    cell of it, and your hand, at every sampled decision."""
    seen = 0
    for s, _, _, lines in turn_screens(new(players, 7, **options), 7, every=7,
                                       others=[f"P{q + 1}: play 5 sharks" for q in range(3)],
                                       log=["a long log line " * 6] * 4):
        assert len(lines) <= 23 and max(map(len, lines)) <= 80
        text = "\n".join(lines)
        starts = [ln.split()[0] for ln in lines if re.match(r"\d [abc]\d", ln)]
        assert starts == ["1", "2", "3", "4"], text
        for cell in CELL_NAMES:
            assert re.search(rf"\b{cell}\b", text), (cell, text)
        if isinstance(s, TidesState) and s.phase != PLACE:
            assert "Your hand:" in text, text
        seen += 1
    assert seen > 10


def test_one_of_a_suit_is_named_in_the_singular() -> None:
    """"1 octopus", never "1 octopuses": the suits' plurals (from the data file) never
    follow a 1 on any screen."""
    from cove.games.tricky_tides.actions import SUIT_PLURALS
    from cove.testing.screens import ANSI, screens

    plural_after_one = re.compile(r"\b1 (" + "|".join(map(re.escape, SUIT_PLURALS)) + r")\b")
    seen = 0
    for where, text in screens(GID, games=2, every=5):
        seen += 1
        hit = plural_after_one.search(ANSI.sub("", text))
        assert hit is None, f"{where}: {hit.group(0)!r}"
    assert seen > 20
