"""``cove serve``: online tables for friends and bots, stored safely (docs/API.md).

Needs the ``web`` extra (``pip install 'cove[web]'``): Starlette, uvicorn, websockets and
psycopg. ``import cove`` never imports this package.
"""

from __future__ import annotations

import logging

import uvicorn

from cove.serve.app import create_app
from cove.serve.hub import ApiError, Hub, Settings
from cove.serve.store import StoreError, open_store

__all__ = ["ApiError", "Hub", "Settings", "StoreError", "create_app", "open_store", "run"]


def run(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None) -> int:
    """Serve until interrupted. A database that cannot be opened raises StoreError."""
    settings = settings or Settings()
    open_store(settings.db).close()  # a bad --db fails here, with one clear line
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    # per-message compression costs more CPU than a table's small messages save
    uvicorn.run(create_app(settings), host=host, port=port, ws_max_size=settings.max_body,
                ws_per_message_deflate=False, log_level="info", lifespan="on")
    return 0
