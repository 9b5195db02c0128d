"""Players with names, by clicks and keys: a first visit asks for a name (the lobby, or a
seat's page opened from an invite), and the seats the players take show it in the lobby,
the badge, the scores and the log."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import submit_by_keys
from tests.web.play import Clicker
from tests.web.test_undo_hint import TWO


def name_myself(page: Page, name: str) -> None:
    page.locator("#player-name").fill(name)
    page.keyboard.press("Enter")
    page.locator("#naming input[aria-label='Your personal key']").wait_for()  # shown once


def ada_and_bea(server: Server, new_page: Any, game: str,
                named: Callable[[Page], None] | None = None) -> tuple[Page, Page, str]:
    """Ada names herself in the lobby (then ``named(her page)``), makes a table of
    ``game`` for two people and takes P1; Bea opens the invite, names herself and takes
    P2: their pages at the table, and its id."""
    ada: Page = new_page()
    ada.goto(server.url + "/web/")
    name_myself(ada, "Ada")
    if named is not None:
        named(ada)
    submit_by_keys(ada, server, game, ["human", "human"], {})
    assert ada.locator("#naming").is_hidden()  # asked once
    invite = ada.locator("#created input[aria-label='P2 invite link']")
    invite.wait_for()
    link = invite.input_value()
    ada.locator("#open-mine").click()
    ada.wait_for_url("**/web/tables/**")
    table_id = re.search(r"/web/tables/([^/?]+)", ada.url).group(1)  # type: ignore[union-attr]
    ada.wait_for_function("() => document.querySelector('#who').textContent === "
                          "'you are Ada (P1)'")
    bea: Page = new_page()
    bea.goto(link)
    name_myself(bea, "Bea")
    bea.wait_for_function("() => document.querySelector('#who').textContent === "
                          "'you are Bea (P2)'")
    return ada, bea, table_id


def test_names_chosen_on_first_visit_show_everywhere(server: Server, new_page: Any) -> None:
    ada, bea, table_id = ada_and_bea(server, new_page, TWO[0])
    ada.wait_for_function("() => document.querySelector('#scores').textContent"
                          ".includes('Bea (P2)')")
    assert "Ada (P1) (you)" in ada.inner_text("#scores")
    mover = ada if server.state(table_id).to_move()[0] == 0 else bea
    version = mover.evaluate("() => document.body.dataset.version")
    Clicker(1).click_once(mover)
    ada.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    log = ada.inner_text("#log")
    assert ("Ada" in log or "Bea" in log) and not re.search(r"\bP[12]\b", log), log
    lobby: Page = new_page()
    lobby.goto(server.url + "/web/")
    row = lobby.locator(f"#open-tables li[data-table='{table_id}']").inner_text()
    assert "P1 Ada, P2 Bea" in row, row


def test_not_now_keeps_the_name_form_away_from_the_tables(server: Server,
                                                          new_page: Any) -> None:
    page: Page = new_page()
    submit_by_keys(page, server, TWO[0], ["human", "human"], {})
    page.locator("#open-mine").click()
    page.wait_for_url("**/web/tables/**")
    page.locator("#naming-later").click()
    assert page.locator("#naming").is_hidden()
    page.reload()
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    assert page.locator("#naming").is_hidden()
    page.goto(server.url + "/web/")  # the lobby still offers it
    assert page.locator("#naming").is_visible()
