"""The hints the compiled build (docs/BUILD.md) needs from the code: ``mypyc_attr``,
which marks a class that Python classes subclass, or one that must stay a Python class,
and ``i64``, a native 64-bit integer (it wraps around; the random generator needs that).

The pure build never needs mypy: without ``mypy_extensions`` installed, ``mypyc_attr`` is
a decorator that does nothing and ``i64`` is ``int``. This module is never compiled:
mypyc would compile the fallback branch below as unreachable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import i64, mypyc_attr
else:
    try:
        from mypy_extensions import i64, mypyc_attr
    except ImportError:  # the pure build: the hints mean nothing there
        i64 = int

        def mypyc_attr(*args: object, **kwargs: object) -> object:
            return lambda cls: cls

__all__ = ["i64", "mypyc_attr"]
