"""Your turn while the tab is in the background: the title gets "(Your turn)" and the
favicon its yellow dot; both go back when you act. And `/favicon.ico` is a real icon.

Headless Chromium keeps every page visible, so the test decides what `document.hidden`
says (an init script) and tells the page as a browser would (`visibilitychange`)."""

from __future__ import annotations

import random
import urllib.request
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import GAMES, play_by_keys, quick, table_by_keys

BACKGROUND = """() => {
    window.coveHidden = false;
    Object.defineProperty(Document.prototype, 'hidden',
                          {configurable: true, get() { return window.coveHidden; }});
    Object.defineProperty(Document.prototype, 'visibilityState', {configurable: true,
        get() { return window.coveHidden ? 'hidden' : 'visible'; }});
}"""


def hide(page: Page, hidden: bool) -> None:
    page.evaluate("h => { window.coveHidden = h; "
                  "document.dispatchEvent(new Event('visibilitychange')); }", hidden)


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url) as res:
        return res.status, res.headers["Content-Type"], res.read()


def test_favicon_ico_is_an_icon(server: Server) -> None:
    plain = fetch(server.url + "/favicon.ico")
    turn = fetch(server.url + "/web/favicon-turn.ico")
    for status, kind, body in (plain, turn):
        assert status == 200 and kind == "image/x-icon"
        assert body[:4] == b"\0\0\1\0" and b"PNG" in body[:40]  # an ICO holding a PNG
    assert plain[2] != turn[2]


def icon(page: Page) -> str:
    out: str = page.evaluate("() => new URL(document.querySelector('link[rel=icon]').href)"
                             ".pathname")
    return out


def wait_my_turn(page: Page) -> None:
    page.wait_for_function("() => document.querySelectorAll('#moves button.move').length > 0")


def test_your_turn_in_a_background_tab_marks_the_title_and_icon(
        server: Server, new_page: Any) -> None:
    def opened() -> Page:
        page: Page = new_page()
        page.add_init_script(f"({BACKGROUND})()")
        return page

    game = next((g for g in GAMES if quick(g)[0]), None)  # one played against a bot
    if game is None:
        pytest.skip("no game is played against a bot")
    page, table_id = table_by_keys(opened, server, game)
    rng = random.Random(1)
    title = page.title()
    assert not title.startswith("(Your turn)") and icon(page) == "/favicon.ico"
    for _ in range(3):  # in sight: my turns come and go without a mark
        wait_my_turn(page)
        play_by_keys(page, server, table_id, rng, moves=1)
        assert page.title() == title and icon(page) == "/favicon.ico"
    wait_my_turn(page)
    assert page.title() == title and icon(page) == "/favicon.ico"
    # in the background: my moves, until the bot has moved and it is my turn again
    hide(page, True)
    for _ in range(30):
        play_by_keys(page, server, table_id, rng, moves=1)
        wait_my_turn(page)  # at once when my turn goes on: then no mark, it did not come
        if page.title() != title:
            break
    assert page.title() == "(Your turn) " + title
    assert icon(page) == "/web/favicon-turn.ico"
    assert page.evaluate("() => fetch(document.querySelector('link[rel=icon]').href)"
                         ".then(r => r.status)") == 200
    hide(page, False)  # back to the tab: the mark stays until I act
    assert page.title().startswith("(Your turn)")
    play_by_keys(page, server, table_id, rng, moves=1)
    assert page.title() == title and icon(page) == "/favicon.ico"
