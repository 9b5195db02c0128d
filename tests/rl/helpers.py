"""Every registered game at every player count, for the environment tests."""

from __future__ import annotations

import cove

CONFIGS = [(g.id, n) for g in cove.all_games()
           for n in range(g.min_players, g.max_players + 1)]
CONFIG_IDS = [f"{g}-{n}p" for g, n in CONFIGS]
