"""Each game's SPEC.md, and the check that its views keep to it.

A game's ``SPEC.md`` documents what programs get from it: the view (every top-level key of
``view(p)``, its type and meaning), the action space (its size and what each index range
means), the observation layout and the version history. The view table has the form::

    | Key | Type | Meaning |
    |---|---|---|
    | `hand` | list | your cards, as texts like "5 sharks" (players only) |
    | `anchor` | int or null | the anchored player's seat |

Types: ``int``, ``float`` (an int is accepted too), ``str``, ``bool``, ``list``, ``dict``,
``null``, joined with ``or``/``|``. The keys the engine adds to every view (``game``,
``players``, ``you``, ``to_move``, ``over``, ``decision``, ``scores``, ``winners``) are
documented once in docs/ARCHITECTURE.md, not in each SPEC.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ENGINE_KEYS = frozenset({"game", "players", "you", "to_move", "over", "decision", "scores",
                         "winners"})
REQUIRED_SECTIONS = ("## View", "## Action space", "## Observation", "## Versions")
_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,), "float": (float, int), "str": (str,), "bool": (bool,), "list": (list,),
    "dict": (dict,), "null": (type(None),),
}


def view_types(text: str) -> tuple[dict[str, tuple[type, ...]], list[str]]:
    """The documented view keys with their allowed Python types, and layout problems."""
    problems = [f"no '{s}' section" for s in REQUIRED_SECTIONS
                if not any(ln.strip().startswith(s) for ln in text.splitlines())]
    keys: dict[str, tuple[type, ...]] = {}
    in_view = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("## "):
            in_view = s.startswith("## View")
            continue
        if not in_view or not s.startswith("|"):
            continue
        cells = [c.strip() for c in s.strip("|").split("|")]
        if len(cells) < 3 or cells[0].lower() == "key" or set(cells[0]) <= set("-: "):
            continue
        key = cells[0].strip("` ")
        kinds: list[type] = []
        for word in re.split(r"\s*(?:\bor\b|\|)\s*", cells[1].lower()):
            base = word.split("[")[0].strip("` ")
            if base not in _TYPES:
                problems.append(f"view key {key!r}: unknown type {word!r}")
                continue
            kinds.extend(_TYPES[base])
        keys[key] = tuple(kinds)
    if not keys:
        problems.append("the View section has no | Key | Type | Meaning | table")
    return keys, problems


def check_view(view: dict[str, Any], spec: dict[str, tuple[type, ...]]) -> list[str]:
    """Problems with one view against the documented keys and types."""
    out = []
    for k, v in view.items():
        if k in ENGINE_KEYS:
            continue
        if k not in spec:
            out.append(f"view key {k!r} is not documented in SPEC.md")
        elif not isinstance(v, spec[k]) or (isinstance(v, bool) and bool not in spec[k]):
            out.append(f"view key {k!r} is {type(v).__name__}, SPEC.md says "
                       + " or ".join(t.__name__ for t in spec[k]))
    return out


def spec_path(state_module: str) -> Path:
    import importlib

    mod = importlib.import_module(state_module.rpartition(".")[0])
    assert mod.__file__ is not None
    return Path(mod.__file__).parent / "SPEC.md"
