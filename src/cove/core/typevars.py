"""The type variable ``State`` is generic in: its options class.

``OptionsT`` defaults to ``Options`` (PEP 696), so a client writes ``State`` for any game's
state while a game writes ``class TideState(State[TideOptions])`` and reads
``self.options.move_dirs`` with its own type, no cast. It is covariant: a
``State[TideOptions]`` is a ``State``, since nothing outside the game sets ``options``.

This module is never compiled (setup.py): the default needs ``typing_extensions.TypeVar``
for the type checker only, and mypyc would compile the runtime branch as unreachable.
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING

from cove.core.options import Options

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    OptionsT = TypeVar("OptionsT", bound=Options, default=Options, covariant=True)
else:
    OptionsT = typing.TypeVar("OptionsT", bound=Options, covariant=True)
