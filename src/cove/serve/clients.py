"""Who is asking: a request's client address, as the limits count it, and the seat token
it carries (a header or the query). Used by the API's routes and the browser table's."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.websockets import WebSocket

from cove.serve import limits
from cove.serve.errors import ApiError

__all__ = ["client_key", "seat_token"]


def client_key(request: Request | WebSocket) -> str:
    """The client's address as limits count it (the forwarded one behind a trusted
    proxy; an IPv6 client's /64)."""
    return limits.client_key(request.client.host if request.client is not None else None)


def seat_token(conn: Request | WebSocket, given: Any = None) -> str | None:
    """The seat token: ``Authorization: Bearer <token>`` or ``given`` (the query's or the
    body's ``token``); None (a spectator) without one, also for an empty one."""
    auth = conn.headers.get("authorization")
    header = None
    if auth is not None:
        scheme, _, value = auth.strip().partition(" ")
        if scheme.lower() != "bearer":
            raise ApiError(400, "bad_request", "the Authorization header is "
                           "'Bearer <seat token>'")
        header = value.strip() or None
    if given == "":
        given = None
    if given is not None and not isinstance(given, str):
        raise ApiError(403, "bad_token", "the token is the seat's token text")
    if header is not None and given is not None and header != given:
        raise ApiError(400, "bad_request", "two different tokens: one in the Authorization "
                       "header, another in the request; send one")
    return header if header is not None else given
