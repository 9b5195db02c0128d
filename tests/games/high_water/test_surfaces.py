"""High Water through the shared surfaces, beyond the harness: its bots' levels, and the lab
tuning a field of its data file."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.bots import MctsBot, make_bot
from cove.core.errors import OptionError
from cove.lab.tune import Target, tune

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
