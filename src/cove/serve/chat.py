"""Chat at a table: messages stored with the table, pushed to every connection.

Seated players write (by their seat's token, or by the personal key of the named player
who took a seat); spectators read, and write too when the table's creator allowed it at
creation (``"spectator_chat": true`` in the new table's body). A message is 1 to
:data:`CHAT_MAX` characters (single-spaced: the page's box is one line) and each sender
may send :attr:`Settings.chat_burst` at once and :attr:`Settings.chat_rate` a second
(the hub's throttle, kind ``"chat"``). Messages are rows of ``cove_chat``, numbered from 0
per table, so they survive a restart and reach anyone who joins later; every connection of
the table gets ``{"type": "chat", "message": {...}}`` as one is stored. The text is stored
and sent as the sender wrote it: the page puts it in as text, never as markup.

The routes (``GET`` and ``POST /api/tables/{id}/chat``) are added by :func:`chat_routes`,
which :func:`cove.serve.app.create_app` adds to the app (this module uses
the app's helpers).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cove.serve.chat_store import CHAT_MAX, ChatRows
from cove.serve.clients import client_key, seat_token
from cove.serve.errors import ApiError
from cove.serve.http import JSONResponse, hub_of, since_arg, table_post
from cove.serve.hub import Hub, Table, token_hash

OPTION = "spectator_chat"
"""The new table's key that lets spectators write."""


def rows(hub: Hub) -> ChatRows:
    """The hub's store, which keeps the chat rows (every SQL store does)."""
    store = hub.store
    if not isinstance(store, ChatRows):
        raise ApiError(501, "no_chat", "this server's store keeps no chat")
    return store


def check_text(text: Any) -> str:
    """The message single-spaced; 422 ``bad_chat`` when it is not text, empty, too long
    or holds control characters."""
    if not isinstance(text, str):
        raise ApiError(422, "bad_chat", f"text is the message, 1 to {CHAT_MAX} characters")
    said = " ".join(text.split())
    if not said:
        raise ApiError(422, "bad_chat", "the message is empty: write 1 to "
                       f"{CHAT_MAX} characters")
    if len(said) > CHAT_MAX:
        raise ApiError(422, "bad_chat", f"the message has {len(said)} characters; at most "
                       f"{CHAT_MAX}")
    if not said.isprintable():
        raise ApiError(422, "bad_chat", "the message holds control characters; write "
                       "letters, digits, spaces and punctuation")
    return said


def creation_option(body: Any) -> tuple[Any, bool]:
    """The new table's body without :data:`OPTION`, and whether spectators may write
    (400 when it is not true or false)."""
    if not isinstance(body, dict) or OPTION not in body:
        return body, False
    body = dict(body)
    value = body.pop(OPTION)
    if not isinstance(value, bool):
        raise ApiError(400, "bad_request", f"{OPTION} is true (spectators may write in the "
                       "table's chat) or false (only the seated players write; the default)")
    return body, value


async def sender(hub: Hub, table: Table, token: str | None, player: Any
                 ) -> tuple[int | None, str]:
    """Who writes: (their seat or None for a spectator, the name the message shows). A
    seat's token, or the personal key of a named player: the seat they took here, else a
    named spectator."""
    seat = hub.seat_for(table, token)
    if player is None or player == "":
        return seat, seat_name(table, seat)
    if not isinstance(player, str):
        raise ApiError(400, "bad_request", "player is your personal key (text)")
    hashed = token_hash(player)
    for i, s in enumerate(table.seats):
        if s.get("player") == hashed and (seat is None or seat == i):
            return i, seat_name(table, i)
    name = await hub._db(hub.store.player, hashed)
    if name is None:
        raise ApiError(404, "unknown_player", "no player has this key; POST /api/players "
                       "with your name gives one")
    if seat is not None:
        return seat, seat_name(table, seat)
    return None, str(name)


def seat_name(table: Table, seat: int | None) -> str:
    if seat is None:
        return ""
    name = table.seats[seat].get("name")
    return name if isinstance(name, str) else f"P{seat + 1}"


# -- routes --------------------------------------------------------------------------------
async def get_chat(request: Request) -> Response:
    """``{"messages": [...], "next": n, "spectators_write": bool}``: the messages numbered
    ``since`` (default 0) and later."""
    hub = hub_of(request)
    hub.throttle("read", client_key(request))
    table = await hub.table(request.path_params["id"])
    seat = hub.seat_for(table, seat_token(request, request.query_params.get("token")))
    since = since_arg(request)
    got = await hub._db(rows(hub).chat, table.id, since)
    is_open = await hub._db(rows(hub).chat_is_open, table.id)
    nxt = got[-1]["n"] + 1 if got else since
    return JSONResponse({"messages": got, "next": nxt, "spectators_write": is_open,
                         "can_write": seat is not None or is_open})


async def post_chat(request: Request) -> Response:
    """``{"token"?, "player"?, "text"}``: 201 with the message stored; every connection
    of the table gets it as ``{"type": "chat", "message"}``."""
    hub, table, body = await table_post(request, ("token", "player", "text"),
                                        "a chat message")
    seat, name = await sender(hub, table, seat_token(request, body.get("token")),
                              body.get("player"))
    if seat is None and not await hub._db(rows(hub).chat_is_open, table.id):
        raise ApiError(403, "bad_token", "spectators read this table's chat; only its "
                       "seated players write (give your seat's token)")
    text = check_text(body.get("text"))
    hub.throttle("chat", f"{table.id}:{seat}" if seat is not None
                 else f"{table.id}:{client_key(request)}")
    said = await hub.commits.run(rows(hub).add_chat, table.id, seat, name, text)
    hub.notify(table, {"type": "chat", "message": said})
    return JSONResponse(said, status_code=201)


def chat_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{id}/chat", get_chat, methods=["GET"]),
            Route("/api/tables/{id}/chat", post_chat, methods=["POST"])]
