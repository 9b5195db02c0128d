"""The browser table served by ``cove serve``: lobby, table, spectator and replay pages.

Plain server-rendered HTML, one hand-written script and one style sheet, all shipped as
package data (no build step, nothing fetched from the network). The pages talk to the
server's own API (docs/API.md): tables are created with ``POST /api/tables`` and played
over ``/ws/tables/{id}``. Two routes here draw what JSON cannot: the board of a seat
(``/web/tables/{id}/board``) and a step of a finished game's replay
(``/web/tables/{id}/replay``). docs/WEB.md explains the design.
"""

from __future__ import annotations

from cove.web.routes import web_routes

__all__ = ["web_routes"]
