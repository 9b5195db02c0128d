"""Typed, declared game options.

A game declares its options as a frozen dataclass whose fields are made with
:func:`option`. The declaration is the single source for defaults, allowed values,
validation, the CLI's ``-o KEY=VALUE`` parsing and the ``cove games`` listing.

Supported kinds, taken from the default's type:
- ``bool``: ``true/false/yes/no/on/off/1/0`` from text;
- ``int``: with optional ``minimum``/``maximum``;
- ``float``: with optional ``minimum``/``maximum``;
- ``str``: with optional ``choices``;
- ``tuple`` of ``str``: a subset of ``choices`` (text form: comma-separated), each entry
  at most once; with ``per_seat=True`` an ordered list whose first entries belong to P1,
  P2, ... (at least one per seat).

:func:`options_schema` turns a declaration into a JSON Schema (draft 2020-12) for a player
count: the lobby builds its form from it, ``cove games --json`` lists it, and
:func:`build_options` checks values by the same field declarations it is made from.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeVar

from cove.core.compiled import mypyc_attr
from cove.core.errors import OptionError

OptT = TypeVar("OptT", bound="Options")

_TRUE: Final = {"true", "yes", "on", "1"}
_FALSE: Final = {"false", "no", "off", "0"}


def option(
    default: Any,
    *,
    help: str,
    choices: Sequence[Any] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    per_seat: bool = False,
) -> Any:
    """Declare one option field. ``help`` says what it changes (and the tag, if DESIGN).
    ``per_seat`` (a list option only): the list gives one entry per seat in seat order."""
    if per_seat and not isinstance(default, tuple):
        raise TypeError("per_seat applies to list options (a tuple default) only")
    meta = {
        "help": help,
        "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum,
        "maximum": maximum,
        "per_seat": per_seat,
    }
    return dataclasses.field(default=default, metadata=meta)


OptionsT = TypeVar("OptionsT", bound="Options")


def _remake(cls: type[OptionsT], fields: dict[str, Any]) -> OptionsT:
    """An options value from its fields (how a pickled one is read back)."""
    return cls(**fields)


@mypyc_attr(allow_interpreted_subclasses=True)  # each game subclasses it
@dataclasses.dataclass(frozen=True)
class Options:
    """Base of every game's options. A game with no options uses it as is."""

    def check(self, players: int) -> None:
        """Cross-field or player-count checks; raise OptionError. Override as needed."""

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled by its fields: a compiled frozen dataclass cannot be unpickled by setattr
        return (_remake, (type(self), {f.name: getattr(self, f.name)
                                       for f in dataclasses.fields(self) if f.init}))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out


def kind_of(default: Any) -> str:
    """The parameter kind a default value declares: bool, int, float, list or str."""
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, float):
        return "float"
    if isinstance(default, tuple):
        return "list"
    return "str"


def allowed_text(kind: str, choices: Sequence[Any] | None = None,
                 minimum: float | None = None, maximum: float | None = None) -> str:
    """What a parameter of this kind and these bounds accepts, in words."""
    if kind == "bool":
        return "true or false"
    if choices is not None:
        opts = ", ".join(str(c) for c in choices)
        return f"a comma-separated subset of: {opts}" if kind == "list" else f"one of: {opts}"
    noun = "an integer" if kind == "int" else "a number"
    if minimum is not None and maximum is not None:
        return f"{noun} from {minimum:g} to {maximum:g}"
    if minimum is not None:
        return f"{noun} >= {minimum:g}"
    if kind in ("int", "float"):
        return noun
    return "any text"


class BadValue(ValueError):
    """A value a typed parameter does not accept (the caller names the parameter)."""


def parse_value(kind: str, raw: Any, choices: Sequence[Any] | None = None,
                minimum: float | None = None, maximum: float | None = None) -> Any:
    """The one typed-parameter parser, for game options and bot parameters alike: ``raw``
    (a Python value or command-line text) as ``kind``, checked against the choices and
    bounds. Raises :class:`BadValue`; a list naming an entry twice says so."""
    value: Any
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            return raw.strip().lower() in _TRUE
        raise BadValue
    if kind in ("int", "float"):
        if isinstance(raw, bool):
            raise BadValue
        try:
            value = int(raw) if kind == "int" else float(raw)
        except (TypeError, ValueError, OverflowError):  # int("x"), int(inf), int(nan)
            raise BadValue from None
        if kind == "float" and not math.isfinite(value):
            raise BadValue
        if kind == "int" and isinstance(raw, float) and raw != int(raw):
            raise BadValue
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise BadValue
        return value
    if kind == "list":
        if isinstance(raw, str):
            items = [s.strip() for s in raw.split(",") if s.strip()]
        elif isinstance(raw, (list, tuple)):
            items = [str(s) for s in raw]
        else:
            raise BadValue
        if choices is not None and any(i not in choices for i in items):
            raise BadValue
        if len(set(items)) != len(items):
            raise BadValue("lists an entry twice")
        return tuple(items)
    if not isinstance(raw, str) or (choices is not None and raw not in choices):
        raise BadValue
    return raw


def _kind(f: dataclasses.Field[Any]) -> str:
    return kind_of(f.default)


def _allowed_text(f: dataclasses.Field[Any]) -> str:
    m = f.metadata
    text = allowed_text(_kind(f), m.get("choices"), m.get("minimum"), m.get("maximum"))
    if m.get("per_seat"):
        return text.replace("a comma-separated subset of", "one per seat in seat order, "
                            "comma-separated, each once, from")
    return text


def _coerce(f: dataclasses.Field[Any], raw: Any, game_id: str, players: int) -> Any:
    m = f.metadata
    try:
        value = parse_value(_kind(f), raw, m.get("choices"), m.get("minimum"),
                            m.get("maximum"))
    except BadValue as e:
        if str(e):
            raise OptionError(f"{game_id}: option {f.name} {e}: {raw!r}") from None
        raise OptionError(f"{game_id}: option {f.name}={raw!r} is not valid; allowed: "
                          f"{_allowed_text(f)}") from None
    if m.get("per_seat") and len(value) < players:
        raise OptionError(f"{game_id}: option {f.name} gives {len(value)} of the {players} "
                          f"entries it needs, one per seat in seat order (P1 first); "
                          f"allowed: {_allowed_text(f)}")
    return value


def build_options(cls: type[OptT], raw: Mapping[str, Any], players: int, game_id: str) -> OptT:
    """Validate ``raw`` (Python values or CLI text) against ``cls`` and build it."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, val in raw.items():
        name = key.replace("-", "_")
        if name not in fields:
            valid = ", ".join(sorted(fields)) or "(this game has no options)"
            raise OptionError(f"{game_id}: unknown option {key!r}; valid options: {valid}")
        values[name] = _coerce(fields[name], val, game_id, players)
    opts = cls(**values)
    opts.check(players)
    return opts


def describe_options(cls: type[Options]) -> list[dict[str, Any]]:
    """JSON-ready description of each option, for ``cove games`` and the docs."""
    out = []
    for f in dataclasses.fields(cls):
        d = f.default
        out.append(
            {
                "name": f.name,
                "type": _kind(f),
                "default": list(d) if isinstance(d, tuple) else d,
                "allowed": _allowed_text(f),
                "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
                "help": f.metadata.get("help", ""),
                "per_seat": bool(f.metadata.get("per_seat")),
            }
        )
    return out


def _property(f: dataclasses.Field[Any], players: int) -> dict[str, Any]:
    m = f.metadata
    kind = _kind(f)
    default: Any = list(f.default) if isinstance(f.default, tuple) else f.default
    out: dict[str, Any] = {"title": f.name.replace("_", " "), "description": m.get("help", ""),
                           "default": default}
    if kind == "list":
        out["type"] = "array"
        out["items"] = ({"type": "string", "enum": list(m["choices"])} if m.get("choices")
                        else {"type": "string"})
        out["uniqueItems"] = True
        if m.get("per_seat"):
            out["minItems"] = players
            out["x-cove-per-seat"] = True
            out["default"] = list(default)[:players]
        return out
    out["type"] = {"bool": "boolean", "int": "integer", "float": "number", "str": "string"}[kind]
    if m.get("choices"):
        out["enum"] = list(m["choices"])
    for bound in ("minimum", "maximum"):
        if m.get(bound) is not None:
            out[bound] = m[bound]
    return out


def options_schema(cls: type[Options], players: int, game_id: str = "") -> dict[str, Any]:
    """The options of ``cls`` for ``players`` players as a JSON Schema (draft 2020-12):
    one property per option with its type, allowed values or bounds, default and help.
    A value the schema accepts is accepted by :func:`build_options`, except what a game's
    ``check`` refuses across options (say, an event deck left empty with events on)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game_id or cls.__name__} options for {players} players",
        "type": "object",
        "additionalProperties": False,
        "properties": {f.name: _property(f, players) for f in dataclasses.fields(cls)},
    }
