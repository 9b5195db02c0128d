"""The game-over banner: who won, every score and why the game ended in plain words (a game
cut short by its safety limit says so), and it stays in view while the page scrolls (a
desktop and a phone screen)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from cove.core.text import END_WORDS
from tests.web.conftest import Server
from tests.web.keys import GAMES, play_by_keys, quick, table_by_keys


def limited() -> str:
    """A game whose safety limit the lobby can shorten (``keys.quick``), one played alone
    when there is one (the shortest to play)."""
    games = [g for g in GAMES if quick(g)[1]]
    if not games:
        pytest.skip("no game has a safety limit the lobby can shorten")
    return min(games, key=lambda g: len(quick(g)[0]))


IN_VIEW = """() => { const r = document.querySelector('#end').getBoundingClientRect();
    return [r.top, r.bottom, window.innerHeight, window.scrollY]; }"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_safety_limit_end_says_so_and_the_banner_stays_in_view(
        width: int, server: Server, new_page: Any) -> None:
    page: Page = new_page(width, 844)
    game = limited()
    table_id = table_by_keys(lambda: page, server, game)[1]
    play_by_keys(page, server, table_id, random.Random(8))
    st = server.state(table_id)
    key = st.stats().get("end")
    assert key in cove.load(game).safety_ends, f"{game} ended by {key!r}, not its safety limit"
    banner = page.locator("#end")
    banner.locator("h2").wait_for()
    text = " ".join(banner.inner_text().split())
    assert text.startswith("Game over: ")
    assert ("You win!" in text) is (0 in st.winners())
    assert "no player wins" in text or st.winners()
    assert f"Final scores: P1 (you) {st.scores()[0]:g}." in text
    said = cove.load(game).end_reason  # the game's own sentence, else the stats() words
    words = (said(st.view(0)) if said is not None
             else END_WORDS.get(key, key).partition("{")[0])
    assert words in text and "safety limit" in text
    assert "with 0 points" not in text and "The game ended: " not in text
    page.wait_for_function("() => document.querySelector('#replay').dataset.step !== undefined")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    top, bottom, height, scrolled = page.evaluate(IN_VIEW)
    assert scrolled > 100, "the page is too short to scroll: nothing was checked"
    assert top >= 0 and bottom <= height, (top, bottom, height)
    assert bottom <= height * 0.45, "the banner hides most of the screen"
