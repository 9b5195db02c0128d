"""The browser pages' routes, mounted into ``cove serve`` by :func:`web_routes`.

They read the server's hub (``app.state.hub``) only through what the API routes use:
``table``, ``seat_for``, ``payload``, ``record``, ``listing`` and ``throttle`` (every route
that reads a table or the database counts against the client's reads); refusals are the
API's own errors (``{"error", "reason"}``), handled by the app.

Boards are drawn once per position and seat (:class:`Boards`), whoever asks: the
websocket updates, the board route and the websocket's ``state`` share them. A finished
game's replay keeps a state every :data:`MARK` moves (:class:`Replays`), so a step costs
at most that many moves, not the whole game.
"""

from __future__ import annotations

import asyncio
import functools
import math
import struct
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

import cove
from cove.bots import LEVELS
from cove.core.errors import CoveError
from cove.core.record import replay as replay_record
from cove.core.state import Action, State
from cove.serve.clients import client_key, seat_token
from cove.serve.hub import encode_bytes
from cove.web import fragments, pages
from cove.web.shell import error_page
from cove.web.standing import standing_routes

NO_STORE = {"Cache-Control": "no-store"}


def _hub(request: Request) -> Any:
    return request.app.state.hub


def _refusal(e: CoveError) -> tuple[int, str]:
    return int(getattr(e, "status", 500)), str(getattr(e, "reason", e))


def _read(request: Request) -> Any:
    """The hub, once this read is counted against the client's reads (429 past them)."""
    hub = _hub(request)
    hub.throttle("read", client_key(request))
    return hub


LISTED = 20
"""Tables in each of the lobby's lists (the most recently updated)."""


RESULTS: OrderedDict[str, tuple[list[int], list[float]]] = OrderedDict()
"""Winners and scores of finished tables by id, the most recently listed 512: a finished
table never changes, so each is read from its table once."""


async def results(hub: Any, finished: list[dict[str, Any]]
                  ) -> dict[str, tuple[list[int], list[float]]]:
    """The winners and scores of the finished tables listed (one that cannot be loaded
    now is listed without them)."""
    out = {}
    for row in finished:
        have = RESULTS.get(row["id"])
        if have is None:
            try:
                st = (await hub.table(row["id"])).state
            except CoveError:
                continue
            if not st.is_over:
                continue
            have = RESULTS[row["id"]] = (list(st.winners()), st.scores())
            while len(RESULTS) > 512:
                RESULTS.popitem(last=False)
        RESULTS.move_to_end(row["id"])
        out[row["id"]] = have
    return out


async def lobby(request: Request) -> Response:
    try:
        hub = _read(request)
    except CoveError as e:
        status, reason = _refusal(e)
        return HTMLResponse(error_page(status, reason), status_code=status)
    open_tables = await hub.listing("open", LISTED)
    finished = await hub.listing("finished", LISTED)
    return HTMLResponse(pages.lobby(list(cove.all_games()), LEVELS, open_tables, finished,
                                    await results(hub, finished)), headers=NO_STORE)


async def lobby_tables(request: Request) -> Response:
    """The lobby's lists drawn now, ``{"open", "finished"}`` (HTML): the lobby asks every
    few seconds, so new tables and finished games show up without a reload."""
    hub = _read(request)
    finished = await hub.listing("finished", LISTED)
    lists = pages.table_lists(list(cove.all_games()), await hub.listing("open", LISTED),
                              finished, await results(hub, finished))
    return JSONResponse(lists, headers=NO_STORE)


async def _table_page(request: Request, mode: str) -> Response:
    try:
        table = await _read(request).table(request.path_params["id"])
    except CoveError as e:
        status, reason = _refusal(e)
        return HTMLResponse(error_page(status, reason), status_code=status)
    rated = await _hub(request).ratings.is_rated(table.id)
    return HTMLResponse(pages.table(table.game, table.id, mode, rated), headers=NO_STORE)


async def table_page(request: Request) -> Response:
    return await _table_page(request, "play")


async def watch_page(request: Request) -> Response:
    return await _table_page(request, "watch")


def board_fields(table: Any, st: State, version: int, seat: int | None,
                 legal: list[dict[str, Any]]) -> dict[str, Any]:
    """What the page shows beside the prompt and the move list, for ``seat`` (None: a
    spectator) at the table's state ``st`` (its ``version``) and its legal moves as the API
    lists them: ``{"moves", "version", "board", "drawn", "last", "scores", "end",
    "cpu"}``; ``last`` is the move
    that made this position as the seat may know it (the page announces it), ``cpu`` the
    milliseconds of CPU spent drawing them."""
    cpu = time.thread_time()
    view = st.view(seat)
    html, drawn = fragments.board(table.game, view, legal if not st.is_over else [], seat)
    final = st.scores() if st.is_over else None
    return {"moves": st.decisions, "version": version, "board": html, "drawn": drawn,
            "last": fragments.last_move(st, seat),
            "scores": fragments.scores(table.game, view, table.seat_kinds(), seat, final),
            "end": fragments.end(st, view, seat, table.seat_kinds()),
            "cpu": round((time.thread_time() - cpu) * 1e3, 2)}


class Drawn:
    """One board (:func:`board_fields`), and its JSON once the board route asked."""

    __slots__ = ("body", "fields", "size")

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields
        self.body: bytes | None = None
        self.size = len(fields["board"]) + len(str(fields["scores"])) + len(
            str(fields["end"])) + 200


class Boards:
    """Boards by (table id, version, named seats, seat), the most recently used kept up to
    ``limit`` characters: a board is drawn once per position and seat, however many connections and
    requests want it. (A table's position at a version, its moves and undos so far, is the
    same in every process and after every restart.)"""

    def __init__(self, limit: int = 32 * 2**20) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[tuple[str, int, int, int | None], Drawn] = OrderedDict()
        self.drawn = 0
        """Boards drawn (misses), for tests."""

    def get(self, table: Any, st: State, version: int, seat: int | None,
            legal: Callable[[], list[dict[str, Any]]]) -> tuple[Drawn, bool]:
        """The board of ``seat`` at ``st``, the table's ``version`` (``legal``: its legal
        moves there, asked only when the board is drawn now), and whether it was drawn
        now."""
        key = (table.id, version, table.named, seat)
        have = self.items.get(key)
        if have is not None:
            self.items.move_to_end(key)
            return have, False
        made = Drawn(board_fields(table, st, version, seat,
                                  legal() if not st.is_over else []))
        self.drawn += 1
        self.items[key] = made
        self.size += made.size
        while self.size > self.limit and len(self.items) > 1:
            self.size -= self.items.popitem(last=False)[1].size
        return made, True


BOARDS = Boards()


def update_board(table: Any, st: State, seat: int | None,
                 message: dict[str, Any]) -> dict[str, Any]:
    """The hub's hook for a browser's websocket (``?board=web``): the seat's board drawn
    into every ``state`` and ``update`` message, under ``"board"``, so a page redraws as
    soon as the update arrives instead of asking for the board again."""
    drawn, _ = BOARDS.get(table, st, message["version"], seat,
                          lambda: list(message.get("legal", [])))
    return {"board": drawn.fields}


async def board(request: Request) -> Response:
    """The seat's board, scores and (once over) end screen: ``{"moves", "version",
    "board", "drawn", "last", "scores", "end", "cpu"}``; ``version`` says which position
    they show. The
    ``Server-Timing`` header gives the CPU milliseconds spent drawing them for this
    request (0 when drawn before, for an update or another request). (A page whose
    websocket asked for boards gets them in its updates and needs this only when an
    update came without one.)"""
    hub = _read(request)
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, seat_token(request, request.query_params.get("token")))
    st, version = table.state, table.version

    def legal() -> list[dict[str, Any]]:  # the API's own legal forms; no events wanted
        if seat is None:
            return []
        out: list[dict[str, Any]] = hub.payload(table, seat, st.log_count(seat))["legal"]
        return out

    drawn, now = BOARDS.get(table, st, version, seat, legal)
    if drawn.body is None:
        drawn.body = encode_bytes(drawn.fields)
    timing = f"draw;dur={drawn.fields['cpu']}" if now else 'draw;dur=0;desc="drawn before"'
    return Response(drawn.body, media_type="application/json",
                    headers={**NO_STORE, "Server-Timing": timing})


MARK = 64
"""A finished game's replay keeps the state at every MARK-th move."""


class Replay:
    """A finished table's replay: its full record, its moves, the states at every
    :data:`MARK`-th move (made as steps are asked for) and recent answers."""

    def __init__(self, record: dict[str, Any], history: list[tuple[int, Action]]) -> None:
        self.record = record
        self.history = history
        self.marks: dict[int, State] = {}
        self.answers: OrderedDict[tuple[int, int | None], bytes] = OrderedDict()

    def state_at(self, step: int) -> State:
        """The state after ``step`` moves (in a worker thread: the first step far into a
        long game replays up to there once)."""
        if 0 not in self.marks:
            self.marks[0] = replay_record(self.record, upto=0)
        base = max(k for k in self.marks if k <= step)
        state = self.marks[base].clone()
        for i in range(base, step):
            p, act = self.history[i]
            state.apply(p, act)
            if (i + 1) % MARK == 0 and i + 1 not in self.marks:
                self.marks[i + 1] = state.clone()
        return state


class Replays:
    """The replays of the most recently replayed ``tables`` finished tables."""

    def __init__(self, tables: int = 16, answers: int = 64) -> None:
        self.tables = tables
        self.answers = answers
        self.items: OrderedDict[str, Replay] = OrderedDict()

    def of(self, table: Any, record: Callable[[], dict[str, Any]]) -> Replay:
        have = self.items.get(table.id)
        if have is None:
            have = self.items[table.id] = Replay(record(), list(table.state.history))
            while len(self.items) > self.tables:
                self.items.popitem(last=False)
        else:
            self.items.move_to_end(table.id)
        return have

    def keep(self, replay: Replay, key: tuple[int, int | None], body: bytes) -> None:
        replay.answers[key] = body
        while len(replay.answers) > self.answers:
            replay.answers.popitem(last=False)


REPLAYS = Replays()


REPLAY_COST = 4
"""Reads a replay step costs the client when it is replayed and drawn (about 3 ms of CPU,
most of it drawing the board); 1 when it was drawn before."""


def replay_step(table: Any, game: Replay, step: int, seat: int | None,
                state: State | None) -> bytes:
    """Step ``step`` of ``game`` as ``seat`` saw it, encoded (in a worker thread)."""
    if state is None:
        state = game.state_at(step)
    actions = game.record["actions"]
    view = state.view(seat)
    html, drawn = fragments.board(table.game, view, [], seat)
    move = (f"Move {step} (P{actions[step - 1][0] + 1}): {actions[step - 1][1]}" if step
            else "The start of the game")
    return encode_bytes({"step": step, "total": len(actions), "board": html, "drawn": drawn,
                         "move": move, "prompt": view["decision"]["prompt"]})


async def replay(request: Request) -> Response:
    """Step ``step`` of a finished game, from its full record, as seat ``as`` (a number
    from 0) or a spectator saw it: ``{"step", "total", "board", "move", "prompt"}``; of
    a live one, as the token's seat saw it (:func:`cove.web.history.live_step`)."""
    hub = _read(request)
    table = await hub.table(request.path_params["id"])
    if not table.state.is_over:  # stepping back at a live table: as its own seat only
        from cove.web.history import live_step

        return await live_step(request, hub, table, MARK, REPLAY_COST)
    game = REPLAYS.of(table, lambda: hub.record(table, None))
    actions = game.record["actions"]
    raw = request.query_params.get("step", str(len(actions)))
    who = request.query_params.get("as", "")
    n = table.state.n
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10 and int(raw) <= len(actions)):
        return JSONResponse({"error": "bad_request", "reason": f"step is a number from 0 to "
                             f"{len(actions)}"}, status_code=400)
    if who and not (who.isascii() and who.isdigit() and len(who) < 4 and int(who) < n):
        return JSONResponse({"error": "bad_request", "reason": f"as is a seat from 0 to "
                             f"{n - 1}, or left out for a spectator"}, status_code=400)
    step = int(raw)
    seat = int(who) if who else None
    headers = {"Cache-Control": "max-age=3600"}
    body = game.answers.get((step, seat))
    if body is None:  # replayed and drawn now: worth REPLAY_COST reads in all
        hub.throttle("read", client_key(request), REPLAY_COST - 1)
        state = table.state.clone() if step == len(actions) else None  # the end
        body = await asyncio.to_thread(replay_step, table, game, step, seat, state)
        REPLAYS.keep(game, (step, seat), body)
    return Response(body, media_type="application/json", headers=headers)


def _png(size: int, pixel: Callable[[float, float], tuple[int, int, int, int]]) -> bytes:
    """A ``size`` square RGBA PNG; ``pixel(x, y)`` gives each pixel's colour (x, y from 0
    to 1, from the top left)."""
    rows = b"".join(b"\0" + b"".join(bytes(pixel((i + 0.5) / size, (j + 0.5) / size))
                                      for i in range(size)) for j in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    head = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


SEA = (31, 95, 139, 255)
WHITE = (255, 255, 255, 255)
FLAG = (242, 169, 0, 255)
INK = (29, 39, 51, 255)
CLEAR = (0, 0, 0, 0)


def _icon_pixel(turn: bool, x: float, y: float) -> tuple[int, int, int, int]:
    """Cove's icon: a white wave on a sea-blue disc; on your turn a yellow dot ringed in
    dark ink sits on its top right (a shape, not only a colour, tells the two apart)."""
    if turn:
        d = ((x - 0.75) ** 2 + (y - 0.25) ** 2) ** 0.5
        if d < 0.17:
            return FLAG
        if d < 0.25:
            return INK
    if (x - 0.5) ** 2 + (y - 0.5) ** 2 > 0.25:
        return CLEAR
    wave = 0.58 + 0.08 * math.sin(x * 2 * math.pi * 1.5)
    return WHITE if abs(y - wave) < 0.07 else SEA


@functools.cache
def icon(turn: bool) -> bytes:
    """The favicon as an ICO file (one 32 px PNG inside): the plain one, or on your turn
    the one with the yellow dot."""
    png = _png(32, lambda x, y: _icon_pixel(turn, x, y))
    return (struct.pack("<HHH", 0, 1, 1)
            + struct.pack("<BBBBHHII", 32, 32, 0, 0, 1, 32, len(png), 22) + png)


async def favicon(request: Request) -> Response:
    turn = request.url.path.endswith("turn.ico")
    return Response(icon(turn), media_type="image/x-icon",
                    headers={"Cache-Control": "max-age=86400"})


async def root(request: Request) -> Response:
    return RedirectResponse("/web/", status_code=307)


def web_routes() -> list[BaseRoute]:
    """The browser's routes, to append to the server's."""
    static = StaticFiles(packages=[("cove.web", "static")])
    return [
        Route("/", root),
        Route("/web", root),
        Route("/favicon.ico", favicon),
        Route("/web/favicon-turn.ico", favicon),
        Route("/web/", lobby),
        Route("/web/lobby/tables", lobby_tables),
        Route("/web/tables/{id}", table_page),
        Route("/web/tables/{id}/watch", watch_page),
        Route("/web/tables/{id}/board", board),
        Route("/web/tables/{id}/replay", replay),
        *standing_routes(),  # a game's leaderboard
        Mount("/web/static", app=static, name="web-static"),
    ]

