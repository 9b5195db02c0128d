"""The server's refusals and failures: :class:`ApiError` (a status, a short code and
the reason, as docs/API.md lists them), the database being unavailable, a stored table
that cannot be rebuilt, and the checks every module that acts on a table shares. Imported
by the hub and by every module beside it; it imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cove.core.errors import CoveError

if TYPE_CHECKING:
    from cove.serve.hub import Table


class ApiError(CoveError):
    """A request the server refuses: HTTP status, a short error code and the reason."""

    def __init__(self, status: int, error: str, reason: str, **extra: Any) -> None:
        super().__init__(reason)
        self.status = status
        self.error = error
        self.reason = reason
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "reason": self.reason, **self.extra}


STORE_RETRY_AFTER = 5
"""Seconds a client is asked to wait (Retry-After) when the database cannot be read or
written."""


class Unavailable(ApiError):
    """503: the database cannot be read or written now (full, read-only, unreachable).
    Nothing was changed; the same request may be sent again after ``retry_after`` seconds
    (a move with the same ``expect``: if it was stored after all, that is a 409)."""

    def __init__(self) -> None:
        super().__init__(503, "unavailable", "the database cannot be read or written now (the "
                         "server's log says why); nothing was changed: try again in "
                         f"{STORE_RETRY_AFTER} s", retry_after=STORE_RETRY_AFTER)
        self.retry_after = STORE_RETRY_AFTER


class RestoreError(CoveError):
    """A stored table that cannot be rebuilt: it is quarantined."""


def quarantined(table_id: str) -> ApiError:
    """The answer for a table whose stored data cannot be restored."""
    return ApiError(500, "quarantined", f"table {table_id[:40]!r} is quarantined: its stored "
                    "data cannot be restored (the server's log says why); the other tables "
                    "are not affected")


def still_open(table: Table) -> None:
    """409 ``closed`` when the table's creator closed it."""
    if table.closed:
        raise ApiError(409, "closed", "this table was closed by its creator; nothing more is "
                       "played at it (the lobby makes a new one)", moves=table.moves)
