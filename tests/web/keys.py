"""Driving the pages with the keyboard alone: Tab to an element, arrows in a select, Enter.

A page opened through these helpers counts every mouse event that reaches it
(``window.coveMouse``), so a test can check that none did."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import cove
from cove.testing.short import short_game

if TYPE_CHECKING:  # importable without the web extra: test_fragments reads ``quick``
    from playwright.sync_api import Page

    from tests.web.conftest import Server

MOUSE_SPY = """() => {
    window.coveMouse = 0;
    for (const kind of ['mousedown', 'mouseup', 'mousemove', 'pointerdown', 'pointermove',
                        'wheel', 'contextmenu', 'dblclick'])
        document.addEventListener(kind, () => { window.coveMouse++; }, true);
}"""

def active_matches(page: Page, selector: str) -> bool:
    out: bool = page.evaluate(
        "s => !!document.activeElement && document.activeElement.matches(s)", selector)
    return out


def tab_to(page: Page, selector: str, limit: int = 400) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(limit):
        if active_matches(page, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector!r}")


def choose(page: Page, value: str) -> None:
    """Set the focused <select> to ``value`` with the arrow keys."""
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(40):
            if page.evaluate("() => document.activeElement.value") == value:
                return
            page.keyboard.press(key)
    raise AssertionError(f"the arrow keys never reached {value!r}")


def submit_by_keys(page: Page, server: Server, game: str, seats: list[str],
                   options: dict[str, str], clock: str | None = None,
                   before_submit: Callable[[Page], None] | None = None) -> None:
    """Fill the lobby's form with the keys (each seat "human" or a bot; ``clock`` one of
    the clock select's values) and submit it (``before_submit``: the rest of the form, by
    keys)."""
    page.goto(server.url + "/web/")
    page.evaluate(MOUSE_SPY)
    tab_to(page, "#game")
    choose(page, game)
    tab_to(page, "#players")
    choose(page, str(len(seats)))
    for i, spec in enumerate(seats):
        tab_to(page, f"#seat-{i}")
        choose(page, spec)
    if clock is not None:
        tab_to(page, "#clock")
        choose(page, clock)
    if options:
        tab_to(page, "details#options > summary")
        page.keyboard.press("Enter")
        for name, value in options.items():
            tab_to(page, f"#opt-{name}")
            page.keyboard.press("Control+A")
            page.keyboard.type(value)
    if before_submit is not None:
        before_submit(page)
    tab_to(page, "#create button[type=submit]")
    page.keyboard.press("Enter")


def create_by_keys(page: Page, server: Server, game: str, bots: list[str],
                   options: dict[str, str], first: str = "human") -> None:
    """Make a table in the lobby with the keys (seat 0 ``first``, then ``bots``; the
    first human seat is this page's) and go to this page's seat."""
    submit_by_keys(page, server, game, [first, *bots], options)
    page.wait_for_function("() => document.activeElement.id === 'open-mine'")
    assert page.evaluate("() => window.coveMouse") == 0
    page.keyboard.press("Enter")  # Go to my seat
    page.wait_for_url("**/web/tables/**")
    page.evaluate(MOUSE_SPY)
    page.wait_for_function("() => document.body.dataset.moves !== undefined")


def my_turn(page: Page) -> bool:
    out: bool = page.evaluate(
        "() => document.querySelectorAll('#moves button.move').length > 0")
    return out


def count(page: Page, selector: str) -> int:
    out: int = page.evaluate("s => document.querySelectorAll(s).length", selector)
    return out


def press_one_of(page: Page, selector: str, rng: random.Random) -> None:
    """Tab to the first of ``selector``, on to one of the next few, and press Enter."""
    n = count(page, selector)
    tab_to(page, selector)
    for _ in range(rng.randrange(min(n, 4))):
        page.keyboard.press("Tab")
    assert active_matches(page, selector)
    page.keyboard.press("Enter")


def key_move(page: Page, way: str, rng: random.Random) -> str:
    """Make one move with the keys, ``way`` being board, list or typed; returns the way
    used (the list when the board offers nothing now)."""
    if way == "board" and count(page, "#board .target") == 0:
        way = "list"
    if way == "board":
        press_one_of(page, "#board .target", rng)
        if count(page, "#chooser:not([hidden]) button.move"):
            assert active_matches(page, "#chooser button.move")  # the chooser took the focus
            press_one_of(page, "#chooser button.move", rng)
    elif way == "list":
        press_one_of(page, "#moves button.move", rng)
    else:
        moves: list[str] = page.eval_on_selector_all("#moves button.move",
                                                     "bs => bs.map(b => b.dataset.move)")
        tab_to(page, "#typed-move")
        page.keyboard.type(rng.choice(moves))
        page.keyboard.press("Enter")
    return way




WAYS = ("board", "list", "typed")


def play_by_keys(page: Page, server: Server, table_id: str, rng: random.Random,
                 after: Callable[[int], None] | None = None,
                 timeout: float = 240.0, moves: int = 0) -> dict[str, int]:
    """Make the page's seat's moves with the keys until the game is over (or, given ``moves``,
    that many were made; bots make the others), the three ways in turn; ``after(n)`` is
    called once each move's update is shown (``n``: the move count before it). Returns
    how many moves each way made."""
    used: dict[str, int] = {}
    me = int(page.evaluate("() => document.body.dataset.seat"))
    deadline = time.monotonic() + timeout
    while not server.state(table_id).is_over and not 0 < moves <= sum(used.values()):
        assert time.monotonic() < deadline, "the game did not end"
        st = server.state(table_id)
        n = st.decisions
        if me not in st.to_move():
            time.sleep(0.01)
            continue
        page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=n)
        if server.state(table_id).decisions != n or not my_turn(page):
            continue
        way = key_move(page, WAYS[sum(used.values()) % 3], rng)
        page.wait_for_function(
            "n => Number(document.body.dataset.moves) > n"
            " || !document.querySelector('#error').hidden", arg=n)
        error = page.locator("#error")
        if error.is_visible() and "has been updated" in error.inner_text():
            continue  # a bot moved at the same step first (the server said so): again
        assert error.is_hidden(), error.inner_text()
        used[way] = used.get(way, 0) + 1
        if after is not None:
            after(n)
    return used


GAMES = cove.ids()
"""Every registered game: the tests name none (tests/test_shape.py)."""

quick = short_game
"""The bots and lobby options of a game by keys that ends soon (cove.testing.short)."""


def table_by_keys(new_page: Callable[..., Any], server: Server, game: str,
                  bots: list[str] | None = None) -> tuple[Page, str]:
    """A new browser's page at P1's seat of a table of ``game`` made in the lobby by keys
    (``quick``'s bots unless given, and its options), and the table's id."""
    page: Page = new_page()
    default_bots, options = quick(game)
    create_by_keys(page, server, game, default_bots if bots is None else bots, options)
    table_id: str = page.evaluate("() => document.body.dataset.table")
    return page, table_id
