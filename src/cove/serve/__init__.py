"""``cove serve``: online tables for friends and bots, stored safely (docs/API.md).

Needs the ``web`` extra (``pip install 'cove[web]'``): Starlette, uvicorn, websockets and
psycopg. ``import cove`` never imports this package.
"""

from __future__ import annotations

import dataclasses
import logging

import uvicorn

from cove.serve.app import create_app
from cove.serve.hub import ApiError, Hub, Settings
from cove.serve.limits import Connections, Trusted, http_protocol, redact_tokens
from cove.serve.store import StoreError, open_store

__all__ = ["ApiError", "Hub", "Settings", "StoreError", "create_app", "open_store", "run"]

log = logging.getLogger(__name__)

FILES_KEPT = 256
"""Open files kept for the server's own use (the database, worker pipes, logs) below the
process's limit when capping connections."""


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
    """Serve until interrupted. A database that cannot be opened raises StoreError."""
    settings = settings or Settings()
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
