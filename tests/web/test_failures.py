"""Failure injection in real browsers (the API clients' side is tests/serve/test_failures.py):
at a real-time table of two people, made in the lobby by keys, P2's page goes away mid-game;
P1 sees P2 away, P2's clock runs out, P1 hands the seat to a bot by keys and plays on
against it; P2 comes back late in the same browser, finds the table as it is now, takes the
seat back by keys, and both finish the game by keys."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import MOUSE_SPY, play_by_keys, quick, tab_to
from tests.web.test_clock import TWO, said, two_people, wait_text


def one_move(pages: dict[int, Page], server: Server, table_id: str,
             rng: random.Random) -> None:
    """The seat to move makes one move by keys on its own page."""
    mover = server.state(table_id).to_move()[0]
    play_by_keys(pages[mover], server, table_id, rng, moves=1, timeout=60)


def test_a_browser_goes_away_comes_back_late_and_the_game_ends(
        server: Server, new_page: Callable[..., Page], shifted: Callable[[float], None]
) -> None:
    if TWO is None:
        pytest.skip("no game for two")
    rng = random.Random(11)
    a, b, table_id = two_people(new_page, server, "realtime", quick(TWO)[1])
    b.wait_for_selector("#clocks-card:not([hidden])")
    for _ in range(2):
        one_move({0: a, 1: b}, server, table_id, rng)

    # P2's page goes away (the tab closed): P1 sees "away" at once
    browser_b, seat_url = b.context, b.url
    b.close()
    wait_text(a, 1, "away")
    while list(server.state(table_id).to_move()) != [1]:
        one_move({0: a}, server, table_id, rng)
    moves = server.state(table_id).decisions

    # P2's ten minutes run out: nothing happens until P1 chooses, by keys
    shifted(601)
    a.reload()
    a.evaluate(MOUSE_SPY)
    a.wait_for_selector("#timeout-choices:not([hidden])")
    time.sleep(0.3)
    assert server.state(table_id).decisions == moves
    tab_to(a, "#timeout-choices button[data-choice='game']")
    a.keyboard.press("Enter")
    wait_text(a, 1, "bot playing for P2")
    play_by_keys(a, server, table_id, rng, moves=2, timeout=60)  # against the bot
    assert server.state(table_id).decisions >= moves + 3

    # P2 comes back late in the same browser: the table as it is, and the seat back
    b = browser_b.new_page()
    b.goto(seat_url)
    b.evaluate(MOUSE_SPY)
    b.wait_for_selector("#reclaim:not([hidden])")
    wait_text(b, 1, "bot playing for P2")
    shown = int(b.evaluate("() => document.body.dataset.moves"))
    assert shown >= moves + 3
    tab_to(b, "#reclaim")
    b.keyboard.press("Enter")
    said(b, "You take your seat back from your next decision")
    deadline = time.monotonic() + 30
    while server.hub().tables[table_id].timing.held():
        assert time.monotonic() < deadline, "the seat was not given back"
        time.sleep(0.05)
    wait_text(a, 1, "bot playing", present=False)
    wait_text(a, 1, "away", present=False)

    # both finish the game by keys
    deadline = time.monotonic() + 240
    while not server.state(table_id).is_over:
        assert time.monotonic() < deadline, "the game did not end"
        one_move({0: a, 1: b}, server, table_id, rng)
    for page in (a, b):
        page.locator("#end h2").wait_for()
    assert [page.evaluate("() => window.coveMouse") for page in (a, b)] == [0, 0]

