"""Tuples as a state's values: what changes a few times a turn or less is kept in a tuple
of immutable values and replaced when it changes, so a clone shares it instead of copying
it (clones are what a search makes most, and copying a container costs a compiled build
about what it costs the pure one: docs/BUILD.md). What changes at nearly every decision
stays in a list, whose item is written in place."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``value`` at ``index`` (an index out of range is an IndexError)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)
