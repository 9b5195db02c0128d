"""A table's clock, bot takeovers and away seats, as the server keeps them.

The accounting is :mod:`cove.serve.clock` (pure); this module holds what a live table knows
of it (:class:`Timing`: its clock, its log's times and movers, its seat log), rebuilds that
from the store when a table is restored, and carries out the two choices a seat out of time
offers the others (``POST /api/tables/{id}/timeout``) and its player's reclaim (``POST
.../reclaim``). Presence (away) is not stored: it is whether the seat has a websocket open
now, shown in real-time tables only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cove.core.errors import CoveError
from cove.core.game import Game
from cove.core.state import State
from cove.serve.clock import (
    GAME,
    ONCE,
    REALTIME,
    RECLAIM,
    Clock,
    ClockError,
    Entry,
    SeatClock,
    SeatEvent,
    clocks,
    display,
    parse_clock,
)
from cove.serve.entries import replay_moves
from cove.serve.errors import ApiError, RestoreError, still_open
from cove.serve.store import UNDO, Store, TableRow
from cove.terminal import HINT_BOT

if TYPE_CHECKING:
    from cove.serve.hub import Hub, Table

TAKEOVER_BOT = HINT_BOT
"""The bot that plays a seat out of time when the others choose so: the search bot behind
the hint (held to the server's bot budget, as every bot is)."""

CHOICES = {"decision": ONCE, "game": GAME}
UNTIL = {ONCE: "decision"}
"""How ``bots_for`` names a takeover: ``decision``, ``game`` or ``finishing``."""
"""``POST .../timeout``'s ``choice``: a bot plays this decision, or the rest of the game."""


@dataclass
class Timing:
    clock: Clock
    start: float
    initial: frozenset[int]
    humans: tuple[int, ...]
    entries: list[Entry] = field(default_factory=list)
    events: list[SeatEvent] = field(default_factory=list)
    shown_away: list[int] | None = None
    """The away seats last told to the table's connections (:func:`presence`)."""
    _held: tuple[tuple[int, int], dict[int, str]] = ((-1, -1), {})

    def seats(self, now: float, over: bool = False) -> dict[int, SeatClock]:
        return clocks(self.clock, self.start, self.initial, self.humans, self.entries,
                      self.events, now, over)

    def held(self) -> dict[int, str]:
        """The seats a bot plays now, and why (it does not depend on the time)."""
        key = (len(self.entries), len(self.events))
        if self._held[0] != key:
            at = self.entries[-1].at if self.entries else self.start
            when = max([at] + [e.at for e in self.events])
            self._held = (key, {s: c.held for s, c in self.seats(when).items()
                                if c.held is not None})
        return self._held[1]

    def add(self, seat: int, action: str, at: float, movers: Iterable[int]) -> None:
        self.entries.append(Entry(at, seat, frozenset(movers), action == UNDO))


def check_clock(value: Any) -> Clock | None:
    """The ``clock`` of a new table; 422 ``bad_clock`` saying what is valid."""

    try:
        return parse_clock(value)
    except ClockError as e:
        raise ApiError(422, "bad_clock", str(e)) from None


def new_timing(clock: Clock, start: float, state: State,
               seats: Sequence[dict[str, Any]]) -> Timing:
    return Timing(clock, start, frozenset(state.to_move()),
                  tuple(i for i, s in enumerate(seats) if s["kind"] == "human"))


def restore(store: Store, game: Game, row: TableRow) -> Timing | None:
    """A clocked table's timing, rebuilt from its stored log (the movers after each entry
    come from replaying it from the start); None for a table without a clock."""

    config, entries, events = store.clock_log(row.id)
    if config is None:
        return None
    try:
        clock = parse_clock(config)
        state = game.start(row.players, row.seed, options=row.options)
    except (ClockError, CoveError) as e:
        raise RestoreError(f"its clock cannot be restored: {e}") from None
    assert clock is not None
    timing = new_timing(clock, row.created, state, row.seats)
    for seat, text, at in entries:
        state = replay_moves(state, [(seat, text)], row.id)
        timing.add(seat, text, at, state.to_move())
    timing.events = [SeatEvent(at, seat, kind, version, by)
                     for seat, kind, version, by, at in events]
    return timing


def bot_spec(table: Table, p: int) -> str | None:
    """The bot that plays seat ``p`` now: its own, or the takeover bot; None: a person."""
    seat = table.seats[p]
    if seat["kind"] == "bot":
        return str(seat["spec"])
    if table.timing is not None and p in table.timing.held():
        return TAKEOVER_BOT
    return None


def away(table: Table) -> list[int]:
    """Human seats with no websocket open, at a real-time table; [] otherwise."""
    t = table.timing
    if t is None or t.clock.mode != REALTIME:
        return []
    present = {c.seat for c in table.conns}
    return [s for s in t.humans if s not in present]


def fields(table: Table, now: float) -> dict[str, Any]:
    """What a clocked table's payload adds (nothing for a table without a clock)."""
    t = table.timing
    if t is None:
        return {}
    st = table.state
    seats = t.seats(now, st.is_over or table.closed)
    movers = set(st.to_move())
    out_of = [s for s, c in seats.items()
              if not (st.is_over or table.closed) and s in movers and c.held is None
              and c.remaining <= 0]
    return {
        "clock": {**t.clock.to_dict(), "as_of": now,
                  "seats": [{"seat": s, "remaining": round(c.remaining, 3),
                             "running": c.running,
                             "shown": display(c.remaining, t.clock.mode)}
                            for s, c in sorted(seats.items())]},
        "out_of_time": out_of,
        "bots_for": [{"seat": s, "bot": TAKEOVER_BOT, "until": UNTIL.get(why, why)}
                     for s, why in sorted(t.held().items())],
        "away": away(table),
    }


def arriving(payload: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The first payload of a websocket of ``seat``: not away (it is there now)."""
    if payload.get("away") and seat is not None:
        payload["away"] = [s for s in payload["away"] if s != seat]
    return payload


def presence(table: Table) -> dict[str, Any] | None:
    """The ``presence`` message for a real-time table whose away seats changed since last
    told (None: nothing to tell)."""
    t = table.timing
    if t is None or t.clock.mode != REALTIME:
        return None
    now = away(table)
    if now == t.shown_away:
        return None
    t.shown_away = now
    return {"type": "presence", "away": now}


def check_human_move(table: Table, seat: int) -> None:
    """409 ``bot_playing`` for a person's move at a seat a bot plays for the game."""

    if table.timing is not None and table.timing.held().get(seat) == GAME:
        raise ApiError(409, "bot_playing", f"a bot plays P{seat + 1} for the rest of the game; "
                       "take the seat back first (POST .../reclaim with its token): it is "
                       "yours from its next decision")


async def timeout(hub: Hub, table: Table, by: int, body: dict[str, Any]) -> dict[str, Any]:
    """Seat ``by`` chooses what a bot does for a seat out of time: ``{"seat", "choice":
    "decision" | "game"}``. Refused (with the reason) while the seat has time left."""

    target, choice = body.get("seat"), body.get("choice")
    t = table.timing
    if t is None:
        raise ApiError(422, "no_clock", "this table has no clock: nobody runs out of time")
    if isinstance(target, bool) or not isinstance(target, int) or not (
            0 <= target < len(table.seats)):
        raise ApiError(400, "bad_request", f"seat is the number (0 to {len(table.seats) - 1}) "
                       "of the seat out of time")
    if choice not in CHOICES:
        raise ApiError(400, "bad_request", "choice is \"decision\" (a bot plays this decision "
                       "for the seat) or \"game\" (a bot plays the seat for the rest of the "
                       "game; its player may take it back)")
    async with table.lock:
        still_open(table)
        st = table.state
        if st.is_over:
            raise ApiError(409, "over", "the game is over: no clock runs")
        if target == by:
            raise ApiError(422, "cannot_time_out", "the other players choose for a seat out of "
                           "time, not its own player")
        if table.seats[target]["kind"] != "human":
            raise ApiError(422, "cannot_time_out", f"P{target + 1} is a bot: it has no clock")
        now = hub.now()
        c = t.seats(now)[target]
        if c.held is not None:
            raise ApiError(409, "bot_playing", f"a bot plays P{target + 1} already")
        if target not in st.to_move():
            raise ApiError(422, "cannot_time_out", f"P{target + 1} is not to move: its clock "
                           "does not run")
        if c.remaining > 0:
            raise ApiError(422, "time_left", f"P{target + 1} has "
                           f"{display(c.remaining, t.clock.mode)} left: the choice is offered "
                           "once its clock is at zero", remaining=round(c.remaining, 3))
        kind = CHOICES[str(choice)]
        await hub.commits.run(hub.store.add_seat_event, table.id, target, kind,
                              table.version, by, now, True)  # restored at start-up
        t.events.append(SeatEvent(now, target, kind, table.version, by))
    hub._after_move(table)
    return {"seat": target, "bot": TAKEOVER_BOT, "until": choice}


async def reclaim(hub: Hub, table: Table, seat: int) -> dict[str, Any]:
    """The player of ``seat`` takes it back from the bot playing it for the game: from the
    seat's next decision (a bot deciding for it now finishes that decision)."""

    t = table.timing
    if t is None:
        raise ApiError(422, "no_clock", "this table has no clock: no bot takes a seat over")
    async with table.lock:
        still_open(table)
        held = t.held().get(seat)
        if held is None:
            raise ApiError(422, "not_taken", f"no bot plays P{seat + 1}: the seat is yours")
        if held != GAME:
            raise ApiError(422, "not_taken", f"a bot plays only this decision for P{seat + 1}; "
                           "the seat is yours from the next")
        now = hub.now()
        await hub.commits.run(hub.store.add_seat_event, table.id, seat, RECLAIM,
                              table.version, seat, now)
        t.events.append(SeatEvent(now, seat, RECLAIM, table.version, seat))
        after = t.held().get(seat)
    hub._after_move(table)
    return {"seat": seat, "reclaimed": True, "from_next_decision": after is not None}
