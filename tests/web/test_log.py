"""The table's log says each of the seat's own moves once (issue 36 saw Trails of Tucana's
log show them twice; on this code it does not, and this test keeps it so): the game logs a
seat's secret draw for that seat only ("P2: you draw b6-d6"), and others' when revealed."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import create_by_keys, play_by_keys


def test_trails_of_tucana_logs_each_of_my_moves_once(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    create_by_keys(page, server, "trails-of-tucana", ["human"], {}, first="random")
    assert page.locator("#who").inner_text() == "you are P2"  # the seat whose draws reveal
    table_id = page.evaluate("() => document.body.dataset.table")
    play_by_keys(page, server, table_id, random.Random(2))
    st = server.state(table_id)
    page.wait_for_function("n => Number(document.body.dataset.moves) >= n", arg=st.decisions)
    lines: list[str] = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
    mine = [str(a).removeprefix("draw ") for p, a in st.history
            if p == 1 and str(a).startswith("draw ")]
    assert len(mine) > 5
    for segment in mine:
        said = [t for t in lines if re.search(rf"\bP2\b.*\b{re.escape(segment)}\b", t)]
        assert len(said) == 1, (segment, said)
