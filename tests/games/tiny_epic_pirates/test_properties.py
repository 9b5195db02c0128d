"""Game-specific checks the conformance harness (tests/games/test_harness.py) does not
make: redeterminize really resamples, bad input is refused with a useful message, the
renderer and the heuristic. Random games, invariants at every step, clones, replays and
redeterminized views are checked by the harness for every player count and option."""

from __future__ import annotations

import cove
from cove.core.rng import Rng
from cove.games.tiny_epic_pirates import GAME
from tests.games.tiny_epic_pirates.helpers import new, play_random


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
    assert [ln[:4] for ln in out.splitlines() if ln[3:4] == "|" and ln[1] in "1234"] == [
        " 1 |", " 2 |", " 3 |", " 4 |"]                   # the sea's four rows, labelled
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
