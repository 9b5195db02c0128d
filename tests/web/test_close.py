"""Closing a table from the lobby: the browser that made it sees a Close button on it among
the open tables; a click takes it out of the list, and its seat's page says it is closed."""

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


def test_the_creator_closes_an_abandoned_table_from_the_lobby(server: Server,
                                                             new_page: Any) -> None:
    page: Page = new_page()
    game = next(g for g in cove.all_games() if g.min_players <= 2 <= g.max_players)
    submit_by_keys(page, server, game.id, ["human", "human"], {})
    invite = page.locator("#created input[aria-label='P1 invite link']")
    invite.wait_for()
    link = invite.input_value()
    found = re.search(r"/web/tables/([^/?]+)", link)
    assert found is not None
    row = page.locator(f"#open-tables li[data-table='{found.group(1)}']")
    row.wait_for()
    elsewhere: Page = new_page()  # another browser: no Close button for it
    elsewhere.goto(server.url + "/web/")
    assert elsewhere.locator(f"li[data-table='{found.group(1)}']").count() == 1
    assert elsewhere.locator(f"li[data-table='{found.group(1)}'] button.close-table").count() == 0
    row.locator("button.close-table").click()
    row.wait_for(state="detached")
    assert page.locator("#lists-error").is_hidden()
    page.reload()
    assert page.locator(f"li[data-table='{found.group(1)}']").count() == 0
    seat: Page = new_page()
    seat.goto(link)
    seat.wait_for_function("() => document.body.dataset.version !== undefined")
    assert "closed by its creator" in seat.inner_text("#prompt")
    assert seat.locator("#moves button.move").count() == 0
