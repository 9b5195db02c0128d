"""Play again: a finished table's players start a new table of the same game, options and
seats, with a new seed, and each one takes their own seat at it.

``POST /api/tables/{id}/again`` with a seat's token of the finished table (``id``): the
first one makes the new table (bots keep their specs, named players their names, the seed
is new and secret as always) and every connection of the old table is told ``{"type":
"again", "table", "by", "name"}``; that seat, and each other seat's holder who posts
with their own old token later, gets a fresh token for the same seat at the new table.
So no token of the new table is stored or sent to anyone but its seat: the new table's
seats wait with no token (a hash of nothing opens nothing) until their holder comes. A
second post for the same seat issues a fresh token again (the earlier one stops opening
it): the old seat's token is what proves who holds the seat. ``GET`` tells whether the
table has a new game yet (for a page opened after the message went out).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from cove.serve.again_store import AgainRows
from cove.serve.clients import client_key, seat_token
from cove.serve.errors import ApiError
from cove.serve.http import JSONResponse, hub_of, table_post
from cove.serve.hub import Hub, Table, token_hash

LOCKS: dict[str, asyncio.Lock] = {}
"""One lock per finished table being played again: two players pressing at once make one
new table."""


def rows(hub: Hub) -> AgainRows:
    """The hub's store, which keeps the links (every SQL store does)."""
    store = hub.store
    if not isinstance(store, AgainRows):
        raise ApiError(501, "no_again", "this server's store cannot link a new game")
    return store


def seat_label(table: Table, seat: int) -> str:
    name = table.seats[seat].get("name")
    return f"{name} (P{seat + 1})" if isinstance(name, str) else f"P{seat + 1}"


def new_body(table: Table) -> dict[str, Any]:
    """The new table's body: the same game, player count, options and seats."""
    st = table.state
    return {"game": table.game.id, "players": st.n, "options": st.options.to_dict(),
            "seats": ["human" if s["kind"] == "human" else s["spec"] for s in table.seats]}


async def give_seat(hub: Hub, new: Table, seat: int) -> str:
    """A fresh token for ``seat`` of the new table (stored as its hash): the seat's
    holder's, now."""
    token = secrets.token_urlsafe(24)
    async with new.lock:
        seats = [dict(s) for s in new.seats]
        seats[seat]["token_hash"] = token_hash(token)
        await hub.commits.run(hub.store.set_seats, new.id, seats)
        new.seats = seats
    return token


async def start(hub: Hub, old: Table, seat: int, client: str) -> tuple[Table, bool]:
    """The new game of ``old`` (made now by ``seat``'s player unless one exists) and
    whether it was made now."""
    lock = LOCKS.setdefault(old.id, asyncio.Lock())
    async with lock:
        have = await hub._db(rows(hub).again, old.id)
        if have is not None:
            return await hub.table(have[0]), False
        made = await hub.create(new_body(old), client)
        new = await hub.table(made["id"])
        async with new.lock:  # the seats wait for their holders; names stay
            seats = []
            for was, now in zip(old.seats, new.seats, strict=True):
                s = dict(now)
                if s["kind"] == "human":
                    s["token_hash"] = ""
                    s.update({k: was[k] for k in ("player", "name") if k in was})
                seats.append(s)
            await hub.commits.run(hub.store.set_seats, new.id, seats)
            new.seats = seats
        if not await hub.commits.run(rows(hub).add_again, old.id, new.id, seat):
            raise ApiError(409, "stale", "another server process started the new game "
                           "meanwhile; ask again")
        hub.notify(old, {"type": "again", "table": new.id, "by": seat,
                         "name": seat_label(old, seat)})
    LOCKS.pop(old.id, None)
    return new, True


async def post_again(request: Request) -> Response:
    """``{"token"}`` (a seat's token of the finished table): ``{"id", "seat", "token",
    "link", "created"}``, that seat at the new game (201 when made now)."""
    hub, old, body = await table_post(request, ("token",), "play again")
    seat = hub.seat_for(old, seat_token(request, body.get("token")))
    if seat is None:
        raise ApiError(403, "bad_token", "give your seat's token of this table: its players "
                       "play again (spectators watch the new game from its link)")
    if not old.state.is_over:
        raise ApiError(409, "not_over", "the game is not over: play again once it ends")
    hub.throttle("move", f"{old.id}:{seat}")
    new, created = await start(hub, old, seat, client_key(request))
    token = await give_seat(hub, new, seat)
    return JSONResponse({"id": new.id, "seat": seat, "token": token,
                         "link": f"/web/tables/{new.id}?token={token}", "created": created},
                        status_code=201 if created else 200)


async def get_again(request: Request) -> Response:
    """``{"table": the new game's id or null, "by": the seat that started it or null}``."""
    hub = hub_of(request)
    hub.throttle("read", client_key(request))
    old = await hub.table(request.path_params["id"])
    have = await hub._db(rows(hub).again, old.id)
    if have is None:
        return JSONResponse({"table": None, "by": None})
    return JSONResponse({"table": have[0], "by": have[1], "name": seat_label(old, have[1])})


def again_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{id}/again", get_again, methods=["GET"]),
            Route("/api/tables/{id}/again", post_again, methods=["POST"])]
