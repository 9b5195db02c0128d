"""SVG drawings of each game's board for the browser table, made from a seat's view.

    from cove.web.boards import draw
    svg_text = draw("tricky-tides", state.view(seat), legal, seat)

`legal` is `[{"text": str, "json": {...}}]`, the seat's legal actions now (empty when it is
not deciding; `seat` None is a spectator). The result is one `<svg>` element; every
clickable part has class `target` and `data-moves`, the JSON list of the legal move texts
a click on it could mean (see `svg.target`). A drawing shows only what the view holds, so a
hidden hand never reaches the page.

Each game has its own module, imported only when its board is first drawn.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, cast

__all__ = ["MODULES", "BoardUnavailable", "draw", "module_for"]

MODULES: dict[str, str] = {
    "tricky-tides": "tricky_tides",
    "high-water": "high_water",
    "tiny-epic-pirates": "tiny_epic_pirates",
    "the-tide": "the_tide",
    "trails-of-tucana": "trails_of_tucana",
}
"""Game id -> module name under `cove.web.boards`."""


class BoardUnavailable(LookupError):
    """No drawing for this game id (unknown game, or its module is not installed)."""


class _Board(Protocol):
    def draw(self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int | None) -> str: ...


def module_for(game_id: str) -> _Board:
    """The drawing module of `game_id`; `BoardUnavailable` says which ids are drawn."""
    name = MODULES.get(game_id)
    if name is None:
        raise BoardUnavailable(
            f"no board drawing for game {game_id!r}; drawn games: {', '.join(sorted(MODULES))}"
        )
    qualified = f"{__name__}.{name}"
    try:
        module = importlib.import_module(qualified)
    except ModuleNotFoundError as exc:
        if exc.name != qualified:
            raise
        raise BoardUnavailable(
            f"the board of {game_id!r} is not available: module {qualified} is missing"
        ) from None
    return cast(_Board, module)


def draw(game_id: str, view: dict[str, Any], legal: list[dict[str, Any]], seat: int | None) -> str:
    """The board of `game_id` as one `<svg>` element drawn from `view` for `seat`."""
    return module_for(game_id).draw(view, legal, seat)
