"""Progress of long runs: rich bars with rate and ETA on a terminal, a plain bar
without rich, nothing on a pipe or with --quiet, and Ctrl-C keeping what was done."""

from __future__ import annotations

import io
import sys

import pytest

from cove.lab.arena import run_arena
from cove.lab.compare import compare, format_compare
from cove.lab.progress import Bar, PlainBar, RichBar, progress_bar
from cove.lab.tune import Target, tune


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(bar: Bar, total: int = 40) -> None:
    with bar:
        for done in range(total + 1):
            bar(done, total)


def test_no_bar_on_a_pipe_or_when_switched_off() -> None:
    pipe = io.StringIO()
    _run(progress_bar("x", stream=pipe))
    term = Terminal()
    _run(progress_bar("x", enabled=False, stream=term))
    assert pipe.getvalue() == "" and term.getvalue() == ""


def test_a_terminal_gets_a_rich_bar_with_rate_and_eta() -> None:
    pytest.importorskip("rich", reason="the lab extra (rich) is not installed")
    term = Terminal()
    bar = progress_bar("toy x40", stream=term)
    assert isinstance(bar, RichBar)
    _run(bar)
    text = term.getvalue()
    assert "toy x40" in text and "40/40" in text and "games/s" in text
    assert "ETA" in text


def test_without_rich_the_bar_is_plain_and_fits_the_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rich.progress", None)  # as if rich were not installed
    term = Terminal()
    bar = progress_bar("toy x200", stream=term)
    assert isinstance(bar, PlainBar)
    with bar:
        for done in range(0, 121, 3):
            bar(done, 200)
    lines = term.getvalue().split("\r")[1:]
    assert lines and all(len(line.rstrip("\n")) <= 77 for line in lines)
    assert "120/200 (60%)" in lines[-1] and "games/s" in lines[-1] and "ETA" in lines[-1]
    assert term.getvalue().endswith("\n")  # closing a bar part-way ends its line


def test_ctrl_c_in_an_arena_keeps_the_games_played(toy_registered: str) -> None:
    def stop(done: int, _total: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    out = run_arena(toy_registered, 2, ["random", "greedy"], 10, 1, {}, progress=stop)
    assert out["interrupted"] and out["games"] == 4
    assert sum(b["seats_played"] for b in out["bots"]) == 8


def test_ctrl_c_in_a_compare_says_which_variants_were_played(toy_registered: str) -> None:
    def stop(done: int, _total: int) -> None:
        if done == 13:
            raise KeyboardInterrupt

    out = compare(toy_registered, 2, 10, [{}, {"plays": 2}, {"plays": 3}], 1, progress=stop)
    assert out["interrupted"] and [r["games"] for r in out["variants"]] == [10, 3]
    assert format_compare(out).startswith("Interrupted: (defaults) 10 games, plays=2 3")


def test_ctrl_c_in_a_tune_keeps_only_the_values_measured_in_full(toy_registered: str) -> None:
    seen: list[tuple[int, int]] = []

    def stop(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 10:
            raise KeyboardInterrupt

    res = tune("toy", 2, "plays", 1, 12, Target("mean", "decisions", 7.0), games=4, seed=1,
               options={"bidding": False}, progress=stop)
    assert res.interrupted and sorted(res.curve) == [1, 3]
    assert res.to_json()["interrupted"] is True
    assert all(done <= total for done, total in seen) and seen[0][1] >= 4 * 6
