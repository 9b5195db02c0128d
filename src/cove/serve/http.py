"""What the HTTP routes share: JSON answers (orjson), the hub behind a request, the
same-site check, bodies read and checked, and the POSTs to a table (by anyone, or by a
seat with its token). The routes of :mod:`cove.serve.app` and of the modules beside it
(chat, play again, players) all import it; it imports none of them.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse as StarletteJSONResponse
from starlette.websockets import WebSocket

from cove.serve.clients import client_key, seat_token
from cove.serve.errors import ApiError
from cove.serve.hub import Hub, Table, encode_bytes


class JSONResponse(StarletteJSONResponse):
    """Encoded with orjson, as the websocket messages are."""

    def render(self, content: Any) -> bytes:
        return encode_bytes(content)


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def hostname(url: str) -> str:
    """The host of ``url`` (lower case, no port); "" when there is none."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data",
                        "text/plain"})
"""Content types any web page may send to another site without asking it first."""


def same_site(request: Request) -> None:
    """Refuse a request that another site's page may have made (CSRF): one whose Origin
    names another host (403), or one without Origin in a content type an HTML form sends
    (415). Browsers send Origin with every cross-site POST, and only a form type goes
    without the CORS preflight this server never answers; programs send neither."""
    origin = request.headers.get("origin")
    if origin is not None:
        theirs = hostname(origin)
        if not theirs or theirs != hostname("//" + request.headers.get("host", "")):
            raise ApiError(403, "cross_site", f"a page of another site ({origin[:80]!r}) may "
                           "not create tables or move here; use this server's own pages "
                           "or a program")
        return
    ctype = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if ctype in FORM_TYPES:
        raise ApiError(415, "bad_content_type", f"the body is sent as {ctype}; send it as "
                       "JSON with Content-Type: application/json")


async def read_json(request: Request, limit: int) -> Any:
    """The body as JSON; 413 past ``limit`` bytes (read no further), 400 when malformed."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise ApiError(413, "too_large", f"the body is {length[:20]} bytes; at most {limit}")
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise ApiError(413, "too_large", f"the body is over {limit} bytes")
    except ClientDisconnect:  # gone, or closed for being slow: nobody reads the answer
        raise ApiError(400, "bad_request", "the body did not arrive") from None
    return parse_json(body)


def parse_json(text: str | bytes | bytearray) -> Any:
    """JSON text, or 400 (``bad_json``) saying why not, nesting too deep included."""
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise ApiError(400, "bad_json", f"not valid JSON ({str(e)[:80]})") from None
    except RecursionError:
        raise ApiError(400, "bad_json", "not valid JSON: nested too deeply") from None


def since_arg(request: Request) -> int:
    raw = request.query_params.get("since", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise ApiError(400, "bad_request", "since must be an event number (0, 1, ...)")
    return int(raw)


def known_keys(body: dict[str, Any], keys: tuple[str, ...], what: str) -> None:
    unknown = [k for k in body if k not in keys]
    if unknown:
        raise ApiError(400, "bad_request", f"unknown key {str(unknown[0])[:40]!r} in {what}; "
                       "valid keys: " + ", ".join(keys))


async def table_post(request: Request, keys: tuple[str, ...], what: str
                     ) -> tuple[Hub, Table, dict[str, Any]]:
    """A POST to a table: the hub, the table and the body, checked to hold only ``keys``
    (from this site only; loading the table from the store counts as a read)."""
    hub = hub_of(request)
    same_site(request)
    if request.path_params["id"] not in hub.tables:  # a store lookup: counted as a read
        hub.throttle("read", client_key(request))
    table = await hub.table(request.path_params["id"])
    body = await read_json(request, hub.settings.max_body)
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object with keys "
                       + ", ".join(keys))
    known_keys(body, keys, what)
    return hub, table, body


async def seated_post(request: Request, keys: tuple[str, ...], what: str
                      ) -> tuple[Hub, Table, int, dict[str, Any]]:
    """A move's or an undo's POST: the hub, the table, the seat its token opens (counted
    against the seat's moves) and the body, checked to hold only ``keys``."""
    hub, table, body = await table_post(request, keys, what)
    token = seat_token(request, body.get("token"))
    if token is None:
        raise ApiError(403, "bad_token", "give your seat's token (\"token\", or the header "
                       f"Authorization: Bearer <token>) to send {what}")
    seat = hub.seat_for(table, token)
    assert seat is not None  # (a token opens a seat or is refused)
    hub.throttle("move", f"{table.id}:{seat}")
    return hub, table, seat, body
