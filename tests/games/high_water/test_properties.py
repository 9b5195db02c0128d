"""Property tests over random games, for every player count and the main options. (Random
play, conservation, clone, replay and redeterminize checks are the shared conformance
harness's: tests/games/test_harness.py.)"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cove.core.rng import Rng
from cove.games.high_water.rules import TRICK
from tests.games.high_water.helpers import contains, new, random_play

OPTIONS: list[dict[str, Any]] = [
    {},
    {"tie_scope": "first", "tie_rereveals": 1},
    {"carry_cap": 3, "max_quests": 2, "goal": 12},
    {"max_rounds": 8, "tie_rereveals": 1, "idle_dice_actions": True, "actives_need_effect": True},
]

games = st.tuples(
    st.integers(2, 5), st.integers(0, 2**32), st.sampled_from(range(len(OPTIONS)))
)


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 300))
def test_no_view_shows_another_players_secret_card(g: tuple[int, int, int],
                                                   steps: int) -> None:
    n, seed, k = g
    s = new(n, seed, **OPTIONS[k])
    random_play(s, seed + 2, limit=steps)
    # go to the next trick decision
    rng = Rng(seed)
    while not s.is_over and s.phase != TRICK:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    if s.is_over or len(s.to_move()) < 2:
        # the last commitment reveals everything and a finished game has none: check the
        # first trick instead, so every example checks a secret
        s = new(n, seed, **OPTIONS[k])
    p = s.to_move()[0]
    hand = s.trick_choices(p)
    assert len(hand) >= 2
    a, b = s.clone(), s.clone()
    a.apply(p, f"play {hand[0]}")
    b.apply(p, f"play {hand[-1]}")
    for q in [None, *range(n)]:
        if q == p:
            continue
        assert a.view(q) == b.view(q)
        assert [e.text for e in a.events(q)] == [e.text for e in b.events(q)]
    assert a.view(p)["my_commit"] == {"player": p, "card": hand[0]}
    assert a.view(p) != b.view(p)  # the owner does see the difference
    # the conformance hook names exactly that value, and no other view contains it
    secret = a.private_items(p)["my_commit"]
    assert secret == a.view(p)["my_commit"]
    for q in [None, *range(n)]:
        if q != p:
            assert not contains(a.view(q), secret)
