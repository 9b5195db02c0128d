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


def _kind(f: dataclasses.Field[Any]) -> str:
    d = f.default
    if isinstance(d, bool):
        return "bool"
    if isinstance(d, int):
        return "int"
    if isinstance(d, float):
        return "float"
    if isinstance(d, tuple):
        return "list"
    return "str"


def _allowed_text(f: dataclasses.Field[Any]) -> str:
    kind = _kind(f)
    m = f.metadata
    if kind == "bool":
        return "true or false"
    if m.get("choices") is not None:
        opts = ", ".join(str(c) for c in m["choices"])
        return f"a comma-separated subset of: {opts}" if kind == "list" else f"one of: {opts}"
    lo, hi = m.get("minimum"), m.get("maximum")
    if lo is not None and hi is not None:
        return f"{'an integer' if kind == 'int' else 'a number'} from {lo} to {hi}"
    if lo is not None:
        return f"{'an integer' if kind == 'int' else 'a number'} >= {lo}"
    if kind in ("int", "float"):
        return "an integer" if kind == "int" else "a number"
    return "any text"


def _coerce(f: dataclasses.Field[Any], raw: Any, game_id: str) -> Any:
    kind = _kind(f)
    m = f.metadata
    bad = OptionError(
        f"{game_id}: option {f.name}={raw!r} is not valid; allowed: {_allowed_text(f)}"
    )
    value: Any
    if kind == "bool":
        if isinstance(raw, bool):
            value = raw
        elif isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
            value = raw.strip().lower() in _TRUE
        else:
            raise bad
    elif kind in ("int", "float"):
        if isinstance(raw, bool):
            raise bad
        try:
            value = int(raw) if kind == "int" else float(raw)
        except (TypeError, ValueError, OverflowError):  # int("x"), int(inf), int(nan)
            raise bad from None
        if kind == "float" and not math.isfinite(value):
            raise bad
        if kind == "int" and isinstance(raw, float) and raw != int(raw):
            raise bad
        lo, hi = m.get("minimum"), m.get("maximum")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise bad
    elif kind == "list":
        if isinstance(raw, str):
            items = [s.strip() for s in raw.split(",") if s.strip()]
        elif isinstance(raw, (list, tuple)):
            items = [str(s) for s in raw]
        else:
            raise bad
        choices = m.get("choices")
        if choices is not None and any(i not in choices for i in items):
            raise bad
        if len(set(items)) != len(items):
            raise OptionError(f"{game_id}: option {f.name} lists an entry twice: {raw!r}")
        value = tuple(items)
    else:
        if not isinstance(raw, str):
            raise bad
        value = raw
        choices = m.get("choices")
        if choices is not None and value not in choices:
            raise bad
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
