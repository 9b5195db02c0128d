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
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from cove.core.compiled import mypyc_attr
from cove.core.errors import IllegalAction, RecordError

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


A = TypeVar("A", bound="CodedAction")  # (declared before CodedAction: the compiled
# build must know ActionTable when it builds CodedAction, a Python class annotated with it)


class ActionTable(Generic[A]):
    """Every action of a game in the int-coded form, numbered in the order declared: code
    ``i`` is ``values[i]``, with its text ``texts[i]``, JSON form ``forms[i]`` and shared
    action ``actions[i]`` (an instance of the game's :class:`CodedAction` subclass). The
    values of one kind must be declared together, so each kind is a run of codes from
    :meth:`start`."""

    def __init__(self, cls: type[A], values: Sequence[Hashable]) -> None:
        self.values: tuple[Hashable, ...] = tuple(values)
        self.texts: tuple[str, ...] = tuple(str(v) for v in self.values)
        self.forms: tuple[dict[str, Any], ...] = tuple(action_json(v) for v in self.values)
        self.code_of: dict[Hashable, int] = {}
        self._starts: dict[type, int] = {}
        for i, v in enumerate(self.values):
            if v in self.code_of:
                raise ValueError(f"{cls.__name__}: {v!r} is declared twice")
            self.code_of[v] = i
            kind = type(v)
            start = self._starts.setdefault(kind, i)
            if type(self.values[i - 1]) is not kind and i != start:
                raise ValueError(f"{cls.__name__}: the {kind.__name__} values are not declared "
                                 "together (each kind is one run of codes)")
        seen: dict[str, int] = {}
        for i, t in enumerate(self.texts):
            if t in seen:
                raise ValueError(f"{cls.__name__}: codes {seen[t]} and {i} have the same text "
                                 f"{t!r}")
            seen[t] = i
        self.actions: tuple[A, ...] = tuple(cls(i) for i in range(len(self.values)))
        cls.TABLE = self

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, code: int) -> A:
        return self.actions[code]

    def code(self, value: Hashable) -> int:
        """The code of a declared value; KeyError names it when it was never declared."""
        try:
            return self.code_of[value]
        except KeyError:
            raise KeyError(f"{value!r} is not a declared action") from None

    def start(self, kind: type) -> int:
        """The first code of the values of ``kind`` (its run of codes starts here)."""
        return self._starts[kind]

    def count(self, kind: type) -> int:
        """How many values of ``kind`` were declared."""
        return sum(1 for v in self.values if type(v) is kind)


@mypyc_attr(native_class=False, allow_interpreted_subclasses=True)  # an int: a Python class
class CodedAction(int):
    """Base of a game's int-coded actions, the fast form: each action is a small int (so
    the engine's and the bots' comparisons and hashes run in C) whose text and JSON form
    come from the value it was declared as. A game subclasses it once and builds its
    :class:`ActionTable` from its action values (frozen dataclasses, as in the default
    form), so the numbering, the text and the JSON form have one source::

        class Act(CodedAction):
            __slots__ = ()

        TABLE = ActionTable(Act, [*(Play(c) for c in CARDS), Pass()])
        PLAY = TABLE.start(Play)          # codes PLAY .. PLAY + len(CARDS) - 1
        TABLE[PLAY + 3]                   # the shared Act for Play(CARDS[3])
    """

    __slots__ = ()
    TABLE: ClassVar[ActionTable[Any]]

    def __str__(self) -> str:
        return self.TABLE.texts[self]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.TABLE.texts[self]!r})"

    def to_json(self) -> dict[str, Any]:
        return dict(self.TABLE.forms[self])

    def declared(self) -> Any:
        """The value this action was declared as (a frozen dataclass)."""
        return self.TABLE.values[self]

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (type(self).of, (int(self),))  # a pickle gives back the shared instance

    @classmethod
    def of(cls, code: int) -> Self:
        """The shared action with this code (how a stored state reads one back)."""
        table = cls.TABLE
        if type(code) is not int or not 0 <= code < len(table.actions):
            raise RecordError(f"{cls.__module__}.{cls.__name__} has no action with code "
                              f"{code!r} (codes 0..{len(table.actions) - 1})")
        action: Self = table.actions[code]
        return action


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
