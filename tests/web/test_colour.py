"""No information by colour alone: every colour-coded thing a board draws (a seat's ship
or friend, a good, a die, a terrain, a monster) carries its own letter, and stays apart
from the others of its kind once the page is drawn in grays.

The boards mark those things (`cove.core.svg.coded`): `data-code` says what the colour
means (`seat:P2`), `data-letter` the text drawn with it. The test reads the letters from
the DOM and compares the rendered pixels of one of each kind under `filter: grayscale(1)`;
the grayscale boards are saved under pytest's temporary folder for a person to look at."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from cove.core.svg import SEAT_COLOURS
from tests.web.conftest import Server
from tests.web.keys import GAMES, play_by_keys, table_by_keys

CODED_JS = """() => [...document.querySelectorAll('#board [data-code]')].map((e, i) => {
    const r = e.getBoundingClientRect();
    return {i: i, code: e.dataset.code, letter: e.dataset.letter,
            text: e.textContent.replace(/\\s+/g, ''), w: Math.round(r.width),
            h: Math.round(r.height)}; })"""


@pytest.mark.parametrize("game", GAMES)
def test_colour_coded_things_carry_a_letter_and_differ_in_grays(
        game: str, server: Server, new_page: Any, tmp_path: Path) -> None:
    page, table_id = table_by_keys(new_page, server, game, ["random", "random"])
    play_by_keys(page, server, table_id, random.Random(3), moves=4)
    st = server.state(table_id)
    page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=st.decisions)
    page.add_style_tag(content="html { filter: grayscale(1); }")
    page.locator("#board").screenshot(path=tmp_path / f"{game}-gray.png")
    marks = page.evaluate(CODED_JS)
    if server.state(table_id).decisions != st.decisions:  # a bot moved meanwhile: again
        marks = page.evaluate(CODED_JS)
    letters: dict[str, str] = {}
    for m in marks:
        assert m["letter"] and m["letter"].replace(" ", "") in m["text"], m  # drawn, not only set
        assert letters.setdefault(m["code"], m["letter"]) == m["letter"], m
    families: dict[str, dict[str, str]] = {}
    for code, letter in letters.items():
        families.setdefault(code.partition(":")[0], {})[code] = letter
    assert families, "the board marks no colour-coded thing"
    drawn = page.inner_html("#board").lower()
    if any(colour.lower() in drawn for colour in SEAT_COLOURS[:3]):  # seats drawn in colour
        assert {"seat:P1", "seat:P2", "seat:P3"} <= set(families.get("seat", {})), families
    for family, codes in families.items():
        assert len(set(codes.values())) == len(codes), f"two {family}s share a letter: {codes}"
        # in grays, one of each code drawn at the same size must still look different
        by_size: dict[tuple[int, int], dict[str, int]] = {}
        for m in marks:
            if m["code"].partition(":")[0] == family and m["w"] and m["h"]:
                by_size.setdefault((m["w"], m["h"]), {}).setdefault(m["code"], m["i"])
        same = max(by_size.values(), key=len)
        if len(codes) < 2:
            continue
        assert len(same) >= 2, f"no two {family} codes drawn at the same size to compare"
        shots = {code: page.locator("#board [data-code]").nth(i).screenshot(
            path=tmp_path / f"{game}-{code.replace(':', '-')}.png") for code, i in same.items()}
        for a, b in combinations(shots, 2):
            assert shots[a] != shots[b], f"{a} and {b} look the same in grays"
