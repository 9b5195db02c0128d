"""Loading and validating game data files (cards, maps, decks, score tables).

Data files are TOML (readable and editable by designers) or JSON. Validation errors
name the file, the entry and what is wrong::

    checker = DataChecker(path)
    checker.expect(len(cards) == 32, "navigation cards", f"expected 32 cards, found {len(cards)}")
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from cove.core.errors import DataError


def load_data(path: str | Path) -> dict[str, Any]:
    """Parse a TOML or JSON data file; a syntax error becomes a DataError naming the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise DataError(f"{p}: cannot read data file: {e.strerror or e}") from None
    try:
        if p.suffix == ".toml":
            return tomllib.loads(raw.decode("utf-8"))
        data = json.loads(raw)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise DataError(f"{p}: not valid {p.suffix.lstrip('.').upper()}: {e}") from None
    if not isinstance(data, dict):
        raise DataError(f"{p}: the top level must be a table/object")
    return data


class DataChecker:
    """Collects the context (file, entry) for clear validation errors."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def fail(self, entry: str, problem: str) -> DataError:
        return DataError(f"{self.path.name}: {entry}: {problem}")

    def expect(self, ok: bool, entry: str, problem: str) -> None:
        if not ok:
            raise self.fail(entry, problem)

    def field(self, table: Mapping[str, Any], key: str, kind: type | tuple[type, ...],
              entry: str) -> Any:
        """``table[key]``, which must exist and be of ``kind``."""
        if key not in table:
            raise self.fail(entry, f"missing field {key!r}")
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(entry, f"field {key!r} must be {_names(kinds)}, got {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(entry, f"field {key!r} must be {_names(kinds)}, got {value!r}")
        return value

    def one_of(self, value: Any, allowed: Iterable[Any], entry: str, what: str) -> Any:
        allowed = list(allowed)
        if value not in allowed:
            raise self.fail(entry, f"{what} {value!r} is not one of {', '.join(map(str, allowed))}")
        return value


def _names(kinds: tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in kinds)
