"""The command line survives odd input, reports every bad argument in one line
with exit code 2, streams long runs, replays long records in linear time, and never
crashes on a terminal that cannot show a character."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cove
from cove.cli import main, replay_steps
from cove.core.data import builtin_data_file
from cove.core.record import save
from cove.core.rng import Rng
from cove.lab.runner import RandomChooser, advance
from cove.lab.simulate import chunks, ordered_map


def builtin_file(game: cove.Game) -> Path:
    """The built-in data file of ``game`` (one that takes a ``data_file`` option)."""
    path = builtin_data_file(game.options(game.min_players))
    assert path is not None
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def typing(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    """Feed ``lines`` to input(); then end of input."""
    it: Iterator[str] = iter(lines)

    def fake(prompt: str = "") -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake)


def random_record(game_id: str, players: int, seed: int, moves: int,
                  **options: object) -> dict[str, object]:
    s = cove.load(game_id).new(players, seed, **options)
    advance(s, RandomChooser(Rng(seed)), moves=moves)
    return s.record()


# -- the play prompt -----------------------------------------------------------------------------
@pytest.mark.parametrize("odd", ["\u00b2", "\u0663", "9" * 5000, "1" + "0" * 30])
def test_odd_digits_reprompt_instead_of_killing_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_registered: str,
    odd: str,
) -> None:
    typing(monkeypatch, [odd, "quit"])
    rc, out, err = run(capsys, "play", "toy", "--bots", "random", "--no-color")
    assert rc == 0, err
    words = " ".join(out.split())   # messages wrap at the terminal's width
    assert "choose 1 to" in words and "Game left unfinished." in words
    assert max(len(line) for line in out.splitlines()) < 200


def test_a_huge_typed_move_is_not_echoed_in_full(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_registered: str,
) -> None:
    typing(monkeypatch, ["x" * 5_000_000, "quit"])
    rc, out, _ = run(capsys, "play", "toy", "--bots", "random", "--no-color")
    assert rc == 0
    assert "'xxxxx" in out and "...' is not a legal move now" in out
    assert len(out) < 5000


def test_end_of_input_says_the_game_is_unfinished_and_fails(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    toy_registered: str,
) -> None:
    typing(monkeypatch, [])
    path = tmp_path / "left.json"
    rc, _, err = run(capsys, "play", "toy", "--bots", "random", "--no-color", "--save", str(path))
    assert rc == 1
    assert "left unfinished" in err and str(path) in err
    assert re.search(r"after (1 move|\d+ moves):", err), err  # never "1 moves"
    assert json.loads(path.read_text())["game"] == "toy"


# -- replay ------------------------------------------------------------------------------------
@pytest.mark.parametrize("odd", ["g \u00b2", "g " + "9" * 5000, "g -1", "g", "zzz" * 10_000])
def test_odd_replay_commands_reprompt(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                      toy_registered: str, odd: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(random_record("toy", 2, 1, 5)))
    typing(monkeypatch, [odd, "q"])
    rc, out, err = run(capsys, "replay", str(path), "--no-color")
    assert rc == 0, err
    assert max(len(line) for line in out.splitlines()) < 200


def test_replay_steps_show_each_step_its_new_log_lines(toy_registered: str) -> None:
    rec = random_record(toy_registered, 3, 2, 60, plays=12)
    for seat in (None, 0, 2):
        states, new = replay_steps(rec, seat)
        assert len(states) == len(new) == len(rec["actions"]) + 1  # type: ignore[arg-type]
        assert [e.text for step in new for e in step] == [e.text for e in states[-1].events(seat)]
        for k, state in enumerate(states):
            assert sum(len(step) for step in new[: k + 1]) == state.log_count(seat)


# -- bad arguments: one line, exit code 2 ------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "toy", "--players", "0"], "--players: toy is for 2 to 4 players, not 0"),
        (["simulate", "toy", "--players", "0"], "not 0"),
        (["arena", "toy", "--players", "0", "--bots", "random"], "not 0"),
        (["compare", "toy", "--players", "0", "-V", "", "-V", "plays=3"], "not 0"),
        (["compare", "toy", "-o", "nosuch=1", "-V", "", "-V", "plays=3"],
         "unknown option 'nosuch'"),
        (["compare", "toy", "--jobs", "0", "-V", "", "-V", "plays=3"], "--jobs must be at least 1"),
        (["simulate", "toy", "--jobs", "-3"], "--jobs must be at least 1, got -3"),
        (["simulate", "toy", "--games", "0"], "--games must be at least 1"),
        (["arena", "toy", "--games", "0", "--bots", "random"], "--games must be at least 1"),
        (["simulate", "toy", "--games", "many"], "argument --games/-n: invalid int value"),
        (["simulate", "toy", "--seed", "9" * 5000], "invalid int value"),
        (["simulate", "toy", "-o", "log=false"], "unknown option 'log'; valid options: plays"),
        (["simulate", "toy", "-o", "seed=3"], "unknown option 'seed'"),
        (["simulate", "toy", "--bots", ","], "--bots ',' names no bot"),
        (["play", "toy", "--bots", ""], "names no bot"),
        (["simulate"], "the following arguments are required: game"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["scan", "toy", "--by", "x"], "scan: argument --by: invalid choice: 'x'"),
        (["report", "toy", "-o", "/nonexistent/r.html"], "-o /nonexistent/r.html: not a file"),
        (["replay", "/dev/zero"], "must be a regular file"),
        (["simulate", "toy", "--data-dir", "/nonexistent"], "is not a directory"),
    ],
)
def test_every_bad_argument_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], toy_registered: str, argv: list[str], message: str
) -> None:
    rc, _, err = run(capsys, *argv)
    assert rc == 2, err
    assert message in err
    assert err.startswith("cove: error: ") and err.count("\n") == 1
    assert not err.startswith("cove: error: cove")  # the program is named once
    assert "Traceback" not in err and len(err) < 2100


@pytest.mark.parametrize(("spec", "message"), [
    ("foo", "unknown bot 'foo'"), ("mcts:nosuch=1", "has no parameter 'nosuch'"),
    ("greedy:fast", "'fast' needs the form key=value"), ("mcts:c=x", "c='x' is not valid"),
    ("hard:c=1", "the level 'hard' takes no parameters")])
def test_a_bad_bot_spec_is_one_short_line_naming_what_is_valid(
    capsys: pytest.CaptureFixture[str], toy_registered: str, spec: str, message: str
) -> None:
    rc, _, err = run(capsys, "simulate", "toy", "--bots", spec)
    assert rc == 2 and message in err and err.count("\n") == 1
    assert len(err) < 300, err   # the bots' descriptions are `cove bots`'s, not the error's


def test_compare_applies_o_to_every_variant(capsys: pytest.CaptureFixture[str],
                                            toy_registered: str) -> None:
    rc, out, err = run(capsys, "compare", "toy", "--games", "3", "--json", "-o", "plays=2",
                       "-V", "", "-V", "bidding=false")
    assert rc == 0, err
    runs = json.loads(out)["variants"]
    assert [r["options"]["plays"] for r in runs] == [2, 2]
    assert [r["options"]["bidding"] for r in runs] == [True, False]
    rc, out, _ = run(capsys, "compare", "toy", "--games", "3", "--json", "-o", "plays=2",
                     "-V", "plays=4", "-V", "")
    assert [r["options"]["plays"] for r in json.loads(out)["variants"]] == [4, 2]


# -- data files from the command line ----------------------------------------------------------
def test_data_files_need_an_allowed_directory(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path, data_game: cove.Game) -> None:
    monkeypatch.delenv("COVE_DATA_DIR", raising=False)
    copy = tmp_path / ("data" + builtin_file(data_game).suffix)
    copy.write_bytes(builtin_file(data_game).read_bytes())
    argv = ["simulate", data_game.id, "--games", "2", "--json", "-o", f"data_file={copy}"]
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and "--data-dir" in err and err.count("\n") == 1
    rc, out, err = run(capsys, *argv, "--data-dir", str(tmp_path))
    assert rc == 0, err
    assert json.loads(out)["options"]["data_file"] == str(copy)
    assert "COVE_DATA_DIR" not in os.environ  # restored after the command
    for name in ("/dev/zero", "/etc/passwd"):
        rc, _, err = run(capsys, "simulate", data_game.id, "-o", f"data_file={name}")
        assert rc == 2 and err.count("\n") == 1


def test_replay_with_an_edited_data_file_is_refused(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, data_game: cove.Game) -> None:
    from cove.core.data import data_digests

    copy = tmp_path / ("data" + builtin_file(data_game).suffix)
    copy.write_bytes(builtin_file(data_game).read_bytes())
    rec = random_record(data_game.id, data_game.min_players, 5, 0)
    rec["options"]["data_file"] = str(copy)  # type: ignore[index]
    rec["data"] = {"data_file": "sha256:" + "ab" * 32}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    rc, _, err = run(capsys, "replay", str(path), "--all", "--data-dir", str(tmp_path))
    assert rc == 2 and f"different data_file '{copy}'" in err
    with monkeypatch.context() as m:
        m.setenv("COVE_DATA_DIR", str(tmp_path))
        s = data_game.new(data_game.min_players, 5, data_file=str(copy))
        rec["data"] = data_digests(s.options)
    path.write_text(json.dumps(rec))
    rc, _, err = run(capsys, "replay", str(path), "--all", "--data-dir", str(tmp_path))
    assert rc == 0, err


# -- terminals that cannot show every character ------------------------------------------------
@pytest.mark.parametrize("game_id", cove.ids())
def test_screens_survive_an_ascii_terminal(tmp_path: Path, game_id: str) -> None:
    game = cove.load(game_id)
    path = tmp_path / "r.json"
    s = cove.replay(random_record(game_id, max(2, game.min_players), 3, 40))
    save(s, path)
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "cove.cli", "replay", str(path), "--all"],
                          capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-500:]
    assert b"Traceback" not in done.stderr


# -- streaming the work of long runs -----------------------------------------------------------
def test_chunks_are_lazy() -> None:
    parts = chunks(itertools.count(), 3)
    assert next(parts) == [0, 1, 2] and next(parts) == [3, 4, 5]
    assert list(chunks(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]


def test_ordered_map_takes_tasks_only_as_needed() -> None:
    taken: list[int] = []

    def tasks() -> Iterator[int]:
        for i in itertools.count():
            taken.append(i)
            yield -i

    results = ordered_map(abs, tasks(), jobs=2, window=4)
    assert list(itertools.islice(results, 10)) == list(range(10))
    results.close()  # type: ignore[attr-defined]
    assert len(taken) <= 10 + 4 + 1


def test_simulate_results_do_not_depend_on_jobs(toy_registered: str) -> None:
    from cove.lab.simulate import simulate

    serial = simulate("toy", 3, 37, seed=11)
    assert simulate("toy", 3, 37, seed=11, jobs=3).results == serial.results
