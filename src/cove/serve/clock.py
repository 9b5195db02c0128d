"""Game clocks as Board Game Arena words them: a starting allowance, plus time per move,
capped at the allowance. Real-time tables count in minutes, turn-based tables in hours or
days.

Nothing here is stored as a running count: a seat's time is *derived* from the table's log
(each entry's time, who made it, and who was to move after it) and from the seat log
(bot takeovers and reclaims), so a server killed and started again shows exactly the
clock it showed before. Everything in this module is pure: :func:`clocks` takes the log and
"now" and returns each seat's time.

The rules, in order of the log (``version``: entry ``n`` of the table's log comes after
seat-log entries made at version ``n`` or before):

- from the table's creation, each human seat to move whose seat no bot holds loses the
  time that passes; several seats lose it at once in a simultaneous decision;
- a move adds ``per_move`` to its seat's time, capped at the allowance (a move a bot made
  for the seat too); a seat out of time stays at zero (no debt) until it moves;
- an undo takes back the time its move added;
- a bot seat has no clock; a seat a bot holds (:data:`ONCE`, :data:`GAME`) does not run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

REALTIME = "realtime"
TURN_BASED = "turn-based"
MODES = (REALTIME, TURN_BASED)

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0

LIMITS = {REALTIME: (1 * MINUTE, 3 * HOUR), TURN_BASED: (1 * HOUR, 30 * DAY)}
"""The allowance each mode takes (seconds, inclusive): real-time from a minute to three
hours, turn-based from an hour to thirty days."""

ONCE = "once"
"""Seat-log kind: a bot plays this one decision for the seat (chosen by another player once
the seat's time ran out); it ends with the seat's next move."""
GAME = "game"
"""Seat-log kind: a bot plays the seat for the rest of the game, until its player
reclaims it."""
RECLAIM = "reclaim"
"""Seat-log kind: the seat's player takes it back; from its next decision (a bot thinking
for it now still plays the decision it is thinking about)."""
KINDS = (ONCE, GAME, RECLAIM)


class ClockError(ValueError):
    """A clock setting that cannot be used; the text says what is valid."""


@dataclass(frozen=True)
class Clock:
    mode: str
    allowance: float
    per_move: float

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "allowance": self.allowance, "per_move": self.per_move}


def _span(seconds: float) -> str:
    for size, unit in ((DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1.0, "second")):
        if seconds % size == 0:
            n = seconds / size
            return f"{n:g} {unit}" + ("" if n == 1 else "s")
    return f"{seconds:g} seconds"


def describe(config: dict[str, Any]) -> str:
    """A stored clock in words, as the lobby lists it: "real-time, 10 minutes + 20 seconds
    a move" or "turn-based, 3 days + 1 day a move"."""
    kind = "real-time" if config.get("mode") == REALTIME else "turn-based"
    text = f"{kind}, {_span(float(config.get('allowance', 0)))}"
    per_move = float(config.get("per_move", 0))
    return text + (f" + {_span(per_move)} a move" if per_move else "")


def parse_clock(value: Any) -> Clock | None:
    """A table's ``clock`` field: None (or absent) for no clock, else ``{"mode":
    "realtime"|"turn-based", "allowance": seconds, "per_move": seconds}``; ClockError saying
    what is wrong and what is valid."""
    if value is None:
        return None
    shape = ('clock is {"mode": "realtime" or "turn-based", "allowance": seconds, '
             '"per_move": seconds}, or null for none')
    if not isinstance(value, dict):
        raise ClockError(f"{shape}; got {type(value).__name__}")
    unknown = sorted(set(value) - {"mode", "allowance", "per_move"})
    if unknown:
        raise ClockError(f"unknown clock field {unknown[0]!r}; {shape}")
    mode = value.get("mode")
    if mode not in MODES:
        raise ClockError(f"clock mode {str(mode)[:40]!r} is not one of realtime, turn-based")
    low, high = LIMITS[mode]
    nums: dict[str, float] = {}
    for key in ("allowance", "per_move"):
        v = value.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
            raise ClockError(f"clock {key} must be a number of seconds; got {str(v)[:40]!r}")
        nums[key] = float(v)
    allowance, per_move = nums["allowance"], nums["per_move"]
    if not low <= allowance <= high:
        unit = "minutes" if mode == REALTIME else "hours or days"
        kind = "real-time" if mode == REALTIME else mode
        raise ClockError(f"a {kind} clock's allowance is counted in {unit}: from {_span(low)} "
                         f"({low:.0f} s) to {_span(high)} ({high:.0f} s); got {allowance:.0f} s")
    if not 0 <= per_move <= allowance:
        raise ClockError(f"clock per_move is from 0 to the allowance ({allowance:g} s); got "
                         f"{per_move:g} s")
    return Clock(mode, allowance, per_move)


@dataclass(frozen=True)
class Entry:
    """One entry of a table's log: at ``at`` (Unix seconds) ``seat`` moved (or, with
    ``undo``, took its latest move back), after which ``movers`` were to move."""

    at: float
    seat: int
    movers: frozenset[int]
    undo: bool = False


@dataclass(frozen=True)
class SeatEvent:
    """One entry of a table's seat log: ``kind`` (:data:`KINDS`) for ``seat`` at ``at``,
    made when the table's log had ``version`` entries; ``by`` the seat that chose it."""

    at: float
    seat: int
    kind: str
    version: int
    by: int | None = None


@dataclass
class SeatClock:
    remaining: float
    running: bool = False
    held: str | None = None
    """Why a bot plays the seat now: :data:`ONCE`, :data:`GAME`, or ``"finishing"`` (its
    player reclaimed it while the bot was deciding for it)."""
    increments: list[float] = field(default_factory=list)


def clocks(clock: Clock, start: float, initial: Iterable[int], humans: Iterable[int],
           entries: Sequence[Entry], events: Sequence[SeatEvent], now: float,
           over: bool = False) -> dict[int, SeatClock]:
    """Each human seat's clock at ``now``: the table was made at ``start`` with
    ``initial`` to move, then ``entries`` (its log, in order) and ``events`` (its seat
    log, in order) happened. ``over``: nothing runs (the game ended, or was closed)."""
    seats = {s: SeatClock(clock.allowance) for s in humans}
    movers = frozenset(initial)
    t = start
    queue = sorted(events, key=lambda e: e.version)
    k = 0

    def run_until(when: float) -> None:
        nonlocal t
        spent = max(0.0, when - t)
        for s in movers:
            c = seats.get(s)
            if c is not None and c.held is None:
                c.remaining = max(0.0, c.remaining - spent)
        t = max(t, when)

    def seat_events(upto: int) -> None:
        nonlocal k
        while k < len(queue) and queue[k].version <= upto:
            ev = queue[k]
            k += 1
            run_until(ev.at)
            c = seats.get(ev.seat)
            if c is None:
                continue
            if ev.kind in (ONCE, GAME):
                c.held = ev.kind
            elif ev.kind == RECLAIM and c.held is not None:
                # a bot deciding for the seat now finishes that decision
                c.held = "finishing" if ev.seat in movers else None

    for n, e in enumerate(entries):
        seat_events(n)
        run_until(e.at)
        c = seats.get(e.seat)
        if c is not None:
            if e.undo:
                back = c.increments.pop() if c.increments else 0.0
                c.remaining = max(0.0, c.remaining - back)
            else:
                inc = max(0.0, min(clock.per_move, clock.allowance - c.remaining))
                c.remaining += inc
                c.increments.append(inc)
                if c.held in (ONCE, "finishing"):
                    c.held = None
        movers = e.movers
    seat_events(len(entries) + len(queue) + 10**9)
    if over:
        movers = frozenset()
    run_until(now)
    for s, c in seats.items():
        c.running = not over and s in movers and c.held is None
    return seats


def out_of_time(c: SeatClock, to_move: Iterable[int], seat: int) -> bool:
    """Whether ``seat`` is to move, played by its person, and has no time left."""
    return seat in set(to_move) and c.held is None and c.remaining <= 0.0


def display(seconds: float, mode: str) -> str:
    """A time as the page shows it: ``m:ss`` for real-time (``h:mm:ss`` past an hour),
    days and hours (or hours and minutes) for turn-based."""
    s = max(0, int(seconds + 0.999))  # a second partly left still shows
    if mode == REALTIME:
        h, rest = divmod(s, 3600)
        m, sec = divmod(rest, 60)
        return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
    d, rest = divmod(s, 86400)
    h, rest = divmod(rest, 3600)
    m = rest // 60
    if d:
        return f"{d} d {h} h"
    if h:
        return f"{h} h {m} min"
    return f"{m} min {rest % 60} s"
