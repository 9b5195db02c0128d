"""The server-drawn parts of the table page, without a browser."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from html import escape
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

import cove
from cove.core.text import END_WORDS
from cove.web import fragments, pages
from tests.web.keys import quick


def played(game_id: str, players: int, seed: int, moves: int | None = None) -> Any:
    game = cove.load(game_id)
    st = game.new(players, seed)
    rng = random.Random(seed)
    while not st.is_over and (moves is None or st.decisions < moves):
        p = st.to_move()[0]
        st.apply(p, rng.choice(st.legal_actions(p)))
    return st


def test_markdown_escapes_every_tag_of_the_rules_file() -> None:
    html = pages.markdown("# Title <b>\n\n| a | <script>x</script> |\n|---|---|\n| `c<d>` | 2 |\n"
                          "\n- one **two**\n- <img src=x onerror=alert(1)>\n")
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert "<h3>Title &lt;b&gt;</h3>" in html
    assert "<code>c&lt;d&gt;</code>" in html and "<strong>two</strong>" in html
    assert html.count("<tr>") == 2  # the header row and one row; the |---| line is dropped
    rules = pages.markdown("| Rule | Text | Test |\n|---|---|---|\n| R1 | Sail. | `test_r1` |\n")
    assert "Sail." in rules and "test_r1" not in rules and "<th>Test</th>" not in rules


def test_every_game_page_carries_its_rules_summary() -> None:
    for game in cove.all_games():
        html = pages.rules_html(game)
        assert game.summary.split()[0] in html
        assert "<table" in html or "<p>" in html


@pytest.mark.parametrize("game_id", cove.ids())
def test_the_board_falls_back_to_the_terminal_text_without_a_drawing(game_id: str) -> None:
    st = played(game_id, 2, 1, moves=3)
    game = dataclasses.replace(st.game, board=None)
    html, drawn = fragments.board(game, st.view(0), [], 0)
    assert not drawn and html.startswith('<pre class="board-text">')
    assert html == '<pre class="board-text">' + escape(
        st.game.render(st.view(0), color=False, width=100)) + "</pre>"


@pytest.mark.parametrize("game_id", cove.ids())
def test_a_failing_drawing_falls_back_to_the_text(game_id: str) -> None:
    def broken(*args: Any) -> str:
        raise ValueError("bug")

    st = played(game_id, 2, 1, moves=2)
    html, drawn = fragments.board(dataclasses.replace(st.game, board=broken), st.view(0), [], 0)
    assert not drawn and "<pre" in html
    html, drawn = fragments.board(st.game, st.view(0), [], 0)
    assert drawn and html.startswith("<svg")


@pytest.mark.parametrize("game_id", cove.ids())
def test_scores_show_the_games_parts_per_seat_and_the_final_score(game_id: str) -> None:
    st = played(game_id, 3, 2)
    game = st.game
    assert game.score_parts is not None
    seats = [{"seat": i, "kind": "human"} for i in range(3)]
    html = fragments.scores(game, st.view(1), seats, 1, st.scores())
    names = list(dict.fromkeys(n for p in range(3) for n, _ in game.score_parts(st.view(1), p)))
    assert "final score" in html and all(escape(n) in html for n in names)
    assert "P2 (you)" in html
    assert html.count("<tr>") == 1 + len(names) + 1  # the header, the parts, the final score


@dataclass
class Tied:
    """A finished game's outline: three seats, two tied on top, the tie-break decides."""

    keys: dict[int, tuple[float, ...]]
    shared: bool = False
    n: int = 3
    is_over: bool = True
    game: Any = field(default_factory=lambda: dataclasses.replace(cove.all_games()[0],
                                                              end_reason=None))

    def scores(self) -> list[float]:
        return [5.0, 5.0, 2.0]

    def tiebreak(self, p: int) -> tuple[float, ...]:
        return self.keys.get(p, ())

    def winners(self) -> tuple[int, ...]:
        return (0, 1) if self.shared else (1,)

    def stats(self) -> dict[str, Any]:
        return {}


def test_the_end_screen_names_the_winner_and_the_tie_break_that_decided() -> None:
    html = fragments.end(Tied({0: (3.0,), 1: (4.0,)}), {}, 0)  # type: ignore[arg-type]
    assert "P2 wins" in html
    assert "P1, P2 tied on 5" in html and escape(cove.all_games()[0].tiebreak[0]) in html
    assert "P1 3; P2 4" in html
    shared = fragments.end(Tied({0: (4.0,), 1: (4.0,)}, shared=True), {}, 1)  # type: ignore[arg-type]
    assert "You share the win" in shared and "did not separate them" in shared


@pytest.mark.parametrize("game_id", cove.ids())
def test_the_end_screen_is_empty_while_the_game_runs(game_id: str) -> None:
    st = played(game_id, 2, 1, moves=2)
    assert fragments.end(st, st.view(0), 0) == ""


def test_the_end_screen_says_why_the_game_ended_in_words() -> None:
    """Every game played to its end (random moves; the short limits the browser tests
    type, ``keys.quick``): the end screen gives the reason in words, says "safety limit"
    exactly when the game's end is one of its ``safety_ends``, and every seat's score."""
    ends = []
    for game in cove.all_games():
        bots, options = quick(game.id)
        st = game.new(1 + len(bots), 3, **{k: int(v) for k, v in options.items()})
        rng = random.Random(3)
        while not st.is_over:
            p = st.to_move()[0]
            st.apply(p, rng.choice(st.legal_actions(p)))
        view = st.view(0)
        html = fragments.end(st, view, 0)
        key = st.stats().get("end")
        if game.end_reason is not None:  # the game's own sentence, as the terminal says it
            assert escape(game.end_reason(view), quote=True) in html, game.id
        elif isinstance(view.get("end_reason"), str):
            assert escape(view["end_reason"], quote=True) in html, game.id
        elif key:
            assert escape(END_WORDS.get(key, key).partition("{")[0]) in html, game.id
        else:
            assert "as its rules end it" in html, game.id
        safety = key in game.safety_ends
        assert ("safety limit" in html) is safety, game.id
        ends.append(safety)
        assert "The game ended: " not in html  # the old raw key ("The game ended: goal.")
        for p in range(len(st.scores())):  # every seat's score
            assert f"P{p + 1}{' (you)' if p == 0 else ''} {fragments._fmt(st.scores()[p])}" in html
        if not st.winners():
            assert "no player wins" in html and "You win" not in html
    assert True in ends and False in ends  # both kinds of end were seen


def test_every_end_key_a_game_declares_a_safety_end_has_words() -> None:
    for game in cove.all_games():
        for key in game.safety_ends:
            assert key in END_WORDS, (game.id, key)
