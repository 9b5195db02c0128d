"""The heuristic (an estimate of a seat's final influence from what it sees) and what
this game's bots take by default."""

from __future__ import annotations

from cove.bots import MctsBot
from cove.bots.defaults import game_defaults
from cove.games.high_water import GAME
from tests.games.high_water.helpers import give, goto, to_segment


def test_hard_is_the_default_budget_with_heuristic_rollouts() -> None:
    """BOT_DEFAULTS: the hard level searches at mcts's default budget (scale 1, not the
    level's 4) with heuristic-guided rollouts; plain mcts takes nothing of this game's."""
    assert dict(GAME.bot_defaults) == {"hard": "rollout=heuristic,scale=1"}
    assert game_defaults(GAME, "hard", MctsBot.PARAMS) == {"rollout": "heuristic",
                                                            "scale": 1.0}
    assert game_defaults(GAME, "mcts", MctsBot.PARAMS) == {}


def test_heuristic_rewards_progress_and_uses_public_information() -> None:
    from cove.core.rng import Rng
    from cove.games.high_water.heuristic import heuristic

    s = to_segment(3, seed=1)
    p = s.segment_player()
    give(s, p, "", gold=1, rum=1, quests=[("Letter of Marque", 1, 0)])
    before = heuristic(s, p)
    goto(s, 5)
    s.apply(p, "advance letter of marque")
    assert heuristic(s, p) > before
    for q in range(3):
        assert heuristic(s.redeterminize(q, Rng(q)), q) == heuristic(s, q)


def test_heuristic_sees_an_unlocked_did_task_and_does_not_reward_hoarding() -> None:
    from cove.games.high_water.heuristic import heuristic

    s = to_segment(2, seed=1)
    p, o = s.segment_player(), 1 - s.segment_player()
    give(s, o, quests=[("Letter of Marque", 0, 0)])
    give(s, p, "r2 y1", gold=0, rum=0, quests=[("Raid a Merchantman", 0, 0)])
    goto(s, 3)
    before = heuristic(s, p)
    s.apply(p, "use r2")  # sets used_red: the quest's first task is now as good as done
    assert heuristic(s, p) > before
    # gold beyond what the quests ask for (plus a reserve) counts far less
    s.gold[p] = 4
    four = heuristic(s, p)
    s.gold[p] = 40
    assert heuristic(s, p) - four < 0.3 * 36 / 2
