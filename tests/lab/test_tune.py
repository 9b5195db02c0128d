"""``cove tune``: a DESIGN option searched for the value that hits a target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cove
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
    with pytest.raises(OptionError, match="need --method ntbea"):
        parse_target("balance<=3")
    rc = main(["tune", "toy", "--param", "speed=1:3", "--target", "mean decisions=3"])
    assert rc == 2 and "its options are bidding, plays" in capsys.readouterr().err
    rc = main(["tune", "toy", "--param", "plays=1:3", "--target", "mean height=3", "-n", "2"])
    assert rc == 2 and "unknown figure 'height'" in capsys.readouterr().err


def _whole_number_options(game: cove.Game, players: int) -> list[tuple[str, int]]:
    """``game``'s options that take a range of whole numbers, each with its lowest value."""
    props = game.options_schema(players)["properties"]
    return [(name, p["minimum"]) for name, p in props.items()
            if p.get("type") == "integer" and "enum" not in p and "minimum" in p]


def test_tune_searches_a_second_parameter_value_by_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the first game with two whole-number options, each searched over its two lowest values
    game = next(g for g in cove.all_games()
                if g.min_players <= 2 <= g.max_players and len(_whole_number_options(g, 2)) > 1)
    (first, low1), (second, low2) = _whole_number_options(game, 2)[:2]
    html = tmp_path / "pair.html"
    rc = main(["tune", game.id, "-p", "2", "--param", f"{first}={low1}:{low1 + 1}", "--param",
               f"{second}={low2}:{low2 + 1}", "--target", "mean decisions=40", "-n", "2",
               "--points", "2", "--json", "--html", str(html)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["params"] == [first, second]
    limits = [s["manifest"]["options"][second] for s in out["searches"]]
    assert limits == [low2, low2 + 1]
    assert all(set(s["curve"]) == {str(low1), str(low1 + 1)} for s in out["searches"])
    closest = min(abs(v - 40) for s in out["searches"] for v in s["curve"].values())
    assert abs(out["best"]["value"] - 40) == closest and out["best"][second] in limits
    assert html.read_text().count("<svg") == 2
    rc = main(["tune", game.id, "--param", f"{first}={low1}:{low1 + 1}", "--param",
               f"{first}={low1 + 2}:{low1 + 3}", "--target", "mean decisions=40"])
    assert rc == 2 and "give each parameter once" in capsys.readouterr().err


def test_a_game_without_a_data_file_option_says_what_it_can_tune(toy_registered: str) -> None:
    with pytest.raises(OptionError, match="takes no other data file"):
        tune(toy_registered, 2, "setup.x", 0, 2, Target("mean", "decisions", 0.0), games=1)
