"""The table on a phone-sized screen (390 px wide, Playwright's iPhone-like viewport): the
board's labels and the panels' text are drawn at a legible size, measured in the browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Browser, Page

import cove
from tests.web.conftest import Server
from tests.web.play import wait_shown

GAMES = [g.id for g in cove.all_games()]
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
                         "is_mobile": True, "has_touch": True}
LEGIBLE_PX = 11.0
"""The smallest text a player should have to read on a phone, in CSS pixels."""

BOARD_TEXT_JS = """() => [...document.querySelectorAll('#board svg text')].flatMap(t => {
  const m = t.getScreenCTM(), box = t.getBoundingClientRect();
  if (!m || !box.width || !t.textContent.trim()) return [];
  const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
  return [[size, t.textContent.trim()]];
})"""
"""Every visible label of the board with its rendered size: the font size in the drawing's
units times the drawing's scale on the screen."""

PANEL_TEXT_JS = """() => {
  const out = [];
  const panels = '#status, #moves, #scores, #log, #board-card .board-tools, header';
  for (const box of document.querySelectorAll(panels)) {
    for (const e of [box, ...box.querySelectorAll('*')]) {
      const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      if (!own || !e.getClientRects().length) continue;
      out.push([parseFloat(getComputedStyle(e).fontSize), e.textContent.trim().slice(0, 40)]);
    }
  }
  return out;
}"""
"""Every element of the panels with text of its own, and its computed font size."""


TARGET_IN_SIGHT_JS = """() => {
  const box = document.querySelector('#board'), view = box.getBoundingClientRect();
  const targets = [...box.querySelectorAll('.target')];
  if (!targets.length) return null;
  return targets.some(t => { const r = t.getBoundingClientRect();
                             return r.right > view.left && r.left < view.right; });
}"""
"""None without legal targets; otherwise whether one lies within the board's visible width."""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(**PHONE)
    ctx.set_default_timeout(15000)
    yield ctx.new_page()
    ctx.close()


@pytest.mark.parametrize("game", GAMES)
def test_board_and_panel_text_is_legible_on_a_phone(server: Server, phone: Page,
                                                    game: str) -> None:
    table = server.create(game, ["human", "human", "random"], seed=3)
    phone.goto(server.seat_url(table, 0))
    wait_shown(phone, 0)
    labels: list[list[Any]] = phone.evaluate(BOARD_TEXT_JS)
    assert len(labels) >= 8, f"{game}: only {len(labels)} labels drawn on the board"
    small = [(round(size, 1), text) for size, text in labels if size < LEGIBLE_PX]
    assert not small, f"{game}: board labels under {LEGIBLE_PX} px on a phone: {small[:10]}"
    panels: list[list[Any]] = phone.evaluate(PANEL_TEXT_JS)
    assert len(panels) >= 5, f"{game}: the panels show almost no text"
    small = [(size, text) for size, text in panels if size < LEGIBLE_PX]
    assert not small, f"{game}: panel text under {LEGIBLE_PX} px on a phone: {small[:10]}"
    # the board is panned so that a legal target is in sight (one is, when it is P1's turn),
    # or, when that would pan the drawing's left edge out of sight, a button says where
    in_sight = phone.evaluate(TARGET_IN_SIGHT_JS)
    assert in_sight is not False or phone.locator("#pan-note").is_visible(), (
        f"{game}: no legal target in sight on the panned board, and no word of it")
    # the board pans inside its card; the page itself stays as wide as the screen
    page_width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert page_width <= 391, f"{game}: the page is {page_width} px wide on a 390 px screen"


def test_show_the_whole_board_fits_it_to_a_phone_screen(server: Server, phone: Page) -> None:
    """Every board drawn wider than a phone (readable, panned sideways) fits it when asked,
    and goes back; at least one game's board is that wide."""
    width = "() => document.querySelector('#board svg').getBoundingClientRect().width"
    board = "() => document.querySelector('#board').clientWidth"
    wide = []
    for game in GAMES:
        table = server.create(game, ["human", "human", "random"], seed=3)
        phone.goto(server.seat_url(table, 0))
        wait_shown(phone, 0)
        if phone.evaluate(width) <= phone.evaluate(board):
            continue  # fits as drawn
        wide.append(game)
        phone.locator("#zoom", has_text="Show the whole board").click()
        assert phone.evaluate(width) <= phone.evaluate(board) + 1, game  # (sub-pixel rounding)
        phone.locator("#zoom", has_text="Readable size").click()
        assert phone.evaluate(width) > phone.evaluate(board), game
    assert wide, "no game's board is wider than a phone: the zoom was not tried"
