"""axe-core (through axe-playwright-python, which ships it: nothing is fetched) on the lobby,
a table mid-game and its spectator page, the game-over screen and the replay of every game;
any violation of impact "serious" or "critical" fails, listed with its rule, help and the
elements."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("axe_playwright_python", reason="the web extra is not installed")

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import GAMES, play_by_keys, table_by_keys

AXE = Axe()
BLOCKING = ("serious", "critical")


def violations(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe finds on the page, one line each."""
    found = AXE.run(page).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(" ".join(n["target"]) if isinstance(n["target"], list) else str(n)
                        for n in v["nodes"][:4])
            for v in found if v.get("impact") in BLOCKING]


def test_the_lobby_passes_axe(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    page.goto(server.url + "/web/")
    page.locator("details#options > summary").press("Enter")  # the options open too
    assert violations(page, "lobby") == []


@pytest.mark.parametrize("game", GAMES)
def test_table_end_and_replay_pass_axe(game: str, server: Server, new_page: Any) -> None:
    page, table_id = table_by_keys(new_page, server, game)
    found: list[str] = []
    play_by_keys(page, server, table_id, random.Random(6), moves=2)
    page.locator("details:has(.rules-text) > summary").press("Enter")  # the rules open too
    found += violations(page, "table")
    watcher: Page = new_page()  # the spectator page of the same table
    watcher.goto(f"{server.url}/web/tables/{table_id}/watch")
    watcher.wait_for_function("() => document.body.dataset.moves !== undefined")
    found += violations(watcher, "spectator")
    play_by_keys(page, server, table_id, random.Random(6))
    page.locator("#end h2").wait_for()
    page.wait_for_function("() => document.querySelector('#replay').dataset.step !== undefined")
    found += violations(page, "game over")
    page.locator("#step").focus()
    page.keyboard.press("Home")  # the replay at its start
    page.wait_for_function("() => document.querySelector('#replay').dataset.step === '0'")
    found += violations(page, "replay")
    assert not found, "\n".join(found)
