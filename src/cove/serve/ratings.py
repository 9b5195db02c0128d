"""Ratings: one pool per game of named players and bot specs, updated once per rated game
by openskill's Plackett-Luce model, ranked by the final scores (equal scores tie).

A table is rated when its creation asks for it (``"rated": true``); it is refused unless
at least one seat is human and the deal is random (a creator who chose the seed knows every
hidden card). At a rated table a human seat moves only once a named player took it (POST
``/api/tables/{id}/sit``), and one player takes at most one of its seats, so when the game
ends every person at it has a rating to update. A bot's rating identity is its seat's spec
as written (``bot:hard``, ``bot:mcts:time=1``), spaces removed and in lower case: levels
are rated as what people play against; a spec at several seats of one game gets the mean
of those seats' new ratings.

Counting is idempotent: the fact that a table was counted is stored in the transaction that
writes the new ratings (:meth:`cove.serve.player_data.PlayerData.settle`), so neither a
restart nor a second server process on the same PostgreSQL counts a game twice; a server
that stopped between the last move and the count counts it when it starts again
(:meth:`Ratings.sweep`).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cove.core.errors import CoveError
from cove.serve.errors import ApiError
from cove.serve.player_data import Rating, Update

if TYPE_CHECKING:
    from cove.serve.hub import Hub, Table

log = logging.getLogger(__name__)

MU = 25.0
SIGMA = 25.0 / 3
"""openskill's defaults: a new entry's rating, ordinal 0."""


def model() -> Any:
    from openskill.models import PlackettLuce  # the web extra

    return PlackettLuce(mu=MU, sigma=SIGMA)


def ranks_from_scores(scores: Sequence[float]) -> list[int]:
    """1 for the highest score, equal scores the same rank (1 + how many scored more)."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def rate(priors: Sequence[tuple[float, float]], scores: Sequence[float]
         ) -> list[tuple[float, float]]:
    """Each seat's new (mu, sigma) after one game, every seat its own team."""
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    out = m.rate(teams, ranks=ranks_from_scores(scores))
    return [(float(team[0].mu), float(team[0].sigma)) for team in out]


def ordinal(mu: float, sigma: float) -> float:
    """The rating a leaderboard sorts by: mu - 3 sigma (about 99.7% sure it is at least
    that)."""
    return mu - 3 * sigma


def bot_identity(spec: str) -> str:
    return "bot:" + "".join(spec.split()).lower()


def identities(seats: Sequence[dict[str, Any]]) -> tuple[list[str], str]:
    """Each seat's pool entry (``p:<key hash>`` or ``bot:<spec>``), and why the game cannot
    be counted ("" when it can)."""
    who: list[str] = []
    for i, seat in enumerate(seats):
        if seat.get("kind") == "bot":
            who.append(bot_identity(str(seat.get("spec", ""))))
            continue
        hashed = seat.get("player")
        if not isinstance(hashed, str):
            return who, f"P{i + 1} had no named player"
        if "p:" + hashed in who:
            return who, f"one player sat at two seats (P{who.index('p:' + hashed) + 1}, P{i + 1})"
        who.append("p:" + hashed)
    return who, ""


def updater(who: Sequence[str], scores: Sequence[float]) -> Update:
    """The update :meth:`PlayerData.settle` applies: the seats' current ratings in, each
    entry's new (mu, sigma) out (a bot spec at several seats: the mean of its seats')."""
    def update(have: dict[str, Rating]) -> dict[str, tuple[float, float]]:
        priors = [(have[w].mu, have[w].sigma) if w in have else (MU, SIGMA) for w in who]
        new = rate(priors, scores)
        by: dict[str, list[tuple[float, float]]] = {}
        for w, r in zip(who, new, strict=True):
            by.setdefault(w, []).append(r)
        return {w: (sum(m for m, _ in rs) / len(rs), sum(s for _, s in rs) / len(rs))
                for w, rs in by.items()}
    return update


class Ratings:
    """The hub's side of ratings: which tables are rated (cached), what a rated table
    allows, and counting finished games."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._rated: OrderedDict[str, bool] = OrderedDict()

    def check_create(self, body: dict[str, Any], seats: Sequence[str]) -> bool:
        """Whether a new table is rated (``"rated"``, default false); 422 ``bad_rated``
        saying why one cannot be."""

        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise ApiError(400, "bad_request", "rated is true (the result changes the "
                           "players' ratings) or false (a friendly game, the default)")
        if not rated:
            return False
        if len(seats) < 2:
            raise ApiError(422, "bad_rated", "a rated game needs at least two players")
        if "human" not in seats:
            raise ApiError(422, "bad_rated", "a rated table needs at least one human seat: "
                           "bots alone are not rated")
        if body.get("seed") is not None:
            raise ApiError(422, "bad_rated", "a rated table's deal is random: leave out "
                           "\"seed\" (whoever chooses the seed knows every hidden card)")
        return True

    async def mark(self, table_id: str) -> None:
        await self.hub.commits.run(self.hub.store.mark_rated, table_id)
        self._remember(table_id, True)

    def _remember(self, table_id: str, rated: bool) -> None:
        self._rated[table_id] = rated
        self._rated.move_to_end(table_id)
        while len(self._rated) > 20000:
            self._rated.popitem(last=False)

    async def is_rated(self, table_id: str) -> bool:
        have = self._rated.get(table_id)
        if have is None:
            have = await self.hub._db(self.hub.store.is_rated, table_id)
            self._remember(table_id, have)
        return have

    async def check_move(self, table: Table, seat: int) -> None:
        """403 ``not_named``: a human seat of a rated table moves only once a named player
        took it."""

        s = table.seats[seat]
        if s["kind"] == "human" and "player" not in s and await self.is_rated(table.id):
            raise ApiError(403, "not_named", f"this table is rated: take P{seat + 1} by name "
                           "first (POST /api/tables/{id}/sit with your personal key; the "
                           "table's page does it once you choose a name), so the result "
                           "counts for you")

    async def check_sit(self, table: Table, seat: int, hashed: str) -> None:
        """409 ``seat_taken``: at a rated table one player takes one seat."""

        for i, s in enumerate(table.seats):
            if i != seat and s.get("player") == hashed and await self.is_rated(table.id):
                raise ApiError(409, "seat_taken", f"you sit at P{i + 1} already, and this "
                               "table is rated: one seat per person")

    def after_move(self, table: Table) -> None:
        if table.state.is_over and not table.closed:
            self.hub._spawn(self.count(table))

    async def count(self, table: Table) -> bool:
        """Count a finished rated table (once, whichever process or restart asks): True
        when this call updated the ratings."""
        try:
            if not await self.is_rated(table.id):
                return False
            who, why = identities(table.seats)
            scores = table.state.scores()
            update = None if why else updater(who, scores)
            done = await self.hub._db(self.hub.store.settle, table.id, table.game.id,
                                      sorted(set(who)), update, why or "counted")
        except CoveError as e:  # the database is down: the next start counts it
            log.warning("table %s: its rating could not be counted now (%s)", table.id, e)
            return False
        if done and why:
            log.info("table %s is rated but not counted: %s", table.id, why)
        return done and not why

    async def sweep(self) -> int:
        """Count the finished rated tables not counted yet (the server stopped between a
        game's last move and its count); returns how many were counted."""
        try:
            ids = await self.hub._db(self.hub.store.uncounted)
        except CoveError as e:
            log.warning("rated games not counted yet could not be read (%s)", e)
            return 0
        counted = 0
        for table_id in ids:
            try:
                table = await self.hub.table(table_id)
            except CoveError:
                continue
            counted += await self.count(table)
        return counted

    async def board(self, game_id: Any, limit: int, me: str | None = None) -> dict[str, Any]:
        """``GET /api/games/{game}/leaderboard`` (and its page): ``{"game", "name",
        "entries"}``, at most ``limit`` (1 to 500) entries; 404 ``unknown_game``."""
        import cove

        try:
            game = cove.load(game_id)
        except CoveError:
            raise ApiError(404, "unknown_game", f"no game {str(game_id)[:40]!r}; the games: "
                           + ", ".join(cove.ids())) from None
        entries = await self.leaderboard(game.id, max(1, min(limit, 500)), me)
        return {"game": game.id, "name": game.name, "entries": entries}

    async def leaderboard(self, game: str, limit: int, me: str | None = None
                          ) -> list[dict[str, Any]]:
        """The game's pool, best ordinal first: ``[{"rank", "name", "bot", "ordinal", "mu",
        "sigma", "games"[, "you"]}]`` (no key hashes)."""
        rows = await self.hub._db(self.hub.store.ratings, game, None, limit)
        out = []
        for i, r in enumerate(rows):
            entry: dict[str, Any] = {
                "rank": i + 1, "name": r.name, "bot": r.bot,
                "ordinal": round(ordinal(r.mu, r.sigma), 3), "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3), "games": r.games}
            if me is not None and r.who == "p:" + me:
                entry["you"] = True
            out.append(entry)
        return out
