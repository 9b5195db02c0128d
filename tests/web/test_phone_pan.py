"""On a phone (390 x 844), through the lobby: the board's pan keeps the drawing's left edge
in sight (its headings, row numbers and the players' names start there) and brings a legal
target into view as far as that allows, else says the moves lie further right; the move
chooser opens next to the place clicked."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import GAMES, quick, submit_by_keys
from tests.web.play import Clicker, board_targets, listed
from tests.web.test_phone import PHONE

GEOMETRY_JS = """() => {
  const box = document.querySelector('#board'), view = box.getBoundingClientRect();
  const labels = [...box.querySelectorAll('svg text')].filter(t => t.textContent.trim())
    .map(t => t.getBoundingClientRect()).filter(r => r.width);
  const targets = [...box.querySelectorAll('.target')].map(t => t.getBoundingClientRect());
  const heads = [...document.querySelectorAll('h1, h2')].filter(h => h.getClientRects().length)
    .map(h => { const r = h.getBoundingClientRect(); return [h.textContent, r.left, r.right]; });
  return {left: view.left, right: view.right, scroll: box.scrollLeft,
          labels: labels.length ? Math.min(...labels.map(r => r.left)) : null,
          seen: targets.some(r => r.right > view.left && r.left < view.right),
          targets: targets.length, note: !document.querySelector('#pan-note').hidden,
          heads: heads, width: window.innerWidth};
}"""


def check_pan(page: Page, where: str) -> None:
    g = page.evaluate(GEOMETRY_JS)
    for text, left, right in g["heads"]:  # the page's headings fit the screen
        assert left >= 0 and right <= g["width"] + 1, f"{where}: heading {text!r} cut"
    if g["labels"] is not None:  # the drawing's left edge: headings and names start there
        assert g["labels"] >= g["left"] - 1, f"{where}: labels cut on the left ({g})"
    if g["targets"]:
        assert g["seen"] or g["note"], f"{where}: no target in sight and no note ({g})"


def chooser_next_to(page: Page, index: int) -> None:
    target = page.locator("#board .target").nth(index)
    target.click()
    chooser = page.locator("#chooser")
    chooser.wait_for()
    t, c = target.bounding_box(), chooser.bounding_box()
    assert t is not None and c is not None
    below = c["y"] - (t["y"] + t["height"])
    above = t["y"] - (c["y"] + c["height"])
    assert -1 <= below <= 12 or -1 <= above <= 12, (t, c)
    assert c["x"] >= 0 and c["x"] + c["width"] <= 391, c  # on the screen
    assert c["x"] <= t["x"] + t["width"] and c["x"] + c["width"] >= t["x"] - 8, (t, c)
    page.locator("#chooser button.cancel").click()


def test_the_pan_keeps_the_left_edge_and_the_chooser_opens_at_the_piece(
        server: Server, new_page: Any) -> None:
    choosers = 0
    for game in GAMES:
        page: Page = new_page(**PHONE)
        bots, options = quick(game)
        submit_by_keys(page, server, game, ["human", *bots], options)
        page.locator("#open-mine").click()
        page.wait_for_url("**/web/tables/**")
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        check_pan(page, f"{game} at the start")
        clicker = Clicker(3)
        rng = random.Random(5)
        for _ in range(16):
            page.wait_for_function("() => document.querySelectorAll('#moves button.move')"
                                   ".length > 0 || document.body.dataset.over === '1'"
                                   " || !document.querySelector('#end').hidden")
            if not listed(page):
                break
            several = [i for i, t in enumerate(board_targets(page)) if len(t) > 1]
            if several:
                chooser_next_to(page, rng.choice(several))
                choosers += 1
            version = page.evaluate("() => document.body.dataset.version")
            clicker.click_once(page)
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
            page.reload()  # the board as drawn after a load, panned anew
            page.wait_for_function("() => document.body.dataset.version !== undefined")
            check_pan(page, f"{game} after a reload")
        page.context.close()
    assert choosers, "no board offered a place with several moves: the chooser was not seen"
