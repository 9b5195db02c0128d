"""Every balance measure on Pick (tests/lab/pick), a toy whose values are known: each
seat takes items worth ``values`` points for ``rounds`` rounds, from ``start`` points,
and with ``gift`` the last seat hands P1 or P2 the win."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import cove
from cove.core.data import ENV_DIR
from cove.lab.evaluation import MeasureError, make_judge
from cove.lab.measures import (
    boot_ci,
    components,
    data_items,
    luck_skill,
    mean,
    measures,
)
from cove.lab.runner import GameResult, game_seed, play_game


def run(game_id: str, players: int, games: int, bots: str = "random",
        measure: str = "heuristic", **options: Any) -> dict[str, dict[str, Any]]:
    results = played(game_id, players, games, bots, measure, **options)
    game = cove.load(game_id)
    return {f["key"]: f for f in measures(results, players, game.safety_ends,
                                          game.action_space(players, **options).size)}


def played(game_id: str, players: int, games: int, bots: str = "random",
           measure: str = "heuristic", **options: Any) -> list[GameResult]:
    game = cove.load(game_id)
    return [play_game(game, players, game_seed(7, i), [bots] * players, options,
                      measure=measure)[0] for i in range(games)]


def close(f: dict[str, Any], value: float) -> bool:
    return bool(abs(f["value"] - value) < 1e-9 and f["ci"][0] - 1e-9 <= value
                <= f["ci"][1] + 1e-9)


def test_every_game_a_draw(pick: str) -> None:
    m = run(pick, 3, 30)  # every item is worth 1: everyone ends on 2 points
    assert close(m["drawishness"], 1.0) and close(m["completion"], 0.0)
    assert close(m["balance"], 1.0) and close(m["outcome_uniformity"], 1.0)
    assert all(close(m[f"win_p{p}"], 1 / 3) for p in (1, 2, 3))
    assert m["win_p1"]["method"] == "wilson" and m["balance"]["method"] == "bootstrap"
    assert close(m["safety_ends"], 0.0)
    capped = run(pick, 3, 10, cap=True)
    assert close(capped["safety_ends"], 1.0)
    assert capped["drawishness"]["value"] == capped["completion"]["value"] == 0.0


def test_a_seat_that_always_wins(pick: str) -> None:
    m = run(pick, 2, 20, rounds=1, start="3,0")
    assert close(m["win_p1"], 1.0) and close(m["win_p2"], 0.0)
    assert close(m["balance"], 0.0) and close(m["outcome_uniformity"], 1.0)
    # the evaluator (scores) goes (3, 0) -> (4, 1): normalised (0.75, 0) -> (1, 0.25), so
    # P1 is above anything P2 ever reaches from the first move
    assert close(m["decisiveness"], 1.0) and close(m["lead_change"], 0.0)
    assert close(m["drama"], 0.0) and close(m["uncertainty"], 0.25)
    assert close(m["stability"], 0.125 ** 2)
    near = run(pick, 2, 20, rounds=1, start="1,0")  # (0.5, 0) -> (1, 0.5): P1 is above
    assert close(near["decisiveness"], 0.0)  # P2's best only at the very end
    assert "kingmaking" not in m  # two players


def test_completion_of_a_chance_draw(pick: str) -> None:
    # one item worth 2 of three: two random players draw with 1/9 + 4/9
    m = run(pick, 2, 300, rounds=1, values="2,1,1")
    lo, hi = m["completion"]["ci"]
    assert lo <= 4 / 9 <= hi and m["completion"]["games"] == 300
    assert abs(m["completion"]["value"] + m["drawishness"]["value"] - 1) < 1e-9


def test_duration_and_complexity(pick: str) -> None:
    m = run(pick, 3, 10, rounds=2)
    assert close(m["decisions"], 6.0) and close(m["rounds"], 2.0)
    assert close(m["decision_moves"], 1.0)
    assert close(m["branching"], 3.0) and close(m["decision_factor"], 3.0)
    assert close(m["action_space_share"], 3 / 5)  # three takes of five actions
    assert close(m["hidden_share"], 0.0)  # nothing is hidden in Pick
    assert 0.0 < m["rules_time"]["value"] < 1.0
    gift = run(pick, 3, 10, rounds=2, gift=1)  # one more decision, of two options
    assert close(gift["branching"], 20 / 7) and close(gift["decision_factor"], 20 / 7)


def test_kingmaking_and_lead_change(pick: str) -> None:
    # P1 5, P2 4, P3 0 points; P3 gives 2 to P1 or P2: giving to P2 makes P2 the king
    m = run(pick, 3, 20, bots="greedy", rounds=0, start="5,4,0", gift=2)
    assert close(m["kingmaking"], 1.0)  # greedy P3 narrows its own margin: gives P2
    assert close(m["lead_change"], 1.0)
    chance = run(pick, 3, 200, rounds=0, start="5,4,0", gift=2)
    lo, hi = chance["kingmaking"]["ci"]
    assert lo <= 0.5 <= hi and 0.35 < chance["kingmaking"]["value"] < 0.65
    none = run(pick, 3, 20, bots="greedy", rounds=0, start="9,4,0", gift=2)
    assert close(none["kingmaking"], 0.0)  # P1 wins whatever P3 gives


def test_clarity(pick: str) -> None:
    # one move of three is worth 3, the others 1: the mean is 5/3, the bar 7/3
    m = run(pick, 2, 10, rounds=3, values="3,1,1")
    assert close(m["clarity"], 1 / 3)
    flat = run(pick, 2, 10, rounds=3)
    assert close(flat["clarity"], 1.0) and close(flat["clarity_variance"], 0.0)


def test_components_come_from_the_data_file_a_run_named(
        pick: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A designer's variant data file (a data-file option) is where the components are
    read from, not the built-in file beside the rules."""
    variant = tmp_path / "variant.toml"
    variant.write_text('[[items]]\nname = "Amber"\n[[items]]\nname = "Driftwood"\n')
    monkeypatch.setenv(ENV_DIR, str(tmp_path))
    game = cove.load(pick)
    assert data_items(game, {"data_file": str(variant)}) == {"amber": "items",
                                                             "driftwood": "items"}
    assert data_items(game, {"data_file": ""}) == data_items(game)  # "": the built-in


def test_components_find_the_item_that_wins(pick: str) -> None:
    game = cove.load(pick)
    assert data_items(game) == {"amber": "items", "basil": "items", "coral": "items"}
    results = played(pick, 2, 300, rounds=1, values="3,1,1")
    comps = components(results, 2, data_items(game))
    rows = {r["item"]: r for r in comps["items"]}
    assert comps["source"] == "data file" and set(rows) == {"amber", "basil", "coral"}
    amber = rows["amber"]  # the taker wins unless the other took amber too: 2/3 + 1/6
    assert amber["win_ci"][0] <= 5 / 6 <= amber["win_ci"][1]
    assert amber["stands_out"] == "high" and rows["basil"]["stands_out"] == "low"
    lo, hi = amber["take_ci"]
    assert lo <= 1 / 3 <= hi  # a random player takes amber a third of the time
    flat = components(played(pick, 2, 300, rounds=1), 2, data_items(game))
    assert not [r for r in flat["items"] if r["stands_out"]]
    moves = components(results, 2, {})  # no data file: the moves themselves
    assert moves["source"] == "moves" and {r["item"] for r in moves["items"]} == {
        "take amber", "take basil", "take coral"}


def test_luck_and_skill(pick: str) -> None:
    # greedy takes amber three times; random ties it only by doing the same (1/27)
    skill = luck_skill(pick, 2, 400, options={"rounds": 3, "values": "3,1,1"})
    assert skill is not None and skill["ci"][0] <= 1 / 54 <= skill["ci"][1]
    luck = luck_skill(pick, 2, 20, options={"rounds": 3})
    assert luck is not None and luck["share"] == 0.5 == luck["fair"]


def test_the_mcts_judge_and_bad_specs(pick: str) -> None:
    assert make_judge("mcts:iterations=4,depth=2").spec == "mcts:iterations=4,depth=2"
    assert make_judge("mcts").spec == "mcts:iterations=16"
    m = run(pick, 2, 10, measure="mcts:iterations=4", rounds=1, start="3,0")
    assert close(m["lead_change"], 0.0) and close(m["decisiveness"], 1.0)
    for bad in ("greedy", "heuristic:x=1", "mcts:nonsense=1"):
        with pytest.raises(MeasureError):
            make_judge(bad)


def test_intervals_are_seeded_and_results_round_trip(pick: str) -> None:
    values = [float(i % 7) for i in range(50)]
    assert boot_ci(values, mean, seed=3) == boot_ci(values, mean, seed=3)
    lo, hi = boot_ci(values, mean, seed=3) or (0, 0)
    assert lo < 3.0 < hi
    r = played(pick, 3, 1, rounds=1, gift=1)[0]
    assert r.measured is not None and GameResult.from_json(r.to_json()) == r
