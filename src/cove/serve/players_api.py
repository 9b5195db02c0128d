"""A named player's own routes ("My games", their webhook) and the games' leaderboards.

The player is the one whose personal key (``POST /api/players``) comes as
``Authorization: Bearer <key>``; without it 401 ``no_player``, with a key no player has
403 ``unknown_player``. docs/API.md describes the routes.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

import cove
from cove.core.errors import CoveError
from cove.serve.errors import ApiError
from cove.serve.http import JSONResponse, read_json, same_site
from cove.serve.hub import Hub, token_hash
from cove.serve.webhooks import check_url

MY_TABLES = 100
"""The most tables "My games" lists."""
RESULTS = 20
"""The finished tables (the most recent) whose scores and winners "My games" gives."""


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def bearer(request: Request) -> str | None:
    """The key of ``Authorization: Bearer <key>``; None without the header; 400 for
    another scheme."""
    auth = request.headers.get("authorization")
    if auth is None:
        return None
    scheme, _, value = auth.strip().partition(" ")
    if scheme.lower() != "bearer":
        raise ApiError(400, "bad_request", "the Authorization header is 'Bearer <your "
                       "personal key>'")
    return value.strip() or None


async def player_of(hub: Hub, request: Request) -> tuple[str, str]:
    """(key hash, name) of the player whose key the request carries; 401 / 403 otherwise."""
    key = bearer(request)
    if key is None:
        raise ApiError(401, "no_player", "send your personal key (the one POST /api/players "
                       "gave you) as the header Authorization: Bearer <key>")
    return await hub.named(key, 403)


def order(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Yucata's order: the tables waiting for the player first, the longest-waiting first;
    then their other unfinished tables, the most recently moved first; then the finished
    ones, the most recent first."""
    def key(e: dict[str, Any]) -> tuple[int, float]:
        if e["your_turn"]:
            return 0, e["updated"]
        return (2 if e["over"] else 1), -e["updated"]
    return sorted(entries, key=key)


async def my_tables(request: Request) -> Response:

    hub = _hub(request)
    hub.throttle("read", _client(request))
    hashed, name = await player_of(hub, request)
    rows = await hub._db(hub.store.player_seats, hashed, MY_TABLES)
    names = {g.id: g.name for g in cove.all_games()}
    entries = []
    results = 0
    for row in rows:
        seat, over, to_move = row["seat"], row["over"], []
        result: dict[str, Any] | None = None
        if not over or results < RESULTS:  # the table itself (loaded when not in memory)
            try:
                table = await hub.table(row["id"])
            except CoveError:
                if not over:
                    continue  # quarantined, or the database failed now: left out this time
            else:
                st = table.state
                over, to_move = st.is_over, list(st.to_move())
                row.update(moves=table.moves, updated=table.updated, seats=table.seats)
                if over:
                    results += 1
                    result = {"scores": st.scores(), "winners": list(st.winners())}
        entries.append({
            "id": row["id"], "game": row["game"], "game_name": names.get(row["game"],
                                                                         row["game"]),
            "seat": seat, "rated": row["rated"], "over": over, "moves": row["moves"],
            "to_move": to_move, "your_turn": seat in to_move,
            "seats": [_seat(i, s) for i, s in enumerate(row["seats"])],
            "created": row["created"], "updated": row["updated"],
            "link": f"/web/tables/{row['id']}?me=1",
            **({} if result is None else result)})
    return JSONResponse({"name": name, "tables": order(entries)},
                        headers={"Cache-Control": "no-store"})


def _seat(i: int, seat: dict[str, Any]) -> dict[str, Any]:
    from cove.serve.hub import seat_info

    return seat_info(i, seat)


def _client(request: Request) -> str:
    from cove.serve.clients import client_key

    return client_key(request)


def _base(request: Request) -> str:
    """This server's address as the player reached it (the scheme and host of the request;
    behind a trusted proxy, the forwarded scheme)."""
    return f"{request.url.scheme}://{request.url.netloc}"


async def put_webhook(request: Request) -> Response:
    """``{"url": "https://..."}`` (or null: remove it) -> ``{"url"}``."""

    hub = _hub(request)
    same_site(request)
    hub.throttle("create", _client(request))
    hashed, _ = await player_of(hub, request)
    body = await read_json(request, hub.settings.max_body)
    if not isinstance(body, dict) or set(body) != {"url"}:
        raise ApiError(400, "bad_request", "the body is {\"url\": your webhook's URL, or "
                       "null to remove it}")
    s = hub.settings
    url = check_url(body["url"], s.webhook_hosts, s.webhook_private)
    await hub.commits.run(hub.store.set_webhook, hashed, url, _base(request))
    return JSONResponse({"url": url})


async def get_webhook(request: Request) -> Response:

    hub = _hub(request)
    hub.throttle("read", _client(request))
    hashed, _ = await player_of(hub, request)
    hook = await hub._db(hub.store.webhook, hashed)
    return JSONResponse({"url": None if hook is None else hook[0]},
                        headers={"Cache-Control": "no-store"})


async def leaderboard(request: Request) -> Response:
    """The game's leaderboard (:meth:`cove.serve.ratings.Ratings.board`); with a player's
    key, their own entry says ``"you": true``."""

    hub = _hub(request)
    hub.throttle("read", _client(request))
    raw = request.query_params.get("limit", "100")
    limit = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 100
    key = bearer(request)
    me = None if key is None else token_hash(key)
    return JSONResponse(await hub.ratings.board(request.path_params["game"], limit, me),
                        headers={"Cache-Control": "no-store"})


def player_routes() -> list[BaseRoute]:
    return [
        Route("/api/players/me/tables", my_tables),
        Route("/api/players/me/webhook", put_webhook, methods=["PUT"]),
        Route("/api/players/me/webhook", get_webhook, methods=["GET"]),
        Route("/api/games/{game}/leaderboard", leaderboard),
    ]
