"""The `cove` command: listing, simulation, play, replay and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cove.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_games_json_lists_every_registered_game(capsys: pytest.CaptureFixture[str],
                                                toy_registered: str) -> None:
    rc, out, _ = run(capsys, "games", "--json")
    data = json.loads(out)
    assert rc == 0
    toy = next(g for g in data if g["id"] == "toy")
    assert {"id", "name", "min_players", "max_players", "options"} <= set(toy)
    assert [o["name"] for o in toy["options"]] == ["plays", "bidding"]
    assert toy["options"][0]["default"] == 12


def test_simulate_json_is_reproducible(capsys: pytest.CaptureFixture[str],
                                       toy_registered: str) -> None:
    argv = ["simulate", "toy", "--players", "3", "--games", "50", "--seed", "9", "--json"]
    _, out1, _ = run(capsys, *argv)
    _, out2, _ = run(capsys, *argv)
    a, b = json.loads(out1), json.loads(out2)
    for key in ("game", "players", "games", "seed", "options", "wins", "mean_scores",
                "mean_decisions", "seconds"):
        assert key in a
    assert a["wins"] == b["wins"] and a["mean_scores"] == b["mean_scores"]
    assert sum(a["wins"]) == pytest.approx(50)


def test_simulate_parallel_matches_serial(capsys: pytest.CaptureFixture[str],
                                          toy_registered: str) -> None:
    from cove.lab.simulate import simulate

    serial = simulate("toy", 2, 40, seed=5)
    parallel = simulate("toy", 2, 40, seed=5, jobs=2)
    assert serial.results == parallel.results


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "nope"], "unknown game 'nope'; games:"),
        (["simulate", "toy", "-o", "plays=99"], "option plays='99' is not valid; allowed: an "
         "integer from 1 to 12"),
        (["simulate", "toy", "-o", "colour=red"], "unknown option 'colour'; valid options:"),
        (["simulate", "toy", "-o", "plays"], "must be KEY=VALUE"),
        (["simulate", "toy", "--players", "9"], "toy is for 2 to 4 players, not 9"),
        (["replay", "/nonexistent/game.json"], "cannot read record"),
        (["play", "toy", "--seat", "5"], "--seat must be from 1 to 2"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                          toy_registered: str, argv: list[str],
                                          message: str) -> None:
    rc, _, err = run(capsys, *argv)
    assert rc == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_bot_spec_lists_the_bots(capsys: pytest.CaptureFixture[str],
                                     toy_registered: str) -> None:
    rc, _, err = run(capsys, "simulate", "toy", "--bots", "wizard")
    assert rc == 2
    assert err.startswith("cove: error: unknown bot 'wizard'")
    assert "random" in err and "Traceback" not in err
    assert len(err) < 300 and "cove bots" in err  # one short line, not every parameter


def test_too_many_bots_for_the_table_says_how_to_seat_them(
        capsys: pytest.CaptureFixture[str], toy_registered: str) -> None:
    rc, _, err = run(capsys, "play", "toy", "--players", "2", "--bots", "random,greedy")
    assert rc == 2 and err.strip() == (
        "cove: error: --bots random,greedy names 2 bots, but the table has one bot seat "
        "(2 players, 1 human): give one spec, or -p 3 for 2 bots")
    rc, _, err = run(capsys, "play", "toy", "--players", "4", "--bots", "random,greedy")
    assert rc == 2 and "--bots needs 1 spec or 3 specs (one per bot seat), got 2" in err


def test_cove_bots_lists_every_bot_its_parameters_and_the_levels(
        capsys: pytest.CaptureFixture[str]) -> None:
    from cove.bots import BOTS, LEVELS

    rc, out, _ = run(capsys, "bots")
    assert rc == 0
    for name, cls in BOTS.items():
        assert f"  {name}: {cls.summary}" in out
        for param in cls.PARAMS:
            assert param.describe() in out
    for level in LEVELS:
        assert f"  {level}: " in out


def test_play_reprompts_then_saves_a_replayable_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    toy_registered: str,
) -> None:
    answers = iter(["nonsense", "42", "bid 0"] + ["1"] * 20)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    rc, out, _ = run(capsys, "play", "toy", "--players", "2", "--seed", "3", "--bots", "random",
                     "--save", str(path), "--no-color")
    assert rc == 0
    assert "'nonsense' is not a legal move now" in out
    assert "No move 42: choose 1 to 2" in out
    assert "Final scores:" in out
    record = json.loads(path.read_text())
    assert record["game"] == "toy" and record["actions"][0] in ([0, "bid 0"], [1, "bid 0"],
                                                                 [1, "bid 1"])
    rc, out, _ = run(capsys, "replay", str(path), "--all", "--seat", "1")
    assert rc == 0 and "Final scores:" in out


def test_tampered_record_is_rejected(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     toy_registered: str) -> None:
    from cove.games import load

    s = load("toy").new(2, seed=1, bidding=False)
    s.apply(0, s.legal_actions(0)[0])
    rec = s.record()
    rec["actions"][0][1] = "play 99"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    rc, _, err = run(capsys, "replay", str(path))
    assert rc == 2 and "record action #1 [0, 'play 99'] does not replay" in err
    path.write_text("{not json")
    rc, _, err = run(capsys, "replay", str(path))
    assert rc == 2 and "is not valid JSON" in err


def test_bot_specs_with_parameters_survive_the_comma_list(
    capsys: pytest.CaptureFixture[str], toy_registered: str
) -> None:
    rc, out, err = run(capsys, "simulate", "toy", "--players", "2", "--games", "2", "--json",
                       "--bots", "mcts:iterations=5,depth=2,random")
    assert rc == 0, err
    assert json.loads(out)["bots"] == ["mcts:iterations=5,depth=2", "random"]


def test_play_without_a_game_asks_which_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    import cove
    from cove import cli

    games = cove.all_games()
    wide = next(g for g in games if g.max_players - g.min_players >= 2)
    answers = iter(["0", wide.id, str(wide.max_players + 1), str(wide.min_players + 1)])
    monkeypatch.setattr(cli, "_input", lambda prompt: next(answers))
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    args = argparse.Namespace(game=None, players=None)
    cli.choose_game(args)
    assert (args.game, args.players) == (wide.id, wide.min_players + 1)
    out = capsys.readouterr().out
    assert all(g.name in out for g in games)
    assert "'0' is not one of them" in out and f"{wide.name} is for" in out


def test_play_without_a_game_off_a_terminal_names_the_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    import cove

    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(g in err for g in cove.ids())


def test_play_keeps_the_last_game_and_resume_alone_continues_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        toy_registered: str) -> None:
    monkeypatch.setenv("COVE_HOME", str(tmp_path / "home"))
    answers = iter(["1", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    rc, out, _ = run(capsys, "play", "toy", "--players", "2", "--seed", "3", "--bots",
                     "random", "--no-color")
    last = tmp_path / "home" / "last-game.json"
    assert rc == 0 and "Saving after every move to" in out and last.name in out
    moves = len(json.loads(last.read_text())["actions"])
    assert moves >= 1 and "cove play --resume" in out
    answers = iter(["quit"])
    rc, out, _ = run(capsys, "play", "--resume", "--no-color")
    assert rc == 0 and "Toy" in out
    assert len(json.loads(last.read_text())["actions"]) == moves  # the same game, unchanged


def test_no_save_keeps_nothing_and_resume_without_a_last_game_says_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        toy_registered: str) -> None:
    monkeypatch.setenv("COVE_HOME", str(tmp_path / "empty"))
    answers = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    rc, out, _ = run(capsys, "play", "toy", "--players", "2", "--bots", "random",
                     "--no-save", "--no-color")
    assert rc == 0 and "Saving" not in out
    assert not (tmp_path / "empty" / "last-game.json").exists()
    rc, _, err = run(capsys, "play", "--resume")
    assert rc == 2 and "no last game to resume" in err and err.count("\n") == 1
