"""Why a game ended, in each game's own words (``Game.end_reason``, from a finished
view): the ends that a random game rarely reaches, told from views set up for them."""

from __future__ import annotations

import copy

import cove
from cove.core.rng import Rng
from cove.lab.runner import RandomChooser, play_out


def finished_view(gid: str, **options: object) -> dict[str, object]:
    state = play_out(cove.load(gid).new(2, 1, **options), RandomChooser(Rng(1)))
    return state.view(None)


def test_high_water_says_who_reached_the_goal_and_when_a_cap_or_the_quests_ended_it() -> None:
    game = cove.load("high-water")
    assert game.end_reason is not None
    view = finished_view("high-water", max_rounds=2)
    assert game.end_reason(view) == ("the safety limit of 2 rounds was reached before anyone "
                                     "had 20 influence")
    goal = copy.deepcopy(view) | {"game_end": "goal", "scores": [21, 20]}
    assert game.end_reason(goal) == ("P1 and P2 reached 20 influence, so the round was "
                                     "played out for everyone to have the same turns")
    out = view | {"game_end": "quests exhausted"}
    assert "no quest was left" in game.end_reason(out)


def test_tiny_epic_pirates_says_who_buried_the_third_treasure_or_that_the_cap_stopped_it(
) -> None:
    game = cove.load("tiny-epic-pirates")
    assert game.end_reason is not None
    view = finished_view("tiny-epic-pirates", max_rounds=5)
    assert game.end_reason(view) == ("the safety limit of 5 rounds was reached before anyone "
                                     "buried 3 treasures")
    won = copy.deepcopy(view)
    won["end_triggered"] = True
    pirates = won["pirates"]
    assert isinstance(pirates, list)
    pirates[1]["treasures"] = ["a1", "b2", "c3"]
    assert game.end_reason(won).startswith(f"{pirates[1]['name']} buried a third treasure")


def test_games_with_one_end_say_the_last_round_is_over() -> None:
    for gid, words in (("tricky-tides", "the game ends after round 3, and round 3 is over"),
                       ("trails-of-tucana", "the last round on Isla Petit (round 2 of 2)")):
        game = cove.load(gid)
        assert game.end_reason is not None
        assert words in game.end_reason(finished_view(gid))
