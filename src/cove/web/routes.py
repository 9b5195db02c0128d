"""The browser pages' routes, mounted into ``cove serve`` by :func:`web_routes`.

They read the server's hub (``app.state.hub``) only through what the API routes use:
``table``, ``seat_for``, ``payload``, ``record`` and ``listing``; refusals are the API's own
errors (``{"error", "reason"}``), handled by the app.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

import cove
from cove.bots import LEVELS
from cove.core.errors import CoveError
from cove.core.record import replay as replay_record
from cove.core.state import State
from cove.web import fragments, pages

NO_STORE = {"Cache-Control": "no-store"}


def _hub(request: Request) -> Any:
    return request.app.state.hub


def _refusal(e: CoveError) -> tuple[int, str]:
    return int(getattr(e, "status", 500)), str(getattr(e, "reason", e))


LISTED = 20
"""Tables in each of the lobby's lists (the most recently updated)."""


async def lobby(request: Request) -> Response:
    hub = _hub(request)
    open_tables = await hub.listing("open", LISTED)
    finished = await hub.listing("finished", LISTED)
    return HTMLResponse(pages.lobby(list(cove.all_games()), LEVELS, open_tables, finished),
                        headers=NO_STORE)


async def lobby_tables(request: Request) -> Response:
    """The lobby's lists drawn now, ``{"open", "finished"}`` (HTML): the lobby asks every
    few seconds, so new tables and finished games show up without a reload."""
    hub = _hub(request)
    lists = pages.table_lists(list(cove.all_games()), await hub.listing("open", LISTED),
                              await hub.listing("finished", LISTED))
    return JSONResponse(lists, headers=NO_STORE)


async def _table_page(request: Request, mode: str) -> Response:
    try:
        table = await _hub(request).table(request.path_params["id"])
    except CoveError as e:
        status, reason = _refusal(e)
        return HTMLResponse(pages.error_page(status, reason), status_code=status)
    return HTMLResponse(pages.table(table.game, table.id, mode), headers=NO_STORE)


async def table_page(request: Request) -> Response:
    return await _table_page(request, "play")


async def watch_page(request: Request) -> Response:
    return await _table_page(request, "watch")


def board_fields(table: Any, st: State, seat: int | None,
                 legal: list[dict[str, Any]]) -> dict[str, Any]:
    """What the page shows beside the prompt and the move list, for ``seat`` (None: a
    spectator) at the table's state ``st`` and its legal moves as the API lists them:
    ``{"moves", "board", "drawn", "scores", "end", "cpu"}``; ``cpu`` is the milliseconds
    of CPU spent drawing them."""
    cpu = time.thread_time()
    view = st.view(seat)
    html, drawn = fragments.board(table.game, view, legal if not st.is_over else [], seat)
    final = st.scores() if st.is_over else None
    return {"moves": st.decisions, "board": html, "drawn": drawn,
            "scores": fragments.scores(table.game, view, table.seat_kinds(), seat, final),
            "end": fragments.end(st, view, seat),
            "cpu": round((time.thread_time() - cpu) * 1e3, 2)}


def update_board(table: Any, st: State, seat: int | None,
                 message: dict[str, Any]) -> dict[str, Any]:
    """The hub's hook for a browser's websocket (``?board=web``): the seat's board drawn
    into every ``state`` and ``update`` message, under ``"board"``, so a page redraws as
    soon as the update arrives instead of asking for the board again."""
    return {"board": board_fields(table, st, seat, message.get("legal", []))}


async def board(request: Request) -> Response:
    """The seat's board, scores and (once over) end screen, drawn now: ``{"moves",
    "board", "drawn", "scores", "end", "cpu"}``; ``moves`` says which position they show.
    The ``Server-Timing`` header gives the CPU milliseconds spent drawing them. (A page
    whose websocket asked for boards gets them in its updates and needs this only when
    an update came without one.)"""
    hub = _hub(request)
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, request.query_params.get("token"))
    st = table.state
    legal: list[dict[str, Any]] = []
    if seat is not None and not st.is_over:  # the API's own legal forms; no events wanted
        legal = hub.payload(table, seat, st.log_count(seat))["legal"]
    out = board_fields(table, st, seat, legal)
    return JSONResponse(out, headers={**NO_STORE, "Server-Timing": f"draw;dur={out['cpu']}"})


async def replay(request: Request) -> Response:
    """Step ``step`` of a finished game, from its full record, as seat ``as`` (a number
    from 0) or a spectator saw it: ``{"step", "total", "board", "move", "prompt"}``."""
    hub = _hub(request)
    table = await hub.table(request.path_params["id"])
    if not table.state.is_over:
        return JSONResponse({"error": "not_over", "reason": "the replay opens when the game "
                             "is over; until then the record hides what is secret"},
                            status_code=409)
    record = hub.record(table, None)
    actions = record["actions"]
    raw = request.query_params.get("step", str(len(actions)))
    who = request.query_params.get("as", "")
    n = table.state.n
    if not (raw.isascii() and raw.isdigit() and int(raw) <= len(actions)):
        return JSONResponse({"error": "bad_request", "reason": f"step is a number from 0 to "
                             f"{len(actions)}"}, status_code=400)
    if who and not (who.isascii() and who.isdigit() and int(who) < n):
        return JSONResponse({"error": "bad_request", "reason": f"as is a seat from 0 to "
                             f"{n - 1}, or left out for a spectator"}, status_code=400)
    step = int(raw)
    seat = int(who) if who else None
    state = await asyncio.to_thread(replay_record, record, upto=step)
    view = state.view(seat)
    html, drawn = fragments.board(table.game, view, [], seat)
    move = (f"Move {step} (P{actions[step - 1][0] + 1}): {actions[step - 1][1]}" if step
            else "The start of the game")
    return JSONResponse({"step": step, "total": len(actions), "board": html, "drawn": drawn,
                         "move": move, "prompt": view["decision"]["prompt"]},
                        headers={"Cache-Control": "max-age=3600"})


async def root(request: Request) -> Response:
    return RedirectResponse("/web/", status_code=307)


def web_routes() -> list[BaseRoute]:
    """The browser's routes, to append to the server's."""
    static = StaticFiles(packages=[("cove.web", "static")])
    return [
        Route("/", root),
        Route("/web", root),
        Route("/web/", lobby),
        Route("/web/lobby/tables", lobby_tables),
        Route("/web/tables/{id}", table_page),
        Route("/web/tables/{id}/watch", watch_page),
        Route("/web/tables/{id}/board", board),
        Route("/web/tables/{id}/replay", replay),
        Mount("/web/static", app=static, name="web-static"),
    ]

