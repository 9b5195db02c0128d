"""After the game, through the page: "Download record" links the full record, and "Play
again" opens a new table of the same game, options and seats with this seat at it."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import play_by_keys, tab_to, table_by_keys
from tests.web.test_end import limited


def test_play_again_lands_seated_at_a_new_table_of_the_same_seats(
        server: Server, new_page: Any) -> None:
    page: Page = new_page()
    game = limited()
    table_id = table_by_keys(lambda: page, server, game)[1]
    play_by_keys(page, server, table_id, random.Random(8))
    old = server.hub().tables[table_id]
    assert old.state.is_over
    page.locator("#after").wait_for()
    record = page.locator("#record")
    assert record.inner_text() == "Download record"
    assert record.get_attribute("download") == f"cove-{game}-{table_id}.json"
    href = record.get_attribute("href")
    assert href is not None and href.startswith(f"/api/tables/{table_id}/record")
    saved = json.loads(page.request.get(server.url + href).text())
    assert saved["game"] == game and len(saved["actions"]) == old.moves
    assert saved["seed"] == old.seed  # the full record: the game is over

    tab_to(page, "#again")  # by the keys, as a player would
    assert page.inner_text("#again") == "Play again"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/web/tables/(?!" + re.escape(table_id) + r")[^/?]+\?token="))
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    new_id = page.evaluate("() => document.body.dataset.table")
    assert new_id != table_id
    assert page.inner_text("#who") == "you are P1"
    new = server.hub().tables[new_id]
    assert [s.get("spec", s["kind"]) for s in new.seats] == [
        s.get("spec", s["kind"]) for s in old.seats]
    assert new.state.options.to_dict() == old.state.options.to_dict()
    assert new.game.id == game and new.seed != old.seed
    assert page.locator("#error").is_hidden() and page.locator("#after").is_hidden()
