"""Undo and hint at the browser table, by clicks and keys through the lobby: the Undo
button shows only while the server says the seat may take its move back, and takes the
table back to the earlier position for everyone there."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from tests.web.conftest import Server
from tests.web.keys import submit_by_keys
from tests.web.play import Clicker, listed

TWO = [g.id for g in cove.all_games() if g.min_players <= 2 <= g.max_players]


def two_people(page: Page, new_page: Any, server: Server, game: str,
               options: dict[str, str] | None = None) -> tuple[Page, str]:
    """P1's page at a new table of ``game`` for two people (with the lobby's ``options``),
    made in the lobby, and P2's page opened from the invite link the lobby shows."""
    submit_by_keys(page, server, game, ["human", "human"], options or {})
    invite = page.locator("#created input[aria-label='P2 invite link']")
    invite.wait_for()
    link = invite.input_value()
    page.locator("#open-mine").click()
    page.wait_for_url("**/web/tables/**")
    other: Page = new_page()
    other.goto(link)
    for p in (page, other):
        p.wait_for_function("() => document.body.dataset.version === '0'")
    found = re.search(r"/web/tables/([^/?]+)", page.url)
    assert found is not None
    return other, found.group(1)


def seen(page: Page) -> dict[str, Any]:
    return {"board": page.inner_html("#board"), "moves": listed(page),
            "prompt": page.inner_text("#prompt")}


def test_undo_takes_the_move_back_for_everyone(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    for game in TWO:  # the first game whose first move (on a random deal) may be taken back
        other, table_id = two_people(page, new_page, server, game)
        mover = page if server.state(table_id).to_move()[0] == 0 else other
        before = seen(mover)
        assert mover.locator("#undo").is_hidden()
        Clicker(1).click_once(mover)
        mover.wait_for_function("() => document.body.dataset.version === '1'")
        if server.hub().tables[table_id].can_undo(mover is other):
            break
        assert mover.locator("#undo").is_hidden()  # the server said no: no button
    else:
        raise AssertionError("no game's first move could be taken back")
    undo = mover.locator("#undo")
    assert undo.is_visible()
    undo.click()
    for p in (mover, page if mover is other else other):
        p.wait_for_function("() => document.body.dataset.version === '2'")
        assert p.evaluate("() => document.body.dataset.moves") == "0"
    assert seen(mover) == before and undo.is_hidden()
    assert "You took back your last move" in mover.inner_text("#announce")
    assert server.state(table_id).decisions == 0
    # the same by the keys: a move, then U
    Clicker(2).click_once(mover)
    mover.wait_for_function("() => document.body.dataset.version === '3'")
    assert undo.is_visible()
    mover.keyboard.press("u")
    mover.wait_for_function("() => document.body.dataset.version === '4'")
    assert seen(mover) == before


def test_a_hint_marks_the_suggested_move_and_says_it(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    game = next(g for g in TWO if len(cove.load(g).start(2, 1).to_move()) == 1)  # one decides
    other, table_id = two_people(page, new_page, server, game)
    mover = page if server.state(table_id).to_move()[0] == 0 else other
    waiting = other if mover is page else page
    assert waiting.locator("#hint").is_hidden()  # not their decision
    mover.locator("#hint").click()
    said = mover.locator("#announce p[data-hint]")
    said.wait_for()
    hint = said.get_attribute("data-hint")
    assert hint in listed(mover)
    assert mover.inner_text("#hint-text") == f"Hint: {hint}"
    marked = mover.eval_on_selector_all("#moves button.hinted", "bs => bs.map(b => b.dataset.move)")
    assert marked == [hint]
    targets = mover.eval_on_selector_all(
        "#board .target.hinted", "ts => ts.map(t => JSON.parse(t.dataset.moves))")
    assert all(hint in t for t in targets)
    assert targets or not mover.locator("#board .target").count()
    mover.locator("#moves button.hinted").click()  # play it: the hint goes
    mover.wait_for_function("() => document.body.dataset.version === '1'")
    assert mover.locator("#hint-text").is_hidden() and not mover.locator(".hinted").count()
