"""Stepping back through a live game at the table page, by keys and clicks: the older
board as this seat saw it, kept while the other seat moves (the move counted, not shown),
then back to live."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from cove.web import fragments
from tests.serve.helpers import turn_based_game
from tests.web.conftest import Server
from tests.web.play import Clicker
from tests.web.test_undo_hint import two_people

GAME = turn_based_game(2).id  # one seat moves at a time


def version(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.version"))


def one_move(server: Server, table_id: str, pages: list[Page], clicker: Clicker) -> None:
    """The seat to move clicks one move; every page shows it."""
    before = server.hub().tables[table_id].version
    clicker.click_once(pages[server.state(table_id).to_move()[0]])
    for p in pages:
        p.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def board_at(server: Server, table_id: str, step: int, seat: int) -> str:
    """The board after ``step`` moves as ``seat`` saw it, drawn here from the game."""
    st = server.state(table_id)
    state = cove.load(GAME).start(st.n, server.hub().tables[table_id].seed,
                                  options=st.options.to_dict())
    for p, act in st.history[:step]:
        state.apply(p, act)
    return fragments.board(state.game, state.view(seat), [], seat)[0]


def as_shown(page: Page, html: str) -> str:
    """``html`` as the browser writes it back (its own spelling of the same SVG)."""
    out: str = page.evaluate("h => { const d = document.createElement('div'); "
                             "d.innerHTML = h; return d.innerHTML; }", html)
    return out


def state_line(page: Page) -> str:
    return " ".join(page.inner_text("#history-state").split())


def test_step_back_stay_while_the_other_seat_moves_then_back_to_live(
        server: Server, new_page: Any) -> None:
    ada: Page = new_page()
    bea, table_id = two_people(ada, new_page, server, GAME)
    pages, clicker = [ada, bea], Clicker(4)
    assert state_line(ada).startswith("Live.")
    assert ada.locator("#history-prev").is_disabled()  # no move yet
    while version(ada) < 3 or server.state(table_id).to_move() != (1,):
        one_move(server, table_id, pages, clicker)
    n = version(ada)
    ada.locator("#history-head").click()  # (the keys act anywhere but in a text box)
    ada.keyboard.press("[")
    ada.keyboard.press("[")
    ada.wait_for_function("k => document.querySelector('#history-board').dataset.step === k",
                          arg=str(n - 2))
    assert state_line(ada) == f"Viewing move {n - 2} of {n} — not live."
    ada.locator("#history-prev").click()  # one more, by the button
    ada.wait_for_function("k => document.querySelector('#history-board').dataset.step === k",
                          arg=str(n - 3))
    older = ada.inner_html("#history-board")
    assert older == as_shown(ada, board_at(server, table_id, n - 3, 0))
    assert older != as_shown(ada, board_at(server, table_id, n, 0))  # (not the board now)
    assert ada.locator("#board").is_hidden() and ada.locator("#history-board").is_visible()
    assert ada.locator("#history-live").is_visible()
    ada.wait_for_function("() => document.querySelector('#announce').textContent"
                          ".includes('not live')")

    one_move(server, table_id, pages, clicker)  # Bea moves meanwhile
    ada.wait_for_function("n => document.querySelector('#history-state').textContent"
                          ".includes('of ' + n)", arg=n + 1)
    assert "1 new move since you stepped back" in state_line(ada)
    assert ada.inner_html("#history-board") == older  # still the older board
    assert ada.locator("#board").is_hidden()

    ada.keyboard.press("l")  # back to live
    ada.wait_for_function("() => !document.body.classList.contains('stepping')")
    assert ada.locator("#board").is_visible() and ada.locator("#history-board").is_hidden()
    assert state_line(ada).startswith("Live.")
    assert version(ada) == server.hub().tables[table_id].version == n + 1
    assert "Back to live" in ada.inner_text("#announce")
    assert ada.locator("#history-live").is_hidden()
