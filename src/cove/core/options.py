"""Typed, declared game options.

A game declares its options as a frozen dataclass whose fields are made with
:func:`option`. The declaration is the single source for defaults, allowed values,
validation, the CLI's ``-o KEY=VALUE`` parsing and the ``cove games`` listing.

Supported kinds, taken from the default's type:
- ``bool``: ``true/false/yes/no/on/off/1/0`` from text;
- ``int``: with optional ``minimum``/``maximum``;
- ``float``: with optional ``minimum``/``maximum``;
- ``str``: with optional ``choices``;
- ``tuple`` of ``str``: a subset of ``choices`` (text form: comma-separated).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from cove.core.errors import OptionError

OptT = TypeVar("OptT", bound="Options")

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def option(
    default: Any,
    *,
    help: str,
    choices: Sequence[Any] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
) -> Any:
    """Declare one option field. ``help`` says what it changes (and the tag, if DESIGN)."""
    meta = {
        "help": help,
        "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum,
        "maximum": maximum,
    }
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class Options:
    """Base of every game's options. A game with no options uses it as is."""

    def check(self, players: int) -> None:
        """Cross-field or player-count checks; raise OptionError. Override as needed."""

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
    return allowed_text(_kind(f), m.get("choices"), m.get("minimum"), m.get("maximum"))


def _coerce(f: dataclasses.Field[Any], raw: Any, game_id: str) -> Any:
    m = f.metadata
    try:
        return parse_value(_kind(f), raw, m.get("choices"), m.get("minimum"), m.get("maximum"))
    except BadValue as e:
        if str(e):
            raise OptionError(f"{game_id}: option {f.name} {e}: {raw!r}") from None
        raise OptionError(f"{game_id}: option {f.name}={raw!r} is not valid; allowed: "
                          f"{_allowed_text(f)}") from None


def build_options(cls: type[OptT], raw: Mapping[str, Any], players: int, game_id: str) -> OptT:
    """Validate ``raw`` (Python values or CLI text) against ``cls`` and build it."""
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, val in raw.items():
        name = key.replace("-", "_")
        if name not in fields:
            valid = ", ".join(sorted(fields)) or "(this game has no options)"
            raise OptionError(f"{game_id}: unknown option {key!r}; valid options: {valid}")
        values[name] = _coerce(fields[name], val, game_id)
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
            }
        )
    return out
