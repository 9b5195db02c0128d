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

from cove.core.decisions import Step
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates import sea, turn
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
    kind = task.kind
    p, x = turn.owner(task)
    if kind == turn.T_WHEEL:
        roll = s.rng.randint(1, 6)
        want = roll % 6
        cur = s.cap[p]
        if want == cur:
            want = (cur + 1) % 6
        if s.logging:
            s.say(f"the solo pirate rolls {roll} for its order")
        by_dest = {a.space: a for a in acts if isinstance(a, MoveCaptain)}
        d = (want - cur) % 6
        while d > 1 and (cur + d) % 6 not in by_dest:
            d -= 1
        return by_dest[(cur + d) % 6]
    if kind == turn.T_PAY:
        pays = [a for a in acts if isinstance(a, PaySkip)]
        return max(pays, key=lambda a: a.assignment)     # rightmost: repair first
    if kind in (turn.T_RELEASE, turn.T_NEWHAND):
        asg = s.assign[p]
        for a in acts:
            if isinstance(a, AssignDeckhand) and (a.assignment == D.REP
                                                   or asg[a.assignment] == 0):
                return a
        return acts[-1]
    if kind == turn.T_SAIL:
        return _sail(s, p, acts)
    if kind == turn.T_KEEP:
        value = {t: i for i, t in enumerate(s.market)}
        worst = min(s.booty[p], key=lambda t: value[t])
        if value[x] > value[worst]:
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
            if (isinstance(a, MoveDeckhand) and a.source not in (D.RIG, D.CAN, D.EXT)
                    and s.assign[p][a.to] == 0):
                return a
        return acts[-1]
    if kind == turn.T_ORDER:
        best = [a for a in acts if isinstance(a, DoOrder)]
        if best:
            return max(best, key=lambda a: a.choice) if best[0].order == D.TRADE else best[0]
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
    o = s.order_of(p)
    c = s.card(i)
    if o == D.PLUNDER:
        return c.kind == D.SETTLEMENT
    if o == D.TRADE:
        return c.kind == D.MARKET and c.booty in s.booty[p]
    if o == D.SEARCH:
        return s.tokens[i] >= 0
    if o == D.ATTACK:
        return i in s.m_pos or any(
            s.pos[q] == i and not s.hidden[q] for q in range(s.np) if q != p)
    if o == D.HIDE_OUT:
        return s.cove_free(i, p)
    return True


def _sail(s: PiratesState, p: int, acts: Sequence[Act]) -> Act:
    stop = next(a for a in acts if isinstance(a, StopSailing))
    here = s.pos[p]
    if _goal(s, p, here):
        return stop
    goals = [i for i in range(16) if _goal(s, p, i)]
    if not goals:
        return stop
    d0 = min(sea.dist(here, g) for g in goals)
    best = None
    for a in acts:
        if not isinstance(a, SailTo):
            continue
        nb = next(c for d, c in sea.NEIGH[here] if d == a.direction)
        if min(sea.dist(nb, g) for g in goals) < d0:
            storm = s.card(nb).kind == D.STORM
            if best is None or not storm:
                best = a
                if not storm:
                    break
    return best or stop
