"""The browser table in a real browser (Chromium headless): lobby, play by clicking, reloads,
spectators, illegal clicks, whole games and the replay.

Moves are made by clicking the board's `.target` elements (docs/WEB.md); for a game whose
board is not drawn yet (`cove.web.boards` missing, the page shows the terminal text) the
click falls back to the legal-move list, and the tests count which was used.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from tests.web.conftest import Server
from tests.web.play import Clicker, history_seats, listed, play, shown, wait_shown

GAMES = [g.id for g in cove.all_games()]


def full_turns(state: Any) -> dict[int, int]:
    """Turns each seat finished: runs of its moves that another seat's move followed."""
    seats = [p for p, _ in state.history]
    out: dict[int, int] = {}
    for a, b in itertools.pairwise(seats):
        if a != b:
            out[a] = out.get(a, 0) + 1
    return out


def open_seat(new_page: Any, server: Server, table: dict[str, Any], seat: int) -> Page:
    page: Page = new_page()
    page.goto(server.seat_url(table, seat))
    wait_shown(page, 0)
    return page


def test_lobby_creates_a_table_with_invite_links_and_opens_my_seat(
        server: Server, new_page: Any) -> None:
    page: Page = new_page()
    page.goto(server.url + "/")
    page.select_option("#game", "the-tide")
    page.select_option("#players", "3")
    page.select_option("#seat-1", "human")
    page.select_option("#seat-2", "easy")
    page.locator("details#options summary").click()
    assert page.locator("fieldset.options").is_visible()
    assert "stall" in page.locator("fieldset.options").inner_text()
    page.locator("#create button[type=submit]").click()
    links = page.locator("#created input[readonly]")
    links.first.wait_for()
    assert links.count() == 2  # one invite link per human seat
    assert "bot easy" in page.locator("#created").inner_text()
    page.locator("#open-mine").click()
    page.wait_for_function("() => document.body.dataset.moves !== undefined")
    assert page.locator("#who").inner_text() == "you are P1"
    table_id = page.evaluate("() => document.body.dataset.table")
    assert server.state(table_id).game.id == "the-tide"
    page.goto(server.url + "/web/")  # listed among the open tables, with a way back to my seat
    row = page.locator(f"li[data-table='{table_id}']")
    assert "The Tide" in row.inner_text()
    row.locator("a", has_text="my seat").click()
    page.wait_for_function("() => document.body.dataset.moves !== undefined")
    assert page.locator("#who").inner_text() == "you are P1"


def test_the_lobby_lists_new_tables_and_finished_games_without_a_reload(
        server: Server, new_page: Any) -> None:
    watching: Page = new_page()
    watching.goto(server.url + "/web/")
    watching.evaluate("() => { window.sameDocument = true; }")  # gone if the page reloads
    other: Page = new_page()  # another browser makes a table in its own lobby
    other.goto(server.url + "/web/")
    other.select_option("#game", "trails-of-tucana")
    other.select_option("#players", "2")
    other.select_option("#seat-1", "random")
    other.locator("#create button[type=submit]").click()
    other.locator("#created input[readonly]").first.wait_for()
    found = re.search(r"/web/tables/([^/?]+)", other.locator("#open-mine").get_attribute("href")
                      or "")
    assert found is not None
    row = watching.locator(f"#open-tables li[data-table='{found.group(1)}']")
    row.wait_for(timeout=10000)
    assert "Trails of Tucana" in row.inner_text()
    bots = server.create("trails-of-tucana", ["random", "random"], seed=2)  # plays itself out
    ended = watching.locator(f"#finished-tables li[data-table='{bots['id']}']")
    ended.wait_for(timeout=30000)
    assert "finished" in ended.inner_text()
    assert watching.evaluate("() => window.sameDocument") is True


def test_lobby_shows_the_servers_reason_for_a_bad_option(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    page.goto(server.url + "/web/")
    page.select_option("#game", "high-water")
    page.locator("details#options summary").click()
    page.fill("#opt-goal", "9999")
    page.locator("#create button[type=submit]").click()
    error = page.locator("#create #error")
    error.wait_for()
    assert "goal" in error.inner_text()
    assert page.locator("#created").is_hidden()


@pytest.mark.parametrize("game", GAMES)
def test_two_humans_and_a_bot_play_several_turns_by_clicking(
        game: str, server: Server, new_page: Any) -> None:
    table = server.create(game, ["human", "human", "random"], seed=11)
    requests: list[str] = []
    pages = {}
    for seat in (0, 1):
        page = open_seat(new_page, server, table, seat)
        page.on("request", lambda r: requests.append(r.url))
        pages[seat] = page
    for seat, page in pages.items():
        assert page.locator("#who").inner_text() == f"you are P{seat + 1}"
    clicker = Clicker(seed=3)

    def enough(st: Any) -> bool:  # two whole turns each (until the next seat moved)
        turns = full_turns(st)
        return turns.get(0, 0) >= 2 and turns.get(1, 0) >= 2 and turns.get(2, 0) >= 1

    play(server, table["id"], pages, clicker, enough, cap=150)
    st = server.state(table["id"])
    assert enough(st) or st.is_over
    assert {0, 1} <= history_seats(st)
    for page in pages.values():  # both browsers followed every move
        wait_shown(page, st.decisions)
        assert page.locator("#log li").count() > 0
    assert all(u.startswith((server.url, "ws://127.0.0.1")) for u in requests), requests
    # every board came drawn in the websocket's updates: none was asked for again
    assert not [u for u in requests if "/board" in u]


def test_a_board_fetched_after_the_update_equals_the_one_pushed_in_it(
        server: Server, new_page: Any) -> None:
    table = server.create("tricky-tides", ["human", "random", "random"], seed=4)
    pushed = open_seat(new_page, server, table, 0)
    fetching: Page = new_page()
    asked: list[str] = []
    fetching.on("request", lambda r: asked.append(r.url))
    fetching.goto(server.seat_url(table, 0) + "&board=fetch")
    wait_shown(fetching, 0)
    play(server, table["id"], {0: pushed}, Clicker(seed=2),
         lambda st: st.decisions >= 3, cap=10)
    n = server.state(table["id"]).decisions
    assert n >= 3
    for page in (pushed, fetching):
        wait_shown(page, n)
    assert sum("/board" in u for u in asked) >= 2  # the first board and one per update
    assert pushed.inner_html("#board") == fetching.inner_html("#board")
    assert pushed.inner_html("#scores") == fetching.inner_html("#scores")


def test_reload_mid_game_keeps_the_seat(server: Server, new_page: Any) -> None:
    table = server.create("tricky-tides", ["human", "random"], seed=5)
    page = open_seat(new_page, server, table, 0)
    clicker = Clicker(seed=1)
    play(server, table["id"], {0: page}, clicker, lambda st: len(st.history) >= 3)
    n = server.state(table["id"]).decisions
    page.reload()  # the token is in the URL
    wait_shown(page, n)
    assert page.locator("#who").inner_text() == "you are P1"
    page.goto(f"{server.url}/web/tables/{table['id']}")  # no token: kept by the browser
    wait_shown(page, n)
    assert page.locator("#who").inner_text() == "you are P1"
    assert "token=" in page.url
    assert listed(page) == [str(a) for a in server.state(table["id"]).legal_actions(0)]


def test_spectator_page_never_shows_a_hand(server: Server, new_page: Any) -> None:
    table = server.create("tricky-tides", ["human", "human", "random"], seed=9)
    seat = open_seat(new_page, server, table, 0)
    other = open_seat(new_page, server, table, 1)
    play(server, table["id"], {0: seat, 1: other}, Clicker(seed=2),
         lambda st: bool(st.view(0)["hand"]))  # until the hands are dealt
    st = server.state(table["id"])
    hand = [c["card"] for c in st.view(0)["hand"]]
    assert hand
    wait_shown(seat, st.decisions)
    watcher: Page = new_page()
    frames: list[str] = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    watcher.goto(f"{server.url}/web/tables/{table['id']}/watch")
    wait_shown(watcher, st.decisions)
    assert watcher.locator("#who").inner_text() == "spectator"
    assert watcher.locator("#moves").count() == 0
    live = "() => ['#status', '#board', '#scores', '#log', '#moves'].map(s => " \
           "document.querySelector(s)).filter(e => e).map(e => e.innerText + e.innerHTML)" \
           ".join(' ')"  # the rules text names cards too: only what the game shows
    seat_text = seat.evaluate(live)
    watch_text = watcher.evaluate(live)

    def has(text: str, card: str) -> bool:
        return re.search(rf"(?<![0-9]){re.escape(card)}(?![a-z])", text) is not None

    assert any(has(seat_text, card) for card in hand)  # the check sees a hand where there is one
    for card in hand:
        assert not has(watch_text, card), card
    assert frames and all('"hand"' not in f or '"hand": null' in f for f in frames)


def test_an_illegal_click_shows_the_reason_and_changes_nothing(
        server: Server, new_page: Any) -> None:
    table = server.create("the-tide", ["human", "human"], seed=4)
    st = server.state(table["id"])
    mover = st.to_move()[0]
    page = open_seat(new_page, server, table, mover)
    before = st.decisions
    # a stale or forged target: the page sends what the element says, the server refuses
    page.evaluate("""() => {
        const t = document.querySelector('#board .target')
            || document.querySelector('#moves button.move');
        t.setAttribute('data-moves', JSON.stringify(['move z9 to a1']));
        t.dataset.move = 'move z9 to a1';
        t.id = 'forged';
    }""")
    board_before = page.inner_html("#board")
    page.locator("#forged").dispatch_event("click")
    error = page.locator("#error")
    error.wait_for()
    assert "legal" in error.inner_text().lower() or "z9" in error.inner_text()
    assert server.state(table["id"]).decisions == before
    assert shown(page) == before
    assert page.inner_html("#board") == board_before
    other = open_seat(new_page, server, table, 1 - mover)
    other.locator("#board > *").first.click()  # not its turn: nothing to send
    assert server.state(table["id"]).decisions == before


def finish(server: Server, new_page: Any, game: str, seats: list[str], seed: int,
           prefer: Any = None) -> tuple[Page, dict[str, Any], Clicker]:
    table = server.create(game, seats, seed=seed)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    pages = {i: open_seat(new_page, server, table, i) for i in humans}
    clicker = Clicker(seed=seed, prefer=prefer)
    play(server, table["id"], pages, clicker, lambda st: False, cap=600, timeout=240)
    st = server.state(table["id"])
    assert st.is_over
    page = pages[humans[0]]
    wait_shown(page, st.decisions)
    end = page.locator("#end")
    end.wait_for()
    winners = " and ".join(f"P{p + 1}" for p in st.winners())
    text = end.inner_text()
    assert "Game over" in text
    assert winners in text or "You" in text
    return page, table, clicker


def check_replay(page: Page) -> None:
    box = page.locator("#replay")
    box.wait_for()
    page.wait_for_function("() => document.querySelector('#replay').dataset.step !== undefined")
    page.locator("#step").fill("0")
    page.wait_for_function("() => document.querySelector('#replay').dataset.step === '0'")
    assert "start of the game" in page.locator("#replay-move").inner_text()
    page.locator("#step").fill("1")
    page.wait_for_function("() => document.querySelector('#replay').dataset.step === '1'")
    assert page.locator("#replay-move").inner_text().startswith("Move 1 (P")


def test_a_whole_game_of_the_tide_to_the_end_with_the_replay(
        server: Server, new_page: Any) -> None:
    page, _, clicker = finish(server, new_page, "the-tide", ["human", "human", "random"], 4,
                              prefer=lambda t: t.startswith("collect"))
    assert clicker.board_clicks + clicker.list_clicks > 10
    check_replay(page)


def test_a_whole_game_of_trails_of_tucana_to_the_end(server: Server, new_page: Any) -> None:
    page, _, clicker = finish(server, new_page, "trails-of-tucana", ["human", "human"], 2)
    assert clicker.board_clicks + clicker.list_clicks >= 40
    scores = page.locator("#scores").inner_text()
    assert "final score" in scores


def test_the_table_fits_a_phone_screen(server: Server, new_page: Any) -> None:
    table = server.create("high-water", ["human", "random"], seed=3)
    page: Page = new_page(390, 844)
    page.goto(server.seat_url(table, 0))
    wait_shown(page, 0)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page is {width} px wide on a 390 px screen"
    assert json.loads(page.evaluate("() => JSON.stringify(window.coveTimings)")) == []


def test_a_dropped_connection_reconnects_to_the_same_seat(server: Server, new_page: Any) -> None:
    table = server.create("the-tide", ["human", "human"], seed=6)
    mover = server.state(table["id"]).to_move()[0]
    page: Page = new_page()
    sockets: list[Any] = []

    def through(ws: Any) -> None:  # every socket goes through here, so the test can cut it
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws/tables/**", through)
    page.goto(server.seat_url(table, mover))
    wait_shown(page, 0)
    sockets[0].close(code=1001, reason="cut by the test")
    page.locator("#conn", has_text="reconnecting").wait_for()
    page.locator("#conn", has_text="connected").wait_for()
    assert len(sockets) == 2
    assert page.locator("#who").inner_text() == f"you are P{mover + 1}"
    page.wait_for_function("() => document.querySelectorAll('#moves button.move').length > 0")
    Clicker(seed=1).click_once(page)  # the new socket carries the seat's move
    wait_shown(page, 1)
    assert server.state(table["id"]).decisions == 1


def test_a_target_meaning_several_moves_opens_a_chooser(server: Server, new_page: Any) -> None:
    table = server.create("the-tide", ["human", "human"], seed=8)
    st = server.state(table["id"])
    mover = st.to_move()[0]
    legal = [str(a) for a in st.legal_actions(mover)]
    assert len(legal) >= 2
    page = open_seat(new_page, server, table, mover)
    # a target standing for two moves (as a square two moves end on): the page must ask
    page.evaluate("""(moves) => {
        const t = document.createElement('button');
        t.className = 'target';
        t.id = 'two';
        t.setAttribute('data-moves', JSON.stringify(moves));
        document.querySelector('#board').append(t);
    }""", legal[:2])
    page.locator("#two").click()
    chooser = page.locator("#chooser")
    chooser.wait_for()
    assert [b.inner_text() for b in chooser.locator("button.move").all()] == legal[:2]
    assert server.state(table["id"]).decisions == 0  # nothing sent before the choice
    chooser.locator("button.move").nth(1).click()
    wait_shown(page, 1)
    assert [str(a) for _, a in server.state(table["id"]).history] == [legal[1]]
