"""Property tests over random games: every player count, both islands, the variants."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cove
from cove.core.rng import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.actions import Pass
from cove.games.trails_of_tucana.data import KINDS, LETTERS, TABLES
from cove.games.trails_of_tucana.state import VMASK, TucanaState

SETTINGS = settings(max_examples=25, deadline=None)

games = st.fixed_dictionaries(
    {
        "players": st.integers(1, 8),
        "seed": st.integers(0, 2**32),
        "map": st.sampled_from(["petit", "grande"]),
        "special_bonus": st.booleans(),
        "random_start": st.booleans(),
        "counter_clockwise": st.booleans(),
        "symmetry": st.booleans(),
    }
)


def start(g: dict[str, Any]) -> TucanaState:
    opts = {k: v for k, v in g.items() if k not in ("players", "seed")}
    s = GAME.new(g["players"], seed=g["seed"], **opts)
    assert isinstance(s, TucanaState)
    return s


def step(s: TucanaState, rng: Rng) -> tuple[int, Any]:
    movers = s.to_move()
    p = movers[rng.below(len(movers))]
    a = rng.choice(s.legal_actions(p))
    s.apply(p, a)
    return p, a


def check_invariants(s: TucanaState, segments: list[int]) -> None:
    n = s.n
    isl = s.isl
    if not s.is_over:
        # all 27 terrain cards are in the deck or revealed this round
        assert Counter(s.deck + s.seen) == Counter(TABLES.deck)
        assert len(s.seen) == 2 * (s.turn + 1) and len(s.deck) >= 1
    # blue bonus cards: each is still on its stack, taken, or discarded (solo)
    per_letter = 2 if n >= 5 else 1
    for L in range(LETTERS):
        taken = {v for p in range(n) for (L2, v) in s.blue_won[p] if L2 == L}
        dropped = per_letter if L in s.solo_dropped else 0
        assert len(s.blue[L]) + len(taken) + dropped == per_letter
    # red cards: active + taken = drawn at set-up
    if s.red_on:
        assert len(s.red) + len(s.red_won) == (2 if n >= 5 else 1)
    ne = len(isl.edges)
    if not s.is_over:
        assert s.to_move() == tuple(p for p in range(n) if not s.done[p])
    for p in range(n):
        assert s.drawn[p].bit_count() == segments[p]  # one segment per non-pass action
        flags = s.dflag[p * ne : p * ne + ne]
        assert sum(1 << e for e in range(ne) if flags[e]) == s.drawn[p]
        assert s.bonus[p] >= 0
        base = p * isl.size
        circled = s.circled[p]
        for k in range(KINDS):
            assert s.kcount[p * KINDS + k] == (circled & isl.kind_mask[k]).bit_count()
        for i, sp in enumerate(isl.sight_space):
            root = s._find(base + sp)
            linked = bool(s.info[root] & VMASK)
            assert linked == bool(circled >> i & 1)
        for L, pm in enumerate(s.pair_masks[p]):
            a, b = [v for v in range(10) if pm >> v & 1]
            same = s._find(base + isl.village_space[a]) == s._find(base + isl.village_space[b])
            assert same == bool(s.pairs[p] >> L & 1)


@SETTINGS
@given(games)
def test_random_games_end_and_conserve_components(g: dict[str, Any]) -> None:
    s = start(g)
    rng = Rng(g["seed"] + 1)
    segments = [0] * s.n
    steps = 0
    while not s.is_over:
        p, a = step(s, rng)
        if not isinstance(a, Pass):
            segments[p] += 1
        check_invariants(s, segments)
        steps += 1
        assert steps < 10_000
    assert s.to_move() == () and s.winners()
    assert s.rnd == s.isl.rounds


@SETTINGS
@given(games, st.integers(0, 400))
def test_clone_independence_and_replay(g: dict[str, Any], cut: int) -> None:
    s = start(g)
    rng = Rng(g["seed"])
    for _ in range(cut):
        if s.is_over:
            break
        step(s, rng)
    views = [json.dumps(s.view(p)) for p in [None, *range(s.n)]]
    c = s.clone()
    crng = Rng(7)
    while not c.is_over:
        step(c, crng)
    assert [json.dumps(s.view(p)) for p in [None, *range(s.n)]] == views
    while not s.is_over:
        step(s, rng)
    r = cove.replay(json.loads(json.dumps(s.record())))
    assert r.view(None) == s.view(None) and r.scores() == s.scores()
    assert [e.text for e in r.events(0)] == [e.text for e in s.events(0)]


@settings(max_examples=12, deadline=None)
@given(games)
def test_no_view_or_log_shows_a_pending_commitment(g: dict[str, Any]) -> None:
    s = start(g)
    rng = Rng(g["seed"] + 3)
    turn_start = s.log_length
    while not s.is_over:
        movers = s.to_move()
        p = movers[rng.below(len(movers))]
        others = [None, *(q for q in range(s.n) if q != p)]
        views = {q: s.view(q) for q in others}
        logs = {q: len(s.events(q)) for q in others}
        now = (s.rnd, s.turn)
        s.apply(p, rng.choice(s.legal_actions(p)))
        if (s.rnd, s.turn) != now or s.is_over:
            turn_start = s.log_length
            continue  # the turn resolved: everything is revealed now
        # log lines are numbered in one shared sequence: mid-turn, only one line per
        # finished player (public through to_move), never one per hidden decision
        assert s.log_length - turn_start == s.n - len(s.to_move())
        for q in others:
            v = s.view(q)
            v["to_move"] = views[q]["to_move"]
            assert v == views[q]
            assert len(s.events(q)) == logs[q]
        # and the view never contains the deck order
        assert "deck" in views[None] and isinstance(views[None]["deck"], int)


@SETTINGS
@given(games, st.integers(0, 300))
def test_redeterminize_keeps_view(g: dict[str, Any], cut: int) -> None:
    s = start(g)
    rng = Rng(g["seed"])
    for _ in range(cut):
        if s.is_over:
            break
        step(s, rng)
    for p in range(s.n):
        want = s.view(p)
        for k in range(2):
            d = s.redeterminize(p, Rng(k))
            assert isinstance(d, TucanaState)
            assert d.view(p) == want
            assert d.to_move() == s.to_move()
            check_invariants(d, [d.drawn[q].bit_count() for q in range(d.n)])
        assert s.view(p) == want
    if not s.is_over:
        d = s.redeterminize(0, Rng(1))
        assert isinstance(d, TucanaState)
        while not d.is_over:
            step(d, rng)


def test_redeterminize_resamples_hidden_commitments() -> None:
    s = GAME.new(3, seed=5)
    assert isinstance(s, TucanaState)
    s.apply(1, s.legal_actions(1)[0])
    seen = set()
    for k in range(12):
        d = s.redeterminize(0, Rng(k))
        assert isinstance(d, TucanaState)
        seen.add((d.drawn[1], tuple(d.deck)))
        assert d.drawn[0] == s.drawn[0] and d.to_move() == (0, 2)
    assert len({x[0] for x in seen}) > 1 and len({x[1] for x in seen}) > 1


@pytest.mark.parametrize("mp", ["petit", "grande"])
@pytest.mark.parametrize("players", range(1, 9))
def test_every_player_count_and_map(players: int, mp: str) -> None:
    """A full game per player count and island, variants on, with every check."""
    g = {"players": players, "seed": players * 31, "map": mp, "special_bonus": True,
         "random_start": True, "counter_clockwise": players % 2 == 0,
         "symmetry": players % 3 == 0}
    s = start(g)
    rng = Rng(players)
    segments = [0] * s.n
    k = 0
    while not s.is_over:
        p, a = step(s, rng)
        if not isinstance(a, Pass):
            segments[p] += 1
        check_invariants(s, segments)
        k += 1
        if k % 37 == 0:
            q = k % s.n
            d = s.redeterminize(q, Rng(k))
            assert d.view(q) == s.view(q)
    r = cove.replay(json.loads(json.dumps(s.record())))
    assert r.view(None) == s.view(None) and r.scores() == s.scores()


def test_resample_depends_only_on_the_view() -> None:
    """Two states that look the same to P1 give the same sampled world for the same RNG."""
    s = GAME.new(3, seed=9, map="grande")
    assert isinstance(s, TucanaState)
    rng = Rng(4)
    for _ in range(40):
        step(s, rng)
    if 1 in s.to_move():
        s.apply(1, s.legal_actions(1)[-1])  # a hidden commitment P1 cannot see
    other = s.redeterminize(0, Rng(99))
    assert other.view(0) == s.view(0)
    for k in range(3):
        x, y = s.redeterminize(0, Rng(k)), other.redeterminize(0, Rng(k))
        assert isinstance(x, TucanaState) and isinstance(y, TucanaState)
        assert [x.view(q) for q in range(3)] == [y.view(q) for q in range(3)]
        assert x.deck == y.deck
