"""``cove tune`` toward several targets: NTBEA over several parameters (cove.lab.ntbea)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from cove.cli import main
from cove.core.errors import OptionError
from cove.lab.ntbea import Goal, Model, neighbour, parse_goal, search, tune_goals
from cove.lab.runner import GameResult
from cove.lab.simulate import SimResult
from cove.lab.tune import Target


def test_goals_read_as_written_and_miss_in_their_own_scale() -> None:
    assert parse_goal("median rounds=14") == Goal(Target("median", "rounds", 14.0))
    assert parse_goal("balance<=3") == Goal(Target("mean", "balance", 3.0), "<=")
    assert parse_goal("p95 decisions >= 40 ~ 5") == Goal(Target("p95", "decisions", 40.0),
                                                         ">=", 5.0)
    assert parse_goal("rounds=14").miss(11) == pytest.approx(3 / 14)
    assert parse_goal("rounds=14~2").miss(11) == pytest.approx(1.5)
    assert parse_goal("balance<=3").miss(2.0) == 0.0
    assert parse_goal("balance<=3").miss(6.0) == pytest.approx(1.0)
    assert parse_goal("safety<=0").miss(0.25) == pytest.approx(0.25)  # scale max(|0|, 1)
    assert parse_goal("decisions>=40").miss(30) == pytest.approx(0.25)
    for bad in ("rounds about 14", "rounds=14~0", "rounds=abc"):
        with pytest.raises(OptionError, match="--target"):
            parse_goal(bad)


def test_the_model_averages_its_tuples_and_neighbours_move_one_or_two_values() -> None:
    model = Model(3)
    assert model.tuples == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)]
    model.add((1, 2, 3), 1.0)
    model.add((1, 0, 0), 3.0)
    # (1, 2, 0): tuple (0,)=1 -> 2.0, (1,)=2 -> 1.0, (2,)=0 -> 3.0, (0,1)=(1,2) -> 1.0,
    # (0,2)=(1,0) -> 3.0, (1,2)=(2,0) unseen -> mean 2.0, whole point unseen -> 2.0
    assert model.estimate((1, 2, 0)) == pytest.approx((2 + 1 + 3 + 1 + 3 + 2 + 2) / 7)
    assert model.bonus((1, 2, 3)) < model.bonus((0, 1, 2))  # seen tuples explore less
    rng = random.Random(1)
    for _ in range(200):
        moved = neighbour((2, 2, 2), (5, 1, 5), rng)
        changed = [i for i in range(3) if moved[i] != 2]
        assert 1 <= len(changed) <= 2 and 1 not in changed  # one value only: never moves


def test_search_finds_the_optimum_of_a_noisy_function_better_than_random_search() -> None:
    """Three parameters of 7 values (343 points), a known optimum at (5, 2, 3), noise of
    about a tenth of the losses' spread, 120 evaluations: from ten starts the search
    recommends the optimum at least 7 times, and its mean true loss is under half that
    of the best of 120 random points evaluated once each."""
    def truth(point: tuple[int, ...]) -> float:
        a, b, c = point
        return (a - 5) ** 2 / 25 + abs(b - 2) / 5 + (0.0 if c == 3 else 0.4)

    found, ours, theirs = 0, 0.0, 0.0
    for seed in range(10):
        noise = random.Random(100 + seed)
        best, model, history = search(lambda p, n=noise: truth(p) + n.gauss(0, 0.1),
                                      (7, 7, 7), 120, random.Random(seed))
        assert len(history) == model.total == 120
        found += best == (5, 2, 3)
        ours += truth(best)
        draw = random.Random(seed)
        points = [tuple(draw.randrange(7) for _ in range(3)) for _ in range(120)]
        theirs += truth(min(points, key=lambda p: truth(p) + noise.gauss(0, 0.1)))
    assert found >= 7 and ours < theirs / 2


def _fake_run(game_id: str, players: int, games: int, seed: int, bots: Any,
              options: Mapping[str, Any], progress: Any = None, **_: Any) -> SimResult:
    """A stand-in for simulate: decisions = 2a, rounds = b, seat 0 wins the first c
    games in ten and seat 1 the others, whatever the seed."""
    a, b, c = options["a"], options["b"], options["c"]
    results = [GameResult((1.0, 0.0), (0 if g % 10 < c else 1,), 2 * a, (("rounds", b),))
               for g in range(games)]
    if progress:
        progress(games, games)
    return SimResult(game_id, players, games, seed, dict(options), [], results,
                     manifest={"options": dict(options)})


def test_several_targets_are_met_together() -> None:
    goals = [parse_goal("decisions=8"), parse_goal("median rounds<=3"),
             parse_goal("rounds>=3"), parse_goal("balance<=0~10")]
    res = tune_goals("fake", 2, [("a", 0, 6), ("b", 0, 6), ("c", 0, 10)], goals, 10,
                     points=11, evaluations=150, runs=3, run=_fake_run)
    assert res.best.setting == {"a": 4, "b": 3, "c": 5} and res.best.loss == 0.0
    assert res.best.figures == {"mean decisions=8": 8.0, "median rounds<=3": 3.0,
                                "mean rounds>=3": 3.0, "mean balance<=0~10": 0.0}
    assert len(res.evaluations) == 150
    assert [c.loss for c in res.candidates] == sorted(c.loss for c in res.candidates)
    assert 3 <= sum(c.runs for c in res.candidates) <= 6  # one or two proposals a run


def test_tune_cli_runs_ntbea_for_several_targets(toy_registered: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # the toy game with bidding off lasts exactly `plays` decisions
    page = tmp_path / "tune.html"
    rc = main(["tune", "toy", "--param", "plays=2:10", "--points", "9", "--target",
               "mean decisions=7", "--target", "p5 decisions>=6", "-o", "bidding=false",
               "-n", "2", "--evaluations", "24", "--runs", "2", "--json", "--html",
               str(page)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["method"] == "ntbea"
    assert out["best"]["setting"] == {"plays": 7} and out["best"]["loss"] == 0.0
    assert out["targets"] == ["mean decisions=7", "p5 decisions>=6"]
    assert out["manifest"]["options"]["bidding"] is False
    assert len(out["evaluations"]) == 24
    assert "<td>7</td>" in page.read_text() and "viewport" in page.read_text()
    rc = main(["tune", "toy", "--param", "plays=2:10", "--points", "9", "--target",
               "decisions=7", "--target", "decisions>=6", "-o", "bidding=false", "-n", "2",
               "--evaluations", "6", "--runs", "1", "-q"])
    text = capsys.readouterr().out
    assert rc == 0 and "best plays=7: loss 0" in text and "NTBEA over plays" in text


def test_bad_ntbea_arguments_say_what_is_valid(toy_registered: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    base = ["tune", "toy", "--param", "plays=2:10", "--target", "decisions=7"]
    assert main([*base, "--target", "decisions>=6", "--method", "grid"]) == 2
    assert "need --method ntbea" in capsys.readouterr().err
    assert main([*base, "--method", "ntbea", "--runs", "5", "--evaluations", "3"]) == 2
    assert "--runs 5: at most --evaluations (3)" in capsys.readouterr().err
    assert main([*base, "--target", "balance=<3"]) == 2
    assert "write it as '[STAT] FIGURE=VALUE' (or <=, >=" in capsys.readouterr().err


