"""Game-specific properties the conformance harness (tests/games/test_harness.py) does not
check: redeterminize really resamples the hidden parts. Random games, invariants at every
step, clones, replays and redeterminized views are checked by the harness for every player
count and option."""

from __future__ import annotations

import json

from cove.core import Rng
from tests.games.tiny_epic_pirates.helpers import new


def test_redeterminize_changes_hidden_parts() -> None:
    s = new(2, 5)
    seen = set()
    for k in range(10):
        d = s.redeterminize(0, Rng(k))
        seen.add((tuple(d.search_tokens), tuple(d.crew_deck)))  # type: ignore[attr-defined]
    assert len(seen) > 1


def test_every_action_kind_is_rebuilt_from_the_fields_it_names() -> None:
    """Each kind's ``__match_args__`` names its constructor's arguments in order: the
    stored form and the pickle call the constructor with them (cove.core.serial)."""
    import pickle

    from cove.core.serial import Decoder, encode
    from cove.games.tiny_epic_pirates import actions

    decoder = Decoder(("cove.games.tiny_epic_pirates",))
    kinds = set()
    s, rng = new(4, seed=3), Rng(3)
    while not s.is_over and len(kinds) < 20:
        p = s.to_move()[0]
        for a in s.legal_actions(p):
            assert isinstance(a, actions.Act)
            kinds.add(type(a))
            assert type(a)(*(getattr(a, n) for n in a.__match_args__)) == a
            assert decoder.decode(json.loads(json.dumps(encode(a)))) == a
            assert pickle.loads(pickle.dumps(a)) == a
        s.apply(p, rng.choice(s.legal_actions(p)))
    assert len(kinds) >= 10, kinds
