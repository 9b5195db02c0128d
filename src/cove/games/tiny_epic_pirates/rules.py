"""The turn's decisions: one rule per kind of step on the core's decision stack.

Each rule says who decides (the step's player), what they may choose (``legal``), what
the choice does and what comes after (``apply`` pushes the follow-up steps), and how to
ask for it in one sentence (``prompt``). Automatic steps (no player) ``run`` the flow
between decisions: the start of the game, the wheel's Extort, dice rolls, a battle's
outcome, the end of a turn. Effects shared by several kinds (carrying out an order,
loading a cube, a jostle, a Legend level) stay on the state. Rule numbers (R...) refer to
RULES.md.

What a step carries (``step.data``, see ``turn.step_of``): an automatic step its player
(``ForPlayer``); a few decisions a record of their own (the cube found, the wheel space,
whether a crew card is taken, the Deckhand moves made, the merchant sunk); the others
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cove.core import Step, StepRule
from cove.games.tiny_epic_pirates import data
from cove.games.tiny_epic_pirates.actions import (
    BY_CAPTAIN,
    BY_ORDER,
    WHEEL_DECKHAND,
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
    dice_chosen,
    dice_subsets,
)
from cove.games.tiny_epic_pirates.data import ASSIGN, CAN, EXT, REP, RIG
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
    Battle,
    PendingBonus,
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
    """A cube found with a full ship: keep it in place of one on board, or throw it back.
    ``data``: ``FoundCube``."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        found = step.data.cube
        names = state.ruleset.booty
        new = names[found]
        out: list[Act] = [KeepCube(-1, text=f"discard the new {new}")]
        seen = set()
        for booty in state.booty[player]:
            if booty not in seen and booty != found:
                seen.add(booty)
                out.append(KeepCube(booty, text=f"keep {new}, discard {names[booty]}"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        found = step.data.cube
        names = s.ruleset.booty
        p = player
        returned = action.returned
        if returned >= 0:
            s.booty[p].remove(returned)
            s.booty[p].append(found)
            s.bag[returned] += 1
            if s.logging:
                s.say(f"{s.name(p)} loads {names[found]} and throws {names[returned]} "
                      "back in the bag",
                      kind="cube",
                      data={"player": p, "kept": names[found], "returned": names[returned]})
        else:
            s.bag[found] += 1
            if s.logging:
                s.say(f"{s.name(p)} throws the new {names[found]} back in the bag",
                      kind="cube", data={"player": p, "returned": names[found]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        new = state.ruleset.booty[step.data.cube]
        return (f"Your ship is full: keep the new {new} in place of a cube on board, "
                "or throw it back")


# ---------------------------------------------------------------- setup (R3)
class NavySetup(PiratesRule):
    """P1 puts the Navy on a corner without a port."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        return [PlaceNavy(corner, text=f"navy to {cell(corner)}")
                for corner in CORNERS if corner not in state.ports]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        s.navy_at = action.cell
        if s.logging:
            s.say(f"{s.name(player)} puts the navy at {cell(s.navy_at)}",
                  kind="navy", data={"cell": cell(s.navy_at)})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Place the Navy in a corner without a Merchant"


class Cove(PiratesRule):
    """Each player starts hidden in a free Cove."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        return [StartCove(i, text=f"start in cove {cell(i)}")
                for i in range(16) if s.cove_free(i, player) and i not in s.ship_at]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        here = s.ship_at[player] = action.cell
        s.hidden[player] = True
        if s.logging:
            s.say(f"{s.name(player)} starts hidden in the cove at {cell(here)}",
                  kind="cove", data={"player": player, "cell": cell(here)})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Choose your starting Cove: your ship starts hidden in a free one"


class Side(PiratesRule):
    """Each player chooses the side of their Captain card."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        return [CaptainSide(side, text=f"captain side {'ab'[side]} (bury then "
                            f"{'attack' if side == 0 else 'plunder'})") for side in (0, 1)]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        side = s.captain_side[player] = action.side
        if s.logging:
            captain = s.ruleset.captains[s.captain[player]]
            s.say(f"{s.name(player)} commands with {captain.name}, side {'AB'[side]} "
                  f"(trigger {data.ORDERS[captain.trigger[side]]}, dice "
                  f"{' '.join(map(str, captain.dice[side]))})",
                  kind="captain_side", data={"player": player, "side": "AB"[side]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Choose your Captain's side: it sets your trigger Order and battle dice"


class Start(PiratesRule):
    """Automatic: the starting cubes, then P1's first turn."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        # starting cubes: player n takes the type on the (n+1)-gold space [SEED]
        for q in range(s.pirate_count):
            booty = s.market[q]
            if s.bag[booty] > 0:
                s.bag[booty] -= 1
                s.booty[q].append(booty)
                if s.logging:
                    s.say(f"{s.name(q)} starts with 1 {s.ruleset.booty[booty]}",
                          kind="cube", data={"player": q, "loaded": s.ruleset.booty[booty]})
        s._start_turn(0)


# ---------------------------------------------------------------- the wheel (R4)
class Wheel(PiratesRule):
    """Move the Captain clockwise; spaces skipped cost Deckhands, passed ones release."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        start = s.captain_space[player]
        deckhands = sum(s.assignments[player])
        on_wheel = s.wheel_deckhands[player]
        out = []
        cost = 0
        for steps in range(1, 6):
            space = (start + steps) % 6
            if cost > deckhands:
                break
            order = data.ORDERS[s.wheel[player][space]]
            extra = f", {cost} deckhand{'s' if cost != 1 else ''}" if cost else ""
            out.append(MoveCaptain(space, text=f"captain to {space} ({order}{extra})"))
            if space != 0 and not on_wheel[space]:
                cost += 1
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        goal = action.space
        start = s.captain_space[p]
        steps = (goal - start) % 6
        on_wheel = s.wheel_deckhands[p]
        to_pay = []
        to_release = []
        for k in range(1, steps):
            space = (start + k) % 6
            if on_wheel[space]:
                to_release.append(space)
            elif space != 0:
                to_pay.append(space)
        if on_wheel[goal]:
            to_release.append(goal)
        s.captain_space[p] = goal
        s.crossed_ship_line = start + steps >= 6
        # Extort pays for the Deckhands on it when the Captain crosses the line (between
        # 5 and 0): pays and releases for spaces before it (space > start) adjust this count
        s.extort_at_line = s.assignments[p][EXT]
        if s.logging:
            order = data.ORDERS[s.wheel[p][goal]]
            s.say(f"{s.name(p)} moves the captain to {goal}: {order}",
                  kind="captain", data={"player": p, "space": goal, "order": order})
        s.push(step_of(T_WHEEL_DONE, p))
        for space in reversed(to_release):
            s.push(step_of(T_RELEASE, p, space))
        for space in reversed(to_pay):
            s.push(step_of(T_PAY, p, space))

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Move your Captain clockwise to the Order you want: each space skipped "
                "costs a Deckhand, Hide Out and spaces holding one are free")


class Pay(PiratesRule):
    """A skipped wheel space takes a Deckhand from one of the Assignments. ``data``:
    ``WheelSpace``."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        on = state.assignments[player]
        return [PaySkip(j, text=f"skip with a deckhand from {ASSIGN[j]}")
                for j in range(4) if on[j]]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        space = step.data.space
        assignment = action.assignment
        s.assignments[player][assignment] -= 1
        s.wheel_deckhands[player][space] = 1
        if assignment == EXT and space > s.captain_space[player]:
            s.extort_at_line -= 1               # left Extort before the line
        if s.logging:
            s.say(f"{s.name(player)} skips space {space} with a deckhand from "
                  f"{ASSIGN[assignment]}",
                  kind="deckhand",
                  data={"player": player, "from": ASSIGN[assignment], "to": f"wheel {space}"})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return (f"Pay a Deckhand to skip wheel space {step.data.space}: choose the "
                "Assignment it leaves")


class _PlaceDeckhand(PiratesRule):
    """A Deckhand goes to any Deck Assignment."""

    what = ""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        # [SEED] "to any Deck Assignment" (Repair is one of the 4); option
        # place_in_repair=false keeps them to Rigging, Cannons, Extort
        choices = 4 if player == s.solo_pirate or s.options.place_in_repair else 3
        return [AssignDeckhand(j, text=f"{self.what} deckhand to {ASSIGN[j]}")
                for j in range(choices)]


class Release(_PlaceDeckhand):
    """The Deckhand on a wheel space the Captain passes or lands on is released. ``data``:
    ``WheelSpace``."""

    what = "released"

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        space = step.data.space
        assignment = action.assignment
        s.wheel_deckhands[player][space] = 0
        s.assignments[player][assignment] += 1
        if assignment == EXT and space > s.captain_space[player]:
            s.extort_at_line += 1               # on Extort in time for the line
        if s.logging:
            s.say(f"{s.name(player)} moves the deckhand from space {space} to "
                  f"{ASSIGN[assignment]}",
                  kind="deckhand",
                  data={"player": player, "from": f"wheel {space}", "to": ASSIGN[assignment]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return (f"Assign the Deckhand from wheel space {step.data.space} to a Deck "
                "Assignment")


class WheelDone(PiratesRule):
    """Automatic: the Captain has moved; count rerolls and pay Extort on crossing (R6.1)."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data.player
        crew = s.ruleset.crew
        order = s.order_of(p)
        s.rerolls = sum(1 for c in s.crew[p] if crew[c].trigger == order
                        for bonus in crew[c].bonus if bonus == data.REROLL)
        if s.crossed_ship_line:
            # R6.1 [SEED]: step 1 is "choose the Order and assign Deckhands", so Extort
            # pays for the Deckhands on it once the move and its skips and releases are
            # done; option extort_timing=at_line counts them as the Captain passes 5 -> 0
            at_line = s.options.extort_timing == "at_line"
            gold = s.extort_at_line if at_line else s.assignments[p][EXT]
            s.add_gold(p, gold)
            if s.logging:
                s.say(f"{s.name(p)} crosses the ship line: extort gives {gold} gold",
                      kind="gold", data={"player": p, "gold": gold, "why": "extort"})


# ---------------------------------------------------------------- sailing (R5)
class Sail(PiratesRule):
    """Sail one card at a time, spend sail tokens, or stop."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        out: list[Act] = []
        here = s.ship_at[player]
        if s.moves_used < s.sail_total(player):
            blocked = s.all_in_repair(player)
            for direction, there in NEIGH[here]:
                if blocked and s.card(there).kind == data.STORM:
                    continue
                out.append(SailTo(direction,
                                  text=f"sail {DIRS[direction][2]} to {cell(there)}"))
        seen = set()
        for amount in s.sail_tokens[player]:
            if amount not in seen:
                seen.add(amount)
                out.append(SailToken(amount, text=f"use sail token +{amount}"))
        out.append(StopSailing(text="stop sailing"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        if isinstance(action, StopSailing):
            if s.logging and s.moves_used:
                s.say(f"{s.name(p)} stops at {cell(s.ship_at[p])}",
                      kind="sail", data={"player": p, "stop": cell(s.ship_at[p])})
            return
        s.push(step)
        if isinstance(action, SailToken):
            amount = action.amount
            s.sail_tokens[p].remove(amount)
            s.sail_bonus += amount
            if s.logging:
                s.say(f"{s.name(p)} spends a +{amount} sail token",
                      kind="sail", data={"player": p, "token": amount})
            return
        direction = action.direction
        there = next(card for way, card in NEIGH[s.ship_at[p]] if way == direction)
        s.ship_at[p] = there
        s.hidden[p] = False
        s.moves_used += 1
        if s.logging:
            s.say(f"{s.name(p)} sails {DIRS[direction][2]} to {cell(there)}",
                  kind="sail", data={"player": p, "to": cell(there)})
        if s.card(there).kind == data.STORM:
            if s.logging:
                s.say(f"{s.name(p)} sails into a storm",
                      kind="storm", data={"player": p, "cell": cell(there)})
            s.push(step_of(T_JOSTLE, p))

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        left = state.sail_total(player) - state.moves_used
        return (f"Sail one card north, east, south or west ({left} moves left), spend a "
                "sail token, or stop sailing")


class Jostle(PiratesRule):
    """A storm or a lost battle sends one of the player's Deckhands to Repair (R5.3)."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        on = s.assignments[player]
        out: list[Act] = [JostleDeckhand(j, text=f"jostle: {ASSIGN[j]} deckhand to repair")
                          for j in range(3) if on[j]]
        if not out:
            out = [JostleDeckhand(WHEEL_DECKHAND + space,
                                  text=f"jostle: wheel deckhand on {space} to repair")
                   for space in range(6) if s.wheel_deckhands[player][space]]
        return out or [Skip(text="no deckhand to jostle")]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if not isinstance(action, JostleDeckhand):
            return
        s = state
        where = _take_deckhand(s, player, action.source)
        s.assignments[player][REP] += 1
        if s.logging:
            s.say(f"{s.name(player)} is jostled: a deckhand goes from {where} to repair",
                  kind="jostle", data={"player": player, "from": where})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "You are jostled: choose the Deckhand that goes to Repair"


def _take_deckhand(s: PiratesState, p: int, source: int) -> str:
    """Take one of p's Deckhands from ``source`` (an Assignment, or ``WHEEL_DECKHAND`` plus
    a wheel space); where it was, in words."""
    if source >= WHEEL_DECKHAND:
        space = source - WHEEL_DECKHAND
        s.wheel_deckhands[p][space] = 0
        return f"wheel space {space}"
    s.assignments[p][source] -= 1
    return ASSIGN[source]


# ---------------------------------------------------------------- Ship Line, Merchants, Navy (R6)
class EndTurn(PiratesRule):
    """Automatic: after a turn that crossed the line the Merchants and the Navy sail (R6.2);
    then the next turn."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data.player
        s.push(step_of(T_NEXT, p))
        if s.crossed_ship_line:
            s._merchants_sail()
            s.push(step_of(T_NAVY_FIGHT, p), step_of(T_NAVY_MOVE, p))


class NavyMove(PiratesRule):
    """The player steers the Navy one card closer to their ship (or it stays)."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        here, goal = s.navy_at, s.ship_at[player]
        now = dist(here, goal)
        return [SteerNavy(direction, text=f"navy sails {DIRS[direction][2]}")
                for direction, there in NEIGH[here] if dist(there, goal) < now
                ] or [Skip(text="the navy stays")]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if not isinstance(action, SteerNavy):
            return
        s = state
        direction = action.direction
        s.navy_at = next(card for way, card in NEIGH[s.navy_at] if way == direction)
        if s.logging:
            s.say(f"the navy sails {DIRS[direction][2]} to {cell(s.navy_at)}",
                  kind="navy", data={"cell": cell(s.navy_at)})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Steer the Navy one card closer to your ship"


class NavyFight(PiratesRule):
    """Automatic: the Navy attacks the player if it shares their card and they are not
    hidden."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data.player
        if s.navy_at == s.ship_at[p] and not s.hidden[p]:
            if s.logging:
                s.say(f"the navy attacks {s.name(p)} at {cell(s.navy_at)}",
                      kind="battle", data={"attacker": "navy", "target": p})
            s.battle = Battle(p, B_NAVY, -1)
            s.push(step_of(T_RESOLVE, p), step_of(T_ROLL, p))


class Lose(PiratesRule):
    """Beaten by the Navy: the player loses a booty cube of their choice."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        names = state.ruleset.booty
        return [LoseCube(booty, text=f"lose {names[booty]}")
                for booty in sorted(set(state.booty[player]))] or [Skip(text="nothing to lose")]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if not isinstance(action, LoseCube):
            return
        s = state
        booty = action.booty
        s.booty[player].remove(booty)
        s.bag[booty] += 1
        if s.logging:
            s.say(f"{s.name(player)} loses a {s.ruleset.booty[booty]} cube to the navy",
                  kind="cube", data={"player": player, "lost": s.ruleset.booty[booty]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "The Navy beat you: choose the booty cube you lose"


# ---------------------------------------------------------------- Captain's Orders (R7)
def bonus_ways(s: PiratesState, p: int, action: int, source: int, who: str) -> list[Act]:
    """Ways to carry out the order or bonus action ``action`` now. ``source``: ``BY_ORDER``
    the Order, ``BY_CAPTAIN`` the Captain, else a crew card; ``who`` names it in the text."""
    suffix = f" ({who})" if who else ""
    pre = "" if source == BY_ORDER else "bonus "

    def way(choice: int, text: str) -> Act:
        """The order or bonus carried out with a trade count or attack target ``choice``."""
        if source == BY_ORDER:
            return DoOrder(action, choice, text=text)
        return Bonus(action, choice, source, text=text)

    here = s.ship_at[p]
    if action == data.PLUNDER:
        if s.can_plunder(p):
            return [way(0, f"{pre}plunder {s.card(here).plunder}{suffix}")]
    elif action == data.TRADE:
        booty = s.trade_type(p)
        if booty >= 0:
            most = min(3, s.booty[p].count(booty))
            name = s.ruleset.booty[booty]
            return [way(count, f"{pre}trade {count} {name}{suffix}")
                    for count in range(1, most + 1)]
    elif action == data.CREW_UP:
        return [way(0, f"{pre}crew up{suffix}")]
    elif action == data.SEARCH:
        if s.can_search(p):
            return [way(0, f"{pre}search{suffix}")]
    elif action == data.ATTACK:
        return [way(i, f"{pre}attack {s.target_text(target)}{suffix}")
                for i, target in enumerate(s.targets(p))]
    elif action == data.HIDE_OUT:
        if s.cove_free(here, p):
            return [way(0, f"hide out in the cove at {cell(here)}")]
    elif action == data.BURY:
        if s.can_bury(p):
            return [way(0, _bury_text(s, p, who))]
    elif action == data.REASSIGN:
        return [way(0, f"bonus reassign{suffix}")]
    elif action == data.SUREFIRE:
        return [way(0, f"bonus sure-fire{suffix}")]
    elif action == data.GOLD:
        return [way(0, f"bonus gold{suffix}")]
    return []


def _bury_text(s: PiratesState, p: int, who: str) -> str:
    cost = s.ruleset.treasure_cost[len(s.treasures[p])]
    return f"bury treasure at {cell(s.ship_at[p])} for {cost} gold ({who})"


class Order(PiratesRule):
    """Carry out the Order the Captain stands on, or skip it."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        order = state.order_of(player)
        out = bonus_ways(state, player, order, BY_ORDER, "")
        out.append(Skip(text=f"skip {data.ORDERS[order]}"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        if isinstance(action, DoOrder):
            s._carry_out(player, action.order, action.choice, BY_ORDER)
        elif s.logging:
            order = data.ORDERS[s.order_of(player)]
            s.say(f"{s.name(player)} skips the {order} order",
                  kind="skip", data={"player": player, "order": order})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        order = data.ORDERS[state.order_of(player)]
        return f"Carry out the {order} Order here, or skip it"


class Crew(PiratesRule):
    """Crew up (R7.3, R7.4): take a card (at most one), refresh the line, mutiny, or stop.
    ``data``: ``CrewingUp``, whether a card is taken already."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        crew = s.ruleset.crew
        p = player
        out: list[Act] = []
        if not step.data.taken:
            if not s.crew_line_refreshed and s.gold[p] >= 1:
                out.append(RefreshLine(text="refresh the crew line for 1 gold"))
            for slot, card in enumerate(s.crew_line):
                name = crew[card].name.lower()
                if len(s.crew[p]) < 4:
                    out.append(TakeCrew(slot, -1, text=f"take {name}"))
                else:
                    for i, mate in enumerate(s.crew[p]):
                        out.append(TakeCrew(slot, i, text=f"take {name}, discard "
                                            f"{crew[mate].name.lower()}"))
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
            s.push(step_of(T_CREW, player, 1))      # taken: no second card

    @staticmethod
    def _refresh(s: PiratesState, p: int) -> None:
        s.add_gold(p, -1)
        s.crew_line_refreshed = True
        s.crew_deck[0:0] = s.crew_line
        s.crew_bottom_seen += 3
        s.crew_line = [s._crew_draw() for _ in range(3)]
        if s.logging:
            s.say(f"{s.name(p)} pays 1 gold for a new crew line: {s._line_text()}",
                  kind="crew",
                  data={"player": p, "refresh": [s.ruleset.crew[c].name for c in s.crew_line]})

    @staticmethod
    def _mutiny(s: PiratesState, p: int) -> None:
        s.bloody[p] = True
        side = s.captain_side[p] = 1 - s.captain_side[p]
        if s.logging:
            captain = s.ruleset.captains[s.captain[p]]
            s.say(f"{s.name(p)} mutinies: {captain.name} flips to side {'AB'[side]} (trigger "
                  f"{data.ORDERS[captain.trigger[side]]}, dice "
                  f"{' '.join(map(str, captain.dice[side]))}); the legend token turns bloody",
                  kind="mutiny", data={"player": p, "side": "AB"[side]})

    @staticmethod
    def _take(s: PiratesState, p: int, take: TakeCrew) -> None:
        crew = s.ruleset.crew
        who = s.name(p)
        card = s.crew_line[take.slot]
        if take.discard >= 0:
            gone = s.crew[p].pop(take.discard)
            s.crew_deck.insert(0, gone)
            s.crew_bottom_seen += 1
            # a card that leaves the crew takes its pending bonus actions with it
            s.bonus_left = [bonus for bonus in s.bonus_left if bonus.card != gone]
            if s.logging:
                s.say(f"{who} discards {crew[gone].name} to the bottom of the crew deck",
                      kind="crew", data={"player": p, "discard": crew[gone].name})
        s.crew[p].append(card)
        s.crew_line[take.slot] = s._crew_draw()
        if s.logging:
            s.say(f"{who} takes {crew[card].name}; the line is now {s._line_text()}",
                  kind="crew", data={"player": p, "take": crew[card].name})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Crew up: take one of the three crew cards (at most four in your crew), "
                "refresh the line for 1 gold first, mutiny once a game, or stop")


class _MoveDeckhands(PiratesRule):
    """Deckhands moved one at a time (at most as many moves as Deckhands) to Rigging,
    Cannons or Extort. ``data``: ``DeckhandMoves``, the moves made."""

    hide = False

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        p = player
        out: list[Act] = []
        if step.data.made < s.ruleset.deckhands:
            on = s.assignments[p]
            sources = [(REP, "repair deckhand")] if on[REP] else []
            sources += [(WHEEL_DECKHAND + space, f"wheel deckhand on {space}")
                        for space in range(6) if s.wheel_deckhands[p][space]]
            if self.hide or s.options.reassign == "all":
                sources += [(j, f"{ASSIGN[j]} deckhand") for j in range(3) if on[j]]
            verb = "move" if self.hide else "reassign"
            out = [MoveDeckhand(source, j, text=f"{verb}: {what} to {ASSIGN[j]}")
                   for source, what in sources for j in range(3) if j != source]
        out.append(Done(text="done moving deckhands" if self.hide else "done reassigning"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        if not isinstance(action, MoveDeckhand):
            self.done(s, p)
            return
        to = action.to
        where = _take_deckhand(s, p, action.source)
        s.assignments[p][to] += 1
        if self.hide and to == EXT:
            s.placed_on_extort += 1
        if s.logging:
            s.say(f"{s.name(p)} reassigns a deckhand from {where} to {ASSIGN[to]}",
                  kind="deckhand", data={"player": p, "from": where, "to": ASSIGN[to]})
        s.push(step_of(step.kind, p, step.data.made + 1))

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
        on = s.assignments[p]
        how = s.options.hideout_extort
        gold = (s.placed_on_extort if how == "placed" else on[EXT] if how == "all"
                else max(0, on[EXT] - s.extort_before_hide_out))
        s.add_gold(p, gold)
        if s.logging:
            extra = f"; extort pays {gold} gold" if gold else ""
            s.say(f"{s.name(p)} hides out with deckhands: rigging {on[RIG]}, cannons "
                  f"{on[CAN]}, extort {on[EXT]}, repair {on[REP]}{extra}",
                  kind="hide_out", data={"player": p, "gold": gold})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return ("Hide out: move Deckhands one at a time onto Rigging, Cannons or Extort "
                "(each placed on Extort pays 1 gold), or stop")


# ---------------------------------------------------------------- battles (R7.6-R7.11, R6.4)
class Roll(PiratesRule):
    """Automatic: a side of the battle rolls its dice, then may improve them and fire."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data.player
        battle = s.battle
        assert battle is not None
        dice = tuple(s.rng.randint(1, 6) for _ in range(s.dice_count(p)))
        s.battle = battle.with_dice(p, dice)
        if s.logging:
            s.say(f"{s.name(p)} rolls {' '.join(map(str, dice))}",
                  kind="roll", data={"player": p, "dice": list(dice)})
        s.push(step_of(T_FIRE, p))


class Fire(PiratesRule):
    """Spend sure-fire tokens (set a die) or rerolls (the attacker), then fire."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        p = player
        battle = s.battle
        assert battle is not None
        dice = battle.dice_of(p)
        out: list[Act] = []
        if s.surefire[p]:
            symbols = s.symbols(p)
            for i, rolled in enumerate(dice):
                for face in range(1, 7):
                    if symbols[face] > symbols[rolled]:
                        out.append(SureFire(i, face, text=f"sure-fire: die {i + 1} to {face}"))
        if p == battle.attacker and s.rerolls and battle.kind != B_NAVY:
            for chosen in dice_subsets(len(dice)):
                which = "+".join(str(i + 1) for i in dice_chosen(chosen, len(dice)))
                out.append(Reroll(chosen, text=f"reroll dice {which}"))
        out.append(FireDice(text=f"fire with {' '.join(map(str, dice))}"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        p = player
        battle = s.battle
        assert battle is not None
        dice = list(battle.dice_of(p))
        if isinstance(action, SureFire):
            s.surefire[p] -= 1
            s.surefire_supply += 1
            i, face = action.die, action.face
            old = dice[i]
            dice[i] = face
            s.battle = battle.with_dice(p, tuple(dice))
            if s.logging:
                s.say(f"{s.name(p)} spends a sure-fire: die {i + 1} {old} -> {face}",
                      kind="surefire", data={"player": p, "die": i + 1, "face": face})
            s.push(step)
        elif isinstance(action, Reroll):
            s.rerolls -= 1
            for i in dice_chosen(action.mask, len(dice)):
                dice[i] = s.rng.randint(1, 6)
            s.battle = battle.with_dice(p, tuple(dice))
            if s.logging:
                s.say(f"{s.name(p)} rerolls: {' '.join(map(str, dice))}",
                      kind="roll", data={"player": p, "dice": list(dice), "reroll": True})
            s.push(step)
        else:
            damage = s.damage(p, dice)
            s.battle = battle.fired(p, damage)
            if s.logging:
                symbols = s.symbols(p)
                hits = sum(symbols[face] for face in dice)
                s.say(f"{s.name(p)} fires {' '.join(map(str, dice))}: {hits} from dice + "
                      f"{s.assignments[p][CAN]} cannons + {s.auto_hits(p)} auto-hits = "
                      f"{damage} damage",
                      kind="fire", data={"player": p, "dice": list(dice), "damage": damage})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Battle: spend sure-fire tokens or rerolls on your dice, then fire"


class Resolve(PiratesRule):
    """Automatic: both sides have fired; the battle's outcome (R7.10, R7.11, the Navy R6)."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        battle = s.battle
        assert battle is not None
        s.battle = None
        if battle.kind == B_NAVY:
            self.navy(s, battle.attacker, battle.attacker_damage)
        elif battle.kind == B_MERCHANT:
            self.merchant(s, battle.attacker, battle.target, battle.attacker_damage)
        else:
            self.pirate(s, battle.attacker, battle.target, battle.attacker_damage,
                        battle.defender_damage)

    @staticmethod
    def navy(s: PiratesState, attacker: int, damage: int) -> None:
        ruleset = s.ruleset
        log = s.logging
        who = s.name(attacker)
        navy = (ruleset.navy_base_damage
                + s.legend_level[attacker] // ruleset.navy_level_divisor)
        if log:
            s.say(f"the navy deals {navy}, {who} deals {damage}",
                  kind="battle",
                  data={"attacker": "navy", "target": attacker, "navy": navy, "damage": damage})
        if damage == navy:
            s.gain_surefire(attacker)
            if log:
                s.say(f"a tie: {who} gains a sure-fire token",
                      kind="battle", data={"result": "tie", "player": attacker})
        elif damage < navy:
            if log:
                s.say(f"{who} loses to the navy: jostled"
                      + (" and loses a booty cube" if s.booty[attacker] else ""),
                      kind="battle", data={"result": "lost", "player": attacker})
            if s.booty[attacker]:
                s.push(step_of(T_LOSE, attacker))
            s._jostle_after_loss(attacker)
        elif log:
            s.say(f"{who} fends off the navy",
                  kind="battle", data={"result": "won", "player": attacker})

    @staticmethod
    def merchant(s: PiratesState, attacker: int, merchant: int, damage: int) -> None:
        log = s.logging
        who = s.name(attacker)
        name = "ab"[merchant]
        value = s.merchant_card[merchant]
        if log:
            s.say(f"merchant {name} (card {value}) deals {value}, {who} deals {damage}",
                  kind="battle",
                  data={"player": attacker, "merchant": name, "card": value, "damage": damage})
        if damage > value:
            if log:
                s.say(f"{who} sinks merchant {name} and gains {value} gold",
                      kind="battle", data={"result": "won", "player": attacker, "gold": value})
            if s.ruleset.merchant_legend[value] >= s.n:
                s.push(step_of(T_LEGEND, attacker))
            s.push(step_of(T_MCUBE, attacker, merchant))
            cube = s.merchant_cube[merchant]
            s.merchant_cube[merchant] = -1
            s.add_gold(attacker, value)
            if value != 8 and s.merchant_deck:
                s.merchant_cards_removed += 1
                s.merchant_card[merchant] = s.merchant_deck.pop()
                if log:
                    s.say(f"merchant card {value} leaves the game; "
                          f"{s.merchant_card[merchant]} is revealed",
                          kind="merchant",
                          data={"card": s.merchant_card[merchant], "removed": value})
            here = s.ship_at[attacker]
            to_first, to_second = dist(here, s.ports[0]), dist(here, s.ports[1])
            if to_first == to_second:
                s.push(step_of(T_PORT, attacker, merchant))
            else:
                s._merchant_to_port(merchant, 0 if to_first > to_second else 1)
            s._load(attacker, cube)
        elif damage == value:
            s.gain_surefire(attacker)
            if log:
                s.say(f"a tie: {who} gains a sure-fire token; the merchant sails on",
                      kind="battle", data={"result": "tie", "player": attacker})
        else:
            surefire = s.options.merchant_loss_surefire
            if surefire:
                s.gain_surefire(attacker)
            if log:
                s.say(f"{who} loses: jostled" + (", and gains a sure-fire token"
                                                 if surefire else ""),
                      kind="battle", data={"result": "lost", "player": attacker})
            s._jostle_after_loss(attacker)

    @staticmethod
    def pirate(s: PiratesState, attacker: int, defender: int, attack: int,
               defence: int) -> None:
        log = s.logging
        if log:
            s.say(f"{s.name(attacker)} deals {attack}, {s.name(defender)} deals {defence}",
                  kind="battle",
                  data={"player": attacker, "target": defender, "damage": attack,
                        "defender_damage": defence})
        if attack == defence:
            s.gain_surefire(attacker)
            s.gain_surefire(defender)
            if log:
                s.say("a tie: both gain a sure-fire token",
                      kind="battle", data={"result": "tie", "players": [attacker, defender]})
            return
        winner, loser = (attacker, defender) if attack > defence else (defender, attacker)
        if log:
            s.say(f"{s.name(winner)} wins the battle; {s.name(loser)} is jostled and "
                  "gains a sure-fire token",
                  kind="battle", data={"result": "won", "winner": winner, "loser": loser})
        s.push(step_of(T_LEGEND, winner))
        s.gain_surefire(loser)
        s._jostle_after_loss(loser)


class Port(PiratesRule):
    """A sunk Merchant equally far from both ports: the attacker chooses its port.
    ``data``: ``SunkMerchant``."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        ports = state.ports
        return [ChoosePort(i, text=f"merchant to port {cell(ports[i])}") for i in (0, 1)]

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        state._merchant_to_port(step.data.merchant, action.port)

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return (f"Merchant {'ab'[step.data.merchant]} is sunk and both ports are equally "
                "far: choose the port it returns to")


class MerchantCube(PiratesRule):
    """Automatic: a sunk Merchant loads a new cube from the bag. ``data``:
    ``SunkMerchant``."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        merchant = step.data.merchant
        cube = s.merchant_cube[merchant] = s._draw()
        if s.logging and cube >= 0:
            s.say(f"merchant {'ab'[merchant]} loads a {s.ruleset.booty[cube]} cube",
                  kind="merchant",
                  data={"merchant": "ab"[merchant], "cube": s.ruleset.booty[cube]})


# ---------------------------------------------------------------- bonus actions (R8)
class BonusSetup(PiratesRule):
    """Automatic: after the Order, the Captain's and the crew's bonus actions for it."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data.player
        order = s.order_of(p)
        ruleset = s.ruleset
        captain = ruleset.captains[s.captain[p]]
        s.bonus_left = [PendingBonus(c, bonus) for c in s.crew[p]
                        if ruleset.crew[c].trigger == order
                        for bonus in ruleset.crew[c].bonus if bonus != data.REROLL]
        if s.bonus_left:
            s.push(step_of(T_CREWBONUS, p))
        if captain.trigger[s.captain_side[p]] == order:
            s.push(step_of(T_CAPT2, p), step_of(T_CAPBURY, p))


class _Bonus(PiratesRule):
    """A bonus action: carried out (it triggers nothing further) or skipped."""

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Bonus):
            state._carry_out(player, action.bonus, action.choice, action.source)


class CaptainBury(_Bonus):
    """The Captain's first bonus when the Order is its trigger: Bury."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        out: list[Act] = [Skip(text="skip bury")]
        if state.can_bury(player):
            out.insert(0, Bonus(data.BURY, text=_bury_text(state, player, "captain")))
        return out

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Your Captain's first bonus: bury a treasure here, or skip it"


class CaptainBonus(_Bonus):
    """The Captain's second bonus: Attack (side A) or Plunder (side B)."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        second = data.ATTACK if state.captain_side[player] == 0 else data.PLUNDER
        out = bonus_ways(state, player, second, BY_CAPTAIN, "captain")
        out.append(Skip(text=f"skip captain's {data.ORDERS[second]}"))
        return out

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Your Captain's second bonus action: carry it out, or skip it"


class CrewBonus(_Bonus):
    """The crew's bonus actions for this Order, one at a time, in any order."""

    def legal(self, state: PiratesState, step: Step, player: int) -> Sequence[Act]:
        s = state
        out: list[Act] = []
        offered = set()
        for pending in s.bonus_left:
            if pending not in offered and pending.card in s.crew[player]:
                offered.add(pending)
                out += bonus_ways(s, player, pending.bonus, pending.card,
                                  s.ruleset.crew[pending.card].name.lower())
        out.append(Skip(text="end bonus actions"))
        return out

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        if isinstance(action, Bonus):
            state.bonus_left.remove(PendingBonus(action.source, action.bonus))
            state.push(step)
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
        state._gain_legend(step.data.player)


class NewDeckhand(_PlaceDeckhand):
    """The Deckhand a Legend level brings (R9)."""

    what = "new"

    def apply(self, state: PiratesState, step: Step, player: int, action: Any) -> None:
        s = state
        assignment = action.assignment
        s.deckhand_on_legend_mat[player] -= 1
        s.assignments[player][assignment] += 1
        if s.logging:
            s.say(f"{s.name(player)} puts the new deckhand on {ASSIGN[assignment]}",
                  kind="deckhand",
                  data={"player": player, "from": "legend", "to": ASSIGN[assignment]})

    def prompt(self, state: PiratesState, step: Step, player: int) -> str:
        return "Place the Deckhand your Legend level brings on a Deck Assignment"


# ---------------------------------------------------------------- the end (R11)
class NextTurn(PiratesRule):
    """Automatic: the next player's turn, or the end of the game (R11)."""

    def run(self, state: PiratesState, step: Step) -> None:
        s = state
        p = step.data.player
        s.turn += 1
        last_seat = p == s.pirate_count - 1
        if s.end_triggered and last_seat:
            s._finish("a third treasure is buried and everyone has had equal turns")
        elif last_seat and s.turn >= s.options.max_rounds * s.pirate_count:
            s._finish(f"the {s.options.max_rounds}-round safety limit is reached")
        else:
            s._start_turn((p + 1) % s.pirate_count)


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
