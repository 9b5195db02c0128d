"""Records: replay reproduces a game; malformed records get clear errors."""

from __future__ import annotations

from typing import Any

import pytest

import cove
from cove.core.rng import Rng


def finished_record(seed: int) -> dict[str, Any]:
    s = cove.load("toy").new(3, seed=seed)
    rng = Rng(seed)
    while not s.is_over:
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    return s.record()


def test_replay_reproduces_the_game(toy_registered: str) -> None:
    rec = finished_record(4)
    again = cove.replay(rec)
    assert again.record() == rec and again.is_over


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("seed"), "record is missing seed"),
        (lambda r: r.update(game="chess"), "unknown game 'chess'"),
        (lambda r: r.update(version="0"), "version '0'"),
        (lambda r: r.update(players=7), "2 to 4 players, not 7"),
        (lambda r: r.update(options={"speed": 2}), "unknown option 'speed'"),
        (lambda r: r.update(actions="all"), "must be a list"),
        (lambda r: r["actions"].__setitem__(0, [0]), "must be [player, text]"),
        (lambda r: r["actions"].__setitem__(1, [5, "bid 0"]), "no player 5"),
    ],
)
def test_malformed_record_is_rejected(toy_registered: str, change: Any, message: str) -> None:
    rec = finished_record(2)
    change(rec)
    with pytest.raises(cove.RecordError, match=message.replace("[", r"\[").replace("(", r"\(")):
        cove.replay(rec)
