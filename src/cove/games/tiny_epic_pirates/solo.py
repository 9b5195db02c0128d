"""The solo pirate: the opponent of a one-player game, played by fixed rules.

SOURCED (Dz-Solo): it rolls a die for its Order and advances its Captain there, skipping
with the rightmost Deckhand at the bottom of its mat (Repair included); Deckhands it passes
return to the leftmost free Assignment (one per Assignment, except Repair; its Hide Out
and Reassign fill Rigging, Cannons, Extort with one each and leave the rest in Repair); it
attacks with the dice shown at the bottom of its Legend Mat, plus Cannons and auto-hits; it
never uses Sure-fire and takes 1 Gold instead of each token.

DESIGN (no source): die 6 means Hide Out (space 0); a die naming its current space moves
it one space on; it stops short where it runs out of Deckhands. It sails toward the
nearest card where its order can be carried out, avoiding storms when it can, and then
always carries the order out (trading all it can, taking the leftmost crew card, attacking
the first target); it takes every bonus action it can, buries whenever allowed, keeps the
more valuable cube when full, never refreshes the crew line nor mutinies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cove.core import Step
from cove.games.tiny_epic_pirates import data, sea, turn
from cove.games.tiny_epic_pirates.actions import (
    Act,
    AssignDeckhand,
    DoOrder,
    FireDice,
    KeepCube,
    MoveCaptain,
    MoveDeckhand,
    PaySkip,
    SailTo,
    Skip,
    StopSailing,
    TakeCrew,
)

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState


def choose(s: PiratesState, task: Step, acts: Sequence[Act]) -> Act:
    """The solo pirate's choice among ``acts`` for the decision ``task`` (its own)."""
    kind = task.kind
    p = task.player
    if kind == turn.T_WHEEL:
        roll = s.rng.randint(1, 6)
        want = roll % 6
        start = s.captain_space[p]
        if want == start:
            want = (start + 1) % 6
        if s.logging:
            s.say(f"the solo pirate rolls {roll} for its order")
        by_space = {a.space: a for a in acts if isinstance(a, MoveCaptain)}
        steps = (want - start) % 6
        while steps > 1 and (start + steps) % 6 not in by_space:
            steps -= 1
        return by_space[(start + steps) % 6]
    if kind == turn.T_PAY:
        pays = [a for a in acts if isinstance(a, PaySkip)]
        return max(pays, key=lambda a: a.assignment)     # rightmost: repair first
    if kind in (turn.T_RELEASE, turn.T_NEWHAND):
        on = s.assignments[p]
        for a in acts:
            if isinstance(a, AssignDeckhand) and (a.assignment == data.REP
                                                  or on[a.assignment] == 0):
                return a
        return acts[-1]
    if kind == turn.T_SAIL:
        return _sail(s, p, acts)
    if kind == turn.T_KEEP:
        value = {booty: i for i, booty in enumerate(s.market)}
        worst = min(s.booty[p], key=lambda booty: value[booty])
        if value[task.data.cube] > value[worst]:
            for a in acts:
                if isinstance(a, KeepCube) and a.returned == worst:
                    return a
        return acts[0]
    if kind == turn.T_CREW:
        for a in acts:
            if isinstance(a, TakeCrew) and a.discard < 0:
                return a
        return acts[-1]
    if kind in (turn.T_DIST, turn.T_REASSIGN):
        # Hide Out and Reassign: from Repair or the wheel to the leftmost empty Assignment; one each
        for a in acts:
            if (isinstance(a, MoveDeckhand) and a.source not in (data.RIG, data.CAN, data.EXT)
                    and s.assignments[p][a.to] == 0):
                return a
        return acts[-1]
    if kind == turn.T_ORDER:
        best = [a for a in acts if isinstance(a, DoOrder)]
        if best:
            return max(best, key=lambda a: a.choice) if best[0].order == data.TRADE else best[0]
        return acts[-1]
    if kind == turn.T_FIRE:
        return next(a for a in acts if isinstance(a, FireDice))
    if kind in (turn.T_CAPBURY, turn.T_CAPT2, turn.T_CREWBONUS):
        for a in acts:
            if not isinstance(a, Skip):
                return a
        return acts[-1]
    return acts[0]


def _goal(s: PiratesState, p: int, i: int) -> bool:
    """Whether p's Order can be carried out on sea card ``i``."""
    order = s.order_of(p)
    card = s.card(i)
    if order == data.PLUNDER:
        return card.kind == data.SETTLEMENT
    if order == data.TRADE:
        return card.kind == data.MARKET and card.booty in s.booty[p]
    if order == data.SEARCH:
        return s.search_tokens[i] >= 0
    if order == data.ATTACK:
        return i in s.merchant_at or any(
            s.ship_at[q] == i and not s.hidden[q] for q in range(s.pirate_count) if q != p)
    if order == data.HIDE_OUT:
        return s.cove_free(i, p)
    return True


def _sail(s: PiratesState, p: int, acts: Sequence[Act]) -> Act:
    stop = next(a for a in acts if isinstance(a, StopSailing))
    here = s.ship_at[p]
    if _goal(s, p, here):
        return stop
    goals = [i for i in range(16) if _goal(s, p, i)]
    if not goals:
        return stop
    nearest = min(sea.dist(here, goal) for goal in goals)
    best = None
    for a in acts:
        if not isinstance(a, SailTo):
            continue
        there = next(card for way, card in sea.NEIGH[here] if way == a.direction)
        if min(sea.dist(there, goal) for goal in goals) < nearest:
            storm = s.card(there).kind == data.STORM
            if best is None or not storm:
                best = a
                if not storm:
                    break
    return best or stop
