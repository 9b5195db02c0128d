"""Actions in three forms: the value, its text, its JSON; and fixed-size action spaces.

- The value is what a game's ``_legal_actions`` returns: a small frozen, hashable object.
- ``str(action)`` is the human form, unique among the legal actions of a moment.
- ``action_json(action)`` is ``{"kind": ..., <parameters>}`` for programs: the action's own
  ``to_json()`` if it has one, else derived from a dataclass (class name in snake case as
  the kind, its fields as parameters).

An :class:`ActionSpace` numbers every action a configuration can ever offer (its
*universe*, declared by the game), so research code gets a fixed ``size``, ``encode`` and
``decode`` and a legal-action mask, as OpenSpiel's distinct actions and pgx's mask.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from cove.core.errors import IllegalAction

if TYPE_CHECKING:
    from cove.core.state import State

Action = Hashable


def kind_name(cls: type) -> str:
    """``MoveFriend`` -> ``move_friend``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def _plain(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    if isinstance(v, (frozenset, set)):
        return sorted(_plain(x) for x in v)
    if isinstance(v, bool) or v is None or isinstance(v, (str, float)):
        return v
    if isinstance(v, int):
        return int(v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return action_json(v)
    return str(v)


def legal_forms(state: State, seat: int | None) -> list[dict[str, Any]]:
    """``seat``'s legal actions as a client gets them: ``[{"text": str(a), "json":
    action_json(a)}]`` (``json`` None for an action without a JSON form; no actions for a
    spectator, ``seat`` None). The web boards are drawn from this list."""
    if seat is None:
        return []
    out = []
    for a in state.legal_actions(seat):
        try:
            form: dict[str, Any] | None = action_json(a)
        except TypeError:
            form = None
        out.append({"text": str(a), "json": form})
    return out


def action_json(action: Any) -> dict[str, Any]:
    """The JSON form ``{"kind": ..., <parameters>}`` of an action."""
    own = getattr(action, "to_json", None)
    if own is not None:
        out: dict[str, Any] = own()
        return out
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        data: dict[str, Any] = {"kind": kind_name(type(action))}
        for f in dataclasses.fields(action):
            data[f.name] = _plain(getattr(action, f.name))
        return data
    raise TypeError(f"{type(action).__name__} has no JSON form: give it a to_json() method")


def json_key(data: Any) -> str:
    """A canonical string for comparing JSON forms."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def normalise(text: str) -> str:
    return " ".join(text.split()).lower()


def match_text(legal: Sequence[Action], text: str) -> tuple[Action | None, list[Action]]:
    """Resolve typed text to a legal action: ``(action, [])`` when it is found, else
    ``(None, candidates)`` (several when the text is ambiguous, none when nothing fits).

    Tried in order, the first rule that finds anything decides:
    1. the exact text (case and spacing ignored);
    2. a prefix of exactly one action's text (``sail n`` for ``sail ne`` when unique);
    3. every typed word is, in order, the start of a word of the action's text
       (``play 7 shark`` for ``play 7 sharks``; ``a1`` for ``place friend at a1``).
    """
    want = normalise(text)
    if not want:
        return None, []
    texts = [(a, normalise(str(a))) for a in legal]
    for a, t in texts:
        if t == want:
            return a, []
    for rule in (_prefix, _words_exact, _words_prefix):
        found = [a for a, t in texts if rule(want, t)]
        if len(found) == 1:
            return found[0], []
        if found:
            return None, found
    return None, []


def _prefix(want: str, text: str) -> bool:
    return text.startswith(want)


def _word_match(want: str, text: str, whole: bool) -> bool:
    words = text.replace("-", " ").replace(",", " ").replace(":", " ").split()
    i = 0
    for w in want.replace("-", " ").replace(",", " ").replace(":", " ").split():
        while i < len(words) and not (words[i] == w if whole else words[i].startswith(w)):
            i += 1
        if i == len(words):
            return False
        i += 1
    return True


def _words_exact(want: str, text: str) -> bool:
    return _word_match(want, text, True)


def _words_prefix(want: str, text: str) -> bool:
    return _word_match(want, text, False)


class ActionSpace:
    """Every action a configuration can offer, numbered ``0 .. size-1``.

    ``universe`` lists one key per index; ``key(action)`` gives a legal action's key (the
    action itself by default). Two actions legal at the same moment never share a key,
    so every legal action has exactly one index (the conformance harness checks it).
    """

    def __init__(self, universe: Sequence[Hashable],
                 key: Callable[[Any], Hashable] | None = None) -> None:
        self.universe: tuple[Hashable, ...] = tuple(universe)
        self.key = key
        self.index: dict[Hashable, int] = {}
        for i, k in enumerate(self.universe):
            if k in self.index:
                raise ValueError(f"action space lists {k!r} twice (at {self.index[k]} and {i})")
            self.index[k] = i

    @property
    def size(self) -> int:
        return len(self.universe)

    def encode(self, action: Any) -> int:
        k = action if self.key is None else self.key(action)
        try:
            return self.index[k]
        except (KeyError, TypeError):
            raise IllegalAction(f"{action!s} is not in this game's action space") from None

    def decode(self, index: int, state: State | None = None, player: int | None = None) -> Any:
        """The action at ``index``. With a state, the legal action of ``player`` (default:
        the only mover) that has this index; IllegalAction when none is legal there."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < self.size:
            raise IllegalAction(f"action index {index!r} is outside 0..{self.size - 1}")
        if state is None:
            if self.key is not None:
                raise IllegalAction("this action space decodes an index only against a state")
            return self.universe[index]
        if player is None:
            movers = state.to_move()
            if len(movers) != 1:
                raise IllegalAction(f"say which player: {len(movers)} players are to move")
            player = movers[0]
        for a in state.legal_actions(player):
            if self.encode(a) == index:
                return a
        raise IllegalAction(f"action index {index} is not legal for P{player + 1} now")

    def mask(self, legal: Sequence[Any]) -> list[bool]:
        out = [False] * self.size
        for a in legal:
            out[self.encode(a)] = True
        return out
