"""The clock's accounting (``cove.serve.clock``), by hand-computed cases: a starting
allowance, time per move capped at the allowance, several seats running at once in a
simultaneous decision, bots' takeovers, and the same answer from the stored log after a
restart. Pure: no server, no sleeping."""

from __future__ import annotations

import pytest

from cove.serve.clock import (
    GAME,
    ONCE,
    RECLAIM,
    Clock,
    ClockError,
    Entry,
    SeatEvent,
    clocks,
    display,
    parse_clock,
)

C = Clock("realtime", 600.0, 20.0)
"""Ten minutes, 20 seconds a move."""
T0 = 1000.0


def e(at: float, seat: int, *movers: int, undo: bool = False) -> Entry:
    return Entry(T0 + at, seat, frozenset(movers), undo)


def left(entries: list[Entry], now: float, initial: tuple[int, ...] = (0,),
         events: tuple[SeatEvent, ...] = (), humans: tuple[int, ...] = (0, 1)
         ) -> dict[int, float]:
    return {s: c.remaining for s, c in
            clocks(C, T0, initial, humans, entries, list(events), T0 + now).items()}


def test_only_the_seat_to_move_loses_time() -> None:
    assert left([], 90) == {0: 510, 1: 600}


def test_a_move_adds_its_time_and_hands_the_clock_on() -> None:
    # P1 thinks 100 s (500 left) and moves (+20: 520); P2 then thinks 30 s
    assert left([e(100, 0, 1)], 130) == {0: 520, 1: 570}


def test_the_increment_is_capped_at_the_allowance() -> None:
    # P1 moves after 5 s: 595 + 20 would be 615, capped at 600; P2 moves after 2 s
    out = left([e(5, 0, 1), e(7, 1, 0)], 7)
    assert out == {0: 600, 1: 600}


def test_a_seat_out_of_time_stays_at_zero_then_gets_its_increment() -> None:
    assert left([], 700) == {0: 0, 1: 600}
    # it moves at last, 800 s in: no debt, just the 20 s a move
    assert left([e(800, 0, 1)], 800) == {0: 20, 1: 600}


def test_simultaneous_movers_run_together_and_stop_one_by_one() -> None:
    # both bid at once: P1 bids after 40 s (P2 still to bid), P2 after 100 s
    out = left([e(40, 0, 1), e(100, 1, 0)], 130, initial=(0, 1))
    # P1: 600 - 40 + 20 = 580, then runs again from 100 s: 580 - 30 = 550
    # P2: 600 - 100 + 20 = 520
    assert out == {0: 550, 1: 520}
    running = clocks(C, T0, (0, 1), (0, 1), [e(40, 0, 1)], [], T0 + 50)
    assert (running[0].running, running[1].running) == (False, True)


def test_an_undo_takes_back_the_increment_of_its_move() -> None:
    # P1 moves after 100 s (520), takes it back 10 s later (500, to move again)
    out = left([e(100, 0, 1), e(110, 0, 0, undo=True)], 150)
    assert out == {0: 460, 1: 590}


def test_bots_have_no_clock() -> None:
    out = clocks(C, T0, (1,), (0,), [], [], T0 + 300)
    assert set(out) == {0} and out[0].remaining == 600 and not out[0].running


def test_a_seat_a_bot_plays_does_not_run_and_its_moves_still_add_time() -> None:
    # P1 runs out at 600 s; at 700 P2 lets a bot play this decision, which it does at 702
    ev = (SeatEvent(T0 + 700, 0, ONCE, 0, 1),)
    held = clocks(C, T0, (0,), (0, 1), [], list(ev), T0 + 701)
    assert held[0].held == ONCE and not held[0].running and held[0].remaining == 0
    out = clocks(C, T0, (0,), (0, 1), [e(702, 0, 1), e(712, 1, 0)], list(ev), T0 + 722)
    assert out[0].held is None and out[0].running  # the next decision is P1's own
    assert out[0].remaining == 20 - 10 and out[1].remaining == 600  # 590 + 20, capped


def test_a_seat_handed_to_a_bot_stays_its_until_reclaimed_from_the_next_decision() -> None:
    ev = [SeatEvent(T0 + 700, 0, GAME, 0, 1)]
    moves = [e(702, 0, 1), e(712, 1, 0)]
    out = clocks(C, T0, (0,), (0, 1), moves, ev, T0 + 800)
    assert out[0].held == GAME and out[0].remaining == 20  # stopped while the bot plays
    # reclaimed at 720 while the bot decides: it finishes this decision (at 725), then P1
    ev.append(SeatEvent(T0 + 720, 0, RECLAIM, 2, 0))
    out = clocks(C, T0, (0,), (0, 1), moves, ev, T0 + 721)
    assert out[0].held == "finishing" and not out[0].running
    out = clocks(C, T0, (0,), (0, 1), [*moves, e(725, 0, 1), e(730, 1, 0)], ev, T0 + 740)
    assert out[0].held is None and out[0].remaining == 20 + 20 - 10


def test_a_reclaim_while_not_to_move_is_at_once() -> None:
    ev = [SeatEvent(T0 + 700, 0, GAME, 0, 1), SeatEvent(T0 + 705, 0, RECLAIM, 1, 0)]
    out = clocks(C, T0, (0,), (0, 1), [e(702, 0, 1)], ev, T0 + 710)
    assert out[0].held is None and out[1].remaining == 600 - 8


def test_a_restart_in_the_middle_changes_nothing() -> None:
    """The clock is a function of the stored log: what a server showed before it was
    killed at 250 s and what a new one shows from the same log at 250 s are the same, and
    the time the server was down counts for the seat to move."""
    log = [e(100, 0, 1), e(130, 1, 0)]
    before = left(log, 250)
    after = left(list(log), 250)  # as restored: the same entries, read back
    assert before == after == {0: 520 - 120, 1: 590}
    assert left(log, 400) == {0: 520 - 270, 1: 590}


def test_nothing_runs_once_over() -> None:
    out = clocks(C, T0, (0,), (0, 1), [e(10, 0)], [], T0 + 500, over=True)
    assert out[0].remaining == 600 and not out[0].running and not out[1].running


@pytest.mark.parametrize("value, says", [
    ("fast", "clock is {"),
    ({"mode": "blitz", "allowance": 600, "per_move": 0}, "not one of realtime, turn-based"),
    ({"mode": "realtime", "allowance": 30, "per_move": 0}, "counted in minutes"),
    ({"mode": "realtime", "allowance": 86400, "per_move": 0}, "counted in minutes"),
    ({"mode": "turn-based", "allowance": 600, "per_move": 0}, "counted in hours or days"),
    ({"mode": "realtime", "allowance": 600, "per_move": 601}, "from 0 to the allowance"),
    ({"mode": "realtime", "allowance": "10m", "per_move": 0}, "number of seconds"),
    ({"mode": "realtime", "allowance": 600, "per_move": 0, "x": 1}, "unknown clock field"),
])
def test_bad_clocks_say_what_is_valid(value: object, says: str) -> None:
    with pytest.raises(ClockError) as info:
        parse_clock(value)
    assert says in str(info.value)


def test_good_clocks() -> None:
    assert parse_clock(None) is None
    assert parse_clock({"mode": "turn-based", "allowance": 3 * 86400, "per_move": 86400}) == \
        Clock("turn-based", 259200.0, 86400.0)


def test_display() -> None:
    assert display(600, "realtime") == "10:00"
    assert display(59.2, "realtime") == "1:00"
    assert display(3725, "realtime") == "1:02:05"
    assert display(3 * 86400 + 7200, "turn-based") == "3 d 2 h"
    assert display(5400, "turn-based") == "1 h 30 min"
