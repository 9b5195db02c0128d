"""Property tests over random games: every player count, both islands, the variants."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cove
from cove.core.rng import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.actions import Pass
from cove.games.trails_of_tucana.state import TURNS_PER_ROUND, TucanaState

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
    """The state's own conservation checks, plus one segment per non-pass action."""
    s.check_invariants()
    for p in range(s.n):
        assert s.drawn[p].bit_count() == segments[p]


def min_length(s: TucanaState) -> int:
    """No game ends in fewer actions: every turn every player decides at least once."""
    return s.n * TURNS_PER_ROUND * s.isl.rounds


def slots(s: TucanaState) -> dict[str, object]:
    """Every field of the state, copied, for comparing a state before and after."""
    out: dict[str, object] = {}
    for name in TucanaState.__slots__:
        v = getattr(s, name)
        out[name] = bytes(v) if isinstance(v, bytearray) else (
            list(v) if isinstance(v, list) else v)
    out["rng"] = s.rng.copy().below(2**30)
    out["log"] = [e.text for e in s.events(0)]
    out["history"] = s.history
    return out


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
    for _ in range(cut % min_length(s)):  # always stops before the game can end
        step(s, rng)
    assert not s.is_over
    views = [json.dumps(s.view(p)) for p in [None, *range(s.n)]]
    fields = slots(s)
    c = s.clone()
    crng = Rng(7)
    while not c.is_over:
        step(c, crng)
    assert [json.dumps(s.view(p)) for p in [None, *range(s.n)]] == views
    assert slots(s) == fields  # hidden fields too (deck order, union-find, snapshots)
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
    step_start = s.log_length
    while not s.is_over:
        movers = s.to_move()
        p = movers[rng.below(len(movers))]
        others = [None, *(q for q in range(s.n) if q != p)]
        views = {q: s.view(q) for q in others}
        logs = {q: len(s.events(q)) for q in others}
        now = (s.rnd, s.turn, s.bstep)
        s.apply(p, rng.choice(s.legal_actions(p)))
        if (s.rnd, s.turn, s.bstep) != now or s.is_over:
            step_start = s.log_length
            continue  # the step ended: everything in it is revealed now
        # mid-step, one private line per mover that is done, never more
        assert s.log_length - step_start == sum(sn is not None for sn in s.snap)
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
    for _ in range(cut % min_length(s)):  # always stops before the game can end
        step(s, rng)
    assert not s.is_over
    for p in range(s.n):
        want = s.view(p)
        for k in range(2):
            d = s.redeterminize(p, Rng(k))
            assert isinstance(d, TucanaState)
            assert d.view(p) == want
            assert d.to_move() == s.to_move()
            d.check_invariants()
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
