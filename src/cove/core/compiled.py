"""The one hint the compiled build (docs/BUILD.md) needs from the code: ``mypyc_attr``,
which marks a class that Python classes subclass, or one that must stay a Python class.

The pure build never needs mypy: without ``mypy_extensions`` installed, ``mypyc_attr`` is
a decorator that does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # the pure build: the hint means nothing there

        def mypyc_attr(*args: object, **kwargs: object) -> object:
            return lambda cls: cls

__all__ = ["mypyc_attr"]
