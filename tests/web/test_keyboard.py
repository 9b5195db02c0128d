"""Every game played to its end with the keyboard alone, from the lobby to the end screen.

No mouse event reaches the page (a listener counts them); nothing is clicked, filled or
selected through Playwright's element helpers: only `keyboard.press` and `keyboard.type`.
The human seat's moves take turns among the three ways a keyboard plays: Tab to a
highlighted place on the board and press Enter (the chooser's buttons by Tab too), Tab to
a move in the legal-move list, and typing a move's text in the box. Bots fill the other
seats, and the lobby's own options keep each game short (a round or turn limit, or solo).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from cove.core.actions import legal_forms
from cove.core.svg import targets
from tests.web.conftest import Server
from tests.web.keys import GAMES, active_matches, create_by_keys, play_by_keys, table_by_keys


def solo_with_a_target() -> str:
    """The first game played alone whose board offers P1 a target at its first move."""
    for game in cove.all_games():
        if game.min_players == 1 and game.board is not None:
            st = game.new(1, seed=0)
            if targets(str(game.board(st.view(0), legal_forms(st, 0), 0))):
                return game.id
    pytest.skip("no game played alone has a board target at its first move")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_keyboard_alone(game: str, server: Server, new_page: Any) -> None:
    page, table_id = table_by_keys(new_page, server, game)
    used = play_by_keys(page, server, table_id, random.Random(5))
    st = server.state(table_id)
    page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=st.decisions)
    page.locator("#end h2").wait_for()
    assert "Game over" in page.locator("#end").inner_text()
    assert sum(used.values()) == sum(1 for p, _ in st.history if p == 0) > 3
    assert used.get("board", 0) > 0 and used.get("list", 0) > 0 and used.get("typed", 0) > 0, used
    assert page.evaluate("() => window.coveMouse") == 0, "a mouse event reached the page"


def test_the_focus_ring_shows_and_the_focus_survives_a_move(server: Server,
                                                            new_page: Any) -> None:
    page: Page = new_page()
    create_by_keys(page, server, solo_with_a_target(), [], {})
    page.keyboard.press("Tab")  # the first stop: a skip link, shown when focused
    assert active_matches(page, "a.skip")
    assert page.locator("a.skip").first.is_visible()
    page.keyboard.press("Enter")  # to the board
    assert active_matches(page, "#board")
    page.keyboard.press("Tab")
    assert active_matches(page, "#board .target")
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return [s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
    assert ring[0] != "none" and ring[1] >= 2, ring
    box = page.evaluate("""() => { const r = document.activeElement.getBoundingClientRect();
        return {x: r.x - 8, y: r.y - 8, width: r.width + 16, height: r.height + 16}; }""")
    focused = page.screenshot(clip=box)
    page.keyboard.press("Shift+Tab")  # the focus leaves the target: its ring goes
    assert not active_matches(page, "#board .target")
    assert page.screenshot(clip=box) != focused
    page.keyboard.press("Tab")
    n = int(page.evaluate("() => document.body.dataset.moves"))
    page.keyboard.press("Enter")
    page.wait_for_function("n => Number(document.body.dataset.moves) > n", arg=n)
    # the board was redrawn under the focus: it is back on the board, not on the page's top
    page.wait_for_function("() => !!document.activeElement.closest('#board')")
    assert page.evaluate("() => window.coveMouse") == 0
