"""Game-specific properties the conformance harness (tests/games/test_harness.py) does not
check: redeterminize really resamples the hidden parts. Random games, invariants at every
step, clones, replays and redeterminized views are checked by the harness for every player
count and option."""

from __future__ import annotations

from cove.core import Rng
from tests.games.tiny_epic_pirates.helpers import new


def test_redeterminize_changes_hidden_parts() -> None:
    s = new(2, 5)
    seen = set()
    for k in range(10):
        d = s.redeterminize(0, Rng(k))
        seen.add((tuple(d.search_tokens), tuple(d.crew_deck)))  # type: ignore[attr-defined]
    assert len(seen) > 1
