"""``cove tune``: a DESIGN option searched for the value that hits a target (issue 16)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cove.cli import main
from cove.core.errors import OptionError
from cove.lab.tune import Target, parse_range, parse_target, tune


def test_tune_finds_the_value_that_hits_the_target(toy_registered: str) -> None:
    # the toy game with bidding off lasts exactly `plays` decisions
    res = tune("toy", 2, "plays", 1, 12, Target("mean", "decisions", 7.0), games=4, seed=1,
               options={"bidding": False})
    assert res.best == 7 and res.curve[7] == 7.0
    assert all(res.curve[v] == float(v) for v in res.curve if v <= 9)  # the measured curve
    assert len(res.curve) < 12  # a coarse pass and a local one, not every value


def test_tune_cli_prints_the_curve_and_writes_a_plot(
        toy_registered: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "curve.html"
    rc = main(["tune", "toy", "--param", "plays=2:10", "--target", "median decisions=9",
               "-o", "bidding=false", "-n", "3", "--json", "--html", str(html)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["best"] == 9 and out["target"] == "median decisions=9"
    assert "<svg" in html.read_text()
    m = out["manifest"]
    assert m["game"] == "toy" and m["param"] == "plays" and m["range"] == [2, 10]
    assert m["options"]["bidding"] is False and "plays" not in m["options"]
    assert m["bots"] == ["random", "random"] and m["game_version"]


def test_bad_tune_arguments_say_what_is_valid(toy_registered: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(OptionError, match="NAME=LOW:HIGH"):
        parse_range("goal=30:10")
    with pytest.raises(OptionError, match="FIGURE=VALUE"):
        parse_target("rounds about 14")
    assert parse_target("median rounds=14") == Target("median", "rounds", 14.0)
    rc = main(["tune", "toy", "--param", "speed=1:3", "--target", "mean decisions=3"])
    assert rc == 2 and "its options are bidding, plays" in capsys.readouterr().err
    rc = main(["tune", "toy", "--param", "plays=1:3", "--target", "mean height=3", "-n", "2"])
    assert rc == 2 and "unknown figure 'height'" in capsys.readouterr().err


def test_tune_searches_a_second_parameter_value_by_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    html = tmp_path / "pair.html"
    rc = main(["tune", "the-tide", "-p", "2", "--param", "stall_rounds=1:2", "--param",
               "turn_limit=30:60", "--target", "mean turns=40", "-n", "2", "--points", "2",
               "--json", "--html", str(html)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["params"] == ["stall_rounds", "turn_limit"]
    limits = [s["manifest"]["options"]["turn_limit"] for s in out["searches"]]
    assert limits == [30, 60] and all(set(s["curve"]) == {"1", "2"} for s in out["searches"])
    closest = min(abs(v - 40) for s in out["searches"] for v in s["curve"].values())
    assert abs(out["best"]["value"] - 40) == closest and out["best"]["turn_limit"] in limits
    assert html.read_text().count("<svg") == 2
    rc = main(["tune", "the-tide", "--param", "stall_rounds=1:2", "--param", "stall_rounds=3:4",
               "--target", "mean turns=40"])
    assert rc == 2 and "one or two different parameters" in capsys.readouterr().err


def test_tune_searches_a_field_of_the_data_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dotted name is a field of the game's data file (High Water's starting gold): each
    value plays on a copy of the file with that field set, in a directory allowed only
    while the search runs."""
    import os

    from cove.core.data import ENV_DIR, load_data
    from cove.lab.simulate import simulate

    monkeypatch.delenv(ENV_DIR, raising=False)
    seen: dict[int, str] = {}

    def run(*args: object, **kw: object) -> object:
        options = args[5]  # (game, players, games, seed, bots, options)
        assert isinstance(options, dict)
        path = options["data_file"]
        gold = load_data(path)["setup"]["gold"]
        seen[gold] = path
        return simulate(*args, **kw)  # type: ignore[arg-type]

    res = tune("high-water", 2, "setup.gold", 0, 4, Target("mean", "decisions", 0.0),
               games=2, seed=1, points=3, run=run)
    assert set(res.curve) == set(seen) and {0, 2, 4} <= set(seen)
    assert "data_file" not in res.manifest["options"] and res.manifest["param"] == "setup.gold"
    assert ENV_DIR not in os.environ  # the variants' directory is no longer allowed...
    assert not any(Path(p).exists() for p in seen.values())  # ...and is gone


@pytest.mark.parametrize(("path", "words"), [
    ("setup.nothing", "has no 'setup.nothing'"),
    ("setup.starting_quest", "not a whole number"),
    ("colours.9.count", "list index from 0 to 4"),
])
def test_a_data_field_that_is_not_a_number_in_the_file_is_refused(path: str,
                                                                   words: str) -> None:
    with pytest.raises(OptionError, match=words):
        tune("high-water", 2, path, 0, 2, Target("mean", "decisions", 0.0), games=1)


def test_a_game_without_a_data_file_option_says_what_it_can_tune() -> None:
    with pytest.raises(OptionError, match="takes no other data file"):
        tune("the-tide", 2, "setup.x", 0, 2, Target("mean", "decisions", 0.0), games=1)
