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

import cove
from cove.core.rng import Rng
from tests.web.conftest import Server
from tests.web.keys import (
    my_turn,
    play_by_keys,
    quick,
    tab_to,
    table_by_keys,
)
from tests.web.play import Clicker
from tests.web.test_end import limited
from tests.web.test_undo_hint import two_people


def shortest_for_two() -> tuple[str, dict[str, str]]:
    """The game two people finish in the fewest moves with the lobby's shortening option
    (``keys.quick``) at its least, and those options as the lobby's form takes them."""
    fits = []
    for game in cove.all_games():
        if not game.min_players <= 2 <= game.max_players:
            continue
        props = game.options_schema(2)["properties"]
        short = {n: props[n]["minimum"] for n in quick(game.id)[1] if "minimum" in props[n]}
        fits.append((game_length_with(game, short), game.id, short))
    _, gid, short = min(fits)
    return gid, {k: str(v) for k, v in short.items()}


def game_length_with(game: cove.Game, options: dict[str, Any]) -> int:
    from cove.lab.runner import RandomChooser, play_out

    return play_out(game.start(2, 4, options=options), RandomChooser(Rng(4))).decisions


SHORT = shortest_for_two()


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


def test_the_other_seat_is_told_and_joins_its_own_seat(server: Server, new_page: Any) -> None:
    ada: Page = new_page()
    bea, table_id = two_people(ada, new_page, server, *SHORT)
    pages, clicker = [ada, bea], Clicker(5)
    hub = server.hub()
    for _ in range(200):  # both play by clicks until the (one round) game is over
        if server.state(table_id).is_over:
            break
        v = hub.tables[table_id].version
        page = pages[server.state(table_id).to_move()[0]]
        page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=v)
        if my_turn(page):
            clicker.click_once(page)
            page.wait_for_function("v => Number(document.body.dataset.version) > v"
                                   " || !document.querySelector('#error').hidden", arg=v)
    assert server.state(table_id).is_over
    for page in pages:
        page.locator("#after").wait_for()
    ada.locator("#again").click()
    ada.wait_for_url(re.compile(r"/web/tables/(?!" + re.escape(table_id) + r")[^/?]+\?token="))
    new_id = ada.evaluate("() => document.body.dataset.table")

    join = bea.locator("#again")  # told on her end screen, and in the live region
    bea.wait_for_function("() => document.querySelector('#again').textContent"
                          " === 'Join the new game'")
    assert "P1 started a new game with the same seats" in bea.inner_text("#again-note")
    assert "P1 started a new game" in bea.inner_text("#announce")
    join.click()
    bea.wait_for_url(f"**/web/tables/{new_id}?token=*")
    bea.wait_for_function("() => document.querySelector('#who').textContent === 'you are P2'")
    ada.wait_for_function("() => document.querySelector('#who').textContent === 'you are P1'")
    assert hub.tables[new_id].state.n == 2
