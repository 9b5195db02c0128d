"""Every game ships a player's guide (HOW_TO_PLAY.md) written for players: no developer
tags, test names or file paths; it says how the game ends in RULES.md's words and states
the tie-break; the terminal's ``rules`` and the web table's rules panel show it, and
``rules full`` still reaches RULES.md."""

from __future__ import annotations

import io
import re
from html import escape

import pytest

import cove
from cove.example_game import GAME as TOY
from cove.terminal import Table
from cove.tui.play import CLEAR, Display, Seat, ask, guide_lines, rules_lines
from cove.web import pages

GAMES = cove.ids()

END = {
    "high-water": "reaches 20 influence",
    "the-tide": "reaches 10 points",
    "tiny-epic-pirates": "buries a third treasure",
    "trails-of-tucana": "after the last round",
    "tricky-tides": "ends after round 3",
}
"""Per game, the words RULES.md ends the game with (the guide must say them too)."""

DEVELOPER = re.compile(r"\b(SEED|SOURCED|INFERRED|DESIGN)\b|tests/|\btest_\w+"
                       r"|[\w/.-]+\.(md|py|toml)\b|\bR\d+(\.\d+)?\b")
"""What a player's guide must not hold: source tags, test paths and names, file paths,
rule numbers."""


def flat(text: str) -> str:
    return " ".join(text.replace("**", "").split()).lower()


def test_every_game_is_listed_with_its_end() -> None:
    assert sorted(END) == sorted(GAMES)


@pytest.mark.parametrize("gid", GAMES)
def test_the_guide_is_for_players(gid: str) -> None:
    game = cove.load(gid)
    text = game.how_to_play
    assert 40 <= len(text.splitlines()) <= 80, len(text.splitlines())
    leaks = DEVELOPER.findall(text)
    assert not leaks, leaks
    numbered = [ln for ln in text.splitlines() if re.match(r"\s*\d+\. ", ln)]
    assert not numbered, f"the web's rules panel draws '- ' lists, not numbered: {numbered}"
    for heading in ("what you are trying to do", "setup", "scoring", "ends",
                    "what the screen shows"):
        assert heading in text.lower(), heading
    assert END[gid] in flat(game.rules_text), "RULES.md no longer says how the game ends so"
    assert END[gid] in flat(text)
    for name in game.tiebreak:
        assert flat(name) in flat(text), f"the guide does not state the tie-break {name!r}"


def test_the_tutorial_game_has_a_guide_for_players() -> None:
    assert TOY.how_to_play and not DEVELOPER.findall(TOY.how_to_play)
    assert flat(TOY.tiebreak[0]) in flat(TOY.how_to_play)


@pytest.mark.parametrize("gid", GAMES)
def test_the_guide_fits_80_columns_without_markup(gid: str) -> None:
    lines = guide_lines(cove.load(gid), 80)
    assert max(len(ln) for ln in lines) <= 80
    assert not any("**" in ln or ln.startswith("#") for ln in lines)
    assert lines[0] == lines[0].upper() and "rules full" in lines[-1]


def play_commands(gid: str, commands: list[str]) -> str:
    """The terminal's screens while a player types ``commands`` at their first turn."""
    game = cove.load(gid)
    state = game.new(2 if game.max_players >= 2 else 1, 1)
    table = Table(game, state, ["human"] * state.n)
    typed = iter([*commands, "quit"])
    out = io.StringIO()
    display = Display(out, redraw=True, size=(80, 24))
    ask(display, table, state.to_move()[0], Seat(), lambda _: next(typed, "q"))
    return out.getvalue()


@pytest.mark.parametrize("gid", GAMES)
def test_rules_in_the_terminal_shows_the_guide_and_rules_full_every_rule(gid: str) -> None:
    game = cove.load(gid)
    guide = play_commands(gid, ["rules", "q"])
    assert f"HOW TO PLAY {game.name.upper()}" in guide
    assert "Tag" not in guide and "SEED" not in guide
    pages_shown = guide.split(CLEAR)[1:]
    assert all(len(p.rstrip("\n").split("\n")) <= 23 for p in pages_shown)
    full = play_commands(gid, ["rules full", "q"])
    assert rules_lines(game)[0] in full and f"HOW TO PLAY {game.name.upper()}" not in full
    paragraphs = [p for p in game.rules_text.split("\n\n")
                  if p and p[0] not in "#|-" and "\n-" not in p]
    lines = rules_lines(game)   # a paragraph is one line, wrapped by the pager, not twice
    assert all(" ".join(p.split()) in lines for p in paragraphs[:3]), paragraphs[:3]


@pytest.mark.parametrize("gid", GAMES)
def test_the_web_rules_panel_shows_the_guide(gid: str) -> None:
    game = cove.load(gid)
    summary, guide = pages.rules_html(game).split("</p>", 1)
    assert escape(game.summary) in summary and "What the screen shows" in guide
    assert not DEVELOPER.findall(re.sub(r"<[^>]+>", " ", guide))


def test_a_game_without_a_guide_says_where_the_rules_are() -> None:
    import dataclasses

    bare = dataclasses.replace(TOY, state_cls=type("Bare", (TOY.state_cls,), {
        "__module__": "cove"}))
    assert bare.how_to_play == ""
    lines = guide_lines(bare, 80)
    assert TOY.summary in lines[0] and "rules full" in lines[-1]
    Display(io.StringIO(), redraw=False, size=(80, 24)).page(lines, lambda _: None)
