"""The game-over banner: who won, every score and why the game ended in plain words, and it
stays in view while the page scrolls (a desktop and a phone screen)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import create_by_keys, play_by_keys

IN_VIEW = """() => { const r = document.querySelector('#end').getBoundingClientRect();
    return [r.top, r.bottom, window.innerHeight, window.scrollY]; }"""


@pytest.mark.parametrize("width", [1280, 390])
def test_a_safety_limit_end_says_so_and_the_banner_stays_in_view(
        width: int, server: Server, new_page: Any) -> None:
    page: Page = new_page(width, 844)
    create_by_keys(page, server, "tiny-epic-pirates", [], {"max_rounds": "5"})  # solo
    table_id = page.evaluate("() => document.body.dataset.table")
    play_by_keys(page, server, table_id, random.Random(8))
    st = server.state(table_id)
    banner = page.locator("#end")
    banner.locator("h2").wait_for()
    text = " ".join(banner.inner_text().split())
    assert text.startswith("Game over: ")
    assert ("You win!" in text) is (0 in st.winners())
    assert "no player wins" in text or st.winners()
    assert f"Final scores: P1 (you) {st.scores()[0]:g}." in text
    assert "round limit was reached after round 5" in text and "safety limit" in text
    assert "with 0 points" not in text and "The game ended: " not in text
    page.wait_for_function("() => document.querySelector('#replay').dataset.step !== undefined")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    top, bottom, height, scrolled = page.evaluate(IN_VIEW)
    assert scrolled > 100, "the page is too short to scroll: nothing was checked"
    assert top >= 0 and bottom <= height, (top, bottom, height)
    assert bottom <= height * 0.45, "the banner hides most of the screen"
