"""Clocks in the browser, through the lobby and the table by keys and clicks: a table made
with the lobby's clock select shows each seat's time, counting down for the seat to move
only; a seat whose page closes shows "away" to the others at once; a seat out of time
offers the others the two bot choices as buttons (never taken by itself), the player gets
"Take my seat back"; and "Notify me" asks for the browser's permission only when ticked,
then notifies a turn that comes while the tab is not in view."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

import cove
from tests.web.conftest import Server, shot
from tests.web.keys import (
    GAMES,
    MOUSE_SPY,
    choose,
    play_by_keys,
    submit_by_keys,
    tab_to,
    table_by_keys,
)
from tests.web.test_axe import violations
from tests.web.test_turn_notice import BACKGROUND, hide, wait_my_turn

TWO = next((g for g in GAMES if cove.load(g).min_players <= 2 <= cove.load(g).max_players
            and not cove.load(g).simultaneous), None)
"""A game for two people who take turns."""


def two_people(new_page: Callable[..., Page], server: Server, clock: str,
               options: dict[str, str] | None = None) -> tuple[Page, Page, str]:
    """P1 makes a table for two people in the lobby by keys, with ``clock`` (and the
    game's ``options``), and opens their seat; P2 opens the invite link P1 was shown.
    (P1's page, P2's page, table id.)"""
    if TWO is None:
        pytest.skip("no game for two")
    a = new_page()
    submit_by_keys(a, server, TWO, ["human", "human"], options or {}, clock=clock)
    a.wait_for_function("() => document.activeElement.id === 'open-mine'")
    link = a.input_value("input[aria-label='P2 invite link']")
    a.keyboard.press("Enter")  # Go to my seat
    a.wait_for_url("**/web/tables/**")
    a.evaluate(MOUSE_SPY)
    table_id: str = a.evaluate("() => document.body.dataset.table")
    b = new_page()
    b.goto(link)
    return a, b, table_id


def said(page: Page, text: str, timeout: float = 15000) -> None:
    """Wait until the page's live region has said ``text``."""
    page.wait_for_function("t => document.querySelector('#announce').textContent.includes(t)",
                           arg=text, timeout=timeout)


def seat_text(page: Page, seat: int) -> str:
    return page.inner_text(f"#clocks li[data-seat='{seat}']")


def wait_text(page: Page, seat: int, text: str, present: bool = True) -> None:
    page.wait_for_function(
        "([s, t, p]) => { const li = document.querySelector(`#clocks li[data-seat='${s}']`);"
        " return !!li && li.textContent.includes(t) === p; }", arg=[seat, text, present],
        timeout=5000)


def test_the_clocks_count_down_for_the_seat_to_move_and_show_who_is_away(
        server: Server, new_page: Any) -> None:
    a, b, table_id = two_people(new_page, server, "realtime")
    mover = server.state(table_id).to_move()[0]
    other = 1 - mover
    a.wait_for_selector("#clocks-card:not([hidden])")
    wait_text(a, mover, "to move")
    assert "10:00" in seat_text(a, other) and "to move" not in seat_text(a, other)
    assert "(you)" in seat_text(a, 0)
    a.wait_for_function(  # the page counts down by itself, for the seat to move only
        "s => !document.querySelector(`#clocks li[data-seat='${s}'] .clock-time`)"
        ".textContent.startsWith('10:00')", arg=mover, timeout=4000)
    assert a.inner_text(f"#clocks li[data-seat='{other}'] .clock-time") == "10:00"
    wait_text(a, 1, "away", present=False)  # P2's page is open
    b.wait_for_selector("#clocks-card:not([hidden])")
    b.close()  # P2 leaves: "away" at once on P1's page, and said
    wait_text(a, 1, "away")
    said(a, "P2 is away", timeout=3000)
    shot(a.locator("#clocks-card"), "clock-away.png")
    assert a.evaluate("() => window.coveMouse") == 0


def test_a_seat_out_of_time_offers_the_others_a_bot_and_its_player_takes_it_back(
        server: Server, new_page: Any, shifted: Callable[[float], None]) -> None:
    a, b, table_id = two_people(new_page, server, "realtime")
    mover = server.state(table_id).to_move()[0]
    late, chooser = (a, b) if mover == 0 else (b, a)
    name = f"P{mover + 1}"
    chooser.wait_for_selector("#clocks-card:not([hidden])")
    assert chooser.locator("#timeout-choices").is_hidden()  # time left: nothing offered
    shifted(601)  # ten minutes and a second later
    chooser.reload()  # (the page counts down alone; a reload asks the server again)
    chooser.wait_for_selector("#timeout-choices:not([hidden])")
    once = chooser.get_by_role("button", name=f"Let a bot play this decision for {name}")
    whole = chooser.get_by_role(
        "button", name=f"Hand {name}'s seat to a bot for the rest of the game")
    assert once.is_visible() and whole.is_visible()
    assert late.locator("#timeout-choices").is_hidden()  # never to the seat out of time
    time.sleep(0.3)
    assert server.state(table_id).decisions == 0  # nothing chosen by itself
    shot(chooser.locator("#clocks-card"), "clock-choices.png")
    assert violations(chooser, "the choices") == []
    tab_to(chooser, "#timeout-choices button[data-choice='game']")
    chooser.keyboard.press("Enter")
    wait_text(late, mover, f"bot playing for {name}")
    wait_text(chooser, mover, f"bot playing for {name}")
    for page, text in ((late, "A bot plays your seat for the rest of the game"),
                       (chooser, f"A bot plays {name} for the rest of the game")):
        said(page, text)
    late.wait_for_selector("#reclaim:not([hidden])")
    shot(late.locator("#clocks-card"), "clock-takeover.png")
    assert violations(late, "take my seat back") == []
    tab_to(late, "#reclaim")
    late.keyboard.press("Enter")
    late.wait_for_selector("#reclaim", state="hidden")
    said(late, "You take your seat back from your next decision")
    said(chooser, f"{name} takes their seat back")
    deadline = time.monotonic() + 30  # the bot finishes the decision it was making, then
    while server.hub().tables[table_id].timing.held():  # the seat is its player's again
        assert time.monotonic() < deadline
        time.sleep(0.05)
    wait_text(late, mover, "bot playing", present=False)


def test_a_minute_left_is_said_once_and_the_times_are_not_live(
        server: Server, new_page: Any, shifted: Callable[[float], None]) -> None:
    a, b, table_id = two_people(new_page, server, "realtime")
    mover = server.state(table_id).to_move()[0]
    watcher = b if mover == 0 else a
    running = server.hub().payload(server.hub().tables[table_id], None)["clock"]["seats"]
    left = next(c["remaining"] for c in running if c["seat"] == mover)
    shifted(left - 61.5)  # a minute and a half second left
    watcher.reload()
    minute = f"P{mover + 1} has one minute left"
    said(watcher, minute, timeout=6000)
    assert watcher.evaluate("() => document.querySelector('#clocks')"
                            ".closest('[aria-live], [role=log], [role=status]')") is None
    time.sleep(1.2)  # the next seconds are not said
    text = watcher.inner_text("#announce")
    assert text.count(minute) == 1 and "seconds left" not in text


def custom_clock(page: Page, server: Server, mode: str, start: tuple[str, str],
                 per_move: tuple[str, str]) -> None:
    """The lobby's form by keys: a table for two people with a custom clock (numbers and
    their units as typed and chosen), submitted."""
    page.goto(server.url + "/web/")
    tab_to(page, "#game")
    choose(page, str(TWO))
    tab_to(page, "#players")
    choose(page, "2")
    tab_to(page, "#seat-1")
    choose(page, "human")
    tab_to(page, "#clock")
    choose(page, "custom")
    assert page.is_visible("#clock-custom")
    tab_to(page, "#clock-mode")
    choose(page, mode)
    for field, (number, unit) in (("allowance", start), ("per-move", per_move)):
        tab_to(page, f"#clock-{field}")
        page.keyboard.press("Control+A")
        page.keyboard.type(number)
        tab_to(page, f"#clock-{field}-unit")
        choose(page, unit)
    tab_to(page, "#create button[type=submit]")
    page.keyboard.press("Enter")


def test_a_custom_clock_from_the_lobby(server: Server, new_page: Any) -> None:
    if TWO is None:
        pytest.skip("no game for two")
    page: Page = new_page()
    custom_clock(page, server, "realtime", ("5", "3600"), ("20", "1"))
    page.wait_for_selector("#error:not([hidden])")  # five hours is no real-time clock
    assert "counted in minutes" in page.inner_text("#error")
    assert violations(page, "lobby, custom clock") == []
    shot(page.locator("#create"), "clock-lobby.png")
    custom_clock(page, server, "turn-based", ("2", "86400"), ("12", "3600"))
    page.wait_for_function("() => document.activeElement.id === 'open-mine'")
    page.keyboard.press("Enter")
    page.wait_for_url("**/web/tables/**")
    page.wait_for_selector("#clocks-card:not([hidden])")
    texts = [page.inner_text(f"#clocks li[data-seat='{s}'] .clock-time") for s in (0, 1)]
    assert "2 d 0 h" in texts and any(t.startswith("1 d 23 h") or t == "2 d 0 h"
                                      for t in texts)


NOTIFICATIONS = """() => {
    window.coveNotes = []; window.coveAsked = 0;
    class FakeNotification {
        constructor(title, options) { window.coveNotes.push([title, options.body]); }
        static requestPermission() {
            window.coveAsked++; FakeNotification.permission = 'granted';
            return Promise.resolve('granted');
        }
    }
    FakeNotification.permission = 'default';
    window.Notification = FakeNotification;
}"""


def test_notify_me_asks_only_when_ticked_then_notifies_a_turn_out_of_view(
        server: Server, new_page: Any) -> None:
    def opened() -> Page:
        page: Page = new_page()
        page.add_init_script(f"({BACKGROUND})()")
        page.add_init_script(f"({NOTIFICATIONS})()")
        return page

    game = next((g for g in GAMES if cove.load(g).min_players <= 2), None)
    if game is None:
        pytest.skip("no game against a bot")
    page, table_id = table_by_keys(opened, server, game, bots=["random"])
    rng = random.Random(3)
    assert page.evaluate("() => window.coveAsked") == 0  # never asked on load
    tab_to(page, "#notify")
    page.keyboard.press("Space")
    page.wait_for_function("() => window.coveAsked === 1")
    assert page.is_checked("#notify")
    assert "notified" in page.inner_text("#notify-note")
    shot(page.locator("#status"), "clock-notify.png")
    wait_my_turn(page)
    play_by_keys(page, server, table_id, rng, moves=1)  # in sight: no notification
    assert page.evaluate("() => window.coveNotes.length") == 0
    hide(page, True)
    for _ in range(30):
        if server.state(table_id).is_over:
            pytest.skip("the game ended before a turn came back")
        wait_my_turn(page)
        if page.evaluate("() => window.coveNotes.length"):
            break
        play_by_keys(page, server, table_id, rng, moves=1)
    notes = page.evaluate("() => window.coveNotes")
    assert len(notes) == 1 and notes[0][0].startswith("Your turn: ")
