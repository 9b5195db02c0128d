"""High Water through the shared surfaces, beyond the harness: its bots' levels, the lab
tuning a field of its data file, and the terminal's skipped steps and help."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

import cove
from cove.bots import MctsBot, make_bot
from cove.core.errors import OptionError
from cove.core.rng import Rng
from cove.core.state import State
from cove.lab.runner import RandomChooser, advance
from cove.lab.tune import Target, tune
from cove.tui.hooks import move_help
from cove.tui.play import skipped_steps

GAME = "high-water"


# -- the bots' levels as this game declares them -------------------------------------------
def _hard_and_medium(game_id: str) -> tuple[MctsBot, MctsBot]:
    """The two levels' bots after each has played a legal move in ``game_id`` (a bot takes
    its game's declared parameters on its first move there)."""
    s = cove.load(game_id).new(2, seed=5, log=False)
    hard, medium = make_bot("hard", 1), make_bot("medium", 1)
    p = s.to_move()[0]
    assert isinstance(hard, MctsBot) and isinstance(medium, MctsBot)
    for bot in (hard, medium):
        assert bot.act(s, p) in s.legal_actions(p)
    return hard, medium


def test_hard_in_high_water_is_the_default_budget_with_heuristic_rollouts() -> None:
    hard, medium = _hard_and_medium(GAME)
    assert (hard.iterations, hard.steps, hard.rollout) == (medium.iterations, medium.steps,
                                                           "heuristic")
    assert medium.rollout == "random"


# -- the lab: tuning a field of its data file -----------------------------------------------
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

    res = tune(GAME, 2, "setup.gold", 0, 4, Target("mean", "decisions", 0.0),
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
        tune(GAME, 2, path, 0, 2, Target("mean", "decisions", 0.0), games=1)


# -- the terminal: skipped steps and move help -----------------------------------------------
def test_a_skipped_step_shows_in_a_real_high_water_game() -> None:
    game = cove.load(GAME)
    found: list[str] = []
    last: dict[int, dict[str, Any]] = {}

    def look(state: State, p: int, pick: RandomChooser) -> Any:  # what the mover is told
        d = state.decision(p)
        found.extend(skipped_steps(game, last.get(p), d))
        last[p] = d
        return pick(state, p)

    for seed in range(4):
        last.clear()
        advance(game.new(2, seed), functools.partial(look, pick=RandomChooser(Rng(seed))),
                after=lambda _p, _a: bool(found))
        if found:
            break
    assert found and all(x.endswith("skipped") and ": step " in x for x in found)


def test_a_skipped_step_says_why_in_high_water() -> None:
    hw = cove.load(GAME)
    assert skipped_steps(hw, {"kind": "step", "step": 3}, {"kind": "step", "step": 5}) == [
        "no purchase possible: step 4 skipped"]
    assert skipped_steps(hw, {"kind": "step", "step": 5}, {"kind": "step", "step": 4}) == [
        "no active crew ability you can pay for: step 2 skipped",
        "no die in your hold to spend: step 3 skipped"]        # a new segment


def test_help_names_what_a_die_of_a_colour_does() -> None:
    hw = cove.load(GAME)
    assert "brown: gain 1 rum on 1-3, 2 on 4-6" in move_help(hw, "use br6")
