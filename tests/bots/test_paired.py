"""The paired flat search (``search=paired``), greedy rollouts and a game's own bot defaults."""

from __future__ import annotations

import dataclasses

import pytest

import cove
import cove.example_game
from cove.bots import BotSpecError, make_bot
from cove.bots.evaluate import Evaluation, Evaluator, RolloutEvaluator, greedy_pick
from cove.bots.mcts import MctsBot, _race
from cove.core.rng import Rng
from cove.core.state import State
from cove.example_game import GAME as TOY
from cove.example_game.actions import Play

PAIRED = "mcts:search=paired,rollout=greedy,depth=3,versus=none"


def _toy(hands: list[list[int]], n: int = 2) -> State:
    s = TOY.new(n, seed=0, bidding=False)
    s.hands = hands  # type: ignore[attr-defined]
    s._legal = None
    return s


class _Counting(Rng):
    """An Rng that counts its draws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws = 0

    def below(self, n: int) -> int:
        self.draws += 1
        return super().below(n)


def test_greedy_pick_is_the_move_the_heuristic_rates_best() -> None:
    s = _toy([[2, 11, 3], [5, 6]])
    assert greedy_pick(s, 0, s.legal_actions(0)) == Play(11)


def test_greedy_rollouts_draw_nothing_and_count_every_move_tried() -> None:
    s = TOY.new(2, seed=4, bidding=False)
    rng = _Counting(5)
    e = RolloutEvaluator(3, "greedy").evaluate(s, rng)
    assert rng.draws == 0  # deterministic: two root moves in one world meet the same future
    # 3 moves played, and every legal move of each was tried (2 or 3 cards in hand)
    assert 3 + 3 * 2 <= e.steps <= 3 + 3 * 3


def test_others_random_lets_only_the_searcher_play_greedy() -> None:
    s = TOY.new(2, seed=4, bidding=False)
    ev = RolloutEvaluator(4, "greedy", others="random")
    ev.searcher = 0
    rng = _Counting(5)
    ev.evaluate(s, rng)
    assert rng.draws == 2  # P2's two moves were random, P1's two greedy


def test_rollout_evaluator_rejects_unknown_others() -> None:
    with pytest.raises(ValueError, match="same, random"):
        RolloutEvaluator(2, "greedy", others="clever")


def test_race_drops_a_move_worse_in_every_world_and_keeps_a_close_one() -> None:
    samples = [[5.0, 6.0, 5.5, 6.5], [1.0, 2.0, 1.5, 2.5], [5.5, 5.0, 6.0, 6.0]]
    assert _race(samples, [0, 1, 2]) == [0, 2]
    # a move equal to the best in every world is dropped (nothing could tell them apart)
    assert _race([[1.0, 2.0], [1.0, 2.0]], [0, 1]) == [0]


def test_paired_search_plays_the_best_card() -> None:
    s = _toy([[2, 11, 3], [5, 6]])
    bot = make_bot(PAIRED, 4)
    assert isinstance(bot, MctsBot)
    assert bot.choose(s, 0) == Play(11)
    assert bot.last_tree is None and bot.last_ranking[0][0] == Play(11)


def test_paired_search_evaluates_every_move_in_the_same_worlds() -> None:
    s = TOY.new(3, seed=1, bidding=False)
    bot = make_bot(PAIRED + ",iterations=3", 2)
    assert isinstance(bot, MctsBot)
    bot.choose(s, 0)
    assert bot.last_iterations <= 3
    worlds = {n for _, n, _ in bot.last_ranking}
    # moves still racing have been evaluated in every world; dropped ones in fewer
    assert max(worlds) == bot.last_iterations


def test_race_z_sets_how_far_behind_a_move_is_dropped() -> None:
    # the second is 0.5 behind on average, with a standard error of 0.29: 1.7 of them
    samples = [[5.0, 6.0, 5.5, 6.5], [4.0, 6.0, 4.5, 6.5]]
    assert _race(samples, [0, 1], 2.0) == [0, 1]
    assert _race(samples, [0, 1], 1.0) == [0]


def test_race_zero_evaluates_every_kept_move_in_every_world() -> None:
    """``race=0``: no move is dropped early, so each spends the whole budget's worlds."""
    def worlds(spec: str, s: State, seed: int) -> list[int]:
        bot = make_bot(PAIRED + ",iterations=12" + spec, seed)
        assert isinstance(bot, MctsBot)
        bot.choose(s, 0)
        return [n for _, n, _ in bot.last_ranking]

    early = 0
    for seed in range(6):
        s = TOY.new(3, seed=seed, bidding=False)
        w = worlds(",race=0", s, seed)
        assert len(w) > 1 and w == [12] * len(w)
        early += min(worlds("", s, seed)) < 12
    assert early  # the default race does stop early somewhere (the two differ)


class _Scripted(Evaluator):
    """Values P1's last card at ``worth[card]``, plus ``noise`` in even worlds and minus it
    in odd ones for card 2, the other way round for the others: over an even number of
    worlds each mean is exactly its worth, and card 2's paired difference to another
    swings by twice the noise."""

    def __init__(self, worth: dict[int, float], noise: float) -> None:
        self.worth, self.noise = worth, noise
        self.calls = dict.fromkeys(worth, 0)

    def evaluate(self, state: State, rng: Rng) -> Evaluation:
        card = state.played[-1]  # type: ignore[attr-defined]
        self.calls[card] += 1
        sign = (1 if self.calls[card] % 2 else -1) * (1 if card == 2 else -1)
        return Evaluation([self.worth[card] + self.noise * sign, 0.0], [0], 0)


@pytest.mark.parametrize(("margin", "switch", "played"), [
    (0.1, 0.0, Play(2)),   # a hair better on average: the best mean wins
    (0.1, 2.0, Play(11)),  # ... but not by 2 standard errors: the lookahead's choice stays
    (3.0, 2.0, Play(2)),   # clearly better in the same worlds: switch
])
def test_switch_keeps_the_lookaheads_choice_unless_clearly_beaten(
        margin: float, switch: float, played: Play) -> None:
    s = _toy([[2, 11, 3], [5, 6]])  # the lookahead rates 11 best (it scores the most)
    bot = MctsBot(2, search="paired", iterations=40, race=0, switch=switch, versus="none",
                  evaluator=_Scripted({2: 5.0 + margin, 11: 5.0, 3: 0.0}, noise=2.0))
    assert bot.choose(s, 0) == played
    assert {n for _, n, _ in bot.last_ranking} == {40}


def test_paired_search_is_reproducible_from_its_seed() -> None:
    for seed in range(4):
        s = TOY.new(3, seed=seed, bidding=False)
        s.apply(0, s.legal_actions(0)[0])
        p = s.to_move()[0]
        picks = set()
        rankings = []
        for _ in range(2):
            bot = make_bot(PAIRED, seed)
            assert isinstance(bot, MctsBot)
            picks.add(bot.choose(s, p))
            rankings.append(bot.last_ranking)
        assert len(picks) == 1 and rankings[0] == rankings[1]


def test_paired_search_keeps_to_its_step_budget_but_for_one_world() -> None:
    s = TOY.new(2, seed=4, bidding=False)
    bot = make_bot("mcts:search=paired,rollout=greedy,depth=-1,iterations=100000,steps=300", 0)
    assert isinstance(bot, MctsBot)
    bot.choose(s, 0)
    # a world costs at most: 2 moves x (the move + a rollout to the end trying <= 3 moves a ply)
    per_world = 2 * (1 + 12 * 4)
    assert bot.last_steps < 300 + per_world and bot.last_iterations < 100000


def test_width_limits_the_moves_the_paired_search_compares() -> None:
    s = _toy([[2, 11, 3], [5, 6]])
    bot = make_bot(PAIRED + ",width=2", 4)
    assert isinstance(bot, MctsBot)
    assert bot.choose(s, 0) == Play(11)
    assert {a for a, _, _ in bot.last_ranking} == {Play(11), Play(3)}


def test_scale_multiplies_both_budgets_and_hard_is_four_times_the_default() -> None:
    bot = make_bot("mcts:scale=4")
    hard = make_bot("hard")
    assert isinstance(bot, MctsBot) and isinstance(hard, MctsBot)
    assert (bot.iterations, bot.steps) == (hard.iterations, hard.steps) == (2000, 160000)
    with pytest.raises(BotSpecError, match="scale"):
        make_bot("mcts:scale=0")


def test_a_spec_bot_takes_the_game_defaults_for_what_it_does_not_name() -> None:
    game = dataclasses.replace(TOY, bot_defaults={"mcts": "search=paired,width=2,steps=900"})
    s = game.new(2, seed=0, bidding=False)
    plain = make_bot("mcts", 1)
    named = make_bot("mcts:steps=500,search=tree", 1)
    direct = MctsBot(1)
    hard = make_bot("hard", 1)
    for bot in (plain, named, direct, hard):
        assert isinstance(bot, MctsBot)
        bot.choose(s, 0)
    assert (plain.search, plain.width, plain.steps) == ("paired", 2, 900)
    assert (named.search, named.width, named.steps) == ("tree", 2, 500)  # named ones win
    assert (direct.search, direct.width, direct.steps) == ("tree", 0, 40000)  # not a spec
    assert (hard.search, hard.steps, hard.iterations) == ("paired", 3600, 2000)
    # the same bot in another game plays that game's defaults (none for an unlisted game)
    unlisted = dataclasses.replace(TOY, id="toy-unlisted")
    plain.choose(unlisted.new(2, seed=0, bidding=False), 0)
    assert (plain.search, plain.width, plain.steps) == ("tree", 0, 40000)


def test_a_game_may_declare_what_its_hard_level_changes() -> None:
    toy = dataclasses.replace(TOY, bot_defaults={"mcts": "search=paired,width=2,steps=900",
                                                 "hard": "width=3,scale=2"})
    s = toy.new(2, seed=0, bidding=False)
    hard, medium, plain = make_bot("hard", 1), make_bot("medium", 1), make_bot("mcts", 1)
    for bot in (hard, medium, plain):
        assert isinstance(bot, MctsBot)
        bot.choose(s, 0)
    # the game's hard entry wins over the level's scale=4; the rest comes from its mcts entry
    assert (hard.search, hard.width, hard.steps, hard.iterations) == ("paired", 3, 1800, 1000)
    # the other levels and a plain spec do not read the hard entry
    assert (medium.search, medium.width, medium.steps) == ("paired", 2, 900)
    assert (plain.width, plain.steps) == (2, 900)
    # the same hard bot in a game that declares nothing is four times the default
    unlisted = dataclasses.replace(TOY, id="toy-unlisted")
    hard.choose(unlisted.new(2, seed=0, bidding=False), 0)
    assert (hard.search, hard.width, hard.steps, hard.iterations) == ("tree", 0, 160000, 2000)


@pytest.mark.parametrize("key", ["greedy", "easy", "nosuch"])
def test_game_defaults_only_for_bots_and_levels_that_read_them(key: str) -> None:
    toy = dataclasses.replace(TOY, bot_defaults={key: "samples=2"})
    s = toy.new(2, seed=0, bidding=False)
    with pytest.raises(BotSpecError, match=rf"toy: bot_defaults has an entry '{key}'; only "
                                           r"these bots and levels .*: mcts, medium, hard"):
        make_bot("mcts", 1).choose(s, 0)


def test_every_game_declares_valid_bot_defaults() -> None:
    from cove.bots.defaults import declared, game_defaults

    for game in cove.all_games():
        for key in declared(game):
            assert game_defaults(game, key, MctsBot.PARAMS), (game.id, key)


def test_bad_game_defaults_name_the_game() -> None:
    toy = dataclasses.replace(TOY, bot_defaults={"mcts": "serch=paired"})
    s = toy.new(2, seed=0, bidding=False)
    with pytest.raises(BotSpecError, match=r"toy: bot_defaults\['mcts'\].*no parameter 'serch'"):
        make_bot("mcts", 1).choose(s, 0)
