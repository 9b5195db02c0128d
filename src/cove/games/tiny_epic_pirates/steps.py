"""The turn's decisions: one rule per kind of step on the core's decision stack.

Each rule says who decides (the step's player), what they may choose (``legal``), what
the choice does and what comes after (``apply`` pushes the follow-up steps), and how to
ask for it in one sentence (``prompt``). Automatic steps (no player) ``run`` the flow
between decisions: the start of the game, the wheel's Extort, dice rolls, a battle's
outcome, the end of a turn. Effects shared by several kinds (carrying out an order,
loading a cube, a jostle, a Legend level) stay on the state. Rule numbers (R...) refer to
RULES.md.

A decision step carries ``(x,)`` and an automatic one ``(p, x)`` (see
``board.step_of``); ``x`` is the wheel space, the cube type, a count or a merchant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from cove.core.decisions import Step, StepRule
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.actions import (
    A_ASSIGN,
    A_COVE,
    A_JOSTLE,
    A_NAVY_SETUP,
    A_PAY,
    A_SIDE,
    A_SKIP,
    A_WHEEL,
    Act,
)
from cove.games.tiny_epic_pirates.board import (
    ASSIGN,
    CORNERS,
    EXT,
    REP,
    T_COVE,
    T_JOSTLE,
    T_NAVY_SETUP,
    T_NEWHAND,
    T_PAY,
    T_RELEASE,
    T_SIDE,
    T_START,
    T_WHEEL,
    T_WHEEL_DONE,
    cell,
    step_of,
)
from cove.games.tiny_epic_pirates.options import PiratesOptions

if TYPE_CHECKING:
    from cove.core.state import State
    from cove.games.tiny_epic_pirates.state import PiratesState


def _s(state: State) -> PiratesState:
    return cast("PiratesState", state)


# ---------------------------------------------------------------- setup (R3)
class NavySetup(StepRule):
    """P1 puts the Navy on a corner without a port."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        s = _s(state)
        return [Act(A_NAVY_SETUP, c, text=f"navy to {cell(c)}")
                for c in CORNERS if c not in s.ports]

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        s.navy = action.a
        if s.logging:
            s.say(f"{s.name(player)} puts the navy at {cell(action.a)}",
                  kind="navy", data={"cell": cell(action.a)})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return "Place the Navy in a corner without a Merchant"


class Cove(StepRule):
    """Each player starts hidden in a free Cove."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        s = _s(state)
        return [Act(A_COVE, i, text=f"start in cove {cell(i)}")
                for i in range(16) if s.cove_free(i, player) and i not in s.pos]

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        s.pos[player] = action.a
        s.hidden[player] = True
        if s.logging:
            s.say(f"{s.name(player)} starts hidden in the cove at {cell(action.a)}",
                  kind="cove", data={"player": player, "cell": cell(action.a)})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return "Choose your starting Cove: your ship starts hidden in a free one"


class Side(StepRule):
    """Each player chooses the side of their Captain card."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        return [Act(A_SIDE, s, text=f"captain side {'ab'[s]} (bury then "
                    f"{'attack' if s == 0 else 'plunder'})") for s in (0, 1)]

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        s.side[player] = action.a
        if s.logging:
            c = s.R.captains[s.captain[player]]
            s.say(f"{s.name(player)} commands with {c.name}, side {'AB'[action.a]} "
                  f"(trigger {D.ORDERS[c.trigger[action.a]]}, dice "
                  f"{' '.join(map(str, c.dice[action.a]))})",
                  kind="captain_side", data={"player": player, "side": "AB"[action.a]})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return "Choose your Captain's side: it sets your trigger Order and battle dice"


class Start(StepRule):
    """Automatic: the starting cubes, then P1's first turn."""

    def run(self, state: State, step: Step) -> None:
        s = _s(state)
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
class Wheel(StepRule):
    """Move the Captain clockwise; spaces skipped cost Deckhands, passed ones release."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        s = _s(state)
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
            out.append(Act(A_WHEEL, dest, text=f"captain to {dest} ({o}{extra})"))
            if dest != 0 and not wdh[dest]:
                cost += 1
        return out

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        p = player
        dest = action.a
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

    def prompt(self, state: State, step: Step, player: int) -> str:
        return ("Move your Captain clockwise to the Order you want: each space skipped "
                "costs a Deckhand, Hide Out and spaces holding one are free")


class Pay(StepRule):
    """A skipped wheel space takes a Deckhand from one of the Assignments."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        a = _s(state).assign[player]
        return [Act(A_PAY, j, text=f"skip with a deckhand from {ASSIGN[j]}")
                for j in range(4) if a[j]]

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        x = step.data[0]
        s.assign[player][action.a] -= 1
        s.wheel_dh[player][x] = 1
        if action.a == EXT and x > s.cap[player]:
            s.line_ext -= 1               # left Extort before the line
        if s.logging:
            s.say(f"{s.name(player)} skips space {x} with a deckhand from {ASSIGN[action.a]}",
                  kind="deckhand",
                  data={"player": player, "from": ASSIGN[action.a], "to": f"wheel {x}"})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return (f"Pay a Deckhand to skip wheel space {step.data[0]}: choose the Assignment "
                "it leaves")


class _PlaceDeckhand(StepRule):
    """A Deckhand goes to any Deck Assignment."""

    what = ""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        s = _s(state)
        # [SEED] "to any Deck Assignment" (Repair is one of the 4); option
        # place_in_repair=false keeps them to Rigging, Cannons, Extort
        assert isinstance(s.options, PiratesOptions)
        top = 4 if player == s.solo or s.options.place_in_repair else 3
        return [Act(A_ASSIGN, j, text=f"{self.what} deckhand to {ASSIGN[j]}")
                for j in range(top)]


class Release(_PlaceDeckhand):
    """The Deckhand on a wheel space the Captain passes or lands on is released."""

    what = "released"

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        x = step.data[0]
        s.wheel_dh[player][x] = 0
        s.assign[player][action.a] += 1
        if action.a == EXT and x > s.cap[player]:
            s.line_ext += 1               # on Extort in time for the line
        if s.logging:
            s.say(f"{s.name(player)} moves the deckhand from space {x} to {ASSIGN[action.a]}",
                  kind="deckhand",
                  data={"player": player, "from": f"wheel {x}", "to": ASSIGN[action.a]})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return f"Assign the Deckhand from wheel space {step.data[0]} to a Deck Assignment"


class NewDeckhand(_PlaceDeckhand):
    """The Deckhand a Legend level brings (R9)."""

    what = "new"

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        s = _s(state)
        s.dh_reserve[player] -= 1
        s.assign[player][action.a] += 1
        if s.logging:
            s.say(f"{s.name(player)} puts the new deckhand on {ASSIGN[action.a]}",
                  kind="deckhand",
                  data={"player": player, "from": "legend", "to": ASSIGN[action.a]})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return "Place the Deckhand your Legend level brings on a Deck Assignment"


class WheelDone(StepRule):
    """Automatic: the Captain has moved; count rerolls and pay Extort on crossing (R6.1)."""

    def run(self, state: State, step: Step) -> None:
        s = _s(state)
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


class Jostle(StepRule):
    """A storm or a lost battle sends one of the player's Deckhands to Repair (R5)."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        s = _s(state)
        a = s.assign[player]
        out = [Act(A_JOSTLE, j, text=f"jostle: {ASSIGN[j]} deckhand to repair")
               for j in range(3) if a[j]]
        if not out:
            out = [Act(A_JOSTLE, 10 + w, text=f"jostle: wheel deckhand on {w} to repair")
                   for w in range(6) if s.wheel_dh[player][w]]
        return out or [Act(A_SKIP, text="no deckhand to jostle")]

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        if action.kind != A_JOSTLE:
            return
        s = _s(state)
        if action.a >= 10:
            s.wheel_dh[player][action.a - 10] = 0
            where = f"wheel space {action.a - 10}"
        else:
            s.assign[player][action.a] -= 1
            where = ASSIGN[action.a]
        s.assign[player][REP] += 1
        if s.logging:
            s.say(f"{s.name(player)} is jostled: a deckhand goes from {where} to repair",
                  kind="jostle", data={"player": player, "from": where})

    def prompt(self, state: State, step: Step, player: int) -> str:
        return "You are jostled: choose the Deckhand that goes to Repair"


RULES: dict[str, StepRule] = {
    T_NAVY_SETUP: NavySetup(),
    T_COVE: Cove(),
    T_SIDE: Side(),
    T_START: Start(),
    T_WHEEL: Wheel(),
    T_PAY: Pay(),
    T_RELEASE: Release(),
    T_NEWHAND: NewDeckhand(),
    T_WHEEL_DONE: WheelDone(),
    T_JOSTLE: Jostle(),
}
"""The rule of every kind of step."""
