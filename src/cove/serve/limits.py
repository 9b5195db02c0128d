"""What keeps one client, or many, from taking the whole server (docs/API.md, *Limits*).

- :func:`client_key`: the address a client's limits are counted by (an IPv6 client by its
  /64 network: one host of a network holds all of it).
- :class:`Bucket` and :class:`Buckets`: token buckets for moves (per seat), reads and
  table creation (per client address).
- :class:`Connections`: open TCP connections and websockets, per client address and in
  all, each under its cap.
- :func:`http_protocol`: uvicorn's HTTP protocol with those caps at accept time (a client
  past them is answered 429 or 503 with ``Retry-After`` and closed) and the header, body
  and idle timeouts uvicorn has not got.
- :func:`redact_tokens`: a log filter that writes ``token=REDACTED`` for every seat token
  in uvicorn's access and error logs.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import math
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from cove.serve.hub import Settings

log = logging.getLogger(__name__)


# -- client addresses ----------------------------------------------------------------------
@functools.lru_cache(maxsize=8192)
def client_key(host: str | None) -> str:
    """The key a client's limits are counted under: its IPv4 address, or the /64 network
    of its IPv6 address (a single IPv6 host is usually given a whole /64, so counting by
    address would let one host be thousands of clients); anything else as it is."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Trusted:
    """The proxies whose ``X-Forwarded-For`` is believed (``--forwarded-allow-ips``):
    addresses and networks, comma-separated, or ``*`` for any; empty: none."""

    def __init__(self, spec: str) -> None:
        self.spec = spec.strip()
        self.any = self.spec == "*"
        self.nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.seen: dict[str, bool] = {}
        for part in self.spec.split(","):
            part = part.strip()
            if part and part != "*":
                try:
                    self.nets.append(ipaddress.ip_network(part, strict=False))
                except ValueError:
                    raise ValueError(f"--forwarded-allow-ips: {part[:60]!r} is not an IP "
                                     "address or network (e.g. 127.0.0.1,10.0.0.0/8)") from None

    def __bool__(self) -> bool:
        return self.any or bool(self.nets)

    def __contains__(self, host: object) -> bool:
        if self.any:
            return True
        if not isinstance(host, str) or not self.nets:
            return False
        known = self.seen.get(host)
        if known is None:
            try:
                ip = ipaddress.ip_address(host)
            except ValueError:
                known = False
            else:
                known = any(ip in net for net in self.nets)
            if len(self.seen) > 4096:
                self.seen.clear()
            self.seen[host] = known
        return known


# -- token buckets -------------------------------------------------------------------------
class Bucket:
    """A token bucket: ``take()`` is False when the caller is over its rate."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True

    def wait(self, cost: float = 1.0) -> float:
        """Seconds until ``take(cost)`` succeeds."""
        return max(0.0, (cost - self.tokens) / self.rate) if self.rate > 0 else math.inf

    def full(self, now: float) -> bool:
        """Refilled by ``now``: as good as a new bucket, so it may be forgotten."""
        return self.tokens + (now - self.at) * self.rate >= self.burst


class Buckets:
    """Buckets by key. Past ``size`` keys the full ones (those that would start full
    anyway) are forgotten; if that is not enough, the oldest half: a flood of new keys
    (addresses) cannot grow memory without end."""

    def __init__(self, size: int = 100_000) -> None:
        self.size = size
        self.buckets: dict[str, Bucket] = {}

    def get(self, key: str, rate: float, burst: int) -> Bucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.size:
                self.sweep()
            bucket = self.buckets[key] = Bucket(rate, burst)
        return bucket

    def sweep(self) -> None:
        now = time.monotonic()
        kept = {k: b for k, b in self.buckets.items() if not b.full(now)}
        if len(kept) >= self.size // 2:
            kept = dict(list(kept.items())[len(kept) - self.size // 2:])
        self.buckets = kept


# -- connections ---------------------------------------------------------------------------
def error_body(error: str, reason: str, **extra: Any) -> bytes:
    return orjson.dumps({"error": error, "reason": reason, **extra})


class Refusal:
    """Why a connection or websocket was not taken: the HTTP status (429: this client is
    over its own cap; 503: the server is full), the error code and the reason."""

    __slots__ = ("error", "reason", "retry_after", "status")

    def __init__(self, status: int, error: str, reason: str, retry_after: int) -> None:
        self.status = status
        self.error = error
        self.reason = reason
        self.retry_after = retry_after

    def http(self) -> bytes:
        """The whole HTTP response, ready to write on a connection that is then closed."""
        body = error_body(self.error, self.reason, retry_after=self.retry_after)
        phrase = "Too Many Requests" if self.status == 429 else "Service Unavailable"
        head = (f"HTTP/1.1 {self.status} {phrase}\r\ncontent-type: application/json\r\n"
                f"content-length: {len(body)}\r\nretry-after: {self.retry_after}\r\n"
                "connection: close\r\n\r\n")
        return head.encode() + body


class Connections:
    """Open TCP connections (HTTP and websocket alike) and websockets, per client key and
    in all. ``open_*`` return a :class:`Refusal` past a cap, else count the new one; each
    counted one is released once with ``close_*``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.total = 0
        self.by_client: dict[str, int] = {}
        self.websockets = 0
        self.ws_by_client: dict[str, int] = {}
        self.refused = 0
        """Connections and websockets refused since start (for tests and the log)."""

    def open_conn(self, key: str | None) -> Refusal | None:
        """A new TCP connection from ``key`` (None: a trusted proxy, which only the total
        cap applies to: its clients are counted by their forwarded address instead)."""
        s = self.settings
        if self.total >= s.max_connections:
            self.refused += 1
            return Refusal(503, "overloaded", f"the server has {self.total} open connections, "
                           f"its limit ({s.max_connections}); try again in "
                           f"{s.retry_after} s", s.retry_after)
        if key is not None:
            have = self.by_client.get(key, 0)
            if have >= s.client_connections:
                self.refused += 1
                return Refusal(429, "too_many_connections", f"your address has {have} "
                               f"connections open, the most one address may have "
                               f"({s.client_connections}); close some and try again",
                               s.retry_after)
            self.by_client[key] = have + 1
        self.total += 1
        return None

    def close_conn(self, key: str | None) -> None:
        self.total -= 1
        if key is not None:
            _drop(self.by_client, key)

    def open_ws(self, key: str) -> Refusal | None:
        s = self.settings
        if self.websockets >= s.max_websockets:
            self.refused += 1
            return Refusal(503, "overloaded", f"the server has {self.websockets} websockets "
                           f"open, its limit ({s.max_websockets}); try again in "
                           f"{s.retry_after} s", s.retry_after)
        have = self.ws_by_client.get(key, 0)
        if have >= s.client_websockets:
            self.refused += 1
            return Refusal(429, "too_many_connections", f"your address has {have} websockets "
                           f"open, the most one address may have ({s.client_websockets}); "
                           "close some (other tabs?) and try again", s.retry_after)
        self.ws_by_client[key] = have + 1
        self.websockets += 1
        return None

    def close_ws(self, key: str) -> None:
        self.websockets -= 1
        _drop(self.ws_by_client, key)


def _drop(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


LINGER = 1.0
"""Seconds a refused connection is kept reading (and discarding) after its answer, so the
answer is not lost to a reset when the client's request arrives after the close."""
LINGER_MAX = 256
"""Refused connections kept lingering at once; past it they are closed at once."""


def http_protocol(settings: Settings, conns: Connections,
                  trusted: Trusted) -> type[asyncio.Protocol] | str:
    """uvicorn's HTTP protocol (httptools) with ``conns``' caps and the header, body and
    idle timeouts of ``settings``; ``"auto"`` (uvicorn's own, without them, logged) when
    httptools is missing."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover  (uvicorn[standard] brings httptools)
        log.warning("httptools is missing: connection caps and the header and body "
                    "timeouts are off (pip install 'uvicorn[standard]')")
        return "auto"
    from uvicorn.protocols.utils import get_remote_addr

    header_timeout = settings.header_timeout
    body_timeout = settings.body_timeout
    lingering = [0]

    class Protocol(HttpToolsProtocol):
        """One connection: counted against its client's cap and the total; closed when
        its request's headers (``header_timeout``, from the connection or the request's
        first byte) or body (``body_timeout``, from the end of the headers) are late, and
        when idle between requests (``idle_timeout``)."""

        _edge_key: str | None = None
        _edge_counted = False
        _edge_lingers = False
        _edge_timer: asyncio.TimerHandle | None = None
        _edge_started = False  # bytes of the current request have arrived

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.timeout_keep_alive = settings.idle_timeout  # type: ignore[assignment]

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = get_remote_addr(transport)
            host = peer[0] if peer else None
            self._edge_key = None if host in trusted else client_key(host)
            refusal = conns.open_conn(self._edge_key)
            if refusal is not None:
                self.transport = transport
                self._refuse(refusal)
                return
            self._edge_counted = True
            super().connection_made(transport)
            self._arm(header_timeout, self._headers_late)

        def _refuse(self, refusal: Refusal) -> None:
            """Answer at once and close; keep reading (and dropping) what the client sends
            meanwhile for a moment, so that the answer reaches it."""
            self.transport.write(refusal.http())
            if lingering[0] >= LINGER_MAX or not self.transport.can_write_eof():
                self.transport.close()
                return
            self.transport.write_eof()
            lingering[0] += 1
            self._edge_lingers = True
            self._edge_timer = self.loop.call_later(LINGER, self.transport.close)

        def data_received(self, data: bytes) -> None:
            if self._edge_counted:
                super().data_received(data)

        def eof_received(self) -> None:
            if not self._edge_counted:
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._edge_lingers:
                self._edge_lingers = False
                lingering[0] -= 1
            if not self._edge_counted:
                return
            self._edge_counted = False
            conns.close_conn(self._edge_key)
            super().connection_lost(exc)

        # -- timers
        def _arm(self, delay: float, then: Callable[[], None]) -> None:
            self._disarm()
            self._edge_timer = self.loop.call_later(delay, then)

        def _disarm(self) -> None:
            if self._edge_timer is not None:
                self._edge_timer.cancel()
                self._edge_timer = None

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._edge_timer is None:  # a later request on a kept-alive connection
                self._arm(header_timeout, self._headers_late)
            self._edge_started = True

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()
            if not (self.parser.should_upgrade() and self._should_upgrade()):
                self._arm(body_timeout, self._body_late)

        def on_message_complete(self) -> None:
            self._disarm()
            self._edge_started = False
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            """The websocket takes over the connection, and its place in the counts, which
            it gives back when it closes."""
            self._disarm()
            super().handle_websocket_upgrade()
            ws = self.transport.get_protocol()
            lost = ws.connection_lost
            key, self._edge_counted = self._edge_key, False

            def released(exc: Exception | None) -> None:
                conns.close_conn(key)
                lost(exc)

            ws.connection_lost = released  # type: ignore[method-assign]

        def _headers_late(self) -> None:
            self._edge_timer = None
            if not self._edge_started:  # a connection that never sent a byte: just closed
                self._close(None)
                return
            busy = self.cycle is not None and not self.cycle.response_complete
            self._close(None if busy else f"the request's headers did not arrive within "
                        f"{header_timeout:g} s")

        def _body_late(self) -> None:
            self._edge_timer = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                cycle.disconnected = True  # the app's receive() gets a disconnect
                cycle.message_event.set()
            answered = cycle is not None and cycle.response_started
            self._close(None if answered else f"the request's body did not arrive within "
                        f"{body_timeout:g} s")

        def _close(self, reason: str | None) -> None:
            """Answer 408 with ``reason`` (None: no answer) and close."""
            if self.transport.is_closing():
                return
            if reason is not None:
                body = error_body("timeout", reason)
                self.transport.write(
                    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                    b"content-length: " + str(len(body)).encode() + b"\r\n"
                    b"connection: close\r\n\r\n" + body)
            self.transport.close()

    return Protocol


# -- logs ----------------------------------------------------------------------------------
TOKEN_RE = re.compile(r"((?:^|[?&;])token=)[^&\s\"';]*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` query parameter replaced."""
    return TOKEN_RE.sub(r"\1REDACTED", text) if "token=" in text.lower() else text


class RedactTokens(logging.Filter):
    """Rewrites ``token=...`` in a record's message and arguments (uvicorn logs each
    request's path and query: a seat token there would give the seat to anyone who reads
    the log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        args = record.args
        if isinstance(args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in args)
        elif isinstance(args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in args.items()}
        return True


LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact_tokens() -> None:
    """Add :class:`RedactTokens` to uvicorn's loggers (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
