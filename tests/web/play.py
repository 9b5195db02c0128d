"""Playing a table from browser pages the way a person does: click the board."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.web.conftest import Server

TARGETS_JS = """() => [...document.querySelectorAll('#board .target')].map(t => {
    try { return JSON.parse(t.getAttribute('data-moves') || '[]'); } catch (e) { return []; }
})"""


def shown(page: Page) -> int:
    """The move count of the board the page shows (-1 before the first)."""
    raw = page.evaluate("() => document.body.dataset.moves")
    return int(raw) if raw not in (None, "") else -1


def wait_shown(page: Page, moves: int) -> None:
    page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=moves)


def listed(page: Page) -> list[str]:
    out: list[str] = page.eval_on_selector_all(
        "#moves button.move", "bs => bs.map(b => b.dataset.move)")
    return out


def board_targets(page: Page) -> list[list[str]]:
    out: list[list[str]] = page.evaluate(TARGETS_JS)
    return out


class Clicker:
    """Makes one seat's moves by clicking; counts board clicks and list (fallback) clicks."""

    def __init__(self, seed: int, prefer: Callable[[str], bool] | None = None) -> None:
        self.rng = random.Random(seed)
        self.prefer = prefer
        self.board_clicks = 0
        self.list_clicks = 0

    def pick(self, options: list[str]) -> str:
        good = [t for t in options if self.prefer is not None and self.prefer(t)]
        return self.rng.choice(good or options)

    def click_once(self, page: Page) -> str:
        """Click one legal move: on the board when it has targets for this decision, else
        in the legal-move list (the fallback, for a game whose board is not drawn)."""
        made = self.try_click(page)
        assert made is not None, "the board was redrawn under the click: its target is gone"
        return made

    def try_click(self, page: Page) -> str | None:
        """``click_once``, or None when the board was redrawn between reading its targets
        and clicking one (another seat moved meanwhile) and the target is gone: the
        caller looks again."""
        targets = [(i, t) for i, t in enumerate(board_targets(page)) if t]
        if targets:
            if self.prefer is not None:
                good = [(i, t) for i, t in targets if any(self.prefer(x) for x in t)]
                targets = good or targets
            i, texts = self.rng.choice(targets)
            target = page.locator("#board .target").nth(i)
            try:
                target.click(timeout=3000)
            except PlaywrightError:  # covered by a label: the same element's click event
                try:
                    target.dispatch_event("click", timeout=3000)
                except PlaywrightError:  # no such target any more: the board was redrawn
                    return None
            self.board_clicks += 1
            if len(texts) > 1:  # the chooser lists what the click could mean
                choice = self.pick(texts)
                page.locator("#chooser button.move", has_text=choice).first.wait_for()
                page.locator(f"#chooser button.move[data-move={json.dumps(choice)}]").click()
                return choice
            return texts[0]
        options = listed(page)
        choice = self.pick(options)
        page.locator(f"#moves button.move[data-move={json.dumps(choice)}]").click()
        self.list_clicks += 1
        return choice


def play(server: Server, table_id: str, pages: dict[int, Page], clicker: Clicker,
         done: Callable[[Any], bool], cap: int = 400, timeout: float = 120.0) -> int:
    """Click moves for the seats in ``pages`` until ``done(state)`` or the game ends;
    bots move on the server meanwhile. Returns the number of clicks made."""
    clicks = 0
    deadline = time.monotonic() + timeout
    while clicks < cap:
        assert time.monotonic() < deadline, "the table stopped moving"
        st = server.state(table_id)
        if st.is_over or done(st):
            return clicks
        n = st.decisions
        movers = [p for p in st.to_move() if p in pages]
        if not movers:
            time.sleep(0.01)  # a bot is thinking
            continue
        page = pages[movers[0]]
        wait_shown(page, n)
        if server.state(table_id).decisions != n or not listed(page):
            continue  # a bot moved meanwhile (a simultaneous step): look again
        if clicker.try_click(page) is None:
            continue  # the board was redrawn under the click: look again
        clicks += 1
        page.wait_for_function(
            "n => Number(document.body.dataset.moves) > n"
            " || !document.querySelector('#error').hidden",
            arg=n)
    return clicks


def history_seats(state: Any) -> set[int]:
    return {int(p) for p, _ in state.history}
