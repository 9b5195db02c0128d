"""The HTML pages: lobby, table (a seat or a spectator) and an error page.

Server-rendered text with everything escaped; the script (static/cove.js) fills in what
changes during a game from the websocket.
"""

from __future__ import annotations

import json
import re
import time
from html import escape
from typing import Any

from cove.core.game import Game
from cove.web.clockview import CLOCK_CARD, CLOCK_FIELDS, NOTIFY, describe_clock
from cove.web.shell import page

LEVEL_HELP = {
    "easy": "looks one move ahead",
    "medium": "searches ahead with Monte Carlo tree search",
    "hard": "searches four times as long, tuned for each game",
    "random": "plays any legal move",
}


# -- lobby ---------------------------------------------------------------------------------
def result_text(winners: list[int], scores: list[float]) -> str:
    """A finished game in a few words: "P2 won, scores P1 3, P2 5"."""
    won = (" and ".join(f"P{p + 1}" for p in winners) + (" won" if len(winners) == 1
                                                         else " shared the win")
           if winners else "no player won")
    points = ", ".join(f"P{p + 1} {int(x) if float(x).is_integer() else x}"
                       for p, x in enumerate(scores))
    return f"{won}, scores {points}"


def _table_row(t: dict[str, Any], names: dict[str, str],
               result: tuple[list[int], list[float]] | None = None) -> str:
    seats = ", ".join(f"P{s['seat'] + 1} " + ("bot " + str(s.get("bot")) if s["kind"] == "bot"
                                               else str(s.get("name", "human")))
                      for s in t["seats"])
    age = max(0, int(time.time() - float(t["updated"])))
    when = f"{age // 60} min ago" if age >= 60 else "just now"
    tid = escape(str(t["id"]))
    status = "finished" if t["over"] else f"move {t['moves']}"
    if t["over"] and result is not None:
        status = f"finished: {result_text(*result)}"
    if "clock" in t and not t["over"]:
        status += f", {describe_clock(t['clock'])}"
    return (f'<li data-table="{tid}"><span class="game-name">'
            f"{escape(names.get(t['game'], t['game']))}</span> "
            f"<span class=\"muted\">{escape(status)}, {escape(seats)}, {when}</span> "
            f'<a href="/web/tables/{tid}/watch">{"replay" if t["over"] else "watch"}</a>'
            f'<span class="resume"></span></li>')


def table_lists(games: list[Game], open_tables: list[dict[str, Any]],
                finished: list[dict[str, Any]],
                results: dict[str, tuple[list[int], list[float]]] | None = None
                ) -> dict[str, str]:
    """The lobby's two lists as HTML, ``{"open", "finished"}``: in the page, and every few
    seconds from ``/web/lobby/tables`` so the lobby keeps itself up to date. ``results``:
    the winners and scores of finished tables, by id."""
    names = {g.id: g.name for g in games}
    results = results or {}

    def listing(rows: list[dict[str, Any]], empty: str) -> str:
        if not rows:
            return f'<p class="muted">{empty}</p>'
        return "<ul class=\"tables\">" + "".join(_table_row(t, names, results.get(t["id"]))
                                                  for t in rows) + "</ul>"

    return {"open": listing(open_tables, "No open tables yet."),
            "finished": listing(finished, "No finished games yet.")}


NAMING = """<section id="naming" class="card" hidden><form id="naming-form" class="row">
<label for="player-name">Your name</label><input type="text" id="player-name" maxlength="24"
autocomplete="nickname" aria-describedby="naming-help"><button type="submit">Save</button>
<button type="button" id="naming-later">Not now</button></form>
<p id="naming-help" class="muted small">Players at your tables see it (1 to 24 characters).
This browser keeps it with a personal key; no password, no e-mail.</p>
<p id="naming-error" role="alert" hidden></p></section>"""
"""The name form a first visit shows (the lobby, a table's seat); the script fills it."""


def lobby(games: list[Game], levels: dict[str, str], open_tables: list[dict[str, Any]],
          finished: list[dict[str, Any]],
          results: dict[str, tuple[list[int], list[float]]] | None = None) -> str:
    from cove.web.standing import RATED_CHOICE, lobby_sections  # "My games", ratings

    lists = table_lists(games, open_tables, finished, results)
    game_opts = "".join(f'<option value="{escape(g.id)}">{escape(g.name)}</option>'
                        for g in games)
    meta = {g.id: {"min": g.min_players, "max": g.max_players, "summary": g.summary,
                   "options": {n: g.options_schema(n)
                               for n in range(g.min_players, g.max_players + 1)}}
            for g in games}
    bots = [{"spec": k, "label": f"bot: {k} ({LEVEL_HELP.get(k, v)})"} for k, v in levels.items()]
    bots.append({"spec": "random", "label": "bot: random (" + LEVEL_HELP["random"] + ")"})
    body = f"""
<header><a class="home" href="/web/">Cove</a>
<span class="muted">tables for five sea-faring games</span></header>
<main class="lobby">
{NAMING}
<section class="card">
<h1>New table</h1>
<form id="create">
<div class="row"><label for="game">Game</label>
<select id="game" name="game">{game_opts}</select></div>
<p id="summary" class="muted"></p>
<div class="row"><label for="players">Players</label>
<select id="players" name="players"></select></div>
<fieldset id="seats"><legend>Seats</legend></fieldset>
{CLOCK_FIELDS}
<details id="options"><summary>Options (the defaults are the published rules)</summary>
<fieldset class="options"><legend id="options-legend">Options</legend>
<div id="option-fields"></div></fieldset></details>
{RATED_CHOICE}
<div class="row"><input type="checkbox" id="spectator-chat"><label for="spectator-chat"
class="plain">Spectators may write in the chat (the seated players always do)</label></div>
<button type="submit" class="primary">Create table</button>
<p id="error" role="alert" hidden></p>
</form>
</section>
<section id="created" class="card" hidden aria-live="polite"></section>
{lobby_sections(games)}
<section class="card"><h2>Open tables</h2>
<p id="lists-error" role="alert" hidden></p><div id="open-tables" aria-live="polite">
{lists["open"]}</div></section>
<section class="card"><h2>Finished games</h2><div id="finished-tables" aria-live="polite">
{lists["finished"]}</div></section>
</main>
<script type="application/json" id="games-data">{_json_script(meta)}</script>
<script type="application/json" id="bots-data">{_json_script(bots)}</script>
<script defer src="/web/static/standing.js"></script>
"""
    return page("Cove: lobby", body, 'data-page="lobby"')


def _json_script(value: Any) -> str:
    """JSON safe inside a <script> element (no "</" can end it early)."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


# -- table -----------------------------------------------------------------------------------
def rules_html(game: Game) -> str:
    """The game's summary and its player's guide (HOW_TO_PLAY.md; RULES.md for a game
    without one), as simple HTML."""
    text = game.how_to_play or game.rules_text
    return (f"<p>{escape(game.summary)}</p>"
            + (markdown(text) if text else ""))


DEV_COLUMNS = frozenset({"test", "tests"})
"""RULES.md table columns for developers (the test names): left out of the page."""

_INLINE = [(re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
           (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>")]


def _inline(text: str) -> str:
    out = escape(text, quote=False)
    for pattern, repl in _INLINE:
        out = pattern.sub(repl, out)
    return out


def markdown(text: str) -> str:
    """Headings, paragraphs, lists and pipe tables: the subset the games' RULES.md use.
    Everything is escaped first, so the output holds no markup from the file."""
    out: list[str] = []
    para: list[str] = []
    table: list[list[str]] = []
    items: list[str] = []

    def flush() -> None:
        if para:
            out.append("<p>" + _inline(" ".join(para)) + "</p>")
            para.clear()
        if items:
            out.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()
        if table:
            keep = [i for i, c in enumerate(table[0]) if c.lower() not in DEV_COLUMNS]
            head, *rows = ([r[i] for i in keep if i < len(r)] for r in table)
            out.append('<div class="wide" tabindex="0"><table class="rules"><thead><tr>'
                       + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>"
                                 for r in rows) + "</tbody></table></div>")
            table.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("|"):
            if para or items:
                flush()
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                table.append(cells)
            continue
        if table:
            flush()
        if not line:
            flush()
        elif line.startswith("#"):
            flush()
            level = min(6, len(line) - len(line.lstrip("#")) + 2)
            out.append(f"<h{level}>{_inline(line.lstrip('#').strip())}</h{level}>")
        elif line.startswith(("- ", "* ")):
            if para:
                flush()
            items.append(line[2:])
        elif items and raw.startswith("  "):
            items[-1] += " " + line
        else:
            para.append(line)
    flush()
    return "".join(out)


CHAT = """<section class="card" id="chat-card"><h2 id="chat-head">Chat</h2>
<ol id="chat" class="log chat" tabindex="0" aria-labelledby="chat-head"></ol>
<form id="chat-form" class="typed" hidden><label for="chat-text" class="small">Message</label>
<input type="text" id="chat-text" maxlength="500" autocomplete="off"
aria-describedby="chat-note"><button type="submit">Send</button></form>
<p id="chat-note" class="muted small"></p><p id="chat-error" role="alert" hidden></p></section>"""
"""The table's chat (static/chat.js fills it; a spectator sees the form only when the
table's creator let spectators write)."""

HISTORY = """<section id="history" class="card history" hidden aria-labelledby="history-head">
<div class="row"><h2 id="history-head">History</h2>
<button type="button" id="history-prev" aria-keyshortcuts="[" title="The move before (key: [)"
>◀ Previous move</button><button type="button" id="history-next" aria-keyshortcuts="]"
title="The move after (key: ])">Next move ▶</button><button type="button" id="history-live"
class="primary" aria-keyshortcuts="L" title="Back to the game as it is now (key: L)" hidden
>Back to live</button></div>
<p id="history-state" class="small muted">Live. Keys [ and ] step through the moves so far, as
your seat saw them.</p><p id="history-move" class="small" hidden></p></section>"""
"""Stepping back through a live game's moves (static/history.js)."""

AFTER = """<section id="after" class="card after" hidden aria-label="After the game">
<div class="row"><button type="button" id="again" class="primary" hidden>Play again</button>
<a id="record" class="button" download>Download record</a></div>
<p id="again-note" class="small" hidden></p><p id="again-error" role="alert" hidden></p>
</section>"""
"""Under the end screen (static/again.js): the same seats again, and the game's record."""

TABLE_SCRIPTS = "".join(f'<script defer src="/web/static/{name}.js"></script>'
                        for name in ("chat", "history", "again"))
"""The table page's scripts besides cove.js, run after it (``window.coveTable``)."""


RATED_BADGE = ('<span id="rated-badge" class="badge" title="The result of this game '
               'moves the players\' ratings (see the leaderboard)">Rated game</span>\n')


def table(game: Game, table_id: str, mode: str, rated: bool = False) -> str:
    """The table page; ``mode`` is ``play`` (a seat, its token kept by the script) or
    ``watch`` (a spectator: never a token, never a hand); ``rated``: its result moves the
    game's ratings (said beside the game's name)."""
    tid = escape(table_id)
    moves = ("" if mode == "watch" else
             '<section class="card" id="moves-card"><h2>Your moves</h2>'
             '<p class="muted small">Click a highlighted place on the board (or reach it '
             "with Tab and press Enter), a move here, or type one.</p>"
             '<ul id="moves" class="moves" tabindex="-1" aria-label="Your legal moves"></ul>'
             '<form id="typed" class="typed"><label for="typed-move" class="small">'
             "Type a move</label><input id=\"typed-move\" autocomplete=\"off\" "
             'placeholder="e.g. a move from the list"><button type="submit">Send</button>'
             "</form></section>")
    tools = ("" if mode == "watch" else
             '<div class="turn-tools"><button type="button" id="undo" hidden '
             'aria-keyshortcuts="U" title="Take back your last move (key: U)">Undo my move'
             '</button><button type="button" id="hint" hidden aria-keyshortcuts="H" '
             'title="What the search bot would play (key: H)">Hint</button></div>'
             '<p id="hint-text" class="small" hidden></p>' + NOTIFY)
    watch = ("" if mode == "watch" else
             f' · <a href="/web/tables/{tid}/watch" target="_blank">spectator view</a>')
    skips = ('<a class="skip" href="#board">Skip to the board</a>'
             + ("" if mode == "watch" else
                '<a class="skip" href="#moves">Skip to your moves</a>'
                '<a class="skip" href="#typed-move">Skip to typing a move</a>'))
    body = f"""{skips}
<header><a class="home" href="/web/">Cove</a><h1>{escape(game.name)}</h1>
{RATED_BADGE if rated else ""}<span id="who" class="badge"></span>
<span id="conn" class="badge" role="status">connecting…</span></header>
<main class="table">
{"" if mode == "watch" else NAMING}
<section id="end" class="card end" hidden></section>
{AFTER}
<div class="play">
<div id="announce" class="sr-only" role="log" aria-live="polite" aria-label="Announcements">
</div>
<section id="status" class="card"><p id="prompt">Loading the table…</p>
{tools}</section><p id="error" class="card" role="alert" hidden></p>
{HISTORY}
<section id="board-card" class="card"><div class="board-tools"><button type="button"
id="pan-note" hidden>Your moves are further right →</button><button type="button"
id="zoom" aria-pressed="false">Zoom the board to the full width</button></div>
<div id="board" class="board" tabindex="0" role="region" aria-label="Board"></div>
<div id="history-board" class="board" hidden tabindex="0" role="region"
aria-label="The board at an earlier move"></div>
<div id="chooser" class="chooser" hidden role="dialog" aria-label="Choose a move"></div></section>
<section id="replay" class="card" hidden><h2>Replay</h2>
<div class="row"><label for="step">Step</label><input type="range" id="step" min="0" value="0">
<output id="step-label" for="step"></output></div>
<div class="row"><label for="replay-as">Seen by</label><select id="replay-as"></select></div>
<p id="replay-move" class="muted"></p><div id="replay-board" class="board" tabindex="0"
role="region" aria-label="The board at this step"></div></section>
</div>
<aside>
{moves}
{CLOCK_CARD}
{CHAT}
<section class="card"><h2>Scores</h2><div id="scores"></div></section>
<section class="card"><h2 id="log-head">Log</h2><ol id="log" class="log" tabindex="0"
aria-labelledby="log-head"></ol></section>
<details class="card"><summary>Rules of {escape(game.name)}</summary>
<div class="rules-text" tabindex="0" role="region" aria-label="Rules">{rules_html(game)}</div>
</details>
<p class="muted small">Table {tid}{watch}</p>
</aside>
</main>
{TABLE_SCRIPTS}
"""
    return page(f"{game.name}: Cove", body,
                f'data-page="table" data-mode="{escape(mode)}" data-table="{tid}" '
                f'data-game="{escape(game.id)}"')
