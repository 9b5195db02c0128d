"""The observation as named blocks (cove.core.observer): layout, the SPEC.md table, the
kept blocks (reused while their inputs are unchanged, never stale, never shared between
states) and the checks ``fresh`` makes of each block's indices."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import cove
from cove.core.observer import Block, Observer, Out, _copy
from cove.core.state import State
from cove.example_game import GAME
from tests.games.observations import dense_of

Calls = dict[str, int]


def counting(name: str, calls: Calls, encode: Any) -> Any:
    def run(state: Any, player: int, out: Out) -> None:
        calls[name] = calls.get(name, 0) + 1
        encode(state, player, out)
    return run


class Fake:
    """Just what the observer reads of a state: the player count, options, the kept
    slot, and the fields the blocks below declare."""

    def __init__(self, n: int = 3) -> None:
        self.n = n
        self.options = GAME.options(n)
        self._observed = None
        self.grid = [0, 2, -1, 1]
        self.piles = [[1, 2], [3]]
        self.turn = 0


def observer(calls: Calls) -> Observer:
    return Observer([
        Block("grid", counting("grid", calls, lambda s, p, out: [
            out.one(i * 3 + t) for i, t in enumerate(s.grid) if t >= 0]),
            "4 cells × one-hot of 3", size=12, inputs=("grid",), same_for_all=True),
        Block("piles", counting("piles", calls, lambda s, p, out: out.run(
            0, [len(pile) / 4 for pile in s.piles])),
            "pile heights / 4", size=2, inputs=("piles",), same_for_all=True),
        Block("seat", counting("seat", calls, lambda s, p, out: out.one(
            (s.turn - p) % s.n)), "one-hot relative seat to move", per_seat=1,
            inputs=("turn",)),
        Block("clock", counting("clock", calls, lambda s, p, out: out.value(0, 0.5)),
              "half", size=1),
    ])


def test_layout_sizes_offsets_and_the_spec_table() -> None:
    obs = observer({})
    lay = obs.layout(3, GAME.options(3))
    assert lay.offsets == (0, 12, 14, 17) and lay.sizes == (12, 2, 3, 1) and lay.size == 18
    assert obs.layout(3, GAME.options(3)) is lay
    assert lay.where(obs, "seat") == (14, 3)
    assert obs.size_text() == "15 + 1 n"
    assert obs.spec_table().splitlines() == [
        "| Part | Floats | Content |", "|---|---|---|",
        "| grid | 12 | 4 cells × one-hot of 3 |", "| piles | 2 | pile heights / 4 |",
        "| seat | n | one-hot relative seat to move |", "| clock | 1 | half |"]
    with pytest.raises(KeyError, match="no observation block 'nope'; blocks: grid, piles"):
        obs.index("nope")
    with pytest.raises(ValueError, match="named twice"):
        Observer([obs.blocks[0], obs.blocks[0]])


def test_floats_text() -> None:
    def enc(s: Any, p: int, out: Out) -> None:
        return None
    assert Block("a", enc, "", size=5).floats_text() == "5"
    assert Block("a", enc, "", per_seat=8, size=5).floats_text() == "8 n + 5"
    assert Block("a", enc, "", per_seat=1).floats_text() == "n"
    assert Block("a", enc, "", size=9, floats="5 + 1 + 3").floats_text() == "5 + 1 + 3"


def test_kept_blocks_are_reused_until_an_input_changes() -> None:
    calls: Calls = {}
    obs, s = observer(calls), Fake()
    first = obs.sparse(s, 0)
    assert calls == {"grid": 1, "piles": 1, "seat": 1, "clock": 1}
    assert dense_of(first, 18) == dense_of(obs.fresh(s, 0), 18)  # (fresh calls every encoder)
    calls.clear()
    calls.update({"grid": 1, "piles": 1, "seat": 1, "clock": 1})
    obs.sparse(s, 1)  # the same-for-all blocks are kept; the seat block is per observer
    assert calls == {"grid": 1, "piles": 1, "seat": 2, "clock": 2}
    obs.sparse(s, 0)
    assert calls == {"grid": 1, "piles": 1, "seat": 2, "clock": 3}
    s.piles[1].append(2)  # a change inside a nested list, in place
    got = obs.sparse(s, 0)
    assert calls["piles"] == 2 and calls["grid"] == 1
    assert dense_of(got, 18) == dense_of(obs.fresh(s, 0), 18)
    assert dense_of(got, 18)[12:14] == [0.5, 0.5]
    s.turn = 2
    assert dense_of(obs.sparse(s, 0), 18)[14:17] == [0.0, 0.0, 1.0]
    assert dense_of(obs.sparse(s, 1), 18)[14:17] == [0.0, 1.0, 0.0]


def test_inputs_nested_anywhere_are_copied() -> None:
    """A list nested after plain values (a battle record ``[seat, kind, [dice]]``), in a
    tuple or a dict is copied, so a change to it in place is seen."""
    calls: Calls = {}
    record: list[Any] = [1, "raid", [3, 4]]
    obs = Observer([Block("dice", counting("dice", calls, lambda s, p, out: out.value(
        0, sum(s.record[2]) / 10)), "dice / 10", size=1, inputs=("record",))])
    s = Fake()
    s.record = record  # type: ignore[attr-defined]
    assert dense_of(obs.sparse(s, 0), 1) == [0.7]
    record[2].append(1)
    assert dense_of(obs.sparse(s, 0), 1) == [0.8]
    assert calls["dice"] == 2
    for nested in ((1, [2]), {"a": [1]}, [(1, [2])]):
        assert _copy(nested) == nested
    inner = [2]
    copied = _copy([(1, inner)])
    inner.append(3)
    assert copied == [(1, [2])]


def test_a_kept_block_never_reaches_a_caller_or_another_state() -> None:
    calls: Calls = {}
    obs, s, other = observer(calls), Fake(), Fake()
    ones, _, _ = obs.sparse(s, 0)
    before = dense_of(obs.sparse(s, 0), 18)
    ones.append(99)  # the caller's arrays are its own
    assert dense_of(obs.sparse(s, 0), 18) == before
    other.grid[0] = 1
    assert dense_of(obs.sparse(other, 0), 18)[0:3] == [0.0, 1.0, 0.0]
    assert dense_of(obs.sparse(s, 0), 18)[0:3] == [1.0, 0.0, 0.0]


def test_fresh_names_a_block_that_writes_outside_itself_or_twice() -> None:
    s = Fake()
    wide = Observer([Block("wide", lambda st, p, out: out.one(2), "", size=2)])
    with pytest.raises(AssertionError, match=r"'wide' \(size 2\) wrote outside itself at \[2\]"):
        wide.fresh(s, 0)
    twice = Observer([Block("twice", lambda st, p, out: (out.one(0), out.value(0, 0.5)),
                            "", size=2)])
    with pytest.raises(AssertionError, match="'twice' wrote an index twice"):
        twice.fresh(s, 0)


def test_a_real_state_keeps_its_blocks_alone() -> None:
    """A game's clone, pickle and JSON copy start without the kept blocks (every game that
    declares blocks, at three players or its nearest count)."""
    for game in [g for g in cove.all_games() if g.observer is not None]:
        players = max(game.min_players, min(3, game.max_players))
        s: State = game.new(players, seed=4, log=False)
        s.observation_sparse(0)
        assert s._observed is not None
        for copy in (s.clone(), pickle.loads(pickle.dumps(s)), game.from_json(s.to_json())):
            assert copy._observed is None
            assert copy.observation(players - 1) == s.observation(players - 1)

