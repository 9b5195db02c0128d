"""``cove serve``: online tables for friends and bots, stored safely (docs/API.md).

Needs the ``web`` extra (``pip install 'cove[web]'``): Starlette, uvicorn, websockets and
psycopg. ``import cove`` never imports this package.
"""

from __future__ import annotations

import dataclasses
import errno
import logging
import socket

import uvicorn

from cove.core.errors import CoveError
from cove.serve.app import create_app
from cove.serve.errors import ApiError
from cove.serve.hub import Hub, Settings
from cove.serve.limits import Connections, Trusted, http_protocol, redact_tokens
from cove.serve.store import StoreError, open_store

__all__ = ["AddressError", "ApiError", "Hub", "Settings", "StoreError", "check_address",
           "create_app", "open_store", "run"]

log = logging.getLogger(__name__)

FILES_KEPT = 256
"""Open files kept for the server's own use (the database, worker pipes, logs) below the
process's limit when capping connections."""


class AddressError(CoveError):
    """The host and port ``cove serve`` would listen on cannot be had (a port in use, a
    privileged port, a host that is not this machine's)."""


def check_address(host: str, port: int) -> None:
    """Raise AddressError, saying what to choose instead, unless the server could listen
    on ``host:port`` now; bound the way uvicorn binds (``SO_REUSEADDR``) and let go."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as e:
        raise AddressError(f"--host {host}: not an address this machine can listen on "
                           f"({getattr(e, 'strerror', None) or e}); the default is "
                           "127.0.0.1 (this machine only), 0.0.0.0 is every interface"
                           ) from None
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as e:
            other = 8001 if port == 8000 else 8000
            if e.errno == errno.EADDRINUSE:
                why = "is busy: another program is listening there"
            elif e.errno == errno.EACCES:
                why = "needs more rights than this user has"
            else:
                why = f"cannot be used ({e.strerror})"
            raise AddressError(f"port {port} on {host} {why}; choose another port with "
                               f"--port, e.g. cove serve --port {other}") from None


def fit_file_limit(settings: Settings) -> Settings:
    """Raise the process's open-file limit to fit ``max_connections`` (up to the hard
    limit); if it still does not fit, lower ``max_connections`` to what does (logged), so
    that a full server answers 503 instead of failing to accept."""
    try:
        import resource
    except ImportError:  # pragma: no cover  (not on Windows)
        return settings
    want = settings.max_connections + FILES_KEPT
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
            soft = new
        except (ValueError, OSError):
            pass
    if soft != resource.RLIM_INFINITY and soft < want:
        fit = max(1, soft - FILES_KEPT)
        log.warning("the open-file limit is %d: at most %d connections (not %d)", soft, fit,
                    settings.max_connections)
        return dataclasses.replace(settings, max_connections=fit)
    return settings


def run(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None) -> int:
    """Serve until interrupted. An address that cannot be listened on raises AddressError
    and a database that cannot be opened StoreError, both before anything is created."""
    settings = settings or Settings()
    check_address(host, port)  # a busy port fails here, before the database file exists
    open_store(settings.db).close()  # a bad --db fails here, with one clear line
    trusted = Trusted(settings.forwarded_allow_ips)  # and a bad --forwarded-allow-ips
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = fit_file_limit(settings)
    conns = Connections(settings)
    # per-message compression costs more CPU than a table's small messages save; the
    # forwarded headers are the app's (create_app), believed only from trusted proxies
    config = uvicorn.Config(create_app(settings, conns), host=host, port=port,
                            http=http_protocol(settings, conns, trusted),
                            ws_max_size=settings.max_body, ws_per_message_deflate=False,
                            log_level="info", lifespan="on", proxy_headers=False)
    redact_tokens()  # after uvicorn's logging is configured
    server = uvicorn.Server(config)
    server.run()  # until SIGINT or SIGTERM (uvicorn handles both)
    return 0 if server.started else 3
