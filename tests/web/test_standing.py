"""A named player's standing, by clicks and keys: the lobby's "My games" (the tables waiting
for them first, "Your turn" said in words, each row opening their seat), and a rated game
played to its end reaching the game's leaderboard, bots marked as bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("openskill", reason="the web extra is not installed")
pytest.importorskip("axe_playwright_python", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from cove.serve.ratings import MU, SIGMA, ordinal, rate
from tests.web.conftest import Server, shot
from tests.web.keys import GAMES, MOUSE_SPY, play_by_keys, quick, submit_by_keys, tab_to
from tests.web.play import Clicker
from tests.web.test_axe import violations
from tests.web.test_names import ada_and_bea, name_myself
from tests.web.test_undo_hint import TWO


def my_row(page: Page, table_id: str) -> str:
    row = page.locator(f"#my-games li[data-table='{table_id}']")
    row.wait_for()
    return " ".join(row.inner_text().split())


def test_my_games_lists_my_tables_with_my_turn_in_words(server: Server, new_page: Any) -> None:
    def no_games_yet(ada: Page) -> None:
        ada.locator("#my-games").wait_for()
        ada.wait_for_function("() => document.querySelector('#my-games-list').textContent"
                              ".includes('No games yet')")

    game = cove.load(TWO[0])
    ada, bea, table_id = ada_and_bea(server, new_page, game.id, no_games_yet)
    while 0 not in server.state(table_id).to_move():  # Bea moves until it is Ada's turn
        moves = server.state(table_id).decisions
        Clicker(3).click_once(bea)
        bea.wait_for_function("n => Number(document.body.dataset.moves) > n", arg=moves)

    ada.goto(server.url + "/web/")
    text = my_row(ada, table_id)
    assert text.startswith(f"{game.name} Your turn"), text
    assert "with Bea (P2)" in text, text
    shot(ada.locator("#my-games"), "my-games.png")
    assert violations(ada, "lobby with My games") == []

    # the row's link opens Ada's seat, by the keys, with no token in the address
    ada.evaluate(MOUSE_SPY)
    tab_to(ada, f"#my-games li[data-table='{table_id}'] a")
    assert ada.evaluate("() => window.coveMouse") == 0
    ada.keyboard.press("Enter")
    ada.wait_for_url(f"**/web/tables/{table_id}?me=1")
    ada.wait_for_function("() => document.querySelector('#who').textContent === "
                          "'you are Ada (P1)'")
    assert "token=" not in ada.url
    assert ada.locator("#rated-badge").count() == 0  # a friendly table says nothing
    ada.wait_for_function("() => document.querySelectorAll('#moves button.move').length > 0")
    while 0 in server.state(table_id).to_move():  # Ada moves, from that page, until it is not
        moves = server.state(table_id).decisions
        Clicker(4).click_once(ada)
        ada.wait_for_function("n => Number(document.body.dataset.moves) > n", arg=moves)
    ada.goto(server.url + "/web/")
    text = my_row(ada, table_id)
    assert "Your turn" not in text and "Waiting for Bea (P2)" in text, text


def test_a_rated_game_reaches_the_leaderboard_with_the_bot_marked(
        server: Server, new_page: Any) -> None:
    page: Page = new_page()
    page.goto(server.url + "/web/")
    name_myself(page, "Rita")
    game, options = two_quick()
    submit_by_keys(page, server, game, ["human", "easy"], options, before_submit=rated_on)
    page.wait_for_function("() => document.activeElement.id === 'open-mine'")
    page.keyboard.press("Enter")
    page.wait_for_url("**/web/tables/**")
    page.wait_for_function("() => document.querySelector('#who').textContent === "
                           "'you are Rita (P1)'")
    table_id: str = page.evaluate("() => document.body.dataset.table")
    assert page.inner_text("#rated-badge") == "Rated game"  # said on the table itself
    play_by_keys(page, server, table_id, random.Random(3))
    st = server.state(table_id)
    scores = st.scores()
    page.goto(server.url + "/web/")
    text = my_row(page, table_id)  # My games: the result, from Rita's side
    you = "you won" if tuple(st.winners()) == (0,) else ("you and" if 0 in st.winners() else "won")
    assert "Finished: " in text and you in text and "rated" in text, text
    assert f"scores you {scores[0]:g}, P2 {scores[1]:g}" in text, text
    page.evaluate(MOUSE_SPY)
    tab_to(page, f"a[href='/web/leaderboard/{game}']")
    assert page.evaluate("() => window.coveMouse") == 0
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/web/leaderboard/{game}")
    rows = page.locator("table.leaderboard tbody tr")
    assert rows.count() >= 2
    page.locator("table.leaderboard tr.you").wait_for()  # Rita's own row, marked in words
    assert page.locator("tr.you").count() == 1
    assert " ".join(page.locator("tr.you th").inner_text().split()) == "Rita you"
    shown = {" ".join(rows.nth(i).locator("th").inner_text().split()).removesuffix(" you"):
             [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
             for i in range(rows.count())}
    assert "easy bot" in shown, shown  # the bot's name with its "bot" tag
    (rita_mu, rita_sigma), (bot_mu, bot_sigma) = rate([(MU, SIGMA)] * 2, scores)
    assert shown["Rita"][1:] == [f"{ordinal(rita_mu, rita_sigma):.1f}", f"{rita_mu:.1f}",
                                 f"{rita_sigma:.1f}", "1"], shown
    assert shown["easy bot"][1:] == [f"{ordinal(bot_mu, bot_sigma):.1f}", f"{bot_mu:.1f}",
                                     f"{bot_sigma:.1f}", "1"], shown
    shot(page, "leaderboard.png")
    assert violations(page, "leaderboard") == []


def two_quick() -> tuple[str, dict[str, str]]:
    """The game a person plays against one bot soonest (``keys.quick``: its options)."""
    against_one = [g for g in GAMES if quick(g)[0] == ["random"]]
    game = min(against_one, key=lambda g: (not quick(g)[1], g))
    return game, quick(game)[1]


def rated_on(page: Page) -> None:
    tab_to(page, "#rated")
    page.keyboard.press("Space")
    assert page.is_checked("#rated")
    shot(page.locator("#create"), "rated-choice.png")



def test_a_player_sets_their_turn_webhook_in_the_lobby(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    page.goto(server.url + "/web/")
    name_myself(page, "Hana")
    page.locator("#my-games").wait_for()
    page.evaluate(MOUSE_SPY)
    tab_to(page, "#turn-hook > summary")
    page.keyboard.press("Enter")
    tab_to(page, "#hook-url")
    page.keyboard.type("ftp://example.org/hook")
    page.keyboard.press("Enter")
    status = page.locator("#hook-status")
    page.wait_for_function("() => document.querySelector('#hook-status').textContent !== ''")
    assert "is not an http or https URL" in status.inner_text()
    tab_to(page, "#hook-url")
    page.keyboard.press("Control+A")
    url = "https://discord.com/api/webhooks/1/abc"
    page.keyboard.type(url)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#hook-status').textContent"
                           ".startsWith('Saved')")
    assert page.evaluate("() => window.coveMouse") == 0
    shot(page.locator("#my-games"), "turn-webhook.png")
    assert violations(page, "lobby with the webhook form") == []
    page.reload()  # the server kept it
    page.locator("#turn-hook > summary").press("Enter")
    page.wait_for_function("u => document.querySelector('#hook-url').value === u", arg=url)
