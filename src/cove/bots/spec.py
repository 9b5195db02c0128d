"""Bot specs: ``name`` or ``name:key=value,key=value`` and the parameters bots declare.

A bot class lists its parameters in ``PARAMS`` (a tuple of :class:`Param`); the parser
checks names, types and ranges and passes them to the constructor as keyword arguments.
Every error lists the bots and their parameters, so a typo gets a usable answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cove.core.errors import CoveError
from cove.core.options import BadValue, allowed_text, kind_of, parse_value


class BotSpecError(CoveError, ValueError):
    """A bot spec that names no bot or a bad parameter."""


@dataclass(frozen=True)
class Param:
    """One bot parameter: its name, default (whose type is the parameter's type), help."""

    name: str
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None

    def allowed(self) -> str:
        return allowed_text(kind_of(self.default), self.choices, self.minimum, self.maximum)

    def describe(self) -> str:
        return f"{self.name}={self.default} ({self.allowed()}): {self.help}"

    def parse(self, bot: str, raw: str) -> Any:
        """``raw`` as this parameter's type, through the options' own parser."""
        try:
            return parse_value(kind_of(self.default), raw, self.choices, self.minimum,
                               self.maximum)
        except BadValue:
            raise BotSpecError(f"bot {bot!r}: {self.name}={raw!r} is not valid; "
                               f"{self.name} is {self.allowed()}") from None


def split_specs(text: str | Sequence[str]) -> list[str]:
    """Split a comma-separated list of specs, keeping each spec's own ``key=value`` list.

    ``"mcts:iterations=500,c=0.5,greedy,random"`` -> ``["mcts:iterations=500,c=0.5",
    "greedy", "random"]``: a piece holding ``=`` but no ``:`` continues the spec before it.
    A list already split naively on commas is accepted and re-joined the same way.
    """
    pieces = text.split(",") if isinstance(text, str) else [p for t in text for p in t.split(",")]
    out: list[str] = []
    for piece in (p.strip() for p in pieces):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def parse_params(bot: str, params: Sequence[Param], text: str) -> dict[str, Any]:
    """``key=value,key=value`` -> keyword arguments, checked against ``params``."""
    known = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, raw = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq:
            raise BotSpecError(f"bot {bot!r}: parameter {item!r} needs the form key=value; "
                               + param_names(bot, params))
        if key not in known:
            raise BotSpecError(f"bot {bot!r} has no parameter {key!r}; " + param_names(bot, params))
        if key in out:
            raise BotSpecError(f"bot {bot!r}: parameter {key!r} given twice")
        out[key] = known[key].parse(bot, raw.strip())
    return out


def param_names(bot: str, params: Sequence[Param]) -> str:
    """The parameters' names in one short line, for an error (``cove bots`` describes
    them; a spec error once listed every description, 1,500 characters on one line)."""
    if not params:
        return f"{bot} takes no parameters"
    return (f"{bot} parameters: {', '.join(p.name for p in params)} (`cove bots` describes "
            "each)")


def params_text(bot: str, params: Sequence[Param]) -> str:
    if not params:
        return f"{bot} takes no parameters"
    return f"{bot} parameters:" + "".join(f"\n  {p.describe()}" for p in params)
