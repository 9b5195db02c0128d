"""The conformance hooks: check_invariants catches broken states, private_items
(none in this game) and the hidden pile bottoms never reach a view, max_actions bounds games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cove.core import Rng, Step
from cove.games.the_tide import GAME
from cove.games.the_tide.data import SHELL
from cove.games.the_tide.options import TideOptions
from cove.games.the_tide.rules import ACT, BY_DOUBLE_RECYCLING, SCORING_REWARD_COUNT
from cove.games.the_tide.state import Rules, TideState

from .helpers import biased_step, fill, position


def midgame(n: int = 3, seed: int = 4, steps: int = 25) -> TideState:
    s = GAME.new(n, seed=seed)
    assert isinstance(s, TideState)
    rng = Rng(seed)
    for _ in range(steps):
        biased_step(s, rng, 0.6)
    assert not s.is_over
    s.check_invariants()
    return s


def _lose_beach_tile(s: TideState) -> None:
    s.grid[next(i for i, t in enumerate(s.grid) if t)] = 0


def _seventh_tile(s: TideState) -> None:
    s.piles[0] = [SHELL] * 7


def _stray_friend(s: TideState) -> None:
    s.friends[s.friends.index(-1)] = 0


def _four_friends(s: TideState) -> None:
    s.friends_waiting[0] = 3


def _negative_holding(s: TideState) -> None:
    s.removed[2] += s.held[1][2] + 1  # the box count still adds up
    s.held[1][2] = -1


def _add_points_by_reward(s: TideState, i: int, points: int) -> None:
    by_reward = list(s.points_by_reward)
    by_reward[i] += points
    s.points_by_reward = tuple(by_reward)


def _ten_points(s: TideState) -> None:
    # the points by reward still add up
    _add_points_by_reward(s, BY_DOUBLE_RECYCLING, 10 - s.points[0])
    s.points[0] = 10


def _points_by_reward_off(s: TideState) -> None:
    # P2's double recycling, but no points for it
    _add_points_by_reward(s, SCORING_REWARD_COUNT + BY_DOUBLE_RECYCLING, 3)


def _wrong_actor(s: TideState) -> None:
    s.pop()
    s.push(Step(ACT, ((s.active + 1) % s.n,)))


def _unclaimed_necklace(s: TideState) -> None:
    # a third shell moves from a pile to P1, as if the check had not run
    c = next(c for c, p in enumerate(s.piles) if SHELL in p[s.hidden[c]:])
    s.piles[c].remove(SHELL)
    s.hidden[c] = min(s.hidden[c], max(len(s.piles[c]) - 1, 0))
    s.held[s.active][SHELL] = 3


BREAKS: list[tuple[Callable[[TideState], None], str]] = [
    (_lose_beach_tile, "in play, the box has"),
    (_seventh_tile, "holds 7 > 6"),
    (_stray_friend, "friends on the beach, friends_on_beach says"),
    (_four_friends, "waiting > 3"),
    (_negative_holding, "holds -1"),
    (_ten_points, "10 points, game not over"),
    (_points_by_reward_off, "P2's points by reward .* do not add up"),
    (_wrong_actor, "not the active player's"),
    (_unclaimed_necklace, "keeps 3 shells"),
]


@pytest.mark.parametrize(("brk", "message"), BREAKS, ids=[b.__name__ for b, _ in BREAKS])
def test_check_invariants_fails_on_a_broken_state(
    brk: Callable[[TideState], None], message: str
) -> None:
    s = midgame() if brk is not _unclaimed_necklace else position(
        fill(), held={0: "SS"}, piles=["SBBPC", "SBBPW", "SSBBPC", "SSBBPW", "SSBBPC", "SSBPPW"])
    broken = s.clone()
    s.check_invariants()
    brk(broken)
    with pytest.raises(AssertionError, match=message):
        broken.check_invariants()


def _sub_values(v: Any) -> list[Any]:
    out = [v]
    if isinstance(v, dict):
        for x in v.values():
            out += _sub_values(x)
    elif isinstance(v, list):
        for x in v:
            out += _sub_values(x)
    return out


def _shows(view: dict[str, Any], secret: list[str]) -> bool:
    """Whether ``secret`` (a pile's unseen bottom, bottom first) appears among the view's
    pile values, as a value or a run inside a list."""
    k = len(secret)
    for v in _sub_values(view["piles"]):
        if isinstance(v, list) and any(v[i:i + k] == secret for i in range(len(v) - k + 1)):
            return True
    return False


def test_private_items_none_and_hidden_pile_bottoms_reach_no_view() -> None:
    s = midgame(4, seed=9)
    skip = ("you", "decision")
    spectator = {k: v for k, v in s.view(None).items() if k not in skip}
    for p in range(4):
        assert s.private_items(p) == {}
        # nothing is private: a seat's view is the spectator's one plus who is looking and
        # the seat's own decision
        assert {k: v for k, v in s.view(p).items() if k not in skip} == spectator
    names = ["", "shell", "bottle", "bag", "cigarette", "melon"]
    secrets = [[names[t] for t in pile[: s.hidden[c]]] for c, pile in enumerate(s.piles)]
    secrets = [x for x in secrets if len(x) >= 2]
    assert secrets
    views = [s.view(p) for p in (None, 0, 1, 2, 3)]
    assert not any(_shows(v, x) for v in views for x in secrets)
    # break it on purpose: show whole piles without marking them seen -> the check finds it
    s.rules = Rules(TideOptions(pile_visibility="all"))
    assert any(_shows(s.view(0), x) for x in secrets)


@pytest.mark.parametrize("n", range(2, 7))
def test_max_actions_bounds_games_that_reach_the_turn_limit(n: int) -> None:
    for turn_limit in (1, 3, 12):
        for seed in range(4):
            s = GAME.new(n, seed=seed, turn_limit=turn_limit, stall_rounds=1000)
            rng = Rng(seed)
            actions = 0
            while not s.is_over:
                biased_step(s, rng, 0.9)  # type: ignore[arg-type]
                actions += 1
                s.check_invariants()
            assert GAME.max_actions is not None
            assert actions <= GAME.max_actions(n, s.options), (n, turn_limit, seed, actions)
    # the bound grows with the turn limit, the only thing that ends a game of refusals
    assert GAME.max_actions is not None
    small = GAME.max_actions(n, GAME.new(n, turn_limit=10).options)
    assert small < GAME.max_actions(n, GAME.new(n, turn_limit=11).options)


@pytest.mark.pure_build
def test_the_harness_catches_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule broken on purpose (a placed friend not counted on the beach, R2) fails the
    conformance harness, which passes the unbroken game."""
    from cove.games.the_tide import rules
    from cove.testing import HarnessError, random_sim_test

    random_sim_test(GAME.id, 3, games=1, seed=1)
    place = rules.place_friend

    def broken(state: TideState, placer: int, owner: int, square: int) -> None:
        place(state, placer, owner, square)
        state.friends_on_beach[owner] -= 1  # the bug: on the beach but not counted

    monkeypatch.setattr(rules, "place_friend", broken)
    with pytest.raises(HarnessError, match="invariants"):
        random_sim_test(GAME.id, 3, games=2, seed=1)
