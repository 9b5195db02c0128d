"""What a screen reader gets: names for the board's targets and pieces, and one polite
announcement per update saying the move just made and whose turn it is.

Read through the accessibility tree (`get_by_role`, `aria_snapshot`), as assistive
technology reads the page, not through the DOM's classes. Tables are made in the lobby and
played with the keys (tests/web/keys.py)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from cove.core.record import replay as replay_record
from cove.core.text import seat_name
from tests.web.conftest import Server
from tests.web.keys import GAMES, play_by_keys, table_by_keys

RECORDER = """() => {
    window.coveSaid = [];
    const box = document.querySelector('#announce');
    for (const p of box.children) window.coveSaid.push([Number(p.dataset.moves), p.textContent]);
    new MutationObserver((changes) => {
        for (const c of changes) for (const p of c.addedNodes)
            if (p.nodeType === 1) window.coveSaid.push([Number(p.dataset.moves), p.textContent]);
    }).observe(box, {childList: true});
}"""

QUOTED = re.compile(r"""^\s*- '(button|img) "((?:[^"\\]|\\.)*)"'(?:: .*)?$""")
PLAIN = re.compile(r'^\s*- (button|img) "((?:[^"\\]|\\.)*)"(?:: .*)?$')
"""A name is in double quotes, a double quote or backslash inside it escaped with a
backslash (a crew card called Jack "Fuse" Rogers)."""


def _unescape(name: str) -> str:
    return re.sub(r"\\(.)", r"\1", name)


def named(snapshot: str) -> dict[str, list[str]]:
    """The accessible names of the buttons and images of an ARIA snapshot (YAML: a line
    with a quote in it is wrapped in single quotes, those doubled), by role."""
    out: dict[str, list[str]] = {"button": [], "img": []}
    for line in snapshot.splitlines():
        found = QUOTED.match(line)
        if found:
            out[found[1]].append(_unescape(found[2].replace("''", "'")))
        elif found := PLAIN.match(line):
            out[found[1]].append(_unescape(found[2]))
    return out


def board_names_are_right(page: Page) -> int:
    """Every target of the board is a button named by its title, every other titled piece
    an image named by its title; returns the number of targets. (Read again when a bot's
    move redrew the board between the reads.)"""
    for _ in range(20):
        shown = page.evaluate("() => document.body.dataset.moves")
        titles, names = board_titles(page), named(page.locator("#board").aria_snapshot())
        if page.evaluate("() => document.body.dataset.moves") == shown:
            break
    assert sorted(names["button"]) == sorted(titles["button"])
    assert all(names["button"])
    assert set(titles["img"]) <= set(names["img"])
    assert titles["img"], "the board names none of its pieces"
    return len(titles["button"])


def board_titles(page: Page) -> dict[str, list[str]]:
    """The titles of the board's targets and of its other named pieces, from the DOM."""
    titles: dict[str, list[str]] = page.evaluate("""() => {
        const out = {button: [], img: []};
        for (const g of document.querySelectorAll('#board svg g')) {
            const t = g.querySelector(':scope > title');
            if (!t) continue;
            if (g.matches('.target')) out.button.push(t.textContent.trim());
            else if (g.getAttribute('role') === 'img') out.img.push(t.textContent.trim());
        }
        return out; }""")
    untitled = page.evaluate("() => [...document.querySelectorAll('#board .target')]"
                             ".filter(t => !t.querySelector(':scope > title')).length")
    assert untitled == 0
    assert page.evaluate("() => document.querySelectorAll('#board [role=img] .target').length"
                         ) == 0, "a target inside an image is hidden from a screen reader"
    return titles


@pytest.mark.parametrize("game", GAMES)
def test_board_targets_and_pieces_have_accessible_names(game: str, server: Server,
                                                        new_page: Any) -> None:
    page, table_id = table_by_keys(new_page, server, game)
    targets = [board_names_are_right(page)]

    def check(n: int) -> None:
        if len(targets) < 8:
            targets.append(board_names_are_right(page))

    play_by_keys(page, server, table_id, random.Random(2), after=check)
    assert sum(targets) > 0, "no board target was ever checked"


def expected(server: Server, table_id: str) -> dict[int, tuple[str, str]]:
    """For every move count N of the finished table: what seat 0 may know of move N (its
    text, or that it was secret) and whose turn it then was, replayed from the record."""
    hub = server.hub()
    record = hub.record(hub.tables[table_id], None)
    state = replay_record(record, upto=0)
    out = {}
    for i, (p, action) in enumerate(list(server.state(table_id).history)):
        state.apply(p, action)
        mover, known = state.history_for(0)[-1]
        move = (f"{seat_name(mover)}: {known}" if known is not None
                else f"{seat_name(mover)} moved in secret")
        if state.is_over:
            turn = "Game over"
        elif 0 in state.to_move():
            turn = "Your turn: " + state.decision(0)["prompt"].rstrip(".")
        else:
            turn = "Waiting for " + seat_name(state.to_move()[0])
        out[i + 1] = (move, turn)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_each_update_is_announced_once_with_the_move_and_whose_turn(
        game: str, server: Server, new_page: Any) -> None:
    page, table_id = table_by_keys(new_page, server, game)
    page.evaluate(RECORDER)
    region = page.get_by_role("log", name="Announcements")
    assert region.get_attribute("aria-live") == "polite"
    heard: list[str] = []

    def listen(n: int) -> None:  # after each of my moves: the region, as a reader gets it
        said = page.evaluate("() => window.coveSaid[window.coveSaid.length - 1]")
        assert said[0] > n
        text = region.aria_snapshot()
        # the snapshot is YAML: in a quoted string a quote of the text (a crew named
        # Jack "Fuse" Rogers) is written escaped
        escaped = said[1].replace("\\", "\\\\").replace('"', '\\"')
        assert said[1] in text or escaped in text
        heard.append(said[1])

    play_by_keys(page, server, table_id, random.Random(4), after=listen)
    st = server.state(table_id)
    page.wait_for_function("n => window.coveSaid.some(s => s[0] === n)", arg=st.decisions)
    said: list[tuple[int, str]] = [tuple(s) for s in page.evaluate("() => window.coveSaid")]
    counts = [n for n, _ in said]
    assert counts == sorted(set(counts)), "an update was announced twice, or out of order"
    assert said[0][1].startswith("You are P1.")  # the table as the page opened it
    want = expected(server, table_id)
    mine = {i + 1 for i, (p, _) in enumerate(st.history) if p == 0}
    assert mine <= set(counts), "one of my moves was never announced"
    for n, text in said[1:]:
        move, turn = want[n]
        assert move in text, (n, text, move)
        assert turn in text, (n, text, turn)
        p, action = st.history[n - 1]
        if "moved in secret" in move:  # a bot's secret move: announced, but not what it was
            assert f"{seat_name(p)}: {action}" not in text
    assert heard and len(heard) == len(mine)
    # nothing else on the page is live with the same words: each is heard once
    others = page.evaluate("""() => [...document.querySelectorAll(
        '[aria-live], [role=log], [role=status], [role=alert]')]
        .filter(e => e.id !== 'announce').map(e => e.textContent)""")
    assert not [o for o in others if said[-1][1] in o or (o.strip() and o.strip() in said[-1][1]
                                                          and len(o.strip()) > 20)]
