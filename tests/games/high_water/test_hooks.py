"""The conformance hooks: check_invariants, private_items and max_actions each fail when
the state is broken on purpose; the data tables stay out of a stored state. (That the hooks
hold after every action of random games is the shared harness's check.)"""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from cove.core.decisions import Step
from cove.games.high_water import GAME
from cove.games.high_water.options import HighWaterOptions
from cove.games.high_water.rules import TRICK, SegmentStep
from cove.games.high_water.state import HighWaterState
from tests.games.high_water.helpers import contains, new, random_play, to_segment


def _broken(name: str) -> Callable[[HighWaterState], None]:
    def lose_crew(s: HighWaterState) -> None:
        s.crew_row[0] = -1

    def extra_die(s: HighWaterState) -> None:
        s.dice[0].append(13)

    def lost_die(s: HighWaterState) -> None:
        s.bag[0] -= 1

    def bad_face(s: HighWaterState) -> None:
        s.dice[0].append(s.dice[0].pop() // 10 * 10 + 7)

    def lose_trick_card(s: HighWaterState) -> None:
        s.hands[1].pop()

    def duplicate_quest(s: HighWaterState) -> None:
        s.completed[0].append(s.quests[0][0].card)

    def three_markers(s: HighWaterState) -> None:
        s.quests[1][0] = dataclasses.replace(s.quests[1][0], markers=3)

    def negative_gold(s: HighWaterState) -> None:
        s.gold[0] = -1

    def short_with_a_full_bag(s: HighWaterState) -> None:
        s.push(Step("bag_short", (0,)))
        s.crates = [None] * s.n

    def bad_step(s: HighWaterState) -> None:
        s.push(Step("step", (s.segment_player(),), SegmentStep(7)))

    def influence_without_quests(s: HighWaterState) -> None:
        s.influence[0] = 5

    return {
        "lose_crew": lose_crew, "extra_die": extra_die, "lost_die": lost_die,
        "bad_face": bad_face, "lose_trick_card": lose_trick_card,
        "duplicate_quest": duplicate_quest, "three_markers": three_markers,
        "negative_gold": negative_gold, "short_with_a_full_bag": short_with_a_full_bag,
        "bad_step": bad_step, "influence_without_quests": influence_without_quests,
    }[name]


@pytest.mark.parametrize("name", [
    "lose_crew", "extra_die", "lost_die", "bad_face", "lose_trick_card", "duplicate_quest",
    "three_markers", "negative_gold", "short_with_a_full_bag", "bad_step",
    "influence_without_quests",
])
def test_check_invariants_fails_on_a_broken_state(name: str) -> None:
    s = to_segment(2, seed=3)
    s.check_invariants()  # a sound state passes
    _broken(name)(s)
    with pytest.raises(AssertionError):
        s.check_invariants()


def leaks(s: HighWaterState) -> list[str]:
    """The harness's check, locally: no private item of a player in another view."""
    out = []
    for p in range(s.n):
        for key, item in s.private_items(p).items():
            for q in [None, *range(s.n)]:
                if q != p and contains(s.view(q), item):
                    out.append(f"P{p + 1}'s {key} in the view of {q}")
    return out


@pytest.mark.pure_build  # swaps an object's class
def test_private_items_name_the_secret_card_and_a_leak_is_found() -> None:
    s = new(3, seed=2)
    s.apply(1, "play 5")
    assert s.private_items(1) == {"my_commit": {"player": 1, "card": 5}}
    assert s.private_items(1)["my_commit"] == s.view(1)["my_commit"]
    assert s.private_items(0) == {}
    assert leaks(s) == []

    class Leaky(HighWaterState):
        """P2's commitment put into everyone's view on purpose."""

        __slots__ = ()

        def _view(self, player: int | None) -> dict[str, Any]:
            v = super()._view(player)
            v["peek"] = super()._view(1).get("my_commit")
            return v

    bad = s.clone()
    bad.__class__ = Leaky
    assert leaks(bad) == ["P2's my_commit in the view of None",
                          "P2's my_commit in the view of 0",
                          "P2's my_commit in the view of 2"]


def test_max_actions_bounds_every_game() -> None:
    assert GAME.max_actions is not None
    for n in (2, 3, 5):
        for opts in ({}, {"tie_rereveals": 1, "carry_cap": 3}):
            bound = GAME.max_actions(n, GAME.options(n, **opts))
            s = new(n, seed=n, **opts)
            random_play(s, n)
            assert s.is_over and 0 < s.decisions < bound
    # the bound follows the round cap: a smaller cap gives a smaller bound
    o20, o5 = HighWaterOptions(), HighWaterOptions(max_rounds=5)
    assert GAME.max_actions(3, o5) * 4 == GAME.max_actions(3, o20)


def test_max_actions_counts_every_re_reveal() -> None:
    """A trick tied to the last new card takes 7 plays per player: inside one round's bound."""
    s = new(2, seed=1)
    for v in (7, 6, 5, 4, 3, 2, 1):
        assert s.phase == TRICK
        s.apply(0, f"play {v}")
        s.apply(1, f"play {v}")
    assert s.phase != TRICK and s.decisions == 14
    assert GAME.max_actions is not None
    assert GAME.max_actions(2, HighWaterOptions(max_rounds=1)) >= 14


def test_to_json_and_pickle_round_trip_mid_segment() -> None:
    s = to_segment(3, seed=5)
    data = json.loads(json.dumps(s.to_json()))
    assert "data" not in data["state"]  # the data tables are derived from the options
    back = GAME.from_json(data)
    assert back.fingerprint() == s.fingerprint()
    assert pickle.loads(pickle.dumps(s)).fingerprint() == s.fingerprint()
    a, b = s.clone(), back
    random_play(a, 3)
    random_play(b, 3)
    assert a.fingerprint() == b.fingerprint()


@pytest.mark.pure_build
def test_the_harness_catches_a_broken_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule broken on purpose (a played trick card also stays in the hand, R2) fails the
    conformance harness, which passes the unbroken game."""
    from cove.testing import HarnessError, random_sim_test

    random_sim_test(GAME.id, 3, games=1, seed=1)
    play_card = HighWaterState._play_card

    def broken(self: HighWaterState, p: int, v: int) -> None:
        play_card(self, p, v)
        if v not in self.hands[p]:
            self.hands[p].append(v)  # the bug: the card is played and kept

    monkeypatch.setattr(HighWaterState, "_play_card", broken)
    with pytest.raises(HarnessError, match="invariants"):
        random_sim_test(GAME.id, 3, games=2, seed=1)
