"""Loading and validating game data files (cards, maps, decks, score tables).

Data files are TOML (readable and editable by designers) or JSON. Validation errors
name the file, the entry and what is wrong::

    checker = DataChecker(path)
    checker.expect(len(cards) == 32, "navigation cards", f"expected 32 cards, found {len(cards)}")

A data file's path can come from an untrusted record (a game's ``data_file``
option), so :func:`load_data` reads only

- from allowed places: the built-in files beside the games' packages, or a directory the
  user names (``COVE_DATA_DIR``, several joined with ``os.pathsep``; the CLI's
  ``--data-dir`` sets it);
- regular files (never a FIFO, a device or ``/dev/stdin``), at most :data:`MAX_BYTES`;
- UTF-8 text whose values are finite numbers and bounded integers;

and its errors never echo the file's contents. :func:`data_digests` gives the content
hash of every data file a game's options depend on, which records carry so that a replay
against an edited file is refused instead of silently scoring another game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import re
import stat
import sys
import tomllib
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Generic, TypeVar

from cove.core.errors import DataError

T = TypeVar("T")

MAX_BYTES = 1 << 20
"""The largest data file :func:`load_data` reads (1 MiB; the built-in files are ~20 KiB)."""

MAX_INT = 1 << 63
"""Integers in data files must be below this in size (TOML's own 64-bit range)."""

ENV_DIR = "COVE_DATA_DIR"
BUILTIN_DIR = Path(__file__).resolve().parent.parent / "games"
"""Where the built-in data files live (beside each game's package)."""
EXAMPLE_DIR = BUILTIN_DIR.parent / "example_game"
"""The tutorial game's folder, whose data file is built in too."""


def allowed_dirs() -> list[Path]:
    """The directories data files may be read from: the built-in ones and
    ``COVE_DATA_DIR``."""
    dirs = [BUILTIN_DIR, EXAMPLE_DIR]
    for part in os.environ.get(ENV_DIR, "").split(os.pathsep):
        if part.strip():
            dirs.append(Path(part).expanduser().resolve())
    return dirs


def read_capped(path: Path, limit: int, what: str, error: type[Exception]) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; otherwise ``error`` naming
    ``what`` and the path. Never blocks on a FIFO or reads a device."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise error(f"{path}: cannot read {what}: {e.strerror or e}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path}: {what} must be a regular file, not a device, pipe or directory")
        if info.st_size > limit:
            raise error(f"{path}: {what} is {info.st_size} bytes; the limit is {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        while True:  # the size may change under us: never read more than limit + 1
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise error(f"{path}: {what} is over the limit of {limit} bytes")
        return b"".join(chunks)
    except OSError as e:
        raise error(f"{path}: cannot read {what}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def resolve_data_path(path: str | Path) -> Path:
    """The real path of a data file, which must lie in an allowed place (see the module)."""
    p = Path(path).expanduser()
    try:
        real = p.resolve()
    except (OSError, RuntimeError, ValueError) as e:
        raise DataError(f"{_short(str(path))}: not a usable path: {e}") from None
    dirs = allowed_dirs()
    if not any(real == d or real.is_relative_to(d) for d in dirs):
        raise DataError(
            f"{p}: cannot read data file: data files are read only from the built-in "
            f"rulesets or a directory you allow with {ENV_DIR} or --data-dir (allowed now: "
            + ", ".join(str(d) for d in dirs) + ")"
        )
    return real


def decode_text(raw: bytes, name: str, what: str, error: type[Exception]) -> str:
    """UTF-8 text (a leading BOM is dropped); other encodings get a one-line ``error``."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error(f"{name}: {what} is UTF-16; save it as UTF-8")
    if b"\x00" in raw:
        raise error(f"{name}: {what} is binary (it holds NUL bytes), not UTF-8 text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"{name}: {what} is not UTF-8 text (byte {e.start + 1} is not UTF-8; "
                    "Latin-1 or another encoding?); save it as UTF-8") from None


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > 19:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits is too large")
    return int(text)


def _json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed (numbers must be finite)")


def _toml_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not allowed (numbers must be finite)")
    return value


def parse_json(text: str) -> Any:
    """``json.loads`` without NaN/Infinity or integers of more than 19 digits; raises
    ValueError (including JSONDecodeError) or RecursionError (too deeply nested)."""
    return json.loads(text, parse_int=_json_int, parse_constant=_json_constant)


def check_values(data: Any) -> str | None:
    """A problem with the parsed values (an integer beyond 64 bits, a non-finite number,
    nesting deeper than 100), or None. Iterative, so any depth is safe."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > 100:
            return "values are nested more than 100 deep"
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and not -MAX_INT <= value < MAX_INT:
            return "an integer is too large (more than 64 bits)"
        if isinstance(value, float) and not math.isfinite(value):
            return "a number is not finite (inf or nan)"
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return None


def load_data(path: str | Path) -> dict[str, Any]:
    """Parse a TOML or JSON data file from an allowed place (see the module); any problem
    (place, kind of file, size, encoding, syntax, values) is a DataError naming the file
    and never quoting its contents."""
    p = Path(path)
    real = resolve_data_path(p)
    raw = read_capped(real, MAX_BYTES, "data file", DataError)
    text = decode_text(raw, str(p), "data file", DataError)
    kind = "TOML" if p.suffix == ".toml" else "JSON"
    try:
        data = tomllib.loads(text, parse_float=_toml_float) if kind == "TOML" else parse_json(
            text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{p}: not valid TOML: {_short(str(e))}") from None
    except json.JSONDecodeError as e:
        raise DataError(f"{p}: not valid JSON (line {e.lineno} column {e.colno}: "
                        f"{e.msg})") from None
    except RecursionError:
        raise DataError(f"{p}: not valid {kind}: nested too deeply") from None
    except ValueError as e:
        raise DataError(f"{p}: not valid {kind}: {_short(str(e))}") from None
    if not isinstance(data, dict):
        raise DataError(f"{p}: the top level must be a table/object")
    problem = check_values(data)
    if problem:
        raise DataError(f"{p}: {problem}")
    return data


# -- content hashes for records ----------------------------------------------------------------
def is_data_option(name: str) -> bool:
    """A data-file option: named ``data_file`` or ending in ``_file``."""
    return name == "data_file" or name.endswith("_file")


def builtin_data_file(options: object) -> Path | None:
    """The built-in data file beside the package that declares ``options``' class
    (``<package>/<package>.toml`` or ``.json``), or None when there is none."""
    module = sys.modules.get(type(options).__module__)
    where = getattr(module, "__file__", None)
    if not where:
        return None
    folder = Path(where).resolve().parent
    for suffix in (".toml", ".json"):
        candidate = folder / (folder.name + suffix)
        if candidate.is_file():
            return candidate
    return None


_DIGESTS: dict[tuple[str, int, int, int], str] = {}


class FileCache(Generic[T]):
    """Data files loaded once per content: ``get(path)`` loads a file the first time and
    again when it changed on disk (keyed by the real path, modification time, size and
    inode, as :func:`file_digest` is), and keeps at most ``size`` of them, so a designer
    editing a file, or a fuzzer writing thousands, never gets a stale or an unbounded
    cache. A file that has not changed gives back the same loaded object."""

    def __init__(self, load: Callable[[Path], T], size: int = 32) -> None:
        self.load = load
        self.size = size
        self._kept: dict[tuple[str, int, int, int], T] = {}

    def get(self, path: str | Path) -> T:
        real = resolve_data_path(path)
        try:
            info = real.stat()
        except OSError as e:
            raise DataError(f"{path}: cannot read data file: {e.strerror or e}") from None
        key = (str(real), info.st_mtime_ns, info.st_size, info.st_ino)
        hit = self._kept.get(key)
        if hit is None:
            hit = self.load(Path(path))
            if len(self._kept) >= self.size:
                del self._kept[next(iter(self._kept))]  # the oldest goes
            self._kept[key] = hit
        return hit


def file_digest(path: str | Path) -> str:
    """``"sha256:<hex>"`` of a data file read under :func:`load_data`'s rules."""
    real = resolve_data_path(path)
    try:
        info = real.stat()
    except OSError as e:
        raise DataError(f"{path}: cannot read data file: {e.strerror or e}") from None
    key = (str(real), info.st_mtime_ns, info.st_size, info.st_ino)
    digest = _DIGESTS.get(key)
    if digest is None:
        raw = read_capped(real, MAX_BYTES, "data file", DataError)
        digest = "sha256:" + hashlib.sha256(raw).hexdigest()
        if len(_DIGESTS) > 256:
            _DIGESTS.clear()
        _DIGESTS[key] = digest
    return digest


def data_digests(options: object) -> dict[str, str]:
    """Option name -> ``"sha256:<hex>"`` of the file each data-file option names.

    ``options`` is a game's options dataclass (or a mapping of option values). An empty
    value means the built-in file, which is hashed when it can be found beside the
    options' package and skipped otherwise. A named file that cannot be read raises
    DataError."""
    if dataclasses.is_dataclass(options) and not isinstance(options, type):
        values = {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}
    elif isinstance(options, Mapping):
        values = dict(options)
    else:
        raise TypeError(f"data_digests needs an options dataclass or mapping, got "
                        f"{type(options).__name__}")
    out: dict[str, str] = {}
    for name, value in sorted(values.items()):
        if not is_data_option(str(name)) or not isinstance(value, str):
            continue
        if value:
            out[name] = file_digest(value)
        else:
            builtin = builtin_data_file(options)
            if builtin is not None:
                out[name] = file_digest(builtin)
    return out


def _short(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (errors quote values, never whole contents)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class DataChecker:
    """Collects the context (file, entry) for clear validation errors."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def fail(self, entry: str, problem: str) -> DataError:
        return DataError(f"{self.path.name}: {_short(entry)}: {problem}")

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
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise self.fail(entry, f"field {key!r} must be {_names(kinds)}, got "
                            f"{_kind_of(value)}")
        return value

    def one_of(self, value: Any, allowed: Iterable[Any], entry: str, what: str) -> Any:
        allowed = list(allowed)
        if value not in allowed:
            shown = _short(repr(value), 40) if isinstance(value, str | int | float) else _kind_of(
                value)
            raise self.fail(entry, f"{what} {shown} is not one of "
                            f"{_short(', '.join(map(str, allowed)), 400)}")
        return value


def _kind_of(value: Any) -> str:
    """What a wrong value is, without quoting it (it may come from any file)."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _names(kinds: tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in kinds)


# -- typed data files ------------------------------------------------------------------------

def entry(*, minimum: float | None = None, maximum: float | None = None,
          choices: Iterable[Any] | None = None, min_items: int | None = None,
          max_items: int | None = None, pattern: str | None = None,
          keys: Iterable[str] | None = None, key: str | None = None,
          default: Any = dataclasses.MISSING, help: str = "") -> Any:
    """Declare one field of a data schema (a frozen dataclass) with its constraints:
    bounds for a number, allowed values, the number of items of a list (or characters of
    a text), a regular expression a text must match in full, the exact keys of a table,
    the key the file uses when it cannot be the field's name (``key="if"``); ``help`` says
    what it means to a designer. A field typed ``X | None`` with ``default=None`` may be
    left out of the file."""
    meta = {"minimum": minimum, "maximum": maximum, "help": help,
            "choices": tuple(choices) if choices is not None else None,
            "min_items": min_items, "max_items": max_items, "pattern": pattern,
            "keys": tuple(keys) if keys is not None else None, "key": key}
    if isinstance(default, (list, dict)):
        raise TypeError("use a tuple for a list default")
    return dataclasses.field(default=default, metadata=meta)


@typing.dataclass_transform(frozen_default=True, field_specifiers=(entry, dataclasses.field))
def schema(cls: type[T]) -> type[T]:
    """A data schema: a frozen dataclass whose fields may be declared with :func:`entry`
    (type checkers then know which fields have defaults)."""
    return dataclasses.dataclass(frozen=True)(cls)


def load_typed(schema: type[T], path: str | Path) -> T:
    """The data file at ``path`` read into ``schema``, a frozen dataclass whose fields are
    ``int``, ``float``, ``str``, ``bool``, ``tuple[X, ...]``, ``dict[str, X]`` or another
    such dataclass (a TOML table), constrained with :func:`entry`. Every value is checked:
    a wrong type, a value out of bounds or not allowed, a missing or unknown field is a
    DataError naming the file, the entry (``cards[3].value``) and the problem."""
    return read_typed(schema, load_data(path), DataChecker(path))


def read_typed(schema: type[T], raw: Any, checker: DataChecker) -> T:
    """``raw`` (a data file already read) into ``schema``, checked as :func:`load_typed`
    does; errors name ``checker``'s file."""
    value: T = _typed(schema, raw, "", checker, {})
    return value


def _typed(kind: Any, raw: Any, where: str, checker: DataChecker,
           meta: Mapping[str, Any]) -> Any:
    name = where or "the file"
    origin = typing.get_origin(kind)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        checker.expect(isinstance(raw, dict), name, f"must be a table, got {_kind_of(raw)}")
        hints = typing.get_type_hints(kind)
        fields = {(f.metadata.get("key") or f.name): f for f in dataclasses.fields(kind)}
        unknown = sorted(set(raw) - set(fields))
        checker.expect(not unknown, name, f"unknown field {', '.join(map(repr, unknown))}; "
                       f"fields: {', '.join(fields)}")
        values = {}
        for written, f in fields.items():
            inner = f"{where}.{written}" if where else written
            if written not in raw:
                has_default = (f.default is not dataclasses.MISSING
                               or f.default_factory is not dataclasses.MISSING)
                checker.expect(has_default, inner, "missing")
                continue
            values[f.name] = _typed(hints[f.name], raw[written], inner, checker, f.metadata)
        return kind(**values)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        if len(options) != 1:
            raise TypeError(f"a data schema field may be X | None only, not {kind!r} ({name})")
        return _typed(options[0], raw, where, checker, meta)
    if origin is tuple:
        item = typing.get_args(kind)[0]
        checker.expect(isinstance(raw, list), name, f"must be a list, got {_kind_of(raw)}")
        low, high = meta.get("min_items"), meta.get("max_items")
        if low is not None and len(raw) < low:
            raise checker.fail(name, f"needs at least {low} items, has {len(raw)}")
        if high is not None and len(raw) > high:
            raise checker.fail(name, f"takes at most {high} items, has {len(raw)}")
        each = {k: v for k, v in meta.items() if k not in ("min_items", "max_items")}
        return tuple(_typed(item, x, f"{name}[{i}]", checker, each) for i, x in enumerate(raw))
    if origin is dict:
        key_kind, item = typing.get_args(kind)
        checker.expect(isinstance(raw, dict) and key_kind is str, name,
                       f"must be a table, got {_kind_of(raw)}")
        want = meta.get("keys")
        if want is not None:
            missing = [k for k in want if k not in raw]
            extra = sorted(k for k in raw if k not in want)
            checker.expect(not missing, name, f"missing {', '.join(map(repr, missing))}")
            checker.expect(not extra, name, f"unknown {', '.join(map(repr, extra))}; the keys "
                           f"are {', '.join(want)}")
        each = {k: v for k, v in meta.items() if k != "keys"}
        return {k: _typed(item, v, f"{name}.{k}", checker, each) for k, v in raw.items()}
    if kind is float:
        ok = isinstance(raw, (int, float)) and not isinstance(raw, bool)
        checker.expect(ok, name, f"must be a number, got {_kind_of(raw)}")
        raw = float(raw)
    elif kind in (int, str, bool):
        ok = isinstance(raw, kind) and (kind is bool or not isinstance(raw, bool))
        checker.expect(ok, name, f"must be {_names((kind,))}, got {_kind_of(raw)}")
    else:
        raise TypeError(f"a data schema field cannot be {kind!r} ({name})")
    if kind is str:
        pattern, shortest = meta.get("pattern"), meta.get("min_items")
        if pattern is not None and re.fullmatch(pattern, raw) is None:
            raise checker.fail(name, f"must match {pattern}")
        if shortest is not None and len(raw) < shortest:
            raise checker.fail(name, f"must be at least {shortest} characters")
        longest = meta.get("max_items")
        if longest is not None and len(raw) > longest:
            raise checker.fail(name, f"must be at most {longest} characters")
    low, high, choices = meta.get("minimum"), meta.get("maximum"), meta.get("choices")
    if low is not None and raw < low:
        raise checker.fail(name, f"must be at least {low:g}")
    if high is not None and raw > high:
        raise checker.fail(name, f"must be at most {high:g}")
    if choices is not None:
        checker.one_of(raw, choices, name, "value")
    return raw
