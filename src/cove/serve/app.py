"""HTTP and websocket routes (Starlette) over a :class:`~cove.serve.hub.Hub`.

docs/API.md describes every route and message; errors are ``{"error", "reason"}`` with the
status the API names.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse as StarletteJSONResponse
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import cove
from cove.serve.hub import (
    ApiError,
    Conn,
    Hub,
    Settings,
    Table,
    Unavailable,
    encode,
    encode_bytes,
)
from cove.serve.store import open_store

log = logging.getLogger(__name__)

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008


class JSONResponse(StarletteJSONResponse):
    """Encoded with orjson, as the websocket messages are."""

    def render(self, content: Any) -> bytes:
        return encode_bytes(content)


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def client_key(request: Request | WebSocket) -> str:
    return request.client.host if request.client is not None else "?"


async def read_json(request: Request, limit: int) -> Any:
    """The body as JSON; 413 past ``limit`` bytes (read no further), 400 when malformed."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise ApiError(413, "too_large", f"the body is {length} bytes; at most {limit}")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(413, "too_large", f"the body is over {limit} bytes")
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, "bad_json", f"the body is not valid JSON ({str(e)[:80]})") from None


def since_arg(request: Request) -> int:
    raw = request.query_params.get("since", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise ApiError(400, "bad_request", "since must be an event number (0, 1, ...)")
    return int(raw)


def expect_arg(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, "bad_request", "expect must be the table's move count you saw "
                       "(an integer), or left out")
    return value


def action_arg(value: Any) -> str | dict[str, Any]:
    if isinstance(value, (str, dict)):
        return value
    raise ApiError(400, "bad_request", "action must be a move's text (\"play 7 shark\") or "
                   "its JSON form ({\"kind\": ...}), as listed in \"legal\"")


# -- HTTP ----------------------------------------------------------------------------------
async def games(request: Request) -> Response:
    return JSONResponse([g.describe() for g in cove.all_games()])


async def create_table(request: Request) -> Response:
    hub = hub_of(request)
    if not hub.allow("create:" + client_key(request), create=True):
        raise ApiError(429, "rate_limited", "too many tables created; wait a little")
    body = await read_json(request, hub.settings.max_body)
    return JSONResponse(await hub.create(body), status_code=201)


async def list_tables(request: Request) -> Response:
    status = request.query_params.get("status", "open")
    if status not in ("open", "finished", "all"):
        raise ApiError(400, "bad_request", "status is one of open, finished, all")
    raw = request.query_params.get("limit", "50")
    limit = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 50
    return JSONResponse({"tables": await hub_of(request).listing(status, limit)})


async def get_table(request: Request) -> Response:
    hub = hub_of(request)
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, request.query_params.get("token"))
    return JSONResponse(hub.payload(table, seat, since_arg(request)))


async def get_record(request: Request) -> Response:
    hub = hub_of(request)
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, request.query_params.get("token"))
    return JSONResponse(hub.record(table, seat))


async def post_action(request: Request) -> Response:
    hub = hub_of(request)
    table = await hub.table(request.path_params["id"])
    body = await read_json(request, hub.settings.max_body)
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object "
                       "{\"token\", \"action\", \"expect\"}")
    token = body.get("token")
    if not isinstance(token, str):
        raise ApiError(403, "bad_token", "give your seat's token (\"token\") to move")
    seat = hub.seat_for(table, token)
    if not hub.allow(f"act:{table.id}:{seat}"):
        raise ApiError(429, "rate_limited", "too many moves; wait a little")
    action = action_arg(body.get("action"))
    return JSONResponse(await hub.act(table, seat, action, expect_arg(body.get("expect"))))


# -- websockets ----------------------------------------------------------------------------
async def ws_table(ws: WebSocket) -> None:
    hub = hub_of(ws)
    await ws.accept()
    try:
        table = await hub.table(ws.path_params["id"])
        seat = hub.seat_for(table, ws.query_params.get("token"))
    except ApiError as e:
        await ws.send_json({"type": "error", "status": e.status, **e.body()})
        await ws.close(code=4000 + e.status, reason=e.error)
        return
    async def too_slow() -> None:
        await ws.close(code=CLOSE_POLICY, reason="too far behind; reconnect")

    extras = ws.query_params.get("board") == "web"  # the browser table: boards in updates
    conn = Conn(seat, ws.send_text, hub.settings.queue_limit, too_slow, extras)
    raw = ws.query_params.get("since", "0")
    since = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 0
    first = hub.payload(table, seat, since)
    conn.next_event = first["next_event"]
    first["type"] = "state"
    conn.push(encode(hub.extend(table, seat, first) if extras else first))
    table.conns.add(conn)
    writer = hub_loop_task(conn)
    try:
        await _ws_reader(hub, ws, table, conn)
    except WebSocketDisconnect:
        pass
    finally:
        table.conns.discard(conn)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer


def hub_loop_task(conn: Conn) -> asyncio.Future[None]:
    return asyncio.ensure_future(conn.run())


async def _ws_reader(hub: Hub, ws: WebSocket, table: Table, conn: Conn) -> None:
    limit = hub.settings.max_body
    bucket_key = f"ws:{id(conn)}"
    while True:
        text = await ws.receive_text()
        if conn.dropped:
            await ws.close(code=CLOSE_POLICY, reason="too far behind")
            return
        if len(text) > limit:
            await ws.close(code=CLOSE_TOO_BIG, reason=f"messages are at most {limit} bytes")
            return
        reply: dict[str, Any] | None
        try:
            if not hub.allow(bucket_key):
                raise ApiError(429, "rate_limited", "too many messages; wait a little")
            reply = await _ws_message(hub, table, conn, text)
        except ApiError as e:
            reply = {"type": "error", "status": e.status, **e.body()}
        if reply is not None:
            conn.push(encode(reply))


async def _ws_message(hub: Hub, table: Table, conn: Conn, text: str) -> dict[str, Any] | None:
    try:
        msg = json.loads(text)
    except ValueError:
        raise ApiError(400, "bad_json", "a message is a JSON object with a \"type\"") from None
    kind = msg.get("type") if isinstance(msg, dict) else None
    if kind == "ping":
        return {"type": "pong"}
    if kind == "state":
        out = hub.payload(table, conn.seat)
        out["type"] = "state"
        return hub.extend(table, conn.seat, out) if conn.extras else out
    if kind == "action":
        await hub.act(table, conn.seat, action_arg(msg.get("action")),
                      expect_arg(msg.get("expect")))
        return None  # the update reaches every connection, this one included
    raise ApiError(400, "bad_request", "message types: action, state, ping")


# -- the application -----------------------------------------------------------------------
async def api_error(request: Request | WebSocket, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status)


async def unavailable_error(request: Request | WebSocket, exc: Exception) -> Response:
    """The database cannot be read or written now: 503 with Retry-After (nothing changed)."""
    assert isinstance(exc, Unavailable)
    return JSONResponse(exc.body(), status_code=exc.status,
                        headers={"Retry-After": str(exc.retry_after)})


async def http_error(request: Request | WebSocket, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": "http", "reason": exc.detail}, status_code=exc.status_code)


def create_app(settings: Settings | None = None) -> Starlette:
    """The ASGI application; its lifespan opens the store and restores the tables."""
    settings = settings or Settings()
    from cove.web.routes import update_board, web_routes  # the browser table's pages

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(open_store(settings.db), settings)
        hub.extras = update_board  # a browser's websocket gets its board in each update
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    routes = [
        Route("/api/games", games),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/record", get_record),
        Route("/api/tables/{id}/actions", post_action, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", ws_table),
    ]
    routes += web_routes()
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={ApiError: api_error, Unavailable: unavailable_error,
                                         HTTPException: http_error})
