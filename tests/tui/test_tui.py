"""The terminal UI: fitted turn screens in the redraw and plain modes, the
other players' moves highlighted, skipped steps with a reason, help per move, the rules
pager, and score summaries that say what decided the winner."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from typing import Any, cast

import pytest

import cove
from cove.cli import main, screen_mode
from cove.core.game import MoveHelp
from cove.core.rng import Rng
from cove.core.state import State
from cove.example_game import GAME as TOY
from cove.lab.runner import RandomChooser, play_out
from cove.terminal import Table
from cove.testing.screens import ANSI
from cove.tui.hooks import move_help
from cove.tui.layout import Turn, compact_moves, fit, highlight
from cove.tui.play import CLEAR, Display, Seat, others_moves, rules_lines, skipped_steps, turn_for
from cove.tui.summary import decider, final_summary, round_summary

GAMES = cove.ids()


def positions(gid: str, players: int, seed: int, every: int = 9,
              limit: int = 240) -> Iterator[tuple[Table, int]]:
    """Tables at sampled decisions of a random game, with the seat to move."""
    game = cove.load(gid)
    state = game.new(players, seed)
    table = Table(game, state, ["human"] * players)
    rng = Rng(seed)
    for k in range(limit):
        if state.is_over:
            return
        p = state.to_move()[0]
        if k % every == 0:
            yield table, p
        state.apply(p, rng.choice(state.legal_actions(p)))


def finished(gid: str, players: int, seed: int) -> State:
    """A random game of ``gid`` played to its end."""
    return play_out(cove.load(gid).new(players, seed), RandomChooser(Rng(seed)))


@pytest.mark.parametrize("gid", GAMES)
def test_a_turn_fits_80_by_24_in_the_redraw_mode(gid: str) -> None:
    game = cove.load(gid)
    for players in sorted({game.min_players, min(4, game.max_players)}):
        for table, p in positions(gid, players, 3):
            turn = turn_for(game, table, p, Seat(), 80, color=True)
            lines = fit(turn, 80, 24, color=True, seat_name=f"P{p + 1}").lines
            plain = [ANSI.sub("", ln) for ln in lines]
            assert len(lines) <= 23, (gid, players, len(lines))
            assert max(len(ln) for ln in plain) <= 80
            text = "\n".join(plain)
            assert f"P{p + 1}: " in text and " ".join(turn.prompt.split()[:3]) in text
            for i in range(1, len(turn.moves) + 1):   # every move's number is on screen
                assert f"{i}." in text


@pytest.mark.parametrize("gid", GAMES)
def test_a_turn_fits_100_by_40_on_a_terminal(gid: str) -> None:
    game = cove.load(gid)
    for table, p in positions(gid, min(4, game.max_players), 5):
        turn = turn_for(game, table, p, Seat(), 100)
        turn.log = [f"log line {i} " * 12 for i in range(30)]   # a long log must shrink
        lines = fit(turn, 100, 40, seat_name=f"P{p + 1}").lines
        assert len(lines) <= 39 and max(len(ln) for ln in lines) <= 100, (gid, len(lines))
        text = "\n".join(lines)
        for i in range(1, len(turn.moves) + 1):
            assert f"{i}." in text


def test_a_pipe_gets_the_whole_turn() -> None:
    from cove.tui.play import draw

    def board(view: dict[str, Any], color: bool = False, width: int = 100) -> str:
        return "\n".join(f"row {i}" for i in range(60))

    game = dataclasses.replace(TOY, render=board)   # a board taller than the terminal
    state = game.new(4, 1)
    table = Table(game, state, ["human"] * 4)
    rng = Rng(1)
    tall = 0
    while not state.is_over:
        p = state.to_move()[0]
        out = io.StringIO()                      # not a terminal: no height to fit
        turn = draw(Display(out, redraw=False, size=(100, 40)), game, table, p, Seat())
        shown = out.getvalue().splitlines()
        assert shown[2:2 + len(turn.board)] == turn.board   # after a blank and a rule
        tall = max(tall, len(shown))
        state.apply(p, rng.choice(state.legal_actions(p)))
    assert tall > 40


def test_the_redraw_window_scrolls_a_tall_board() -> None:
    turn = Turn(board=[f"board {i}" for i in range(40)], prompt="Choose", moves=["a", "b"])
    first = fit(turn, 80, 24)
    assert len(first.lines) <= 23 and first.lines[0] == "board 0"
    assert any("of 40" in ln and "'+'" in ln for ln in first.lines)
    later = fit(turn, 80, 24, board_top=30)    # scrolled past the end: the last lines show
    assert later.board_top == 20 and later.lines[0] == "board 20" and "board 39" in later.lines
    assert later.lines[-2:] == ["Choose", "  1. a  2. b"] and len(later.lines) == 23


def test_long_move_lists_are_grouped_by_their_shared_words() -> None:
    moves = [f"place friend at {c}{r}" for r in range(1, 7) for c in "abcdef"][:35]
    lines = compact_moves(moves, 80)
    assert len(lines) <= 5 and lines[0].startswith("  place friend at: 1.a1")
    joined = " ".join(lines)
    assert all(f"{i}.{m.rsplit(' ', 1)[1]}" in joined for i, m in enumerate(moves, 1))
    assert max(len(ln) for ln in lines) <= 80
    mixed = compact_moves(["collect shell at c2", "move c2 to c1", "move c2 to c3",
                           "move c2 to c4", "pass"], 80)
    assert mixed == ["  1. collect shell at c2", "  move c2 to: 2.c1  3.c3  4.c4",
                     "  5. pass"]


def test_long_prompts_and_log_lines_wrap_at_80_columns() -> None:
    turn = Turn(board=[], prompt="word " * 40, moves=["x"], log=["event " * 30])
    lines = fit(turn, 80, None, seat_name="P1").lines
    assert max(len(ln) for ln in lines) <= 80 and lines[-2].startswith("  ")


def test_the_other_players_moves_are_listed_and_highlighted() -> None:
    game = TOY
    table = Table(game, game.new(2, 3, bidding=False), ["human", "random"])  # turn by turn
    table.play_bots()
    seen = Seat()
    seat = table.human_to_move()
    assert seat == 0
    table.apply(0, table.state.legal_actions(0)[0])
    seen.seen_moves = len(table.state.history_for(0))
    table.play_bots()
    moves = others_moves(table.state, 0, seen.seen_moves)
    assert moves and all(m.startswith("P2: ") for m in moves)
    assert highlight(moves, True)[0].startswith("\x1b[1;33m")
    assert highlight(moves, False)[0] == ">> " + moves[0]
    turn = turn_for(game, table, 0, seen, 80)
    text = "\n".join(fit(turn, 80, 24, seat_name="P1").lines)
    assert "Since your last move:" in text and ">> P2: " in text


def test_a_skipped_step_says_why() -> None:
    # a game whose turn has numbered steps, and says why steps 2 to 4 may offer nothing
    steps = dataclasses.replace(TOY, move_help=MoveHelp(skipped={
        2: "no ability you can pay for", 3: "nothing to spend", 4: "no purchase possible"}))
    assert skipped_steps(steps, {"kind": "step", "step": 3}, {"kind": "step", "step": 5}) == [
        "no purchase possible: step 4 skipped"]
    assert skipped_steps(steps, {"kind": "step", "step": 5}, {"kind": "step", "step": 4}) == [
        "no ability you can pay for: step 2 skipped",
        "nothing to spend: step 3 skipped"]        # a new turn
    assert skipped_steps(steps, {"kind": "step", "step": 3}, {"kind": "step", "step": 4}) == []
    assert skipped_steps(steps, None, {"kind": "trick"}) == []
    assert skipped_steps(TOY, None, {"kind": "act"}) == []


def test_help_explains_each_move_of_every_game() -> None:
    for gid in GAMES:
        game = cove.load(gid)
        for table, p in positions(gid, min(3, game.max_players), 2, every=3):
            for a in table.state.legal_actions(p):
                assert move_help(game, str(a)), (gid, str(a))


@pytest.mark.parametrize("gid", GAMES)
def test_rules_page_through_the_rules_summary(gid: str) -> None:
    game = cove.load(gid)
    lines = rules_lines(game)
    assert lines[0].startswith(game.name.split()[0]) and not any(
        ln.startswith("|") for ln in lines)
    out = io.StringIO()
    answers = iter([""] * 500)
    Display(out, redraw=True, size=(80, 24)).page(lines, lambda _: next(answers))
    pages = out.getvalue().split(CLEAR)[1:]
    assert len(pages) >= -(-len(lines) // 23) >= 1  # every line shown, a screen at a time
    for page in pages:
        assert len(page.rstrip("\n").split("\n")) <= 23
        assert max(len(ln) for ln in page.split("\n")) <= 80


class Tied:
    """A finished game's scores and tie-break keys (for the summary's wording)."""

    def __init__(self, scores: list[float], keys: list[tuple[float, ...]]) -> None:
        self.n = len(scores)
        self._scores, self._keys = scores, keys
        self.game = RANKED
        self.is_over = False    # no view to read parts from

    def scores(self) -> list[float]:
        return self._scores

    def tiebreak(self, p: int) -> tuple[float, ...]:
        return self._keys[p]

    def winners(self) -> tuple[int, ...]:
        best = max(self._scores)
        tied = [p for p in range(self.n) if self._scores[p] == best]
        top = max(self._keys[p] for p in tied)
        return tuple(p for p in tied if self._keys[p] == top)

    def events(self, seat: int | None = None, since: int = 0) -> list[Any]:
        return []


RANKED = dataclasses.replace(TOY, tiebreak=("higher level", "more gold", "more cargo"))
"""A game with three tie-breaks, in words."""


def test_the_winner_and_the_tie_break_that_decided_it() -> None:
    game = RANKED
    zero = cast(State, Tied([0, 0], [(1, 13, 0), (1, 10, 2)]))
    why = decider(game, zero)
    assert why == "P1 and P2 tied on 0; more gold decided: P1 13, P2 10"
    lines = final_summary(game, zero, [0])
    assert lines[-1] == f"Winner: P1 ({why}) -- you win!"
    assert "P2: 0; tie-break: higher level 1, more gold 10, more cargo 2" in lines[2]
    shared = cast(State, Tied([3, 3], [(1, 5, 0), (1, 5, 0)]))
    assert "share the win" in decider(game, shared)
    last = final_summary(game, shared, [1])[-1]
    assert last.startswith("Shared win: P1, P2") and last.endswith("-- you share the win!")
    alone = cast(State, Tied([7, 3], [(), ()]))
    assert decider(game, alone) == "P1 has the top score, 7; next best 3"


def test_a_game_nobody_won_says_so_instead_of_a_shared_win() -> None:
    """A game may end with no winner (a solo game lost: below its target, or the rival
    ahead): the summary once read "Shared win:  (P1 has the top score, 7)"."""

    class Lost(Tied):
        def winners(self) -> tuple[int, ...]:
            return ()

    lines = final_summary(RANKED, cast(State, Lost([7], [()])), [0])
    assert lines[-1] == "No player wins."
    assert not any("win:" in line or "you win" in line for line in lines)


@pytest.mark.parametrize("game_id", cove.ids())
def test_the_final_summary_shows_the_declared_parts_adding_up(game_id: str) -> None:
    game = cove.load(game_id)
    state = finished(game_id, 2, 1)
    events = state.events(None)
    if any(e.kind in ("score", "game_over") and "points" in (e.data or {}) for e in events):
        assert round_summary(events, 2)
    lines = final_summary(game, state, [0])
    scored = [ln for ln in lines if " = " in ln]
    assert len(scored) == 2
    for ln in scored:   # the parts add up to the score
        total, parts = ln.split(": ", 1)[1].split(";")[0].split(" = ")
        assert float(total) == sum(float(x.rsplit(" ", 1)[1]) for x in parts.split(" + "))
    assert game.tiebreak[0] in "\n".join(lines) and lines[-1].startswith(("Winner", "Shared"))


@pytest.mark.parametrize("game_id", cove.ids())
def test_the_end_text_says_in_plain_words_why_the_game_ended(game_id: str) -> None:
    """The terminal says the sentence the browser's end banner says (one function,
    cove.core.text.end_reason): the game's own words, and a safety limit named once."""
    game = cove.load(game_id)
    assert game.end_reason is not None, "every shipped game says why it ended"
    for seed in (1, 2):
        state = finished(game_id, 2, seed)
        why = game.end_reason(state.view(None))
        assert len(why.split()) >= 5 and "_" not in why, why   # words, not a key
        line = final_summary(game, state, [0])[-2]
        assert line.startswith(f"Game over. The game ended because {why}"), line
        safety = state.stats().get("end") in game.safety_ends
        assert ("safety limit" in line) is (safety or "safety limit" in why), line
        assert line.count("safety limit") <= 1, line


def test_a_game_that_gives_no_reason_falls_back_to_its_end_figure() -> None:
    state = play_out(TOY.new(2, 1), RandomChooser(Rng(1)))
    end = state.stats()["end"]
    plain = final_summary(TOY, state, [0])[-2]
    assert plain == f"Game over. The game ended because {end}."
    capped = dataclasses.replace(TOY, safety_ends=(str(end),))
    state = play_out(capped.new(2, 1), RandomChooser(Rng(1)))
    assert final_summary(capped, state, [0])[-2] == (
        f"Game over. The game ended because {end}. That is a safety limit against endless "
        "games, not one of the rules' own ends.")


def test_redraw_is_chosen_for_a_terminal_and_plain_for_a_pipe() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert not screen_mode("auto", io.StringIO(), io.StringIO())
    assert screen_mode("redraw", io.StringIO(), io.StringIO())
    assert not screen_mode("plain", Tty(), Tty())


def test_play_in_both_modes(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                            toy_registered: str) -> None:
    first = str(TOY.new(2, 3).legal_actions(0)[0])   # the first move offered to P1
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    for mode in ("redraw", "plain"):
        answers = iter(["help 1", "1", "rules", "q", "quit"])
        monkeypatch.setattr("builtins.input", lambda _="", it=answers: next(it))
        rc = main(["play", toy_registered, "--players", "2", "--seed", "3", "--bots", "random",
                   "--no-color", "--screen", mode])
        out = capsys.readouterr().out
        assert rc == 0
        assert (CLEAR in out) == (mode == "redraw")
        assert f"{first}: {move_help(TOY, first)}" in " ".join(out.split())
        assert max(len(ln) for ln in ANSI.sub("", out).replace(CLEAR, "").splitlines()) <= 80


def test_a_board_window_keeps_your_own_lines_in_view() -> None:
    board = [f"market {i}" for i in range(30)] + ["P1 (you): dice g6 y5", "    quests: x",
                                                  "P2: dice r1"]
    lines = fit(Turn(board=board, prompt="Choose", moves=["a", "b"]), 80, 24).lines
    assert lines[0] == "market 0" and len(lines) <= 23
    bar = next(i for i, ln in enumerate(lines) if ln.startswith("-- board lines"))
    assert lines[bar - 2:bar] == ["P1 (you): dice g6 y5", "    quests: x"]
    assert "and yours of 33" in lines[bar]


def test_a_round_summary_gives_each_players_standing() -> None:
    from cove.core.history import Event

    events = [Event(0, "P1 ends the segment with 2 influence", None, "score",
                    {"player": 0, "influence": 2}),
              Event(1, "P2 ends the segment with 10 influence", None, "score",
                    {"player": 1, "influence": 10}),
              Event(2, "Round 2", None, "round", {"round": 2})]
    assert round_summary(events, 2) == ["P1 influence 2", "P2 influence 10"]
    assert round_summary(events[2:], 2) == []


def test_replay_wraps_its_log_and_ends_with_the_summary(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Any, toy_registered: str) -> None:
    import json

    state = finished(toy_registered, 3, 2)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(state.record()))
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["replay", str(path), "--all", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert max(len(ln) for ln in out.splitlines()) <= 80
    tail = out[out.rindex("Final scores:"):]
    assert f"tie-break: {TOY.tiebreak[0]}" in " ".join(tail.split())
    assert "\nWinner: " in tail or "\nShared win: " in tail


@pytest.mark.parametrize("gid", cove.ids())
def test_the_score_breakdown_adds_up_to_the_score(gid: str) -> None:
    from cove.tui.hooks import score_breakdown

    game = cove.load(gid)
    for seed in range(3):
        state = finished(gid, 2, seed)
        view = state.view(None)
        for p, score in enumerate(state.scores()):
            parts = score_breakdown(game, view, p)
            assert parts and sum(v for _, v in parts) == score, (gid, seed, p, parts)
        lines = final_summary(game, state, [0])
        for p, line in enumerate(lines[1:1 + state.n]):  # "treasures buried 1", never
            first = score_breakdown(game, view, p)[0][0]  # "1 treasures buried"
            assert f" = {first} " in line, (gid, seed, line)


def test_your_hand_below_the_window_stays_in_view() -> None:
    board = [f"sea {i}" for i in range(30)] + [
        "P1 (you): ship c1; hold 2/7", "P2: ship a1", "Your hand:  5 octopuses",
        "  6 whales", "Your secret sightings card A"]
    lines = fit(Turn(board=board, prompt="Play a card", moves=["play 5", "play 6"]),
                80, 24).lines
    assert len(lines) <= 23 and "P2: ship a1" not in lines
    for mine in ("P1 (you): ship c1; hold 2/7", "Your hand:  5 octopuses", "  6 whales",
                 "Your secret sightings card A"):
        assert mine in lines


def test_more_moves_than_lines_show_the_first_and_say_how_to_list_all() -> None:
    moves = [f"draw {c}{k}-{c}{k + 2}" for c in "abcdefghij" for k in range(0, 30, 2)]
    lines = fit(Turn(board=["map"] * 30, prompt="Draw a segment", moves=moves), 80, 24).lines
    assert len(lines) <= 23 and any("'moves' lists them all" in ln for ln in lines)
    assert lines[0] == "map" and "Draw a segment" in lines
