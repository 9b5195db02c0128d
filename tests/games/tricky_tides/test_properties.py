"""Property tests over random games: every player count and the main options combined
(the shared harness, tests/games/test_harness.py, varies one option at a time and checks
clones, replays, portable state and sampled worlds for every game)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cove.core import Rng
from cove.core.bits import size
from cove.games.tricky_tides import GAME
from cove.games.tricky_tides.constants import known_void, suit_cards
from cove.games.tricky_tides.data import DATA
from cove.games.tricky_tides.state import TidesState
from tests.games.tricky_tides.helpers import check_invariants, play_random

SETTINGS = settings(max_examples=25, deadline=None)
players = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=2**32)
# the modules on, off and combined, with every ability variant
MODULES = {
    "events": st.booleans(),
    "monsters": st.booleans(),
    "shark": st.sampled_from(["holds", "island"]),
    "octopus": st.sampled_from(["move", "grab"]),
    "sea_dragon": st.sampled_from(["bury", "swap"]),
    "whale": st.sampled_from(["next", "own"]),
    "whale_empty_spot": st.booleans(),
}
modules = st.fixed_dictionaries(MODULES)
options = st.fixed_dictionaries({
    "delivered_goods_to_bag": st.booleans(),
    "sail_ties_from": st.sampled_from(["winner", "lead"]),
    "nav_deck": st.sampled_from(["falling", "flat"]),
    **MODULES,
})


def start(n: int, seed: int, opts: dict[str, object], log: bool = False) -> TidesState:
    s = GAME.new(n, seed, log=log, **opts)
    assert isinstance(s, TidesState)
    return s


@SETTINGS
@given(players, seeds, options)
def test_games_end_and_conserve_components_at_every_step(
        n: int, seed: int, opts: dict[str, object]) -> None:
    s = start(n, seed, opts)
    check_invariants(s)
    play_random(s, seed, check=True)
    assert s.is_over and s.to_move() == () and s.round == 3
    assert len(s.winners()) >= 1


def _secrets_of(s: TidesState, q: int) -> dict[str, object]:
    return {"sight": DATA.sightings[s.sightings[q]].id, "hand": s.hands[q]}


@SETTINGS
@given(players, seeds, st.integers(min_value=0, max_value=400), modules)
def test_views_hide_secrets_and_redeterminize_keeps_view(
        n: int, seed: int, k: int, opts: dict[str, object]) -> None:
    s = start(n, seed, opts, log=True)
    rng = Rng(seed)
    for _ in range(k):
        if s.is_over:
            break
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    for p in range(n):
        v = s.view(p)
        text = json.dumps(v)
        # structural whitelist: only p's own hand and sightings card, sizes of hidden piles
        assert "hand" in v and "sightings" in v
        assert all(seat["sightings"] is None for seat in v["seats"]) or s.is_over
        assert '"order_deck"' not in text and '"bag"' not in text and "aside" not in text
        assert '"event_deck"' not in text       # the face-down event order
        if s.modules.event >= 0:                # face-down events never named, except the
            shown = set(v["events_at_bottom"]) | {v["event"]["name"]}   # known bottom
            hidden = {DATA.events[i].name for i in s.modules.event_deck} - shown
            assert not any(f'"{name}"' in text for name in hidden)
        assert len(v["hand"]) == size(s.hands[p])
        # private log lines reach only their owner
        for e in s.events(p):
            assert e.to is None or p in e.to
        # differential: resampling what p cannot see leaves p's view unchanged
        changed = False
        for j in range(4):
            d = s.redeterminize(p, Rng(seed + 31 * j))
            assert isinstance(d, TidesState)
            assert d.view(p) == v
            assert d.to_move() == s.to_move()
            check_invariants(d)
            for q in range(n):
                if q == p:
                    continue
                for suit in range(4):   # a known void is never redealt that suit
                    if known_void(s.voids, q, suit):
                        assert suit_cards(d.hands[q], suit) == 0
                if _secrets_of(d, q) != _secrets_of(s, q):
                    changed = True
            known = s.modules.events_known      # the known bottom of the event deck stays put
            if known:
                assert d.modules.event_deck[-known:] == s.modules.event_deck[-known:]
            assert sorted(d.modules.event_deck) == sorted(s.modules.event_deck)
        assert changed or s.is_over or all(s.hands[q] == 0 for q in range(n) if q != p)
    spect = s.view(None)
    assert "hand" not in spect and "sightings" not in spect
