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
from cove.core.rng import Rng
from cove.testing.harness import _contains as contains
from cove.testing.harness import _trivial as trivial
from tests.web.conftest import Server
from tests.web.play import Clicker, history_seats, listed, play, shown, wait_shown

GAMES = [g.id for g in cove.all_games()]
TURNS = {"bidding": False}
"""The toy without its simultaneous bid: one seat to move at a time."""


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
    # the first game of the lobby's list for three players that has options
    game = next(g for g in cove.all_games()
                if g.min_players <= 3 <= g.max_players and g.describe()["options"])
    first_option = next(iter(game.options_schema(3)["properties"].values()))["title"]
    page: Page = new_page()
    page.goto(server.url + "/")
    page.select_option("#game", game.id)
    page.select_option("#players", "3")
    page.select_option("#seat-1", "human")
    page.select_option("#seat-2", "easy")
    page.locator("details#options summary").click()
    assert page.locator("fieldset.options").is_visible()
    assert first_option in page.locator("fieldset.options").inner_text()
    page.locator("#create button[type=submit]").click()
    links = page.locator("#created input[readonly]")
    links.first.wait_for()
    assert links.count() == 2  # one invite link per human seat
    assert "bot easy" in page.locator("#created").inner_text()
    page.locator("#open-mine").click()
    page.wait_for_function("() => document.body.dataset.moves !== undefined")
    assert page.locator("#who").inner_text() == "you are P1"
    table_id = page.evaluate("() => document.body.dataset.table")
    assert server.state(table_id).game.id == game.id
    page.goto(server.url + "/web/")  # listed among the open tables, with a way back to my seat
    row = page.locator(f"li[data-table='{table_id}']")
    assert game.name in row.inner_text()
    row.locator("a", has_text="my seat").click()
    page.wait_for_function("() => document.body.dataset.moves !== undefined")
    assert page.locator("#who").inner_text() == "you are P1"


def test_the_lobby_lists_new_tables_and_finished_games_without_a_reload(
        server: Server, new_page: Any, toy_registered: str) -> None:
    watching: Page = new_page()
    watching.goto(server.url + "/web/")
    watching.evaluate("() => { window.sameDocument = true; }")  # gone if the page reloads
    other: Page = new_page()  # another browser makes a table in its own lobby
    other.goto(server.url + "/web/")
    other.select_option("#game", toy_registered)
    other.select_option("#players", "2")
    other.select_option("#seat-1", "random")
    other.locator("#create button[type=submit]").click()
    other.locator("#created input[readonly]").first.wait_for()
    found = re.search(r"/web/tables/([^/?]+)", other.locator("#open-mine").get_attribute("href")
                      or "")
    assert found is not None
    row = watching.locator(f"#open-tables li[data-table='{found.group(1)}']")
    row.wait_for(timeout=10000)
    assert cove.load(toy_registered).name in row.inner_text()
    bots = server.create(toy_registered, ["random", "random"], seed=2)  # plays itself out
    ended = watching.locator(f"#finished-tables li[data-table='{bots['id']}']")
    ended.wait_for(timeout=30000)
    assert "finished" in ended.inner_text()
    assert watching.evaluate("() => window.sameDocument") is True


def test_lobby_shows_the_servers_reason_for_a_bad_option(server: Server, new_page: Any,
                                                         toy_registered: str) -> None:
    page: Page = new_page()
    page.goto(server.url + "/web/")
    page.select_option("#game", toy_registered)
    page.locator("details#options summary").click()
    page.fill("#opt-plays", "9999")  # at most 12
    # the page's own check (max=12) would stop the form first: skip it, as an old page would
    page.evaluate("() => { document.querySelector('#create').noValidate = true; }")
    page.locator("#create button[type=submit]").click()
    error = page.locator("#create #error")
    error.wait_for()
    assert "plays" in error.inner_text()
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
        server: Server, new_page: Any, toy_registered: str) -> None:
    table = server.create(toy_registered, ["human", "random", "random"], seed=4)
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


def test_reload_mid_game_keeps_the_seat(server: Server, new_page: Any,
                                        toy_registered: str) -> None:
    table = server.create(toy_registered, ["human", "random"], seed=5, options={"plays": 12})
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


def secret_texts(state: Any, seat: int) -> list[str]:
    """Texts only ``seat`` may see: the words of its private items (its hand, a secret
    card) that the spectator's view does not hold."""
    public = json.dumps(state.view(None))
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if len(value) >= 3 and value not in public:
                out.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    walk(state.private_items(seat))
    return out


def first_game_with_secret_texts() -> str:
    """The first game of the lobby's list in which a seat of three comes to hold words
    no one else may see (in 60 random moves)."""
    for game in cove.all_games():
        state, rng = game.new(3, seed=9), Rng(9)
        for _ in range(60):
            if secret_texts(state, 0):
                return game.id
            if state.is_over:
                break
            p = state.to_move()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
    pytest.skip("no game shows a seat words only it may see")


def test_spectator_page_never_shows_a_hand(server: Server, new_page: Any) -> None:
    table = server.create(first_game_with_secret_texts(), ["human", "human", "random"], seed=9)
    seat = open_seat(new_page, server, table, 0)
    other = open_seat(new_page, server, table, 1)
    play(server, table["id"], {0: seat, 1: other}, Clicker(seed=2),
         lambda st: bool(secret_texts(st, 0)))  # until the hands are dealt
    st = server.state(table["id"])
    hand = secret_texts(st, 0)
    secrets = [v for v in st.private_items(0).values() if not trivial(v)]
    assert hand and secrets
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
    assert frames and not any(contains(json.loads(f), v) for f in frames for v in secrets)


def test_an_illegal_click_shows_the_reason_and_changes_nothing(
        server: Server, new_page: Any, toy_registered: str) -> None:
    table = server.create(toy_registered, ["human", "human"], seed=4, options=TURNS)
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
           prefer: Any = None,
           options: dict[str, Any] | None = None) -> tuple[Page, dict[str, Any], Clicker]:
    table = server.create(game, seats, seed=seed, options=options)
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


def test_a_whole_game_to_the_end_with_the_replay(server: Server, new_page: Any,
                                                  toy_registered: str) -> None:
    page, table, clicker = finish(server, new_page, toy_registered,
                                  ["human", "human", "random"], 4, options={"plays": 12})
    humans = [p for p, _ in server.state(table["id"]).history if p in (0, 1)]
    assert clicker.board_clicks + clicker.list_clicks == len(humans) > 5  # each one a click
    check_replay(page)


def test_a_whole_game_of_simultaneous_steps_to_the_end(server: Server, new_page: Any,
                                                       toy_registered: str) -> None:
    page, table, clicker = finish(server, new_page, toy_registered, ["human", "human"], 2)
    moves = server.state(table["id"]).decisions  # the bid together, then turn by turn
    assert clicker.board_clicks + clicker.list_clicks == moves
    scores = page.locator("#scores").inner_text()
    assert "final score" in scores


@pytest.mark.parametrize("game", GAMES)
def test_the_table_fits_a_phone_screen(server: Server, new_page: Any, game: str) -> None:
    table = server.create(game, ["human", "random"], seed=3)
    page: Page = new_page(390, 844)
    page.goto(server.seat_url(table, 0))
    wait_shown(page, 0)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390 + 1, f"the page is {width} px wide on a 390 px screen"
    assert json.loads(page.evaluate("() => JSON.stringify(window.coveTimings)")) == []


def test_a_dropped_connection_reconnects_to_the_same_seat(server: Server, new_page: Any,
                                                          toy_registered: str) -> None:
    table = server.create(toy_registered, ["human", "human"], seed=6, options=TURNS)
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


def test_a_target_meaning_several_moves_opens_a_chooser(server: Server, new_page: Any,
                                                        toy_registered: str) -> None:
    table = server.create(toy_registered, ["human", "human"], seed=8, options=TURNS)
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
