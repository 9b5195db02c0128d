"""Bot specs: names, parameters and their errors."""

from __future__ import annotations

import pytest

import cove
from cove.bots import (
    BOTS,
    DEFAULT_PLAY_BOT,
    BotSpecError,
    GreedyBot,
    MctsBot,
    RandomBot,
    describe_bots,
    make_bot,
    split_specs,
)


def test_plain_names_build_each_bot() -> None:
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot(" MCTS "), MctsBot)
    assert set(BOTS) >= {"random", "greedy", "mcts"}


def test_issue_example_spec_sets_every_parameter() -> None:
    bot = make_bot("mcts:iterations=2000,c=0.7,rollout=heuristic,depth=30", seed=4)
    assert isinstance(bot, MctsBot)
    assert (bot.iterations, bot.c, bot.rollout, bot.depth) == (2000, 0.7, "heuristic", 30)


def test_default_play_bot_is_a_valid_spec() -> None:
    assert isinstance(make_bot(DEFAULT_PLAY_BOT), MctsBot)


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("alphazero", "unknown bot 'alphazero'"),
        ("", "empty bot spec"),
        ("mcts:iterationz=5", "has no parameter 'iterationz'"),
        ("mcts:iterations=lots", "iterations='lots' is not valid"),
        ("mcts:iterations=0", "an integer >= 1"),
        ("mcts:c=-1", "c='-1' is not valid"),
        ("mcts:rollout=smart", "one of random|heuristic"),
        ("mcts:depth", "needs the form key=value"),
        ("mcts:depth=3,depth=4", "given twice"),
        ("random:depth=3", "random takes no parameters"),
        ("greedy:mode=best", "one of margin|self"),
        ("mcts:versus=worst", "one of best|none"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, needle: str) -> None:
    with pytest.raises(BotSpecError, match=needle) as err:
        make_bot(spec)
    assert isinstance(err.value, cove.CoveError)


def test_unknown_bot_names_the_bots_and_levels_and_where_their_parameters_are() -> None:
    with pytest.raises(BotSpecError) as err:
        make_bot("minimax")
    text = str(err.value)
    for name in ("'minimax'", "random", "greedy", "mcts", "easy", "medium", "hard",
                 "cove bots"):
        assert name in text
    assert "\n" not in text and len(text) < 200  # one line: the parameters are in `cove bots`
    listed = describe_bots()
    for name in ("iterations=", "rollout=", "depth=", "samples=", "easy: the easy level"):
        assert name in listed


@pytest.mark.parametrize("spec", ["mcts:budget=9", "mcts:depth", "greedy:foo"])
def test_bad_parameter_names_that_bots_parameters_in_one_short_line(spec: str) -> None:
    with pytest.raises(BotSpecError) as err:
        make_bot(spec)
    text = str(err.value)
    bot = spec.partition(":")[0]
    assert f"{bot} parameters: " in text and "cove bots" in text
    for p in BOTS[bot].PARAMS:
        assert p.name in text
    assert "\n" not in text and len(text) < 300, len(text)


def test_split_specs_keeps_parameters_with_their_bot() -> None:
    assert split_specs("mcts:iterations=500,c=0.5,greedy, random") == [
        "mcts:iterations=500,c=0.5", "greedy", "random"]
    # a list already split naively on commas is healed the same way
    assert split_specs(["mcts:iterations=5", "depth=2", "greedy:mode=self", "random"]) == [
        "mcts:iterations=5,depth=2", "greedy:mode=self", "random"]
    assert split_specs("") == []


def test_levels_name_specs_for_players() -> None:
    from cove.bots import LEVELS, GreedyBot, MctsBot, make_bot

    assert set(LEVELS) == {"easy", "medium", "hard"}
    assert isinstance(make_bot("easy"), GreedyBot)
    medium, hard = make_bot("medium"), make_bot("hard")
    assert isinstance(medium, MctsBot) and isinstance(hard, MctsBot)
    assert hard.iterations == 4 * medium.iterations and hard.steps == 4 * medium.steps
    with pytest.raises(BotSpecError, match="takes no parameters"):
        make_bot("hard:c=1")
    assert "easy: the easy level, greedy" in describe_bots()
    with pytest.raises(BotSpecError, match="levels: easy, medium, hard"):
        make_bot("nosuch")
