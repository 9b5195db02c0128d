"""HTTP and websocket routes (Starlette) over a :class:`~cove.serve.hub.Hub`.

docs/API.md describes every route and message; errors are ``{"error", "reason"}`` with the
status the API names.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import cove
from cove.serve import limits, timing
from cove.serve.again import again_routes
from cove.serve.chat import chat_routes
from cove.serve.clients import client_key, seat_token
from cove.serve.errors import ApiError, Unavailable
from cove.serve.http import (
    JSONResponse,
    hub_of,
    known_keys,
    parse_json,
    read_json,
    same_site,
    seated_post,
    since_arg,
)
from cove.serve.hub import (
    Conn,
    Hub,
    Settings,
    Table,
    encode,
    encode_bytes,
)
from cove.serve.players_api import player_routes
from cove.serve.store import open_store

log = logging.getLogger(__name__)

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_BINARY = 1003
CLOSE_TRY_LATER = 1013


EXPECT_LIMIT = 10**12


def expect_arg(value: Any, table: Table) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, "bad_request", "expect must be the table's move count you saw "
                       "(an integer), or left out")
    if not -EXPECT_LIMIT < value < EXPECT_LIMIT:  # never a move count; not echoed back
        raise ApiError(409, "stale", f"the table is at move {table.moves}, and expect is "
                       "no move count it can have; fetch the table again", moves=table.moves)
    return value


def action_arg(value: Any) -> str | dict[str, Any]:
    if isinstance(value, (str, dict)):
        return value
    raise ApiError(400, "bad_request", "action must be a move's text (\"play 7 shark\") or "
                   "its JSON form ({\"kind\": ...}), as listed in \"legal\"")


# -- HTTP ----------------------------------------------------------------------------------
Key = tuple[str, str, int, int, "int | None", int]


class Answers:
    """Encoded answers to reads of a table's state, by (kind, table id, version, named
    seats, seat, since), the most recently used kept up to ``limit`` characters: however
    many clients ask for one position (a GET of the table, a websocket's ``state``), it is
    rendered and encoded once. (A table's position at a version, :attr:`Table.version`, is
    the same everywhere.)"""

    def __init__(self, limit: int = 16 * 2**20) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[Key, str | bytes] = OrderedDict()
        self.made = 0
        """Answers rendered (misses), for tests."""

    def get(self, key: Key, make: Callable[[], str | bytes]) -> str | bytes:
        have = self.items.get(key)
        if have is not None:
            self.items.move_to_end(key)
            return have
        made = self.items[key] = make()
        self.made += 1
        self.size += len(made)
        while self.size > self.limit and len(self.items) > 1:
            self.size -= len(self.items.popitem(last=False)[1])
        return made


ANSWERS = Answers()


@functools.lru_cache(maxsize=4)
def games_body(ids: tuple[str, ...]) -> bytes:
    """``GET /api/games``, made once for the games registered (``ids``)."""
    return encode_bytes([g.describe() for g in cove.all_games()])


async def games(request: Request) -> Response:
    return Response(games_body(tuple(cove.ids())), media_type="application/json")


async def create_table(request: Request) -> Response:
    hub = hub_of(request)
    same_site(request)
    client = client_key(request)
    hub.throttle("create", client)
    from cove.serve import chat  # (it uses this module's helpers)

    body, open_chat = chat.creation_option(await read_json(request, hub.settings.max_body))
    made = await hub.create(body, client)
    if open_chat:  # the creator let spectators write in the table's chat
        await hub.commits.run(chat.rows(hub).open_chat, made["id"])
    return JSONResponse({**made, "spectator_chat": open_chat}, status_code=201)


async def list_tables(request: Request) -> Response:
    hub = hub_of(request)
    status = request.query_params.get("status", "open")
    if status not in ("open", "finished", "all"):
        raise ApiError(400, "bad_request", "status is one of open, finished, all")
    raw = request.query_params.get("limit", "50")
    limit = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else 50
    hub.throttle("read", client_key(request))
    return JSONResponse({"tables": await hub.listing(status, limit)})


async def get_table(request: Request) -> Response:
    hub = hub_of(request)
    hub.throttle("read", client_key(request))
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, seat_token(request, request.query_params.get("token")))
    since = since_arg(request)
    body: str | bytes
    if table.timing is not None:  # its clock is as of now: never a cached answer
        body = encode_bytes(hub.payload(table, seat, since))
    else:
        body = ANSWERS.get(("http", table.id, table.version, table.named, seat, since),
                           lambda: encode_bytes(hub.payload(table, seat, since)))
    return Response(body, media_type="application/json")


async def get_record(request: Request) -> Response:
    hub = hub_of(request)
    hub.throttle("read", client_key(request))
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, seat_token(request, request.query_params.get("token")))
    return JSONResponse(hub.record(table, seat))


async def get_hint(request: Request) -> Response:
    """What the search bot would play for the seat now (it thinks as seated bots do);
    counted against the seat's moves, since it costs a bot's move in CPU."""
    hub = hub_of(request)
    hub.throttle("read", client_key(request))
    table = await hub.table(request.path_params["id"])
    token = seat_token(request, request.query_params.get("token"))
    seat = hub.seat_for(table, token)
    if seat is not None:
        hub.throttle("move", f"{table.id}:{seat}")
    return JSONResponse(await hub.hint(table, seat))


async def post_player(request: Request) -> Response:
    """A named player and their personal key: ``{"name"}`` -> ``{"key", "name"}``."""
    hub = hub_of(request)
    same_site(request)
    hub.throttle("create", client_key(request))
    return JSONResponse(await hub.new_player(await read_json(request, hub.settings.max_body)),
                        status_code=201)


async def post_sit(request: Request) -> Response:
    """A named player takes the seat its token opens: ``{"token", "player"}``."""
    hub, table, seat, body = await seated_post(request, ("token", "player"), "a sit")
    return JSONResponse(await hub.sit(table, seat, body.get("player")))


async def post_close(request: Request) -> Response:
    """Close a table nobody else has joined, with the creator's key (``owner``)."""
    hub = hub_of(request)
    same_site(request)
    hub.throttle("read", client_key(request))
    table = await hub.table(request.path_params["id"])
    body = await read_json(request, hub.settings.max_body)
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object {\"token\": the "
                       "\"owner\" key the table's creation returned}")
    known_keys(body, ("token",), "a close")
    return JSONResponse(await hub.close_table(table, seat_token(request, body.get("token"))))


ACTION_KEYS = ("token", "action", "expect")
UNDO_KEYS = ("token", "expect")


async def post_action(request: Request) -> Response:
    hub, table, seat, body = await seated_post(request, ACTION_KEYS, "a move")
    action, expect = action_arg(body.get("action")), expect_arg(body.get("expect"), table)
    return JSONResponse(await hub.act(table, seat, action, expect))


async def post_timeout(request: Request) -> Response:
    """The others' choice for a seat out of time: ``{"token", "seat", "choice"}``."""
    hub, table, seat, body = await seated_post(request, ("token", "seat", "choice"),
                                               "a timeout choice")
    return JSONResponse(await timing.timeout(hub, table, seat, body))


async def post_reclaim(request: Request) -> Response:
    """A player takes back the seat a bot plays for them: ``{"token"}``."""
    hub, table, seat, _ = await seated_post(request, ("token",), "a reclaim")
    return JSONResponse(await timing.reclaim(hub, table, seat))


async def post_undo(request: Request) -> Response:
    hub, table, seat, body = await seated_post(request, UNDO_KEYS, "an undo")
    return JSONResponse(await hub.undo(table, seat, expect_arg(body.get("expect"), table)))


# -- websockets ----------------------------------------------------------------------------
async def ws_table(ws: WebSocket) -> None:
    hub = hub_of(ws)
    conns: limits.Connections = ws.app.state.conns
    client = client_key(ws)
    await ws.accept()
    refusal = conns.open_ws(client)
    if refusal is not None:
        await ws.send_json({"type": "error", "status": refusal.status, "error": refusal.error,
                            "reason": refusal.reason, "retry_after": refusal.retry_after})
        await ws.close(code=CLOSE_TRY_LATER, reason=refusal.error)
        return
    try:
        await _ws_table(hub, ws, client)
    finally:
        conns.close_ws(client)


async def _ws_table(hub: Hub, ws: WebSocket, client: str) -> None:
    try:
        hub.throttle("read", client)  # the first state is a read
        table = await hub.table(ws.path_params["id"])
        seat = hub.seat_for(table, seat_token(ws, ws.query_params.get("token")))
    except ApiError as e:
        await ws.send_json({"type": "error", "status": e.status, **error_body(e)})
        later = e.status in (429, 503)  # 1013: try again later; 4403, 4404: do not
        await ws.close(code=CLOSE_TRY_LATER if later else 4000 + e.status, reason=e.error)
        return

    async def too_slow() -> None:
        await ws.close(code=CLOSE_POLICY, reason="too far behind; reconnect")

    extras = ws.query_params.get("board") == "web"  # the browser table: boards in updates
    conn = Conn(seat, ws.send_text, hub.settings.queue_limit, too_slow, extras)
    raw = ws.query_params.get("since", "0")
    since = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 0
    first = timing.arriving(hub.payload(table, seat, since), seat)
    conn.next_event = first["next_event"]
    first["type"] = "state"
    conn.push(encode(hub.extend(table, seat, first) if extras else first))
    table.conns.add(conn)
    hub.presence(table)
    writer = hub_loop_task(conn)
    try:
        await _ws_reader(hub, ws, table, conn, client)
    except WebSocketDisconnect:
        pass
    finally:
        table.conns.discard(conn)
        hub.presence(table)
        writer.cancel()
        with contextlib.suppress(BaseException):
            await writer


def hub_loop_task(conn: Conn) -> asyncio.Future[None]:
    return asyncio.ensure_future(conn.run())


async def _ws_reader(hub: Hub, ws: WebSocket, table: Table, conn: Conn, client: str) -> None:
    limit = hub.settings.max_body
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if conn.dropped:
            await ws.close(code=CLOSE_POLICY, reason="too far behind")
            return
        if text is None:
            await ws.close(code=CLOSE_BINARY, reason="messages are JSON text, not binary")
            return
        if len(text) > limit:
            await ws.close(code=CLOSE_TOO_BIG, reason=f"messages are at most {limit} bytes")
            return
        reply: dict[str, Any] | str | None
        try:
            reply = await _ws_message(hub, table, conn, text, client)
        except ApiError as e:
            reply = {"type": "error", "status": e.status, **error_body(e)}
        if reply is not None:
            conn.push(reply if isinstance(reply, str) else encode(reply))


WS_ACTION_KEYS = ("type", "action", "expect")
WS_UNDO_KEYS = ("type", "expect")


async def _ws_message(hub: Hub, table: Table, conn: Conn, text: str,
                      client: str) -> dict[str, Any] | str | None:
    """One message's answer, or its text (None: the update every connection gets is the
    answer). A
    move counts against its seat's bucket (shared with HTTP and the seat's other
    websockets), anything else against the client's reads."""
    msg = parse_json(text)
    kind = msg.get("type") if isinstance(msg, dict) else None
    if kind in ("action", "undo") and conn.seat is not None:
        hub.throttle("move", f"{table.id}:{conn.seat}")
    else:
        hub.throttle("read", client)
    if kind == "ping":
        return {"type": "pong"}
    if kind == "state":
        def state() -> str:
            out = hub.payload(table, conn.seat)
            out["type"] = "state"
            return encode(hub.extend(table, conn.seat, out) if conn.extras else out)

        if table.timing is not None:  # its clock is as of now
            return state()
        kind_key = "ws+board" if conn.extras else "ws"
        answer = ANSWERS.get((kind_key, table.id, table.version, table.named, conn.seat, 0),
                             state)
        assert isinstance(answer, str)
        return answer
    if kind == "action":
        assert isinstance(msg, dict)
        known_keys(msg, WS_ACTION_KEYS, "an action message")
        await hub.act(table, conn.seat, action_arg(msg.get("action")),
                      expect_arg(msg.get("expect"), table))
        return None  # the update reaches every connection, this one included
    if kind == "undo":
        assert isinstance(msg, dict)
        known_keys(msg, WS_UNDO_KEYS, "an undo message")
        await hub.undo(table, conn.seat, expect_arg(msg.get("expect"), table))
        return None  # the new state reaches every connection, this one included
    raise ApiError(400, "bad_request", "a message is a JSON object with a \"type\": "
                   "action, undo, state or ping")


# -- the application -----------------------------------------------------------------------
def _places() -> list[tuple[str, str]]:
    """Directories of this server an error must not show, longest first, with what to say
    instead: where Cove is installed, the data directories allowed, Python, the working
    directory, the home directory."""
    from cove.core.data import allowed_dirs

    places = {str(Path(sys.prefix).resolve()): "<python>",
              str(Path.cwd().resolve()): "<server>",
              str(Path.home().resolve()): "<home>"}
    home = Path(cove.__file__).resolve().parent
    places.update({str(d): "<data>" for d in allowed_dirs() if not d.is_relative_to(home)})
    places[str(home)] = "<cove>"
    return sorted(((p, name) for p, name in places.items() if len(p) > 1),
                  key=lambda item: -len(item[0]))


PLACES = _places()


def scrub(text: str) -> str:
    """``text`` without the server's own paths (an error may name a file a client asked
    for, never where the server keeps its files)."""
    if os.sep not in text:
        return text
    for path, name in PLACES:
        text = text.replace(path, name)
    return text


def error_body(e: ApiError) -> dict[str, Any]:
    body = e.body()
    body["reason"] = scrub(e.reason)
    return body


async def api_error(request: Request | WebSocket, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    wait = exc.extra.get("retry_after")
    headers = {"Retry-After": str(wait)} if wait is not None else None
    return JSONResponse(error_body(exc), status_code=exc.status, headers=headers)


async def unavailable_error(request: Request | WebSocket, exc: Exception) -> Response:
    """The database cannot be read or written now: 503 with Retry-After (nothing changed)."""
    assert isinstance(exc, Unavailable)
    return JSONResponse(exc.body(), status_code=exc.status,
                        headers={"Retry-After": str(exc.retry_after)})


async def http_error(request: Request | WebSocket, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": "http", "reason": exc.detail}, status_code=exc.status_code)


CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
"""The pages' scripts and styles come from this server only (the boards' SVG has style
attributes), and no other site may frame them."""
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()),
                    (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer")]


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response: no framing by other sites,
    no content sniffing, and no Referer (a page's address holds its seat token)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, sending)


def create_app(settings: Settings | None = None,
               conns: limits.Connections | None = None) -> Starlette:
    """The ASGI application; its lifespan opens the store and restores the tables.
    ``conns``: the connection counts shared with the HTTP protocol (``run``); websockets
    are counted there."""
    global PLACES
    settings = settings or Settings()
    trusted = limits.Trusted(settings.forwarded_allow_ips)  # a bad list fails here
    PLACES = _places()  # the data directories allowed now (--data-dir) among them
    from cove.web.routes import update_board, web_routes  # the browser table's pages

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        limits.redact_tokens()
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
        Route("/api/tables/{id}/undo", post_undo, methods=["POST"]),
        Route("/api/tables/{id}/hint", get_hint),
        Route("/api/tables/{id}/close", post_close, methods=["POST"]),
        Route("/api/tables/{id}/timeout", post_timeout, methods=["POST"]),
        Route("/api/tables/{id}/reclaim", post_reclaim, methods=["POST"]),
        Route("/api/tables/{id}/sit", post_sit, methods=["POST"]),
        Route("/api/players", post_player, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", ws_table),
    ]
    routes += player_routes()  # "My games", webhooks, leaderboards
    routes += chat_routes() + again_routes()
    routes += web_routes()
    middleware = [Middleware(SecurityHeaders)]
    if trusted:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        middleware.insert(0, Middleware(ProxyHeadersMiddleware,
                                        trusted_hosts=settings.forwarded_allow_ips))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={ApiError: api_error, Unavailable: unavailable_error,
                                        HTTPException: http_error})
    app.state.conns = conns if conns is not None else limits.Connections(settings)
    return app
