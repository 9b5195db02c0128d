"""The observation and the legal mask (SPEC.md, Observation; the action space): their
values follow the documented layout, the cached parts never go stale, and the game's own
mask equals the core's generic one."""

from __future__ import annotations

from cove.core.rng import Rng
from cove.games.trails_of_tucana import GAME
from cove.games.trails_of_tucana.data import CARD_NAMES, KINDS, TABLES
from cove.games.trails_of_tucana.state import TucanaState
from cove.games.trails_of_tucana.view import sheet
from tests.games.trails_of_tucana.helpers import new


def fresh(s: TucanaState) -> TucanaState:
    """The same state rebuilt from its JSON form: no cache carried over."""
    t = GAME.from_json(s.to_json())
    assert isinstance(t, TucanaState)
    return t


def test_observation_follows_the_documented_layout() -> None:
    s = new(3, seed=4, special_bonus=True)
    rng = Rng(4)
    for _ in range(7):  # into the second step of a turn, P1 having drawn
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    isl = s.isl
    ne = len(isl.edges)
    obs = s.observation(1)
    assert len(obs) == 24 + 3 * (ne + 1)
    assert s.cards is not None
    assert obs[0:5] == [float(list(s.cards).count(c)) for c in range(len(CARD_NAMES))]
    assert obs[5:10] == [s.seen.count(c) / 8 for c in range(len(CARD_NAMES))]
    assert obs[10:14] == [s.rnd / isl.rounds, s.turn / 13, float(bool(s.bstep)),
                          s.bonus[1] / KINDS]
    assert obs[14:19] == [len(b) / 2 for b in s.blue]
    assert obs[19:24] == [float(k in s.red) for k in range(KINDS)]
    for i, q in enumerate((1, 2, 0)):
        row = obs[24 + i * (ne + 1) : 24 + (i + 1) * (ne + 1)]
        snap = s.snap[q] if q != 1 else None
        drawn = s.drawn[q] if snap is None else snap[0]
        assert row[:ne] == [float(drawn >> e & 1) for e in range(ne)]
        assert row[ne] == sheet(s, q, q != 1)["score"] / 100


def test_observation_and_mask_equal_those_of_a_fresh_copy_through_games() -> None:
    """The turn-long cache and the cache of encoded sheets never give stale values: every
    player's observation equals that of the same state rebuilt without caches, and the
    game's mask equals the core's (the action space's mask of the legal actions)."""
    for n, opts in ((1, {}), (3, {"map": "grande"}), (5, {"special_bonus": True}),
                    (2, {"hide_earlier_cards": True})):
        s = new(n, seed=n, **opts)
        rng = Rng(n)
        space = GAME.space_for(n, s.options)
        k = 0
        while not s.is_over:
            if k % 5 == 0:
                t = fresh(s)
                for p in range(n):
                    assert s.observation(p) == t.observation(p)
                    assert s.legal_mask(p) == space.mask(s.legal_actions(p))
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            k += 1
        t = fresh(s)
        assert [s.observation(p) for p in range(n)] == [t.observation(p) for p in range(n)]


def test_sight_points_table_matches_the_sight_values() -> None:
    for isl in TABLES.islands.values():
        for m in range(0, len(isl.sight_points), 7):
            kc = [(m & isl.kind_mask[k]).bit_count() for k in range(KINDS)]
            want = sum(sum(isl.sight_values[k][: kc[k]]) for k in range(KINDS))
            assert isl.sight_points[m] == want
