"""Property tests: random games end, components are conserved at every step, clones are
independent, records replay, views hide secrets, redeterminize keeps the view."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import cove
from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME
from cove.games.tiny_epic_pirates.state import PiratesState
from tests.games.tiny_epic_pirates.helpers import (
    check_conservation,
    new,
    play_random,
    snapshot,
)

PLAYERS = st.sampled_from([1, 2, 3, 4])
SEEDS = st.integers(0, 10**6)
OPTS = st.sampled_from([{}, {"hideout_extort": "all"}, {"max_rounds": 12}, {"reassign": "all"},
                        {"merchant_loss_surefire": False}])


@settings(max_examples=25, deadline=None)
@given(n=PLAYERS, seed=SEEDS, opts=OPTS)
def test_random_games_end_and_conserve_components(n: int, seed: int, opts: dict[str, object]
                                                  ) -> None:
    s = new(n, seed, **{"max_rounds": 20, **opts})
    check_conservation(s)
    play_random(s, seed, check=True)
    assert s.is_over and s.to_move() == () and s.legal_actions(0) == ()
    assert all(0 <= x <= 3 for x in s.scores())
    w = s.winners()
    assert all(0 <= p < n for p in w)


@settings(max_examples=15, deadline=None)
@given(n=PLAYERS, seed=SEEDS, cut=st.integers(0, 200))
def test_clone_is_independent(n: int, seed: int, cut: int) -> None:
    # every slot is compared (decks, bag, tokens, task stack, rng, history), not only the
    # views, and the game must still be running at the cut so the clone really plays
    s = new(n, seed)
    play_random(s, seed, limit=cut)
    assume(not s.is_over)                        # (a solo pirate can win early)
    before = snapshot(s)
    c = s.clone()
    assert snapshot(c) == before
    k = play_random(c, seed + 1, limit=200)
    assert k > 0 and snapshot(c) != before
    assert snapshot(s) == before
    play_random(s, seed + 2, limit=50)           # and the other way round
    after = snapshot(s)
    c2 = s.clone()
    play_random(s, seed + 3, limit=50)
    assert snapshot(c2) == after


@settings(max_examples=15, deadline=None)
@given(n=PLAYERS, seed=SEEDS)
def test_replay_reproduces_view_and_scores(n: int, seed: int) -> None:
    s = new(n, seed, max_rounds=10)
    play_random(s, seed)
    r = cove.replay(s.record())
    assert r.view(None) == s.view(None) and r.scores() == s.scores()
    assert [e.text for e in r.events(None)] == [e.text for e in s.events(None)]


@settings(max_examples=20, deadline=None)
@given(n=PLAYERS, seed=SEEDS, cut=st.integers(0, 600))
def test_redeterminize_keeps_view_and_hides_secrets(n: int, seed: int, cut: int) -> None:
    s = new(n, seed, max_rounds=15)
    play_random(s, seed, limit=cut)
    for p in range(n):
        v = s.view(p)
        d = s.redeterminize(p, Rng(seed + p))
        assert d.view(p) == v
        check_conservation(d)  # type: ignore[arg-type]
        # the secrets (face-down tokens, crew deck order, bag) are never in a view
        text = repr(v) + repr(s.view(None))
        assert "box_tokens" not in text and "tokens" not in v
        assert isinstance(v["crew_deck"], int) and isinstance(v["bag"], int)
    if not s.is_over:
        d = s.redeterminize(0, Rng(seed))
        assert isinstance(d, PiratesState)
        play_random(d, seed)
        assert d.is_over


def test_redeterminize_changes_hidden_parts() -> None:
    s = new(2, 5)
    seen = set()
    for k in range(10):
        d = s.redeterminize(0, Rng(k))
        seen.add((tuple(d.tokens), tuple(d.crew_deck)))  # type: ignore[attr-defined]
    assert len(seen) > 1


def test_bad_input() -> None:
    s = new(2, 1)
    before = (s.view(0), s.record())
    try:
        s.apply(0, "sail to tortuga")
    except cove.IllegalAction as e:
        assert "not a legal move for P1 now; legal: navy to" in str(e)
    else:
        raise AssertionError("expected IllegalAction")
    assert (s.view(0), s.record()) == before
    for bad in ({"max_rounds": 2}, {"hideout_extort": "sometimes"}, {"colour": "red"}):
        try:
            GAME.new(2, **bad)
        except cove.OptionError:
            pass
        else:
            raise AssertionError(f"expected OptionError for {bad}")
    for n in (0, 5):
        try:
            GAME.new(n)
        except cove.PlayerCountError as e:
            assert "1 to 4 players" in str(e)
        else:
            raise AssertionError("expected PlayerCountError")
    rec = s.record()
    rec["actions"] = [[0, "navy to z9"]]
    try:
        cove.replay(rec)
    except cove.RecordError as e:
        assert "navy to z9" in str(e)
    else:
        raise AssertionError("expected RecordError")


def test_render_draws_everything() -> None:
    s = new(3, 7)
    play_random(s, 7, limit=400)
    out = GAME.render(s.view(0), False)  # type: ignore[misc]
    assert out.count("+-------------------+") >= 5
    for word in ("Market:", "Crew line:", "wheel:", "deckhands:", "booty:", "crew:", "P3",
                 "legend", "gold", "treasures", "sure-fire"):
        assert word in out
    assert "\x1b[" in GAME.render(s.view(None), True)  # type: ignore[misc]


def test_heuristic_in_score_units() -> None:
    s = new(2, 3)
    play_random(s, 3, limit=500)
    h = GAME.heuristic
    assert h is not None
    for p in range(2):
        assert 0.0 <= h(s, p) <= 3.0
        assert h(s, p) >= len(s.treasures[p])
