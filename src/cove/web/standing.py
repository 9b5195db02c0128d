"""The lobby's "My games" and "Leaderboards" sections, and a game's leaderboard page.

"My games" is filled by static/standing.js from ``GET /api/players/me/tables`` with the
personal key this browser keeps (the server cannot know the player from a page's address
alone); the leaderboard is drawn on the server from ``GET /api/games/{game}/leaderboard``'s
own data.
"""

from __future__ import annotations

from html import escape
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from cove.core.errors import CoveError
from cove.core.game import Game
from cove.serve.clients import client_key
from cove.web.shell import error_page, page


def lobby_sections(games: list[Game]) -> str:
    """The lobby's "My games" card (hidden until the script knows a named player) and
    its links to each game's leaderboard."""
    links = "".join(f'<li><a href="/web/leaderboard/{escape(g.id)}">{escape(g.name)}</a></li>'
                    for g in games)
    return f"""
<section id="my-games" class="card" hidden aria-labelledby="my-games-title">
<h2 id="my-games-title">My games</h2>
<p class="muted small">Your tables: those waiting for you first, the longest-waiting at
the top; then your other games, then the finished ones.</p>
<p id="my-games-error" role="alert" hidden></p>
<div id="my-games-list" aria-live="polite"></div>
<details id="turn-hook"><summary>Tell me when it is my turn (a Discord or Slack
webhook)</summary>
<form id="hook-form" class="row"><label for="hook-url">Webhook URL</label>
<input type="text" inputmode="url" id="hook-url" maxlength="500" autocomplete="off"
aria-describedby="hook-help"><button type="submit">Save</button></form>
<p id="hook-help" class="muted small">The server posts "Your turn in ..." with a link to
the table there, once per turn. Empty it and save to stop.</p>
<p id="hook-status" role="status"></p></details></section>
<section class="card" aria-labelledby="boards-title"><h2 id="boards-title">Leaderboards</h2>
<p class="muted small">Rated games count (tick "Rated" when you make a table); bots are
rated too, so you can read your rating against "hard".</p>
<ul class="boards">{links}</ul></section>"""


RATED_CHOICE = """<div class="row"><input type="checkbox" id="rated" name="rated"
aria-describedby="rated-help"><label for="rated">Rated</label>
<span id="rated-help" class="muted small">the result changes the players' ratings; every
person sits by name, and the deal is random. Unticked: a friendly game.</span></div>"""
"""The lobby form's choice of a rated table."""


def _number(x: float) -> str:
    return f"{x:.1f}"


def _row(e: dict[str, Any]) -> str:
    """One entry of the leaderboard's table; a bot's name is tagged "bot" in words."""
    tag = ' <span class="tag">bot</span>' if e["bot"] else ""
    cls = ' class="bot"' if e["bot"] else ""
    return (f'<tr{cls} data-rank="{e["rank"]}"><td>{e["rank"]}</td>'
            f'<th scope="row">{escape(str(e["name"]))}{tag}</th>'
            f'<td>{_number(e["ordinal"])}</td><td>{_number(e["mu"])}</td>'
            f'<td>{_number(e["sigma"])}</td><td>{e["games"]}</td></tr>')


def leaderboard_page(data: dict[str, Any]) -> str:
    entries = data["entries"]
    if entries:
        rows = "".join(_row(e) for e in entries)
        table = ("<table class=\"leaderboard\"><caption class=\"sr-only\">Leaderboard of "
                 f"{escape(data['name'])}, best rating first</caption><thead><tr>"
                 "<th scope=\"col\">#</th><th scope=\"col\">Player</th>"
                 "<th scope=\"col\">Rating</th><th scope=\"col\">μ (skill)</th>"
                 "<th scope=\"col\">σ (uncertainty)</th><th scope=\"col\">Games</th>"
                 f"</tr></thead><tbody>{rows}</tbody></table>")
    else:
        table = "<p class=\"muted\">No rated games of this game yet.</p>"
    body = f"""
<header><a class="home" href="/web/">Cove</a>
<span class="muted">leaderboard</span></header>
<main class="lobby"><section class="card">
<h1>{escape(data["name"])}: leaderboard</h1>
<p class="muted small">Rating = μ − 3σ: the skill the rated games show, less three times
how unsure they still are (so a few lucky games do not top the board). Everyone starts at
μ 25, σ 8.3, rating 0. Bots are rated like players, so your place against "hard" is your
strength against it.</p>
{table}
<p><a href="/web/">Back to the lobby</a></p></section></main>
<script defer src="/web/static/standing.js"></script>"""
    return page(f"Cove: {data['name']} leaderboard", body,
                      f'data-page="leaderboard" data-game="{escape(data["game"])}"')


async def leaderboard(request: Request) -> Response:
    """The page of a game's leaderboard, drawn from what the API answers
    (``hub.ratings.board``; the hub is read through ``app.state.hub`` alone)."""
    hub = request.app.state.hub
    try:
        hub.throttle("read", client_key(request))
        data = await hub.ratings.board(request.path_params["game"], 100)
    except CoveError as e:
        status = int(getattr(e, "status", 500))
        reason = str(getattr(e, "reason", e))
        return HTMLResponse(error_page(status, reason), status_code=status)
    return HTMLResponse(leaderboard_page(data), headers={"Cache-Control": "no-store"})


def standing_routes() -> list[BaseRoute]:
    return [Route("/web/leaderboard/{game}", leaderboard)]
