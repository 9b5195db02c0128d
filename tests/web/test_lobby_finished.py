"""The lobby lists a finished game with its winner and its scores."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from tests.web.conftest import Server
from tests.web.keys import quick, submit_by_keys


def test_a_finished_game_is_listed_with_its_winner_and_scores(server: Server,
                                                              new_page: Any) -> None:
    page: Page = new_page()
    # two bots play a short game out on their own (a shortened safety limit when it has one)
    game = next((g for g in cove.all_games() if g.min_players <= 2 <= g.max_players
                 and quick(g.id)[1]), None) or cove.all_games()[0]
    schema = game.options_schema(2)["properties"]
    shortest = {name: str(schema[name].get("minimum", value))  # the limit at its least
                for name, value in quick(game.id)[1].items()}
    submit_by_keys(page, server, game.id, ["random", "random"], shortest)
    watch = page.locator("#created a[href*='/watch']")
    watch.wait_for()
    found = re.search(r"/web/tables/([^/?]+)/watch", watch.get_attribute("href") or "")
    assert found is not None
    table_id = found.group(1)
    row = page.locator(f"#finished-tables li[data-table='{table_id}']")
    row.wait_for(timeout=20000)  # the lobby's lists refresh on their own
    st = server.state(table_id)
    assert st.is_over
    winners = list(st.winners())
    text = row.inner_text()
    scores = ", ".join(f"P{p + 1} {x:g}" for p, x in enumerate(st.scores()))
    assert f"scores {scores}" in text, text
    if len(winners) == 1:
        assert f"P{winners[0] + 1} won" in text, text
    elif winners:
        assert "shared the win" in text, text
    else:
        assert "no player won" in text, text
    page.reload()  # the page as served shows the same
    assert f"scores {scores}" in page.locator(f"#finished-tables li[data-table='{table_id}']"
                                              ).inner_text()
