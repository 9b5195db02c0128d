"""A state's values as plain JSON, and back: the one encoder behind ``to_json``,
``from_json``, ``fingerprint`` and pickling.

Game states hold ints, strings, lists, tuples, dicts, sets, small records (actions,
tasks) and a few slotted helper objects. Each kind gets a tag so that decoding gives back
exactly the same Python values (a tuple stays a tuple, a dict key stays an int)::

    list  -> [...]                       tuple     -> {"t": [...]}
    dict  -> {"d": [[k, v], ...]}        set       -> {"s": [...]} (sorted by encoding)
    frozenset -> {"f": [...]}            record    -> {"c": "module:Name", "v": {...}}
    bytes -> {"y": "0a01"} (hex digits)  bytearray -> {"ya": "0a01"}
    array -> {"a": ["L", [...]]} (its typecode and numbers)
    int subclass -> {"i": "module:Name", "v": 3}
    slotted object -> {"o": "module:Name", "v": {...}}

A record is a value made by calling its class with its fields: a dataclass (its
``__init__`` fields), or a plain class that names its constructor's arguments, each
also an attribute, in ``__match_args__`` (Python's own list of a class's positional
fields, which dataclasses set too). Plain records are for the compiled build, where a
dataclass's ``__init__`` stays Python code (docs/BUILD.md).

Decoding only ever builds classes from an allow-list: classes defined in the game's own
package or in ``cove.core``. An untrusted document can therefore not name ``os.system``
or any other class; it gets a :class:`~cove.core.errors.RecordError` instead.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
import json
import math
from array import array
from collections.abc import Callable
from typing import Any, Final

from cove.core.errors import RecordError

_SCALARS: Final = (str, int, float, bool, type(None))
_INT_TYPECODES: Final = "bBhHiIlLqQ"
"""The typecodes of stored arrays: integers of each C size."""


def class_tag(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def encode(value: Any) -> Any:
    """``value`` as JSON-ready data with type tags (see the module docstring)."""
    t = type(value)
    if t is int or t is str or t is bool or value is None:
        return value
    if t is float:
        if not math.isfinite(value):
            raise RecordError(f"cannot store the number {value!r}")
        return value
    if t is list:
        return [encode(v) for v in value]
    if t is tuple:
        return {"t": [encode(v) for v in value]}
    if t is dict:
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if t is set or t is frozenset:
        items = sorted((encode(v) for v in value), key=_order)
        return {"s" if t is set else "f": items}
    if t is bytes or t is bytearray:  # flags per edge, per space...: one byte each
        return {"y" if t is bytes else "ya": value.hex()}
    if t is array:  # numbers of one C type, e.g. one per space of a board
        return {"a": [value.typecode, value.tolist()]}
    fields = record_fields(t)
    if fields is not None:
        return {"c": class_tag(t), "v": {name: encode(getattr(value, name)) for name in fields}}
    if isinstance(value, int):  # an int-valued action (a game whose moves are numbers)
        return {"i": class_tag(t), "v": int(value)}
    slots = slot_names(t)
    if slots:
        return {"o": class_tag(t), "v": {k: encode(getattr(value, k)) for k in slots
                                         if hasattr(value, k)}}
    raise RecordError(f"cannot store a value of type {t.__name__}")


def record_fields(cls: type) -> tuple[str, ...] | None:
    """The fields a record of class ``cls`` is made from, in its constructor's order: a
    dataclass's ``__init__`` fields, else the names in ``__match_args__``; None when
    ``cls`` is no record."""
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls) if f.init)
    names = getattr(cls, "__match_args__", None)
    if isinstance(names, tuple) and all(isinstance(n, str) for n in names):
        return names
    return None


def pickle_by_fields(*classes: type) -> None:
    """Pickle each record class of ``classes`` as a call with its fields. Python's default
    sets the fields one by one, which a compiled frozen dataclass or ``Final`` attribute
    refuses (docs/BUILD.md); the pickled values are the same in both builds."""
    for cls in classes:
        copyreg.pickle(cls, _by_fields)


def pickle_records(namespace: dict[str, Any]) -> None:
    """:func:`pickle_by_fields` for every frozen dataclass and every plain record
    (``__match_args__``) a module defines (called with its ``globals()`` at its end)."""
    name = namespace["__name__"]
    pickle_by_fields(*(v for v in namespace.values() if isinstance(v, type)
                       and v.__module__ == name and _frozen_record(v)))


def _frozen_record(cls: type) -> bool:
    if dataclasses.is_dataclass(cls):
        return bool(cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    return record_fields(cls) is not None


def _by_fields(value: Any) -> tuple[Any, ...]:
    fields = record_fields(type(value))
    assert fields is not None, f"{type(value).__name__} is no record"
    return (type(value), tuple(getattr(value, name) for name in fields))


def _order(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


def slot_names(cls: type) -> list[str]:
    """Every ``__slots__`` name of ``cls`` and its bases (most basic first)."""
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        # a compiled class keeps its attribute names in __mypyc_attrs__ (docs/BUILD.md)
        s = klass.__dict__.get("__slots__", klass.__dict__.get("__mypyc_attrs__", ()))
        for name in (s,) if isinstance(s, str) else s:
            if name not in ("__dict__", "__weakref__") and name not in names:
                names.append(name)
    return names


class Decoder:
    """Turns encoded data back into values, building only allowed classes."""

    def __init__(self, allowed_prefixes: tuple[str, ...]) -> None:
        self.allowed = allowed_prefixes
        self._cache: dict[str, type] = {}

    def cls(self, tag: Any) -> type:
        if not isinstance(tag, str) or ":" not in tag:
            raise RecordError(f"bad class tag {tag!r}")
        if tag in self._cache:
            return self._cache[tag]
        module, _, name = tag.partition(":")
        if not any(module == p or module.startswith(p + ".") for p in self.allowed):
            raise RecordError(f"class {tag!r} is not part of this game")
        try:
            obj: Any = importlib.import_module(module)
            for part in name.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError):
            raise RecordError(f"unknown class {tag!r}") from None
        if not isinstance(obj, type):
            raise RecordError(f"{tag!r} is not a class")
        self._cache[tag] = obj
        return obj

    def decode(self, data: Any, depth: int = 0) -> Any:
        if depth > 60:
            raise RecordError("state data is nested too deeply")
        if isinstance(data, _SCALARS):
            if isinstance(data, float) and not math.isfinite(data):
                raise RecordError(f"bad number {data!r} in state data")
            return data
        if isinstance(data, list):
            return [self.decode(v, depth + 1) for v in data]
        if not isinstance(data, dict) or len(data) not in (1, 2):
            raise RecordError(f"unreadable value in state data: {_short(data)}")
        d = depth + 1
        if "t" in data:
            return tuple(self._items(data["t"], d))
        if "d" in data:
            pairs = data["d"]
            if not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 2 for p in pairs
            ):
                raise RecordError("a stored mapping must be a list of [key, value] pairs")
            return {self._key(k, d): self.decode(v, d) for k, v in pairs}
        if "s" in data:
            return {self._key(v, d) for v in self._items(data["s"], d, raw=True)}
        if "f" in data:
            return frozenset(self._key(v, d) for v in self._items(data["f"], d, raw=True))
        if "a" in data:
            return self._array(data["a"])
        for tag in ("y", "ya"):
            if tag in data:
                return self._bytes(tag, data[tag])
        for tag in ("c", "i", "o"):
            if tag in data:
                return self._object(tag, data, d)
        raise RecordError(f"unreadable value in state data: {_short(data)}")

    def _items(self, data: Any, depth: int, raw: bool = False) -> list[Any]:
        if not isinstance(data, list):
            raise RecordError("a stored sequence must be a list")
        return list(data) if raw else [self.decode(v, depth) for v in data]

    def _bytes(self, tag: str, text: Any) -> bytes | bytearray:
        try:
            value = bytes.fromhex(text)
        except (TypeError, ValueError):
            raise RecordError(f"stored bytes must be hex digits, not {_short(text)}") from None
        return value if tag == "y" else bytearray(value)

    def _array(self, data: Any) -> array[Any]:
        if not (isinstance(data, list) and len(data) == 2 and data[0] in _INT_TYPECODES
                and isinstance(data[1], list) and all(type(v) is int for v in data[1])):
            raise RecordError("a stored array must be [typecode, [integers]], the typecode "
                              f"one of {_INT_TYPECODES}")
        try:
            return array(data[0], data[1])
        except OverflowError:
            raise RecordError(f"a number of a stored array does not fit its typecode "
                              f"{data[0]!r}") from None

    def _key(self, data: Any, depth: int) -> Any:
        key = self.decode(data, depth)
        try:
            hash(key)
        except TypeError:
            raise RecordError(f"unhashable key in state data: {_short(data)}") from None
        return key

    def _object(self, tag: str, data: dict[str, Any], depth: int) -> Any:
        cls = self.cls(data[tag])
        v = data.get("v")
        if tag == "i":
            if not issubclass(cls, int) or isinstance(v, bool) or not isinstance(v, int):
                raise RecordError(f"bad stored value for {data[tag]!r}")
            return _int_value(cls, v)
        if not isinstance(v, dict):
            raise RecordError(f"bad stored fields for {data[tag]!r}")
        fields = {k: self.decode(x, depth) for k, x in v.items()}
        if tag == "c":
            record = record_fields(cls)
            if record is None:
                raise RecordError(f"{data[tag]!r} is not a stored record type")
            names = set(record)
            if set(fields) != names:
                raise RecordError(f"stored {data[tag]!r} has fields {sorted(fields)}, "
                                  f"expected {sorted(names)}")
            try:
                return cls(**fields)
            except (TypeError, ValueError) as e:
                raise RecordError(f"cannot rebuild {data[tag]!r}: {e}") from None
        slots = slot_names(cls)
        if not slots or not set(fields) <= set(slots):
            raise RecordError(f"stored {data[tag]!r} has unknown fields")
        made: Any = cls  # its own __new__: a compiled class refuses object.__new__
        obj: Any = made.__new__(cls)
        for k, x in fields.items():
            object.__setattr__(obj, k, x)
        return obj


def _int_value(cls: type, v: int) -> Any:
    """An int-subclass value: prefer the game's shared instance (``cls.of(v)``) if any."""
    of: Callable[[int], Any] | None = getattr(cls, "of", None)
    return of(v) if of is not None else cls(v)


def _short(data: Any) -> str:
    text = json.dumps(data)[:60] if _jsonable(data) else repr(data)[:60]
    return text + ("..." if len(text) >= 60 else "")


def _jsonable(data: Any) -> bool:
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return False
    return True
