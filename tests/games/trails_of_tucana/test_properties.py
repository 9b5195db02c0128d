"""Property tests of the simultaneous reveal (R3.8) over random games: every player count,
both islands, the variants. Clone, replay, redeterminize and invariants over random games
are the shared harness's (tests/games/test_harness.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cove.core import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.sheets import drawn_on
from cove.games.trails_of_tucana.state import TucanaState

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
        now = (s.round, s.turn, s.bonus_step)
        s.apply(p, rng.choice(s.legal_actions(p)))
        if (s.round, s.turn, s.bonus_step) != now or s.is_over:
            step_start = s.log_length
            continue  # the step ended: everything in it is revealed now
        # mid-step, one private line per mover that is done, never more
        assert s.log_length - step_start == sum(sn is not None for sn in s.snapshots)
        for q in others:
            v = s.view(q)
            # who is still to move is public; what they decide is not in the decision
            assert v["decision"]["kind"] == views[q]["decision"]["kind"]
            v["to_move"] = views[q]["to_move"]
            v["decision"] = views[q]["decision"]
            assert v == views[q]
            assert len(s.events(q)) == logs[q]
        # and the view never contains the deck order
        assert "deck" in views[None] and isinstance(views[None]["deck"], int)


def test_redeterminize_resamples_hidden_commitments() -> None:
    s = GAME.new(3, seed=5)
    assert isinstance(s, TucanaState)
    s.apply(1, s.legal_actions(1)[0])
    seen = set()
    for k in range(12):
        d = s.redeterminize(0, Rng(k))
        assert isinstance(d, TucanaState)
        seen.add((drawn_on(d, 1), tuple(d.deck)))
        assert drawn_on(d, 0) == drawn_on(s, 0) and d.to_move() == (0, 2)
    assert len({x[0] for x in seen}) > 1 and len({x[1] for x in seen}) > 1


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
