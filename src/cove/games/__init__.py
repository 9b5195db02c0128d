"""The games Cove ships. The registry of ids lives in :mod:`cove.core.registry`."""

from __future__ import annotations

from cove.core.registry import REGISTRY, all_games, ids, load

__all__ = ["REGISTRY", "all_games", "ids", "load"]
