"""The turn's decisions: one rule per kind of step on the core's decision stack.

Each rule says who decides (the step's player), what they may choose (``legal``), what
the choice does and what comes after (``apply`` pushes the follow-up steps), and how to
ask for it in one sentence (``prompt``). Automatic steps (no player) ``run`` the flow
between decisions: the start of the game, the wheel's Extort, dice rolls, a battle's
outcome, the end of a turn. Effects shared by several kinds (carrying out an order,
loading a cube, a jostle, a Legend level) stay on the state. Rule numbers (R...) refer to
RULES.md.

A decision step carries ``(x,)`` and an automatic one ``(p, x)`` (see
``turn.step_of``); ``x`` is the wheel space, the cube type, a count or a merchant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cove.core.decisions import Step, StepRule
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.actions import (
    BY_CAPTAIN,
    BY_ORDER,
    Act,
    AssignDeckhand,
    Bonus,
    CaptainSide,
    ChoosePort,
    Done,
    DoOrder,
    FireDice,
    JostleDeckhand,
    KeepCube,
    LoseCube,
    MoveCaptain,
    MoveDeckhand,
    Mutiny,
    PaySkip,
    PlaceNavy,
    RefreshLine,
    Reroll,
    SailTo,
    SailToken,
    Skip,
    StartCove,
    SteerNavy,
    StopSailing,
    SureFire,
    TakeCrew,
)
from cove.games.tiny_epic_pirates.data import ASSIGN, CAN, EXT, REP, RIG
from cove.games.tiny_epic_pirates.options import PiratesOptions
from cove.games.tiny_epic_pirates.sea import CORNERS, DIRS, NEIGH, cell, dist
from cove.games.tiny_epic_pirates.turn import (
    B_MERCHANT,
    B_NAVY,
    T_BONUS_SETUP,
    T_CAPBURY,
    T_CAPT2,
    T_COVE,
    T_CREW,
    T_CREWBONUS,
    T_DIST,
    T_END_TURN,
    T_FIRE,
    T_JOSTLE,
    T_KEEP,
    T_LEGEND,
    T_LOSE,
    T_MCUBE,
    T_NAVY_FIGHT,
    T_NAVY_MOVE,
    T_NAVY_SETUP,
    T_NEWHAND,
    T_NEXT,
    T_ORDER,
    T_PAY,
    T_PORT,
    T_REASSIGN,
    T_RELEASE,
    T_RESOLVE,
    T_ROLL,
    T_SAIL,
    T_SIDE,
    T_START,
    T_WHEEL,
    T_WHEEL_DONE,
    TASK_NAMES,
    step_of,
)

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState


class PiratesRule(StepRule["PiratesState"]):
    """A Tiny Epic Pirates step. A forced single choice is not logged with the core's
    generic line (the log reads as it always has: the move logs itself), everything in a
    decision is public (R13.1), so waiting players and spectators are told the mover's
    prompt, and a decision also names its task (turn.TASK_NAMES)."""

    log_forced = False

    def public_prompt(self, state: PiratesState, step: Step) -> str:
        return self.prompt(state, step, step.players[0])

    def describe(self, state: PiratesState, step: Step, player: int) -> dict[str, Any]:
        return {"task": TASK_NAMES[step.kind]}


# ---------------------------------------------------------------- resources: a full ship (R2.2)
class Keep(PiratesRule):
    """A cube found with a full ship: keep it in place of one on board, or throw it back."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        x = step.data[0]
        R = s.R
        new = R.booty[x]
        out: list[Act] = [KeepCube(-1, text=f"discard the new {new}")]
        seen = set()
        for t in s.booty[player]:
            if t not in seen and t != x:
                seen.add(t)
                out.append(KeepCube(t, text=f"keep {new}, discard {R.booty[t]}"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        x = step.data[0]
        R = s.R
        p = player
        back = action.returned
        if back >= 0:
            s.booty[p].remove(back)
            s.booty[p].append(x)
            s.bag[back] += 1
            if s.logging:
                s.say(f"{s.name(p)} loads {R.booty[x]} and throws {R.booty[back]} "
                      "back in the bag",
                      kind="cube",
                      data={"player": p, "kept": R.booty[x], "returned": R.booty[back]})
        else:
            s.bag[x] += 1
            if s.logging:
                s.say(f"{s.name(p)} throws the new {R.booty[x]} back in the bag",
                      kind="cube", data={"player": p, "returned": R.booty[x]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        new = state.R.booty[step.data[0]]
        return (f"Your ship is full: keep the new {new} in place of a cube on board, "
                "or throw it back")


# ---------------------------------------------------------------- setup (R3)
class NavySetup(PiratesRule):
    """P1 puts the Navy on a corner without a port."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        return [PlaceNavy(c, text=f"navy to {cell(c)}")
                for c in CORNERS if c not in s.ports]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        s.navy = action.cell
        if s.logging:
            s.say(f"{s.name(player)} puts the navy at {cell(s.navy)}",
                  kind="navy", data={"cell": cell(s.navy)})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Place the Navy in a corner without a Merchant"


class Cove(PiratesRule):
    """Each player starts hidden in a free Cove."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        return [StartCove(i, text=f"start in cove {cell(i)}")
                for i in range(16) if s.cove_free(i, player) and i not in s.pos]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        here = s.pos[player] = action.cell
        s.hidden[player] = True
        if s.logging:
            s.say(f"{s.name(player)} starts hidden in the cove at {cell(here)}",
                  kind="cove", data={"player": player, "cell": cell(here)})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Choose your starting Cove: your ship starts hidden in a free one"


class Side(PiratesRule):
    """Each player chooses the side of their Captain card."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        return [CaptainSide(s, text=f"captain side {'ab'[s]} (bury then "
                    f"{'attack' if s == 0 else 'plunder'})") for s in (0, 1)]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        side = s.side[player] = action.side
        if s.logging:
            c = s.R.captains[s.captain[player]]
            s.say(f"{s.name(player)} commands with {c.name}, side {'AB'[side]} "
                  f"(trigger {D.ORDERS[c.trigger[side]]}, dice "
                  f"{' '.join(map(str, c.dice[side]))})",
                  kind="captain_side", data={"player": player, "side": "AB"[side]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Choose your Captain's side: it sets your trigger Order and battle dice"


class Start(PiratesRule):
    """Automatic: the starting cubes, then P1's first turn."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        # starting cubes: player n takes the type on the (n+1)-gold space [SEED]
        for q in range(s.np):
            t = s.market[q]
            if s.bag[t] > 0:
                s.bag[t] -= 1
                s.booty[q].append(t)
                if s.logging:
                    s.say(f"{s.name(q)} starts with 1 {s.R.booty[t]}",
                          kind="cube", data={"player": q, "loaded": s.R.booty[t]})
        s._start_turn(0)


# ---------------------------------------------------------------- the wheel (R4)
class Wheel(PiratesRule):
    """Move the Captain clockwise; spaces skipped cost Deckhands, passed ones release."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        cur = s.cap[player]
        have = sum(s.assign[player])
        wdh = s.wheel_dh[player]
        out = []
        cost = 0
        for d in range(1, 6):
            dest = (cur + d) % 6
            if cost > have:
                break
            o = D.ORDERS[s.wheel[player][dest]]
            extra = f", {cost} deckhand{'s' if cost != 1 else ''}" if cost else ""
            out.append(MoveCaptain(dest, text=f"captain to {dest} ({o}{extra})"))
            if dest != 0 and not wdh[dest]:
                cost += 1
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        dest = action.space
        cur = s.cap[p]
        d = (dest - cur) % 6
        wdh = s.wheel_dh[p]
        pay = []
        release = []
        for k in range(1, d):
            sp = (cur + k) % 6
            if wdh[sp]:
                release.append(sp)
            elif sp != 0:
                pay.append(sp)
        if wdh[dest]:
            release.append(dest)
        s.cap[p] = dest
        s.crossed = cur + d >= 6
        # Extort pays for the Deckhands on it when the Captain crosses the line (between
        # 5 and 0): pays and releases for spaces before it (s > cur) adjust this count
        s.line_ext = s.assign[p][EXT]
        if s.logging:
            s.say(f"{s.name(p)} moves the captain to {dest}: "
                  f"{D.ORDERS[s.wheel[p][dest]]}",
                  kind="captain",
                  data={"player": p, "space": dest, "order": D.ORDERS[s.wheel[p][dest]]})
        s.push(step_of(T_WHEEL_DONE, p))
        for sp in reversed(release):
            s.push(step_of(T_RELEASE, p, sp))
        for sp in reversed(pay):
            s.push(step_of(T_PAY, p, sp))

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Move your Captain clockwise to the Order you want: each space skipped "
                "costs a Deckhand, Hide Out and spaces holding one are free")


class Pay(PiratesRule):
    """A skipped wheel space takes a Deckhand from one of the Assignments."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        a = state.assign[player]
        return [PaySkip(j, text=f"skip with a deckhand from {ASSIGN[j]}")
                for j in range(4) if a[j]]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        x = step.data[0]
        j = action.assignment
        s.assign[player][j] -= 1
        s.wheel_dh[player][x] = 1
        if j == EXT and x > s.cap[player]:
            s.line_ext -= 1               # left Extort before the line
        if s.logging:
            s.say(f"{s.name(player)} skips space {x} with a deckhand from {ASSIGN[j]}",
                  kind="deckhand",
                  data={"player": player, "from": ASSIGN[j], "to": f"wheel {x}"})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return (f"Pay a Deckhand to skip wheel space {step.data[0]}: choose the Assignment "
                "it leaves")


class _PlaceDeckhand(PiratesRule):
    """A Deckhand goes to any Deck Assignment."""

    what = ""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        # [SEED] "to any Deck Assignment" (Repair is one of the 4); option
        # place_in_repair=false keeps them to Rigging, Cannons, Extort
        assert isinstance(s.options, PiratesOptions)
        top = 4 if player == s.solo or s.options.place_in_repair else 3
        return [AssignDeckhand(j, text=f"{self.what} deckhand to {ASSIGN[j]}")
                for j in range(top)]


class Release(_PlaceDeckhand):
    """The Deckhand on a wheel space the Captain passes or lands on is released."""

    what = "released"

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        x = step.data[0]
        j = action.assignment
        s.wheel_dh[player][x] = 0
        s.assign[player][j] += 1
        if j == EXT and x > s.cap[player]:
            s.line_ext += 1               # on Extort in time for the line
        if s.logging:
            s.say(f"{s.name(player)} moves the deckhand from space {x} to {ASSIGN[j]}",
                  kind="deckhand",
                  data={"player": player, "from": f"wheel {x}", "to": ASSIGN[j]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return f"Assign the Deckhand from wheel space {step.data[0]} to a Deck Assignment"


class WheelDone(PiratesRule):
    """Automatic: the Captain has moved; count rerolls and pay Extort on crossing (R6.1)."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data[0]
        R = s.R
        o = s.order_of(p)
        s.rerolls = sum(1 for c in s.crew[p] if R.crew[c].trigger == o
                        for b in R.crew[c].bonus if b == D.REROLL)
        if s.crossed:
            # R6.1 [SEED]: step 1 is "choose the Order and assign Deckhands", so Extort
            # pays for the Deckhands on it once the move and its skips and releases are
            # done; option extort_timing=at_line counts them as the Captain passes 5 -> 0
            assert isinstance(s.options, PiratesOptions)
            at_line = s.options.extort_timing == "at_line"
            e = s.line_ext if at_line else s.assign[p][EXT]
            s.add_gold(p, e)
            if s.logging:
                s.say(f"{s.name(p)} crosses the ship line: extort gives {e} gold",
                      kind="gold", data={"player": p, "gold": e, "why": "extort"})


# ---------------------------------------------------------------- sailing (R5)
class Sail(PiratesRule):
    """Sail one card at a time, spend sail tokens, or stop."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        out: list[Act] = []
        here = s.pos[player]
        if s.moves_used < s.sail_total(player):
            blocked = s.all_in_repair(player)
            for d, nb in NEIGH[here]:
                c = s.card(nb)
                if blocked and c.kind == D.STORM:
                    continue
                out.append(SailTo(d, text=f"sail {DIRS[d][2]} to {cell(nb)}"))
        seen = set()
        for amt in s.sail_tokens[player]:
            if amt not in seen:
                seen.add(amt)
                out.append(SailToken(amt, text=f"use sail token +{amt}"))
        out.append(StopSailing(text="stop sailing"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        if isinstance(action, StopSailing):
            if s.logging and s.moves_used:
                s.say(f"{s.name(p)} stops at {cell(s.pos[p])}",
                      kind="sail", data={"player": p, "stop": cell(s.pos[p])})
            return
        s.push(step)
        if isinstance(action, SailToken):
            amt = action.amount
            s.sail_tokens[p].remove(amt)
            s.sail_bonus += amt
            if s.logging:
                s.say(f"{s.name(p)} spends a +{amt} sail token",
                      kind="sail", data={"player": p, "token": amt})
            return
        here = s.pos[p]
        way = action.direction
        nb = next(c for d, c in NEIGH[here] if d == way)
        s.pos[p] = nb
        s.hidden[p] = False
        s.moves_used += 1
        if s.logging:
            s.say(f"{s.name(p)} sails {DIRS[way][2]} to {cell(nb)}",
                  kind="sail", data={"player": p, "to": cell(nb)})
        if s.card(nb).kind == D.STORM:
            if s.logging:
                s.say(f"{s.name(p)} sails into a storm",
                      kind="storm", data={"player": p, "cell": cell(nb)})
            s.push(step_of(T_JOSTLE, p))

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        s = state
        left = s.sail_total(player) - s.moves_used
        return (f"Sail one card north, east, south or west ({left} moves left), spend a "
                "sail token, or stop sailing")


class Jostle(PiratesRule):
    """A storm or a lost battle sends one of the player's Deckhands to Repair (R5.3)."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        a = s.assign[player]
        out: list[Act] = [JostleDeckhand(j, text=f"jostle: {ASSIGN[j]} deckhand to repair")
               for j in range(3) if a[j]]
        if not out:
            out = [JostleDeckhand(10 + w, text=f"jostle: wheel deckhand on {w} to repair")
                   for w in range(6) if s.wheel_dh[player][w]]
        return out or [Skip(text="no deckhand to jostle")]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if not isinstance(action, JostleDeckhand):
            return
        s = state
        src = action.source
        if src >= 10:
            s.wheel_dh[player][src - 10] = 0
            where = f"wheel space {src - 10}"
        else:
            s.assign[player][src] -= 1
            where = ASSIGN[src]
        s.assign[player][REP] += 1
        if s.logging:
            s.say(f"{s.name(player)} is jostled: a deckhand goes from {where} to repair",
                  kind="jostle", data={"player": player, "from": where})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "You are jostled: choose the Deckhand that goes to Repair"


# ---------------------------------------------------------------- Ship Line, Merchants, Navy (R6)
class EndTurn(PiratesRule):
    """Automatic: after a turn that crossed the line the Merchants and the Navy sail (R6.2);
    then the next turn."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data[0]
        s.push(step_of(T_NEXT, p))
        if s.crossed:
            s._merchants_sail()
            s.push(step_of(T_NAVY_FIGHT, p), step_of(T_NAVY_MOVE, p))


class NavyMove(PiratesRule):
    """The player steers the Navy one card closer to their ship (or it stays)."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        here, goal = s.navy, s.pos[player]
        d0 = dist(here, goal)
        return [SteerNavy(d, text=f"navy sails {DIRS[d][2]}")
                for d, nb in NEIGH[here] if dist(nb, goal) < d0
                ] or [Skip(text="the navy stays")]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if not isinstance(action, SteerNavy):
            return
        s = state
        way = action.direction
        s.navy = next(nb for d, nb in NEIGH[s.navy] if d == way)
        if s.logging:
            s.say(f"the navy sails {DIRS[way][2]} to {cell(s.navy)}",
                  kind="navy", data={"cell": cell(s.navy)})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Steer the Navy one card closer to your ship"


class NavyFight(PiratesRule):
    """Automatic: the Navy attacks the player if it shares their card and they are not
    hidden."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data[0]
        if s.navy == s.pos[p] and not s.hidden[p]:
            if s.logging:
                s.say(f"the navy attacks {s.name(p)} at {cell(s.navy)}",
                      kind="battle", data={"attacker": "navy", "target": p})
            s.battle = [p, B_NAVY, -1, [], [], 0, 0]
            s.push(step_of(T_RESOLVE, p), step_of(T_ROLL, p))


class Lose(PiratesRule):
    """Beaten by the Navy: the player loses a booty cube of their choice."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        return [LoseCube(t, text=f"lose {s.R.booty[t]}")
                for t in sorted(set(s.booty[player]))] or [Skip(text="nothing to lose")]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if not isinstance(action, LoseCube):
            return
        s = state
        t = action.booty
        s.booty[player].remove(t)
        s.bag[t] += 1
        if s.logging:
            s.say(f"{s.name(player)} loses a {s.R.booty[t]} cube to the navy",
                  kind="cube", data={"player": player, "lost": s.R.booty[t]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "The Navy beat you: choose the booty cube you lose"


# ---------------------------------------------------------------- Captain's Orders (R7)
def bonus_ways(s: PiratesState, p: int, b: int, cid: int, who: str) -> list[Act]:
    """Ways to carry out order/bonus ``b`` now. cid: ``BY_ORDER`` the order, ``BY_CAPTAIN``
    the Captain, else a crew card."""
    R = s.R
    suffix = f" ({who})" if who else ""
    pre = "" if cid == BY_ORDER else "bonus "

    def way(n: int, text: str) -> Act:
        """The order or bonus carried out with trade count or attack target ``n``."""
        return DoOrder(b, n, text=text) if cid == BY_ORDER else Bonus(b, n, cid, text=text)

    if b == D.PLUNDER:
        if s.can_plunder(p):
            k = s.card(s.pos[p]).plunder
            return [way(0, f"{pre}plunder {k}{suffix}")]
    elif b == D.TRADE:
        t = s.trade_type(p)
        if t >= 0:
            k = min(3, s.booty[p].count(t))
            return [way(n, f"{pre}trade {n} {R.booty[t]}{suffix}") for n in range(1, k + 1)]
    elif b == D.CREW_UP:
        return [way(0, f"{pre}crew up{suffix}")]
    elif b == D.SEARCH:
        if s.can_search(p):
            return [way(0, f"{pre}search{suffix}")]
    elif b == D.ATTACK:
        return [way(i, f"{pre}attack {s.target_text(t)}{suffix}")
                for i, t in enumerate(s.targets(p))]
    elif b == D.HIDE_OUT:
        if s.cove_free(s.pos[p], p):
            return [way(0, f"hide out in the cove at {cell(s.pos[p])}")]
    elif b == D.BURY:
        if s.can_bury(p):
            return [way(0, _bury_text(s, p, who))]
    elif b == D.REASSIGN:
        return [way(0, f"bonus reassign{suffix}")]
    elif b == D.SUREFIRE:
        return [way(0, f"bonus sure-fire{suffix}")]
    elif b == D.GOLD:
        return [way(0, f"bonus gold{suffix}")]
    return []


def _bury_text(s: PiratesState, p: int, who: str) -> str:
    cost = s.R.treasure_cost[len(s.treasures[p])]
    return f"bury treasure at {cell(s.pos[p])} for {cost} gold ({who})"


class Order(PiratesRule):
    """Carry out the Order the Captain stands on, or skip it."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        o = s.order_of(player)
        out = bonus_ways(s, player, o, BY_ORDER, "")
        out.append(Skip(text=f"skip {D.ORDERS[o]}"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        if isinstance(action, DoOrder):
            s._carry_out(player, action.order, action.choice, BY_ORDER)
        elif s.logging:
            o = D.ORDERS[s.order_of(player)]
            s.say(f"{s.name(player)} skips the {o} order",
                  kind="skip", data={"player": player, "order": o})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        o = D.ORDERS[state.order_of(player)]
        return f"Carry out the {o} Order here, or skip it"


class Crew(PiratesRule):
    """Crew up (R7.3, R7.4): take a card (at most one), refresh the line, mutiny, or stop.
    ``x`` is 1 once a card is taken."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        R = s.R
        p = player
        out: list[Act] = []
        if not step.data[0]:
            if not s.refreshed and s.gold[p] >= 1:
                out.append(RefreshLine(text="refresh the crew line for 1 gold"))
            for i, c in enumerate(s.crew_line):
                nm = R.crew[c].name.lower()
                if len(s.crew[p]) < 4:
                    out.append(TakeCrew(i, -1, text=f"take {nm}"))
                else:
                    for j, d in enumerate(s.crew[p]):
                        out.append(TakeCrew(i, j, text=f"take {nm}, discard "
                                            f"{R.crew[d].name.lower()}"))
        if not s.bloody[p]:
            out.append(Mutiny(text="mutiny (flip the captain card)"))
        out.append(Done(text="done crewing"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        if isinstance(action, RefreshLine):
            self._refresh(s, player)
            s.push(step)
        elif isinstance(action, Mutiny):
            self._mutiny(s, player)
            s.push(step)
        elif isinstance(action, TakeCrew):
            self._take(s, player, action)
            s.push(step_of(T_CREW, player, 1))

    @staticmethod
    def _refresh(s: PiratesState, p: int) -> None:
        s.add_gold(p, -1)
        s.refreshed = True
        s.crew_deck[0:0] = s.crew_line
        s.crew_known += 3
        s.crew_line = [s._crew_draw() for _ in range(3)]
        if s.logging:
            s.say(f"{s.name(p)} pays 1 gold for a new crew line: {s._line_text()}",
                  kind="crew",
                  data={"player": p, "refresh": [s.R.crew[c].name for c in s.crew_line]})

    @staticmethod
    def _mutiny(s: PiratesState, p: int) -> None:
        s.bloody[p] = True
        s.side[p] ^= 1
        if s.logging:
            cp = s.R.captains[s.captain[p]]
            sd = s.side[p]
            s.say(f"{s.name(p)} mutinies: {cp.name} flips to side {'AB'[sd]} (trigger "
                  f"{D.ORDERS[cp.trigger[sd]]}, dice {' '.join(map(str, cp.dice[sd]))}); "
                  "the legend token turns bloody",
                  kind="mutiny", data={"player": p, "side": "AB"[sd]})

    @staticmethod
    def _take(s: PiratesState, p: int, act: TakeCrew) -> None:
        R = s.R
        who = s.name(p)
        c = s.crew_line[act.slot]
        if act.discard >= 0:
            d = s.crew[p].pop(act.discard)
            s.crew_deck.insert(0, d)
            s.crew_known += 1
            # a card that leaves the crew takes its pending bonus actions with it
            s.bonus_left = [cb for cb in s.bonus_left if cb[0] != d]
            if s.logging:
                s.say(f"{who} discards {R.crew[d].name} to the bottom of the crew deck",
                      kind="crew", data={"player": p, "discard": R.crew[d].name})
        s.crew[p].append(c)
        s.crew_line[act.slot] = s._crew_draw()
        if s.logging:
            s.say(f"{who} takes {R.crew[c].name}; the line is now {s._line_text()}",
                  kind="crew", data={"player": p, "take": R.crew[c].name})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Crew up: take one of the three crew cards (at most four in your crew), "
                "refresh the line for 1 gold first, mutiny once a game, or stop")


class _MoveDeckhands(PiratesRule):
    """Deckhands moved one at a time (at most as many moves as Deckhands) to Rigging,
    Cannons or Extort; ``x`` counts the moves made."""

    hide = False

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        p = player
        out: list[Act] = []
        if step.data[0] < s.R.deckhands:
            a = s.assign[p]
            srcs = [(REP, "repair deckhand")] if a[REP] else []
            srcs += [(10 + w, f"wheel deckhand on {w}") for w in range(6) if s.wheel_dh[p][w]]
            assert isinstance(s.options, PiratesOptions)
            if self.hide or s.options.reassign == "all":
                srcs += [(j, f"{ASSIGN[j]} deckhand") for j in range(3) if a[j]]
            verb = "move" if self.hide else "reassign"
            out = [MoveDeckhand(src, j, text=f"{verb}: {what} to {ASSIGN[j]}")
                   for src, what in srcs for j in range(3) if j != src]
        out.append(Done(text="done moving deckhands" if self.hide else "done reassigning"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        if not isinstance(action, MoveDeckhand):
            self.done(s, p)
            return
        src, to = action.source, action.to
        if src >= 10:
            s.wheel_dh[p][src - 10] = 0
            where = f"wheel space {src - 10}"
        else:
            s.assign[p][src] -= 1
            where = ASSIGN[src]
        s.assign[p][to] += 1
        if self.hide and to == EXT:
            s.hide_placed += 1
        if s.logging:
            s.say(f"{s.name(p)} reassigns a deckhand from {where} to {ASSIGN[to]}",
                  kind="deckhand", data={"player": p, "from": where, "to": ASSIGN[to]})
        s.push(step_of(step.kind, p, step.data[0] + 1))

    def done(self, s: PiratesState, p: int) -> None:
        """The moves are over."""


class HideOut(_MoveDeckhands):
    """Hide Out [SOURCED: Dz-Hide]: any number, from anywhere on the Helm Mat (Repair,
    the wheel, the other Assignments)."""

    hide = True

    def done(self, s: PiratesState, p: int) -> None:
        """Each Deckhand the Hide Out placed onto Extort gives 1 Gold [SOURCED: Dz-Hide]
        (option ``hideout_extort``: ``moved`` pays the net gain on Extort, ``all`` every
        one on Extort when the moves are done)."""
        a = s.assign[p]
        assert isinstance(s.options, PiratesOptions)
        how = s.options.hideout_extort
        gold = (s.hide_placed if how == "placed" else a[EXT] if how == "all"
                else max(0, a[EXT] - s.hide_ext))
        s.add_gold(p, gold)
        if s.logging:
            extra = f"; extort pays {gold} gold" if gold else ""
            s.say(f"{s.name(p)} hides out with deckhands: rigging {a[RIG]}, cannons "
                  f"{a[CAN]}, extort {a[EXT]}, repair {a[REP]}{extra}",
                  kind="hide_out", data={"player": p, "gold": gold})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Hide out: move Deckhands one at a time onto Rigging, Cannons or Extort "
                "(each placed on Extort pays 1 gold), or stop")


# ---------------------------------------------------------------- battles (R7.6-R7.11, R6.4)
class Roll(PiratesRule):
    """Automatic: a side of the battle rolls its dice, then may improve them and fire."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data[0]
        b = s.battle
        assert b is not None
        dice = [s.rng.randint(1, 6) for _ in range(s.dice_count(p))]
        b[3 if p == b[0] else 4] = dice
        if s.logging:
            s.say(f"{s.name(p)} rolls {' '.join(map(str, dice))}",
                  kind="roll", data={"player": p, "dice": list(dice)})
        s.push(step_of(T_FIRE, p))


class Fire(PiratesRule):
    """Spend sure-fire tokens (set a die) or rerolls (the attacker), then fire."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        p = player
        b = s.battle
        assert b is not None
        dice = b[3] if p == b[0] else b[4]
        out: list[Act] = []
        if s.sure[p]:
            sym = s.symbols(p)
            for i, f in enumerate(dice):
                for g in range(1, 7):
                    if sym[g] > sym[f]:
                        out.append(SureFire(i, g, text=f"sure-fire: die {i + 1} to {g}"))
        if p == b[0] and s.rerolls and b[1] != B_NAVY:
            for mask in range(1, 1 << len(dice)):
                ds = "+".join(str(i + 1) for i in range(len(dice)) if mask >> i & 1)
                out.append(Reroll(mask, text=f"reroll dice {ds}"))
        out.append(FireDice(text=f"fire with {' '.join(map(str, dice))}"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        b = s.battle
        assert b is not None
        dice = b[3] if p == b[0] else b[4]
        if isinstance(action, SureFire):
            s.sure[p] -= 1
            s.sure_supply += 1
            i, face = action.die, action.face
            old = dice[i]
            dice[i] = face
            if s.logging:
                s.say(f"{s.name(p)} spends a sure-fire: die {i + 1} {old} -> {face}",
                      kind="surefire", data={"player": p, "die": i + 1, "face": face})
            s.push(step)
        elif isinstance(action, Reroll):
            s.rerolls -= 1
            mask = action.mask
            for i in range(len(dice)):
                if mask >> i & 1:
                    dice[i] = s.rng.randint(1, 6)
            if s.logging:
                s.say(f"{s.name(p)} rerolls: {' '.join(map(str, dice))}",
                      kind="roll", data={"player": p, "dice": list(dice), "reroll": True})
            s.push(step)
        else:
            tot = s.damage(p, dice)
            b[5 if p == b[0] else 6] = tot
            if s.logging:
                sym = s.symbols(p)
                hits = sum(sym[f] for f in dice)
                auto = sum(s.R.crew[c].auto for c in s.crew[p])
                s.say(f"{s.name(p)} fires {' '.join(map(str, dice))}: {hits} from dice + "
                      f"{s.assign[p][CAN]} cannons + {auto} auto-hits = {tot} damage",
                      kind="fire", data={"player": p, "dice": list(dice), "damage": tot})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Battle: spend sure-fire tokens or rerolls on your dice, then fire"


class Resolve(PiratesRule):
    """Automatic: both sides have fired; the battle's outcome (R7.10, R7.11, the Navy R6)."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        b = s.battle
        assert b is not None
        s.battle = None
        att, kind, tgt, _, _, atot, dtot = b
        if kind == B_NAVY:
            self.navy(s, att, atot)
        elif kind == B_MERCHANT:
            self.merchant(s, att, tgt, atot)
        else:
            self.pirate(s, att, tgt, atot, dtot)

    @staticmethod
    def navy(s: PiratesState, att: int, atot: int) -> None:
        R = s.R
        log = s.logging
        who = s.name(att)
        navy = R.navy_base + s.level[att] // R.navy_div
        if log:
            s.say(f"the navy deals {navy}, {who} deals {atot}",
                  kind="battle",
                  data={"attacker": "navy", "target": att, "navy": navy, "damage": atot})
        if atot == navy:
            s.gain_sure(att)
            if log:
                s.say(f"a tie: {who} gains a sure-fire token",
                      kind="battle", data={"result": "tie", "player": att})
        elif atot < navy:
            if log:
                s.say(f"{who} loses to the navy: jostled"
                      + (" and loses a booty cube" if s.booty[att] else ""),
                      kind="battle", data={"result": "lost", "player": att})
            if s.booty[att]:
                s.push(step_of(T_LOSE, att))
            s._jostle_after_loss(att)
        elif log:
            s.say(f"{who} fends off the navy",
                  kind="battle", data={"result": "won", "player": att})

    @staticmethod
    def merchant(s: PiratesState, att: int, tgt: int, atot: int) -> None:
        log = s.logging
        who = s.name(att)
        value = s.m_card[tgt]
        if log:
            s.say(f"merchant {'ab'[tgt]} (card {value}) deals {value}, {who} deals {atot}",
                  kind="battle",
                  data={"player": att, "merchant": "ab"[tgt], "card": value, "damage": atot})
        if atot > value:
            if log:
                s.say(f"{who} sinks merchant {'ab'[tgt]} and gains {value} gold",
                      kind="battle", data={"result": "won", "player": att, "gold": value})
            if s.R.merchant_legend[value] >= s.n:
                s.push(step_of(T_LEGEND, att))
            s.push(step_of(T_MCUBE, att, tgt))
            cube = s.m_cube[tgt]
            s.m_cube[tgt] = -1
            s.add_gold(att, value)
            if value != 8 and s.m_deck:
                s.m_removed += 1
                s.m_card[tgt] = s.m_deck.pop()
                if log:
                    s.say(f"merchant card {value} leaves the game; "
                          f"{s.m_card[tgt]} is revealed",
                          kind="merchant", data={"card": s.m_card[tgt], "removed": value})
            here = s.pos[att]
            d0, d1 = dist(here, s.ports[0]), dist(here, s.ports[1])
            if d0 == d1:
                s.push(step_of(T_PORT, att, tgt))
            else:
                s._merchant_to_port(tgt, 0 if d0 > d1 else 1)
            s._load(att, cube)
        elif atot == value:
            s.gain_sure(att)
            if log:
                s.say(f"a tie: {who} gains a sure-fire token; the merchant sails on",
                      kind="battle", data={"result": "tie", "player": att})
        else:
            assert isinstance(s.options, PiratesOptions)
            sure = s.options.merchant_loss_surefire
            if sure:
                s.gain_sure(att)
            if log:
                s.say(f"{who} loses: jostled" + (", and gains a sure-fire token"
                                                 if sure else ""),
                      kind="battle", data={"result": "lost", "player": att})
            s._jostle_after_loss(att)

    @staticmethod
    def pirate(s: PiratesState, att: int, tgt: int, atot: int, dtot: int) -> None:
        log = s.logging
        if log:
            s.say(f"{s.name(att)} deals {atot}, {s.name(tgt)} deals {dtot}",
                  kind="battle",
                  data={"player": att, "target": tgt, "damage": atot, "defender_damage": dtot})
        if atot == dtot:
            s.gain_sure(att)
            s.gain_sure(tgt)
            if log:
                s.say("a tie: both gain a sure-fire token",
                      kind="battle", data={"result": "tie", "players": [att, tgt]})
            return
        win, lose = (att, tgt) if atot > dtot else (tgt, att)
        if log:
            s.say(f"{s.name(win)} wins the battle; {s.name(lose)} is jostled and "
                  "gains a sure-fire token",
                  kind="battle", data={"result": "won", "winner": win, "loser": lose})
        s.push(step_of(T_LEGEND, win))
        s.gain_sure(lose)
        s._jostle_after_loss(lose)


class Port(PiratesRule):
    """A sunk Merchant equally far from both ports: the attacker chooses its port."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        return [ChoosePort(i, text=f"merchant to port {cell(s.ports[i])}") for i in (0, 1)]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        state._merchant_to_port(step.data[0], action.port)

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return (f"Merchant {'ab'[step.data[0]]} is sunk and both ports are equally far: "
                "choose the port it returns to")


class MerchantCube(PiratesRule):
    """Automatic: a sunk Merchant loads a new cube from the bag."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        x = step.data[1]
        s.m_cube[x] = s._draw()
        if s.logging and s.m_cube[x] >= 0:
            s.say(f"merchant {'ab'[x]} loads a {s.R.booty[s.m_cube[x]]} cube",
                  kind="merchant",
                  data={"merchant": "ab"[x], "cube": s.R.booty[s.m_cube[x]]})


# ---------------------------------------------------------------- bonus actions (R8)
class BonusSetup(PiratesRule):
    """Automatic: after the Order, the Captain's and the crew's bonus actions for it."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data[0]
        o = s.order_of(p)
        R = s.R
        cap = R.captains[s.captain[p]]
        crew_b = [(c, b) for c in s.crew[p] if R.crew[c].trigger == o
                  for b in R.crew[c].bonus]
        s.bonus_left = [(c, b) for c, b in crew_b if b != D.REROLL]
        if s.bonus_left:
            s.push(step_of(T_CREWBONUS, p))
        if cap.trigger[s.side[p]] == o:
            s.push(step_of(T_CAPT2, p), step_of(T_CAPBURY, p))


class _Bonus(PiratesRule):
    """A bonus action: carried out (it triggers nothing further) or skipped."""

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Bonus):
            state._carry_out(player, action.bonus, action.choice, action.source)


class CaptainBury(_Bonus):
    """The Captain's first bonus when the Order is its trigger: Bury."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        out: list[Act] = [Skip(text="skip bury")]
        if s.can_bury(player):
            out.insert(0, Bonus(D.BURY, text=_bury_text(s, player, "captain")))
        return out

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Your Captain's first bonus: bury a treasure here, or skip it"


class CaptainBonus(_Bonus):
    """The Captain's second bonus: Attack (side A) or Plunder (side B)."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        second = D.ATTACK if s.side[player] == 0 else D.PLUNDER
        out = bonus_ways(s, player, second, BY_CAPTAIN, "captain")
        out.append(Skip(text=f"skip captain's {D.ORDERS[second]}"))
        return out

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Your Captain's second bonus action: carry it out, or skip it"


class CrewBonus(_Bonus):
    """The crew's bonus actions for this Order, one at a time, in any order."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        out: list[Act] = []
        done = set()
        for cid, b in s.bonus_left:
            if (cid, b) not in done and cid in s.crew[player]:
                done.add((cid, b))
                out += bonus_ways(s, player, b, cid, s.R.crew[cid].name.lower())
        out.append(Skip(text="end bonus actions"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Bonus):
            s = state
            s.bonus_left.remove((action.source, action.bonus))
            s.push(step)
        super().apply(state, step, player, action)

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Take one of your crew's bonus actions for this Order, or end them"


class Reassign(_MoveDeckhands):
    """Reassign [DESIGN]: from Repair or a wheel space (option ``reassign=all``: also from
    Rigging, Cannons or Extort)."""

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Reassign: move Deckhands one at a time onto Rigging, Cannons or Extort, "
                "or stop")


# ---------------------------------------------------------------- Legend (R9)
class Legend(PiratesRule):
    """Automatic: the player rises one Legend level (R9)."""

    def run(self, state: PiratesState, step: Step) -> None:
        state._gain_legend(step.data[0])


class NewDeckhand(_PlaceDeckhand):
    """The Deckhand a Legend level brings (R9)."""

    what = "new"

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        j = action.assignment
        s.dh_reserve[player] -= 1
        s.assign[player][j] += 1
        if s.logging:
            s.say(f"{s.name(player)} puts the new deckhand on {ASSIGN[j]}",
                  kind="deckhand",
                  data={"player": player, "from": "legend", "to": ASSIGN[j]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Place the Deckhand your Legend level brings on a Deck Assignment"


# ---------------------------------------------------------------- the end (R11)
class NextTurn(PiratesRule):
    """Automatic: the next player's turn, or the end of the game (R11)."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data[0]
        s.turn += 1
        assert isinstance(s.options, PiratesOptions)
        last_seat = p == s.np - 1
        if s.end_trigger and last_seat:
            s._finish("a third treasure is buried and everyone has had equal turns")
        elif last_seat and s.turn >= s.options.max_rounds * s.np:
            s._finish(f"the {s.options.max_rounds}-round safety limit is reached")
        else:
            s._start_turn((p + 1) % s.np)


STEPS: dict[str, PiratesRule] = {
    T_KEEP: Keep(),
    T_NAVY_SETUP: NavySetup(),
    T_COVE: Cove(),
    T_SIDE: Side(),
    T_START: Start(),
    T_WHEEL: Wheel(),
    T_PAY: Pay(),
    T_RELEASE: Release(),
    T_WHEEL_DONE: WheelDone(),
    T_SAIL: Sail(),
    T_JOSTLE: Jostle(),
    T_END_TURN: EndTurn(),
    T_NAVY_MOVE: NavyMove(),
    T_NAVY_FIGHT: NavyFight(),
    T_LOSE: Lose(),
    T_ORDER: Order(),
    T_CREW: Crew(),
    T_DIST: HideOut(),
    T_ROLL: Roll(),
    T_FIRE: Fire(),
    T_RESOLVE: Resolve(),
    T_PORT: Port(),
    T_MCUBE: MerchantCube(),
    T_BONUS_SETUP: BonusSetup(),
    T_CAPBURY: CaptainBury(),
    T_CAPT2: CaptainBonus(),
    T_CREWBONUS: CrewBonus(),
    T_REASSIGN: Reassign(),
    T_LEGEND: Legend(),
    T_NEWHAND: NewDeckhand(),
    T_NEXT: NextTurn(),
}
"""The rule of every kind of step, in RULES.md order."""
