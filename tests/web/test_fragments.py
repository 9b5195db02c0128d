"""The server-drawn parts of the table page, without a browser."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

import cove
from cove.web import fragments, pages


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


def test_the_board_falls_back_to_the_terminal_text_without_a_drawing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fragments, "_boards", lambda: None)
    st = played("the-tide", 2, 1, moves=3)
    html, drawn = fragments.board(st.game, st.view(0), [], 0)
    assert not drawn and html.startswith('<pre class="board-text">')
    assert "The Tide" in html


def test_a_failing_drawing_falls_back_to_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        class BoardUnavailable(LookupError):
            pass

        @staticmethod
        def draw(*args: Any) -> str:
            raise ValueError("bug")

    monkeypatch.setattr(fragments, "_boards", lambda: Broken)
    st = played("tricky-tides", 2, 1, moves=2)
    html, drawn = fragments.board(st.game, st.view(0), [], 0)
    assert not drawn and "<pre" in html


def test_scores_show_the_games_breakdown_per_seat() -> None:
    st = played("the-tide", 3, 2)
    seats = [{"seat": i, "kind": "human"} for i in range(3)]
    html = fragments.scores(st.view(1), seats, 1, st.scores())
    assert "final score" in html and "points" in html and "shells" in html
    assert "P2 (you)" in html
    assert html.count("<tr>") == 1 + 4  # the header, the final score and three fields


@dataclass
class Tied:
    """A finished game's outline: three seats, two tied on top, the tie-break decides."""

    keys: dict[int, tuple[float, ...]]
    shared: bool = False
    n: int = 3
    is_over: bool = True
    game: Any = field(default_factory=lambda: cove.load("the-tide"))

    def scores(self) -> list[float]:
        return [5.0, 5.0, 2.0]

    def tiebreak(self, p: int) -> tuple[float, ...]:
        return self.keys.get(p, ())

    def winners(self) -> tuple[int, ...]:
        return (0, 1) if self.shared else (1,)


def test_the_end_screen_names_the_winner_and_the_tie_break_that_decided() -> None:
    html = fragments.end(Tied({0: (3.0,), 1: (4.0,)}), {}, 0)  # type: ignore[arg-type]
    assert "P2 wins" in html
    assert "P1, P2 tied on 5" in html and "most tiles held" in html
    assert "P1 3; P2 4" in html
    shared = fragments.end(Tied({0: (4.0,), 1: (4.0,)}, shared=True), {}, 1)  # type: ignore[arg-type]
    assert "You share the win" in shared and "did not separate them" in shared


def test_the_end_screen_is_empty_while_the_game_runs() -> None:
    st = played("high-water", 2, 1, moves=2)
    assert fragments.end(st, st.view(0), 0) == ""
