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
import time
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from tests.web.conftest import Server

MOUSE_SPY = """() => {
    window.coveMouse = 0;
    for (const kind of ['mousedown', 'mouseup', 'mousemove', 'pointerdown', 'pointermove',
                        'wheel', 'contextmenu', 'dblclick'])
        document.addEventListener(kind, () => { window.coveMouse++; }, true);
}"""

KEYBOARD_GAMES: dict[str, tuple[list[str], dict[str, str]]] = {
    "high-water": (["random"], {"max_rounds": "3"}),
    "the-tide": (["random"], {"turn_limit": "40"}),
    "tiny-epic-pirates": ([], {"max_rounds": "5"}),
    "trails-of-tucana": ([], {}),
    "tricky-tides": (["random"], {}),
}
"""Per game: the bots after the human P1, and the options typed in the lobby's form."""


def test_every_game_is_planned() -> None:
    assert set(KEYBOARD_GAMES) == {g.id for g in cove.all_games()}


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


def create_by_keys(page: Page, server: Server, game: str, bots: list[str],
                   options: dict[str, str]) -> None:
    page.goto(server.url + "/web/")
    page.evaluate(MOUSE_SPY)
    tab_to(page, "#game")
    choose(page, game)
    tab_to(page, "#players")
    choose(page, str(1 + len(bots)))
    for i, bot in enumerate(bots, start=1):
        tab_to(page, f"#seat-{i}")
        choose(page, bot)
    if options:
        tab_to(page, "details#options > summary")
        page.keyboard.press("Enter")
        for name, value in options.items():
            tab_to(page, f"#opt-{name}")
            page.keyboard.press("Control+A")
            page.keyboard.type(value)
    tab_to(page, "#create button[type=submit]")
    page.keyboard.press("Enter")
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


@pytest.mark.parametrize("game", sorted(KEYBOARD_GAMES))
def test_a_whole_game_by_keyboard_alone(game: str, server: Server, new_page: Any) -> None:
    bots, options = KEYBOARD_GAMES[game]
    page: Page = new_page()
    create_by_keys(page, server, game, bots, options)
    table_id = page.evaluate("() => document.body.dataset.table")
    rng = random.Random(5)
    used: dict[str, int] = {}
    ways = ("board", "list", "typed")
    deadline = time.monotonic() + 240
    moves = 0
    while not server.state(table_id).is_over:
        assert time.monotonic() < deadline, "the game did not end"
        st = server.state(table_id)
        n = st.decisions
        if 0 not in st.to_move():
            time.sleep(0.01)
            continue
        page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=n)
        if server.state(table_id).decisions != n or not my_turn(page):
            continue
        way = key_move(page, ways[moves % 3], rng)
        used[way] = used.get(way, 0) + 1
        moves += 1
        page.wait_for_function(
            "n => Number(document.body.dataset.moves) > n"
            " || !document.querySelector('#error').hidden", arg=n)
        assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    st = server.state(table_id)
    page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=st.decisions)
    page.locator("#end h2").wait_for()
    assert "Game over" in page.locator("#end").inner_text()
    assert moves == sum(1 for p, _ in st.history if p == 0) > 3
    assert used.get("board", 0) > 0 and used.get("list", 0) > 0 and used.get("typed", 0) > 0, used
    assert page.evaluate("() => window.coveMouse") == 0, "a mouse event reached the page"


def test_the_focus_ring_shows_and_the_focus_survives_a_move(server: Server,
                                                            new_page: Any) -> None:
    page: Page = new_page()
    create_by_keys(page, server, "trails-of-tucana", [], {})
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
