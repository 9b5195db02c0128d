"""A table's stored log replayed: its moves through their exact text, as a record
replays, and its undos as the server took them (docs/API.md, *Storage*)."""

from __future__ import annotations

from collections.abc import Sequence

from cove.core.errors import CoveError
from cove.core.state import State
from cove.core.undo import before_last
from cove.serve.errors import RestoreError
from cove.serve.store import UNDO


def replay_moves(state: State, moves: Sequence[tuple[int, str]], table_id: str) -> State:
    """``state`` after the stored entries of a table's log: moves through their exact text,
    as a record replays, and undos (:data:`UNDO`) as the server took them; RestoreError at
    the first that is not a legal move, or an undo of the latest move by its own seat."""
    for seat, text in moves:
        if text == UNDO:
            history = state.history
            if not history or history[-1][0] != seat:
                raise RestoreError(f"table {table_id}: a stored undo by seat {seat} at move "
                                   f"{state.decisions} takes back no move of its own")
            state = before_last(state)
            continue
        try:
            act = state.find_action(seat, text)
        except CoveError:
            act = None
        if act is None:
            raise RestoreError(f"table {table_id}: stored move {state.decisions} ({text[:80]!r} "
                               f"by seat {seat}) is not legal there; the game's rules changed?")
        state.apply(seat, act)
    return state
