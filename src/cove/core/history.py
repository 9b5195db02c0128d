"""The game's history and log as persistent chains, and the log's event.

A chain is a singly linked list of tuples, ``(previous node, payload[, ...])``: a clone
shares every node it has, so cloning a state costs nothing however long the game.
History payload: ``(player, action, secret)``. Log node: ``(previous, event, seen)``, where
``seen[k]`` counts the events viewer ``k`` (0: spectator, ``p + 1``: player ``p``) may see
up to and including this one, so each viewer's events are numbered without gaps.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple

SPECTATORS: Final = -1
"""In an event's audience (``Event.to``): the spectators (``view(None)``, ``events(None)``)."""


class Event(NamedTuple):
    """One entry of the game log.

    ``seq`` numbers the events a viewer may see (0, 1, ...); ``text`` is the line a person
    reads; ``to`` is None for everyone, else the players who see it; ``kind`` and ``data``
    say the same for programs (``"play"``, ``{"player": 0, "card": "5 sharks"}``), so a
    client can animate and highlight rather than only print."""

    seq: int
    text: str
    to: tuple[int, ...] | None
    kind: str = "log"
    data: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "text": self.text,
                "to": None if self.to is None else list(self.to),
                "data": dict(self.data) if self.data else {}}


Node = tuple[Any, ...]
"""A link of a chain (see the module's text)."""


def log_push(node: Node | None, ev: Event, n: int) -> Node:
    """The log with ``ev`` added, and each viewer's count of events seen (see the module's text)."""
    prev = node[2] if node is not None else (0,) * (n + 1)
    if ev.to is None:
        seen = tuple(c + 1 for c in prev)
    else:
        seen = (prev[0] + (SPECTATORS in ev.to), *(prev[p + 1] + (p in ev.to) for p in range(n)))
    return (node, ev, seen)
