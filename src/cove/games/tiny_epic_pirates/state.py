"""The rules of Tiny Epic Pirates: a turn is a stack of small decisions.

The flow runs on the core's decision stack (:mod:`cove.core.decisions`): a step is made by
``board.step_of(kind, player, x)``; the top step is the pending decision (or an automatic
step, run by ``settle``). A decision with exactly one legal action is taken automatically,
so the players only see real choices. Rule numbers (R...) refer to RULES.md.

Board: cards 0..15, row-major, written a1..d4 (row letter, column digit).
Assignments: 0 Rigging, 1 Cannons, 2 Extort, 3 Repair. Wheel spaces 0..5 (0 = Hide Out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from cove.core.decisions import Step, StepRule
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.actions import (
    A_ASSIGN,
    A_BONUS,
    A_COVE,
    A_DO,
    A_DONE,
    A_FIRE,
    A_JOSTLE,
    A_KEEP,
    A_LOSE,
    A_MOVE,
    A_MUTINY,
    A_NAVY,
    A_NAVY_SETUP,
    A_PAY,
    A_PORT,
    A_REFRESH,
    A_REROLL,
    A_SAIL,
    A_SIDE,
    A_SKIP,
    A_STOP,
    A_SUREFIRE,
    A_TAKE,
    A_TOKEN,
    A_WHEEL,
    Act,
)
from cove.games.tiny_epic_pirates.board import (
    ASSIGN,
    AUTOMATIC,
    B_MERCHANT,
    B_NAVY,
    B_PIRATE,
    CAN,
    CORNERS,
    DECISIONS,
    DIRS,
    EXT,
    NEIGH,
    OPPOSITE,
    REP,
    RIG,
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
    cell,
    dist,
    owner,
    step_of,
)
from cove.games.tiny_epic_pirates.observe import observation
from cove.games.tiny_epic_pirates.options import PiratesOptions
from cove.games.tiny_epic_pirates.solo import choose
from cove.games.tiny_epic_pirates.steps import RULES
from cove.games.tiny_epic_pirates.view import ask, build_view, prompt


class _Task(StepRule):
    """Transitional: every kind of step dispatched to the state's own functions."""

    def legal(self, state: State, step: Step, player: int) -> Sequence[Act]:
        return _pirates(state)._actions(step)

    def apply(self, state: State, step: Step, player: int, action: Any) -> None:
        _pirates(state)._do(step, action)

    def run(self, state: State, step: Step) -> None:
        _pirates(state)._auto(step)

    def prompt(self, state: State, step: Step, player: int) -> str:
        p, x = owner(step)
        return prompt(_pirates(state), step.kind, p, x)


class PiratesState(State):
    DERIVED: ClassVar[tuple[str, ...]] = ("R",)  # the ruleset, loaded from the options
    STEPS: ClassVar[Mapping[str, StepRule]] = {
        **{k: _Task() for k in DECISIONS + AUTOMATIC}, **RULES}

    __slots__ = (
        "R",
        "assign",
        "bag",
        "battle",
        "bloody",
        "bonus_left",
        "booty",
        "box_tokens",
        "cap",
        "captain",
        "crew",
        "crew_deck",
        "crew_known",
        "crew_line",
        "crossed",
        "dh_reserve",
        "end_trigger",
        "gold",
        "hidden",
        "hide_ext",
        "hide_placed",
        "level",
        "line_ext",
        "m_card",
        "m_cube",
        "m_deck",
        "m_face",
        "m_pos",
        "m_removed",
        "maps",
        "market",
        "moves_used",
        "navy",
        "np",
        "over",
        "ports",
        "pos",
        "refreshed",
        "rerolls",
        "sail_bonus",
        "sail_tokens",
        "side",
        "solo",
        "sure",
        "sure_supply",
        "tokens",
        "treasures",
        "turn",
        "wheel",
        "wheel_dh",
    )

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        opts = self.options
        assert isinstance(opts, PiratesOptions)
        R = self.R = D.ruleset(opts.ruleset)
        rng = self.rng
        self.solo = -1 if self.n > 1 else 1        # seat of the solo pirate (automa)
        np = self.np = self.n if self.n > 1 else 2
        # the sea [SEED]
        maps = list(range(D.MAP_CARDS))
        rng.shuffle(maps)
        self.maps = maps
        toks = list(range(D.SEARCH_TOKENS))
        rng.shuffle(toks)
        self.tokens = toks[: D.MAP_CARDS]
        self.box_tokens = toks[D.MAP_CARDS :]
        # booty: market gets one of each at random, the rest in the bag [SEED]
        market = list(range(D.BOOTY_TYPES))
        rng.shuffle(market)
        self.market = market                     # market[i] = type at value i + 2
        self.bag = [c - 1 for c in R.cubes]
        # ports on opposite corners, merchants on them facing each other [SEED]
        p0 = rng.choice(CORNERS)
        self.ports = (p0, OPPOSITE[p0])
        self.m_pos = [self.ports[0], self.ports[1]]
        self.m_face = [1, 0]                     # the port index each merchant heads for
        self.m_cube = [self._draw(), self._draw()]
        deck = list(R.merchants)                 # bottom .. top
        self.m_card = [deck.pop(), deck.pop()]
        self.m_deck = deck
        self.m_removed = 0
        # crew [SEED]
        cdeck = list(range(D.CREW_CARDS))
        rng.shuffle(cdeck)
        self.crew_line = [cdeck.pop(), cdeck.pop(), cdeck.pop()]
        self.crew_deck = cdeck                   # top is the end of the list
        self.crew_known = 0                      # cards at the bottom everyone has seen
        self.navy = -1
        # players [SEED]
        caps = list(range(D.CAPTAINS))
        rng.shuffle(caps)
        self.captain = caps[:np]
        self.side = [0] * np
        self.wheel = []
        for _ in range(np):
            w = [0, 1, 2, 3, 4]
            rng.shuffle(w)
            self.wheel.append([D.HIDE_OUT, *w])
        self.wheel_dh = [[0] * 6 for _ in range(np)]
        self.cap = [0] * np
        self.assign = [[1, 1, 1, 0] for _ in range(np)]
        self.dh_reserve = [1] * np
        self.level = [1] * np
        self.bloody = [False] * np
        self.gold = [R.start_gold] * np
        self.treasures: list[list[int]] = [[] for _ in range(np)]
        self.booty: list[list[int]] = [[] for _ in range(np)]
        self.crew: list[list[int]] = [[] for _ in range(np)]
        self.sure = [0] * np
        self.sure_supply = R.surefire_tokens
        self.sail_tokens: list[list[int]] = [[] for _ in range(np)]
        self.pos = [-1] * np
        self.hidden = [False] * np
        # turn
        self.turn = 0
        self.end_trigger = False
        self.over = False
        self.crossed = False
        self.line_ext = 0
        self.hide_ext = 0
        self.hide_placed = 0
        self.moves_used = 0
        self.sail_bonus = 0
        self.refreshed = False
        self.rerolls = 0
        self.bonus_left: list[tuple[int, int]] = []
        self.battle: list[Any] | None = None
        if self.logging:
            self.say(
                "the sea: "
                + ", ".join(f"{cell(i)} {R.maps[m].name}" for i, m in enumerate(maps))
            , kind="setup")
            self.say(f"ports at {cell(self.ports[0])} and {cell(self.ports[1])}; market "
                     + ", ".join(f"{R.booty[t]} {v + 2}" for v, t in enumerate(market)),
                     kind="setup")
            self.say("merchant cards " + " and ".join(str(v) for v in self.m_card)
                     + "; crew line " + self._line_text(), kind="setup")
        self.push(step_of(T_START, 0), *(step_of(T_SIDE, p) for p in reversed(range(np))),
                  *(step_of(T_COVE, p) for p in reversed(range(np))), step_of(T_NAVY_SETUP, 0))
        self.settle()

    # ------------------------------------------------------------------ helpers
    def name(self, p: int) -> str:
        return "the solo pirate" if p == self.solo else f"P{p + 1}"

    def _line_text(self) -> str:
        return ", ".join(self.R.crew[c].name for c in self.crew_line)

    def _draw(self) -> int:
        """Draw one cube from the bag at random; -1 if the bag is empty."""
        bag = self.bag
        total = sum(bag)
        if total == 0:
            return -1
        r = self.rng.below(total)
        for t, k in enumerate(bag):
            if r < k:
                bag[t] -= 1
                return t
            r -= k
        raise AssertionError("unreachable")

    def add_gold(self, p: int, k: int) -> None:
        self.gold[p] = max(0, min(self.R.gold_cap, self.gold[p] + k))

    def gain_sure(self, p: int, k: int = 1) -> None:
        if p == self.solo:          # the solo pirate takes Gold instead [SOURCED: Dz-Solo]
            self.add_gold(p, k)
            return
        k = min(k, self.sure_supply)
        self.sure[p] += k
        self.sure_supply -= k

    def symbols(self, p: int) -> list[int]:
        """How many of each die face (index 1..6) p's Captain and Crew show."""
        sym = [0] * 7
        for f in self.R.captains[self.captain[p]].dice[self.side[p]]:
            sym[f] += 1
        for c in self.crew[p]:
            for f in self.R.crew[c].dice:
                sym[f] += 1
        return sym

    def damage(self, p: int, dice: Sequence[int]) -> int:
        sym = self.symbols(p)
        auto = sum(self.R.crew[c].auto for c in self.crew[p])
        return sum(sym[f] for f in dice) + self.assign[p][CAN] + auto

    def dice_count(self, p: int) -> int:
        if p == self.solo:
            return self.R.solo_dice[len(self.treasures[p])]
        return self.R.legend[self.level[p] - 1].dice

    def sail_total(self, p: int) -> int:
        return self.R.legend[self.level[p] - 1].sail + self.assign[p][RIG] + self.sail_bonus

    def card(self, i: int) -> D.MapCard:
        return self.R.maps[self.maps[i]]

    def order_of(self, p: int) -> int:
        return self.wheel[p][self.cap[p]]

    def wheel_hands(self, p: int) -> int:
        return sum(self.wheel_dh[p])

    def all_in_repair(self, p: int) -> bool:
        a = self.assign[p]
        return a[RIG] + a[CAN] + a[EXT] == 0 and self.wheel_hands(p) == 0

    def cove_free(self, i: int, p: int) -> bool:
        """A Cove card no other Pirate Ship occupies [SOURCED: Dz-Hide] (option
        ``cove_blocked_by=hidden``: only a ship hidden there blocks it)."""
        assert isinstance(self.options, PiratesOptions)
        only_hidden = self.options.cove_blocked_by == "hidden"
        return self.card(i).kind == D.COVE and not any(
            self.pos[q] == i and (self.hidden[q] or not only_hidden)
            for q in range(self.np) if q != p)

    def can_bury(self, p: int) -> bool:
        t = len(self.treasures[p])
        if t >= D.TREASURES:
            return False
        R = self.R
        here = self.pos[p]
        return (self.gold[p] >= R.treasure_cost[t] and self.level[p] >= R.treasure_level[t]
                and self.card(here).kind != D.STORM and here not in self.treasures[p])

    def targets(self, p: int) -> list[tuple[int, int]]:
        """Attack targets on p's card: (B_MERCHANT, m) and (B_PIRATE, q) [SOURCED: Dz-Attack]."""
        here = self.pos[p]
        out = [(B_MERCHANT, m) for m in (0, 1) if self.m_pos[m] == here]
        out += [(B_PIRATE, q) for q in range(self.np)
                if q != p and self.pos[q] == here and not self.hidden[q]]
        return out

    def target_text(self, t: tuple[int, int]) -> str:
        return f"merchant {'ab'[t[1]]}" if t[0] == B_MERCHANT else self.name(t[1]).lower()

    def can_plunder(self, p: int) -> bool:
        return self.card(self.pos[p]).kind == D.SETTLEMENT and sum(self.bag) > 0

    def trade_type(self, p: int) -> int:
        c = self.card(self.pos[p])
        return c.booty if c.kind == D.MARKET and c.booty in self.booty[p] else -1

    def can_search(self, p: int) -> bool:
        return self.tokens[self.pos[p]] >= 0

    def turn_player(self) -> int:
        return self.turn % self.np

    # ------------------------------------------------------------------ contract
    def to_move(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return self._steps[-1].players

    @property
    def is_over(self) -> bool:
        return self.over

    def _ask(self, player: int | None) -> dict[str, Any]:
        return ask(self, player)

    def _observation(self, player: int) -> list[float]:
        return observation(self, player)

    def settle(self) -> None:
        """Run automatic steps and single-choice decisions until a real choice is pending.

        The core's ``settle`` with two differences: a forced choice is not logged (the
        log reads as it always has), and the solo pirate's decisions are taken by its
        fixed rules (solo.py). The legal list it computes is left in the core's cache."""
        rules = self.STEPS
        while not self.over:
            top = self._steps[-1]
            rule = rules[top.kind]
            if not top.players:
                self._steps = self._steps[:-1]
                rule.run(self, top)
                continue
            p = top.players[0]
            acts = rule.legal(self, top, p)
            if len(acts) == 1 or p == self.solo:
                a = acts[0] if len(acts) == 1 else choose(self, top, acts)
                self._steps = self._steps[:-1]
                rule.apply(self, top, p, a)
                continue
            self._legal = (p, tuple(acts))
            return

    # ------------------------------------------------------------------ legal actions
    def _actions(self, task: Step) -> list[Act]:
        kind = task.kind
        p, x = owner(task)
        R = self.R
        if kind == T_NAVY_SETUP:
            return [Act(A_NAVY_SETUP, c, text=f"navy to {cell(c)}")
                    for c in CORNERS if c not in self.ports]
        if kind == T_COVE:
            return [Act(A_COVE, i, text=f"start in cove {cell(i)}")
                    for i in range(16) if self.cove_free(i, p) and i not in self.pos]
        if kind == T_SIDE:
            return [Act(A_SIDE, s, text=f"captain side {'ab'[s]} (bury then "
                        f"{'attack' if s == 0 else 'plunder'})") for s in (0, 1)]
        if kind == T_WHEEL:
            return self._wheel_actions(p)
        if kind == T_PAY:
            a = self.assign[p]
            return [Act(A_PAY, j, text=f"skip with a deckhand from {ASSIGN[j]}")
                    for j in range(4) if a[j]]
        if kind in (T_RELEASE, T_NEWHAND):
            what = "released" if kind == T_RELEASE else "new"
            # [SEED] "to any Deck Assignment" (Repair is one of the 4); option
            # place_in_repair=false keeps them to Rigging, Cannons, Extort
            assert isinstance(self.options, PiratesOptions)
            top = 4 if p == self.solo or self.options.place_in_repair else 3
            return [Act(A_ASSIGN, j, text=f"{what} deckhand to {ASSIGN[j]}") for j in range(top)]
        if kind == T_SAIL:
            return self._sail_actions(p)
        if kind == T_JOSTLE:
            a = self.assign[p]
            out = [Act(A_JOSTLE, j, text=f"jostle: {ASSIGN[j]} deckhand to repair")
                   for j in range(3) if a[j]]
            if not out:
                out = [Act(A_JOSTLE, 10 + s, text=f"jostle: wheel deckhand on {s} to repair")
                       for s in range(6) if self.wheel_dh[p][s]]
            return out or [Act(A_SKIP, text="no deckhand to jostle")]
        if kind == T_ORDER:
            return self._order_actions(p)
        if kind == T_KEEP:
            new = R.booty[x]
            out = [Act(A_KEEP, -1, text=f"discard the new {new}")]
            seen = set()
            for t in self.booty[p]:
                if t not in seen and t != x:
                    seen.add(t)
                    out.append(Act(A_KEEP, t, text=f"keep {new}, discard {R.booty[t]}"))
            return out
        if kind == T_CREW:
            return self._crew_actions(p, x)
        if kind == T_DIST:
            return self._move_actions(p, x, True)
        if kind == T_CAPBURY:
            out = [Act(A_SKIP, text="skip bury")]
            if self.can_bury(p):
                out.insert(0, Act(A_BONUS, D.BURY, c=-1, text=self._bury_text(p, "captain")))
            return out
        if kind == T_CAPT2:
            second = D.ATTACK if self.side[p] == 0 else D.PLUNDER
            out = self._bonus_options(p, second, -1, "captain")
            out.append(Act(A_SKIP, text=f"skip captain's {D.ORDERS[second]}"))
            return out
        if kind == T_CREWBONUS:
            out = []
            done = set()
            for cid, b in self.bonus_left:
                if (cid, b) not in done and cid in self.crew[p]:
                    done.add((cid, b))
                    out += self._bonus_options(p, b, cid, R.crew[cid].name.lower())
            out.append(Act(A_SKIP, text="end bonus actions"))
            return out
        if kind == T_FIRE:
            return self._fire_actions(p)
        if kind == T_PORT:
            return [Act(A_PORT, i, text=f"merchant to port {cell(self.ports[i])}") for i in (0, 1)]
        if kind == T_NAVY_MOVE:
            return [Act(A_NAVY, d, text=f"navy sails {DIRS[d][2]}")
                    for d in self._navy_dirs(p)] or [Act(A_SKIP, text="the navy stays")]
        if kind == T_REASSIGN:
            return self._move_actions(p, x, False)
        if kind == T_LOSE:
            return [Act(A_LOSE, t, text=f"lose {R.booty[t]}")
                    for t in sorted(set(self.booty[p]))] or [Act(A_SKIP, text="nothing to lose")]
        raise AssertionError(f"unknown task {task}")

    def _wheel_actions(self, p: int) -> list[Act]:
        cur = self.cap[p]
        have = sum(self.assign[p])
        wdh = self.wheel_dh[p]
        out = []
        cost = 0
        for d in range(1, 6):
            dest = (cur + d) % 6
            if cost > have:
                break
            o = D.ORDERS[self.wheel[p][dest]]
            extra = f", {cost} deckhand{'s' if cost != 1 else ''}" if cost else ""
            out.append(Act(A_WHEEL, dest, text=f"captain to {dest} ({o}{extra})"))
            if dest != 0 and not wdh[dest]:
                cost += 1
        return out

    def _sail_actions(self, p: int) -> list[Act]:
        out = []
        here = self.pos[p]
        if self.moves_used < self.sail_total(p):
            blocked = self.all_in_repair(p)
            for d, nb in NEIGH[here]:
                c = self.card(nb)
                if blocked and c.kind == D.STORM:
                    continue
                out.append(Act(A_SAIL, d, text=f"sail {DIRS[d][2]} to {cell(nb)}"))
        seen = set()
        for amt in self.sail_tokens[p]:
            if amt not in seen:
                seen.add(amt)
                out.append(Act(A_TOKEN, amt, text=f"use sail token +{amt}"))
        out.append(Act(A_STOP, text="stop sailing"))
        return out

    def _order_actions(self, p: int) -> list[Act]:
        o = self.order_of(p)
        out = self._bonus_options(p, o, -2, "")
        out.append(Act(A_SKIP, text=f"skip {D.ORDERS[o]}"))
        return out

    def _bonus_options(self, p: int, b: int, cid: int, who: str) -> list[Act]:
        """Ways to carry out order/bonus ``b`` now. cid: -2 the order, -1 captain, else crew."""
        R = self.R
        suffix = f" ({who})" if who else ""
        kind = A_DO if cid == -2 else A_BONUS
        pre = "" if cid == -2 else "bonus "
        if b == D.PLUNDER:
            if self.can_plunder(p):
                k = self.card(self.pos[p]).plunder
                return [Act(kind, b, c=cid, text=f"{pre}plunder {k}{suffix}")]
        elif b == D.TRADE:
            t = self.trade_type(p)
            if t >= 0:
                k = min(3, self.booty[p].count(t))
                return [Act(kind, b, n, cid, text=f"{pre}trade {n} {R.booty[t]}{suffix}")
                        for n in range(1, k + 1)]
        elif b == D.CREW_UP:
            return [Act(kind, b, c=cid, text=f"{pre}crew up{suffix}")]
        elif b == D.SEARCH:
            if self.can_search(p):
                return [Act(kind, b, c=cid, text=f"{pre}search{suffix}")]
        elif b == D.ATTACK:
            return [Act(kind, b, i, cid, text=f"{pre}attack {self.target_text(t)}{suffix}")
                    for i, t in enumerate(self.targets(p))]
        elif b == D.HIDE_OUT:
            if self.cove_free(self.pos[p], p):
                return [Act(kind, b, c=cid, text=f"hide out in the cove at {cell(self.pos[p])}")]
        elif b == D.BURY:
            if self.can_bury(p):
                return [Act(kind, b, c=cid, text=self._bury_text(p, who))]
        elif b == D.REASSIGN:
            return [Act(kind, b, c=cid, text=f"bonus reassign{suffix}")]
        elif b == D.SUREFIRE:
            return [Act(kind, b, c=cid, text=f"bonus sure-fire{suffix}")]
        elif b == D.GOLD:
            return [Act(kind, b, c=cid, text=f"bonus gold{suffix}")]
        return []

    def _bury_text(self, p: int, who: str) -> str:
        cost = self.R.treasure_cost[len(self.treasures[p])]
        return f"bury treasure at {cell(self.pos[p])} for {cost} gold ({who})"

    def _crew_actions(self, p: int, taken: int) -> list[Act]:
        R = self.R
        out = []
        if not taken:
            if not self.refreshed and self.gold[p] >= 1:
                out.append(Act(A_REFRESH, text="refresh the crew line for 1 gold"))
            for i, c in enumerate(self.crew_line):
                nm = R.crew[c].name.lower()
                if len(self.crew[p]) < 4:
                    out.append(Act(A_TAKE, i, -1, text=f"take {nm}"))
                else:
                    for j, d in enumerate(self.crew[p]):
                        out.append(Act(A_TAKE, i, j, text=f"take {nm}, discard "
                                       f"{R.crew[d].name.lower()}"))
        if not self.bloody[p]:
            out.append(Act(A_MUTINY, text="mutiny (flip the captain card)"))
        out.append(Act(A_DONE, text="done crewing"))
        return out

    def _move_actions(self, p: int, moved: int, hide: bool) -> list[Act]:
        """Deckhands moved one at a time (at most as many moves as Deckhands) to Rigging,
        Cannons or Extort. Hide Out [SOURCED: Dz-Hide]: any number, from anywhere on the
        Helm Mat (Repair, the wheel, the other Assignments). Reassign [DESIGN]: from Repair or
        a wheel space (option ``reassign=all``: also from Rigging, Cannons or Extort)."""
        out = []
        if moved < self.R.deckhands:
            a = self.assign[p]
            srcs = [(REP, "repair deckhand")] if a[REP] else []
            srcs += [(10 + s, f"wheel deckhand on {s}") for s in range(6) if self.wheel_dh[p][s]]
            assert isinstance(self.options, PiratesOptions)
            if hide or self.options.reassign == "all":
                srcs += [(j, f"{ASSIGN[j]} deckhand") for j in range(3) if a[j]]
            verb = "move" if hide else "reassign"
            out = [Act(A_MOVE, src, j, text=f"{verb}: {what} to {ASSIGN[j]}")
                   for src, what in srcs for j in range(3) if j != src]
        out.append(Act(A_DONE, text="done moving deckhands" if hide else "done reassigning"))
        return out

    def _fire_actions(self, p: int) -> list[Act]:
        b = self.battle
        assert b is not None
        dice = b[3] if p == b[0] else b[4]
        out = []
        if self.sure[p]:
            sym = self.symbols(p)
            for i, f in enumerate(dice):
                for g in range(1, 7):
                    if sym[g] > sym[f]:
                        out.append(Act(A_SUREFIRE, i, g, text=f"sure-fire: die {i + 1} to {g}"))
        if p == b[0] and self.rerolls and b[1] != B_NAVY:
            for mask in range(1, 1 << len(dice)):
                ds = "+".join(str(i + 1) for i in range(len(dice)) if mask >> i & 1)
                out.append(Act(A_REROLL, mask, text=f"reroll dice {ds}"))
        out.append(Act(A_FIRE, text=f"fire with {' '.join(map(str, dice))}"))
        return out

    def _navy_dirs(self, p: int) -> list[int]:
        here, goal = self.navy, self.pos[p]
        d0 = dist(here, goal)
        return [d for d, nb in NEIGH[here] if dist(nb, goal) < d0]

    # ------------------------------------------------------------------ doing
    def _do(self, task: Step, act: Act) -> None:
        kind = task.kind
        p, x = owner(task)
        R = self.R
        k = act.kind
        log = self.logging
        if kind == T_NAVY_SETUP:
            self.navy = act.a
            if log:
                self.say(f"{self.name(p)} puts the navy at {cell(act.a)}",
                         kind="navy", data={"cell": cell(act.a)})
        elif kind == T_COVE:
            self.pos[p] = act.a
            self.hidden[p] = True
            if log:
                self.say(f"{self.name(p)} starts hidden in the cove at {cell(act.a)}",
                         kind="cove", data={"player": p, "cell": cell(act.a)})
        elif kind == T_SIDE:
            self.side[p] = act.a
            if log:
                c = R.captains[self.captain[p]]
                self.say(f"{self.name(p)} commands with {c.name}, side {'AB'[act.a]} "
                         f"(trigger {D.ORDERS[c.trigger[act.a]]}, dice "
                         f"{' '.join(map(str, c.dice[act.a]))})",
                         kind="captain_side", data={"player": p, "side": "AB"[act.a]})
        elif kind == T_WHEEL:
            self._move_captain(p, act.a)
        elif kind == T_PAY:
            self.assign[p][act.a] -= 1
            self.wheel_dh[p][x] = 1
            if act.a == EXT and x > self.cap[p]:
                self.line_ext -= 1               # left Extort before the line
            if log:
                self.say(f"{self.name(p)} skips space {x} with a deckhand from {ASSIGN[act.a]}",
                         kind="deckhand",
                         data={"player": p, "from": ASSIGN[act.a], "to": f"wheel {x}"})
        elif kind == T_RELEASE:
            self.wheel_dh[p][x] = 0
            self.assign[p][act.a] += 1
            if act.a == EXT and x > self.cap[p]:
                self.line_ext += 1               # on Extort in time for the line
            if log:
                self.say(f"{self.name(p)} moves the deckhand from space {x} to {ASSIGN[act.a]}",
                         kind="deckhand",
                         data={"player": p, "from": f"wheel {x}", "to": ASSIGN[act.a]})
        elif kind == T_NEWHAND:
            self.dh_reserve[p] -= 1
            self.assign[p][act.a] += 1
            if log:
                self.say(f"{self.name(p)} puts the new deckhand on {ASSIGN[act.a]}",
                         kind="deckhand", data={"player": p, "from": "legend", "to": ASSIGN[act.a]})
        elif kind == T_SAIL:
            self._sail(p, act)
        elif kind == T_JOSTLE:
            if k == A_JOSTLE:
                if act.a >= 10:
                    self.wheel_dh[p][act.a - 10] = 0
                    where = f"wheel space {act.a - 10}"
                else:
                    self.assign[p][act.a] -= 1
                    where = ASSIGN[act.a]
                self.assign[p][REP] += 1
                if log:
                    self.say(f"{self.name(p)} is jostled: a deckhand goes from {where} to repair",
                             kind="jostle", data={"player": p, "from": where})
        elif kind == T_ORDER:
            if k == A_SKIP:
                if log:
                    self.say(f"{self.name(p)} skips the {D.ORDERS[self.order_of(p)]} order",
                             kind="skip", data={"player": p, "order": D.ORDERS[self.order_of(p)]})
            else:
                self._carry_out(p, act, True)
        elif kind == T_KEEP:
            if act.a >= 0:
                self.booty[p].remove(act.a)
                self.booty[p].append(x)
                self.bag[act.a] += 1
                if log:
                    self.say(f"{self.name(p)} loads {R.booty[x]} and throws {R.booty[act.a]} "
                             "back in the bag",
                             kind="cube",
                             data={"player": p, "kept": R.booty[x], "returned": R.booty[act.a]})
            else:
                self.bag[x] += 1
                if log:
                    self.say(f"{self.name(p)} throws the new {R.booty[x]} back in the bag",
                             kind="cube", data={"player": p, "returned": R.booty[x]})
        elif kind == T_CREW:
            self._crew_do(p, x, act)
        elif kind == T_DIST and k == A_DONE:
            self._hide_out_gold(p)
        elif kind in (T_CAPBURY, T_CAPT2, T_CREWBONUS):
            if kind == T_CREWBONUS and k == A_BONUS:
                self.bonus_left.remove((act.c, act.a))
                self.push(step_of(T_CREWBONUS, p))
            if k != A_SKIP:
                self._carry_out(p, act, False)
        elif kind == T_FIRE:
            self._fire_do(p, act)
        elif kind == T_PORT:
            self._merchant_to_port(x, act.a)
        elif kind == T_NAVY_MOVE:
            if k == A_SKIP:
                return
            self.navy = NEIGH[self.navy][[d for d, _ in NEIGH[self.navy]].index(act.a)][1]
            if log:
                self.say(f"the navy sails {DIRS[act.a][2]} to {cell(self.navy)}",
                         kind="navy", data={"cell": cell(self.navy)})
        elif kind in (T_DIST, T_REASSIGN):
            if k == A_MOVE:
                src = act.a
                if src >= 10:
                    self.wheel_dh[p][src - 10] = 0
                    where = f"wheel space {src - 10}"
                else:
                    self.assign[p][src] -= 1
                    where = ASSIGN[src]
                self.assign[p][act.b] += 1
                if kind == T_DIST and act.b == EXT:
                    self.hide_placed += 1
                if log:
                    self.say(f"{self.name(p)} reassigns a deckhand from {where} to "
                             f"{ASSIGN[act.b]}",
                             kind="deckhand",
                             data={"player": p, "from": where, "to": ASSIGN[act.b]})
                self.push(step_of(kind, p, x + 1))
        elif kind == T_LOSE:
            if k == A_LOSE:
                self.booty[p].remove(act.a)
                self.bag[act.a] += 1
                if log:
                    self.say(f"{self.name(p)} loses a {R.booty[act.a]} cube to the navy",
                             kind="cube", data={"player": p, "lost": R.booty[act.a]})
        else:
            raise AssertionError(f"unknown task {task}")

    def _auto(self, task: Step) -> None:
        kind = task.kind
        p, x = owner(task)
        R = self.R
        log = self.logging
        if kind == T_START:
            # starting cubes: player n takes the type on the (n+1)-gold space [SEED]
            for q in range(self.np):
                t = self.market[q]
                if self.bag[t] > 0:
                    self.bag[t] -= 1
                    self.booty[q].append(t)
                    if log:
                        self.say(f"{self.name(q)} starts with 1 {R.booty[t]}",
                                 kind="cube", data={"player": q, "loaded": R.booty[t]})
            self._start_turn(0)
        elif kind == T_WHEEL_DONE:
            o = self.order_of(p)
            self.rerolls = sum(1 for c in self.crew[p] if R.crew[c].trigger == o
                               for b in R.crew[c].bonus if b == D.REROLL)
            if self.crossed:
                # R6.1 [SEED]: step 1 is "choose the Order and assign Deckhands", so Extort
                # pays for the Deckhands on it once the move and its skips and releases are
                # done; option extort_timing=at_line counts them as the Captain passes 5 -> 0
                assert isinstance(self.options, PiratesOptions)
                at_line = self.options.extort_timing == "at_line"
                e = self.line_ext if at_line else self.assign[p][EXT]
                self.add_gold(p, e)
                if log:
                    self.say(f"{self.name(p)} crosses the ship line: extort gives {e} gold",
                             kind="gold", data={"player": p, "gold": e, "why": "extort"})
        elif kind == T_BONUS_SETUP:
            self._setup_bonuses(p)
        elif kind == T_ROLL:
            b = self.battle
            assert b is not None
            dice = [self.rng.randint(1, 6) for _ in range(self.dice_count(p))]
            b[3 if p == b[0] else 4] = dice
            if log:
                self.say(f"{self.name(p)} rolls {' '.join(map(str, dice))}",
                         kind="roll", data={"player": p, "dice": list(dice)})
            self.push(step_of(T_FIRE, p))
        elif kind == T_RESOLVE:
            self._resolve_battle()
        elif kind == T_MCUBE:
            self.m_cube[x] = self._draw()
            if log and self.m_cube[x] >= 0:
                self.say(f"merchant {'ab'[x]} loads a {R.booty[self.m_cube[x]]} cube",
                         kind="merchant",
                         data={"merchant": "ab"[x], "cube": R.booty[self.m_cube[x]]})
        elif kind == T_LEGEND:
            self._gain_legend(p)
        elif kind == T_END_TURN:
            self.push(step_of(T_NEXT, p))
            if self.crossed:
                self._merchants_sail()
                self.push(step_of(T_NAVY_FIGHT, p))
                self.push(step_of(T_NAVY_MOVE, p))
        elif kind == T_NAVY_FIGHT:
            if self.navy == self.pos[p] and not self.hidden[p]:
                if log:
                    self.say(f"the navy attacks {self.name(p)} at {cell(self.navy)}",
                             kind="battle", data={"attacker": "navy", "target": p})
                self.battle = [p, B_NAVY, -1, [], [], 0, 0]
                self.push(step_of(T_RESOLVE, p))
                self.push(step_of(T_ROLL, p))
        elif kind == T_NEXT:
            self._next_turn(p)
        else:
            raise AssertionError(f"unknown task {task}")

    # ------------------------------------------------------------------ the turn
    def _start_turn(self, p: int) -> None:
        self.crossed = False
        self.moves_used = 0
        self.sail_bonus = 0
        self.refreshed = False
        self.rerolls = 0
        self.bonus_left = []
        if self.logging:
            self.say(f"-- round {self.turn // self.np + 1}: {self.name(p)}'s turn --",
                     kind="turn", data={"round": self.turn // self.np + 1, "player": p})
        self.push(step_of(T_END_TURN, p), step_of(T_BONUS_SETUP, p), step_of(T_ORDER, p),
                  step_of(T_SAIL, p), step_of(T_WHEEL, p))

    def _next_turn(self, p: int) -> None:
        self.turn += 1
        assert isinstance(self.options, PiratesOptions)
        last_seat = p == self.np - 1
        if self.end_trigger and last_seat:
            self._finish("a third treasure is buried and everyone has had equal turns")
            return
        if last_seat and self.turn >= self.options.max_rounds * self.np:
            self._finish(f"the {self.options.max_rounds}-round safety limit is reached")
            return
        self._start_turn((p + 1) % self.np)

    def _finish(self, why: str) -> None:
        self.over = True
        self._steps = ()
        if self.logging:
            sc = self.scores()
            self.say(f"game over: {why}; treasures "
                     + ", ".join(f"{self.name(q)} {len(self.treasures[q])}"
                                 for q in range(self.np))
                     + f" (scores {sc})", kind="end", data={"why": why, "scores": sc})

    def _move_captain(self, p: int, dest: int) -> None:
        cur = self.cap[p]
        d = (dest - cur) % 6
        wdh = self.wheel_dh[p]
        pay = []
        release = []
        for k in range(1, d):
            s = (cur + k) % 6
            if wdh[s]:
                release.append(s)
            elif s != 0:
                pay.append(s)
        if wdh[dest]:
            release.append(dest)
        self.cap[p] = dest
        self.crossed = cur + d >= 6
        # Extort pays for the Deckhands on it when the Captain crosses the line (between
        # 5 and 0): pays and releases for spaces before it (s > cur) adjust this count
        self.line_ext = self.assign[p][EXT]
        if self.logging:
            self.say(f"{self.name(p)} moves the captain to {dest}: "
                     f"{D.ORDERS[self.wheel[p][dest]]}",
                     kind="captain",
                     data={"player": p, "space": dest, "order": D.ORDERS[self.wheel[p][dest]]})
        self.push(step_of(T_WHEEL_DONE, p))
        for s in reversed(release):
            self.push(step_of(T_RELEASE, p, s))
        for s in reversed(pay):
            self.push(step_of(T_PAY, p, s))

    def _sail(self, p: int, act: Act) -> None:
        if act.kind == A_STOP:
            if self.logging and self.moves_used:
                self.say(f"{self.name(p)} stops at {cell(self.pos[p])}",
                         kind="sail", data={"player": p, "stop": cell(self.pos[p])})
            return
        self.push(step_of(T_SAIL, p))
        if act.kind == A_TOKEN:
            self.sail_tokens[p].remove(act.a)
            self.sail_bonus += act.a
            if self.logging:
                self.say(f"{self.name(p)} spends a +{act.a} sail token",
                         kind="sail", data={"player": p, "token": act.a})
            return
        here = self.pos[p]
        nb = next(c for d, c in NEIGH[here] if d == act.a)
        self.pos[p] = nb
        self.hidden[p] = False
        self.moves_used += 1
        if self.logging:
            self.say(f"{self.name(p)} sails {DIRS[act.a][2]} to {cell(nb)}",
                     kind="sail", data={"player": p, "to": cell(nb)})
        if self.card(nb).kind == D.STORM:
            if self.logging:
                self.say(f"{self.name(p)} sails into a storm",
                         kind="storm", data={"player": p, "cell": cell(nb)})
            self.push(step_of(T_JOSTLE, p))

    def _carry_out(self, p: int, act: Act, is_order: bool) -> None:
        """Carry out an order or a bonus action (bonus actions trigger nothing further)."""
        R = self.R
        b = act.a
        log = self.logging
        who = self.name(p)
        src = "" if is_order else (" (captain)" if act.c == -1
                                   else f" ({R.crew[act.c].name})")
        if b == D.PLUNDER:
            k = self.card(self.pos[p]).plunder
            if log:
                self.say(f"{who} plunders {cell(self.pos[p])}{src}",
                         kind="plunder", data={"player": p, "cell": cell(self.pos[p])})
            for _ in range(k):
                self._load(p, self._draw())
        elif b == D.TRADE:
            t = self.trade_type(p)
            n = act.b
            v = self.market.index(t) + 2
            for _ in range(n):
                self.booty[p].remove(t)
            self.bag[t] += n
            self.add_gold(p, n * v)
            self.market.remove(t)
            self.market.insert(0, t)
            if log:
                self.say(f"{who} trades {n} {R.booty[t]} at {v} for {n * v} gold{src}; market "
                         + ", ".join(f"{R.booty[q]} {i + 2}" for i, q in enumerate(self.market)),
                         kind="trade",
                         data={"player": p, "booty": R.booty[t], "count": n, "gold": n * v})
        elif b == D.CREW_UP:
            if log:
                self.say(f"{who} crews up{src}", kind="crew_up", data={"player": p})
            self.push(step_of(T_CREW, p))
        elif b == D.SEARCH:
            self._search(p, src)
        elif b == D.ATTACK:
            tg = self.targets(p)[act.b]
            if log:
                self.say(f"{who} attacks {self.target_text(tg)}{src}",
                         kind="attack", data={"player": p, "target": self.target_text(tg)})
            self.battle = [p, tg[0], tg[1], [], [], 0, 0]
            self.push(step_of(T_RESOLVE, p))
            if tg[0] == B_PIRATE:
                self.push(step_of(T_ROLL, tg[1]))
            self.push(step_of(T_ROLL, p))
        elif b == D.HIDE_OUT:
            self.hidden[p] = True
            if log:
                self.say(f"{who} hides out in the cove at {cell(self.pos[p])}",
                         kind="hide_out", data={"player": p, "cell": cell(self.pos[p])})
            self.hide_ext = self.assign[p][EXT]
            self.hide_placed = 0
            self.push(step_of(T_DIST, p))
        elif b == D.BURY:
            t = len(self.treasures[p])
            cost = R.treasure_cost[t]
            self.gold[p] -= cost
            self.treasures[p].append(self.pos[p])
            if log:
                self.say(f"{who} buries treasure {t + 1} at {cell(self.pos[p])} for {cost} "
                         f"gold{src}",
                         kind="score",
                         data={"player": p, "points": 1, "treasures": t + 1,
                               "cell": cell(self.pos[p]), "gold": cost})
            if t + 1 == D.TREASURES and not self.end_trigger:
                self.end_trigger = True
                if log:
                    self.say(f"{who} has buried a third treasure: the game ends when the "
                             "round is complete", kind="end_triggered", data={"player": p})
        elif b == D.REASSIGN:
            self.push(step_of(T_REASSIGN, p))
        elif b == D.SUREFIRE:
            self.gain_sure(p)
            if log:
                self.say(f"{who} gains a sure-fire token{src}",
                         kind="surefire", data={"player": p, "tokens": 1})
        elif b == D.GOLD:
            self.add_gold(p, 1)
            if log:
                self.say(f"{who} gains 1 gold{src}", kind="gold", data={"player": p, "gold": 1})

    def _load(self, p: int, t: int) -> None:
        """Put cube t on p's ship, or ask what to throw back if the ship is full."""
        if t < 0:
            return
        if len(self.booty[p]) < self.R.ship_capacity:
            self.booty[p].append(t)
            if self.logging:
                self.say(f"{self.name(p)} loads a {self.R.booty[t]} cube",
                         kind="cube", data={"player": p, "loaded": self.R.booty[t]})
        else:
            if self.logging:
                self.say(f"{self.name(p)} finds a {self.R.booty[t]} cube but the ship is full",
                         kind="cube", data={"player": p, "found": self.R.booty[t], "full": True})
            self.push(step_of(T_KEEP, p, t))

    def _search(self, p: int, src: str) -> None:
        here = self.pos[p]
        tok = self.tokens[here]
        self.tokens[here] = -1
        kind, amt = self.R.search[tok]
        who = self.name(p)
        if self.logging:
            self.say(f"{who} searches {cell(here)}{src} and finds {D.SEARCH_KINDS[kind]} +{amt}",
                     kind="search",
                     data={"player": p, "cell": cell(here), "found": D.SEARCH_KINDS[kind],
                           "amount": amt})
        if kind == D.S_GOLD:
            self.add_gold(p, amt)
        elif kind == D.S_BOOTY:
            for _ in range(amt):
                self._load(p, self._draw())
        elif kind == D.S_SAIL:
            if p == self.solo:
                self.add_gold(p, amt)       # DESIGN: the solo pirate takes Gold instead
            else:
                self.sail_tokens[p].append(amt)
        else:
            self.gain_sure(p, amt)

    def _crew_do(self, p: int, taken: int, act: Act) -> None:
        R = self.R
        log = self.logging
        k = act.kind
        who = self.name(p)
        if k == A_DONE:
            return
        if k == A_REFRESH:
            self.add_gold(p, -1)
            self.refreshed = True
            self.crew_deck[0:0] = self.crew_line
            self.crew_known += 3
            self.crew_line = [self._crew_draw() for _ in range(3)]
            if log:
                self.say(f"{who} pays 1 gold for a new crew line: {self._line_text()}",
                         kind="crew",
                         data={"player": p, "refresh": [R.crew[c].name for c in self.crew_line]})
            self.push(step_of(T_CREW, p, taken))
        elif k == A_MUTINY:
            self.bloody[p] = True
            self.side[p] ^= 1
            if log:
                cp = R.captains[self.captain[p]]
                sd = self.side[p]
                self.say(f"{who} mutinies: {cp.name} flips to side {'AB'[sd]} (trigger "
                         f"{D.ORDERS[cp.trigger[sd]]}, dice {' '.join(map(str, cp.dice[sd]))}); "
                         "the legend token turns bloody",
                         kind="mutiny", data={"player": p, "side": "AB"[sd]})
            self.push(step_of(T_CREW, p, taken))
        elif k == A_TAKE:
            c = self.crew_line[act.a]
            if act.b >= 0:
                d = self.crew[p].pop(act.b)
                self.crew_deck.insert(0, d)
                self.crew_known += 1
                # a card that leaves the crew takes its pending bonus actions with it
                self.bonus_left = [cb for cb in self.bonus_left if cb[0] != d]
                if log:
                    self.say(f"{who} discards {R.crew[d].name} to the bottom of the crew deck",
                             kind="crew", data={"player": p, "discard": R.crew[d].name})
            self.crew[p].append(c)
            self.crew_line[act.a] = self._crew_draw()
            if log:
                self.say(f"{who} takes {R.crew[c].name}; the line is now {self._line_text()}",
                         kind="crew", data={"player": p, "take": R.crew[c].name})
            self.push(step_of(T_CREW, p, 1))

    def _crew_draw(self) -> int:
        deck = self.crew_deck
        if len(deck) <= self.crew_known:
            self.crew_known -= 1
        return deck.pop()

    def _hide_out_gold(self, p: int) -> None:
        """Each Deckhand the Hide Out placed onto Extort gives 1 Gold [SOURCED: Dz-Hide]
        (option ``hideout_extort``: ``moved`` pays the net gain on Extort, ``all`` every
        one on Extort when the moves are done)."""
        a = self.assign[p]
        assert isinstance(self.options, PiratesOptions)
        how = self.options.hideout_extort
        gold = (self.hide_placed if how == "placed" else a[EXT] if how == "all"
                else max(0, a[EXT] - self.hide_ext))
        self.add_gold(p, gold)
        if self.logging:
            extra = f"; extort pays {gold} gold" if gold else ""
            self.say(f"{self.name(p)} hides out with deckhands: rigging {a[RIG]}, cannons "
                     f"{a[CAN]}, extort {a[EXT]}, repair {a[REP]}{extra}",
                     kind="hide_out", data={"player": p, "gold": gold})

    def _setup_bonuses(self, p: int) -> None:
        o = self.order_of(p)
        R = self.R
        cap = R.captains[self.captain[p]]
        crew_b = [(c, b) for c in self.crew[p] if R.crew[c].trigger == o
                  for b in R.crew[c].bonus]
        self.bonus_left = [(c, b) for c, b in crew_b if b != D.REROLL]
        if self.bonus_left:
            self.push(step_of(T_CREWBONUS, p))
        if cap.trigger[self.side[p]] == o:
            self.push(step_of(T_CAPT2, p))
            self.push(step_of(T_CAPBURY, p))

    # ------------------------------------------------------------------ battles
    def _fire_do(self, p: int, act: Act) -> None:
        b = self.battle
        assert b is not None
        dice = b[3] if p == b[0] else b[4]
        log = self.logging
        if act.kind == A_SUREFIRE:
            self.sure[p] -= 1
            self.sure_supply += 1
            old = dice[act.a]
            dice[act.a] = act.b
            if log:
                self.say(f"{self.name(p)} spends a sure-fire: die {act.a + 1} {old} -> {act.b}",
                         kind="surefire", data={"player": p, "die": act.a + 1, "face": act.b})
            self.push(step_of(T_FIRE, p))
        elif act.kind == A_REROLL:
            self.rerolls -= 1
            for i in range(len(dice)):
                if act.a >> i & 1:
                    dice[i] = self.rng.randint(1, 6)
            if log:
                self.say(f"{self.name(p)} rerolls: {' '.join(map(str, dice))}",
                         kind="roll", data={"player": p, "dice": list(dice), "reroll": True})
            self.push(step_of(T_FIRE, p))
        else:
            tot = self.damage(p, dice)
            b[5 if p == b[0] else 6] = tot
            if log:
                sym = self.symbols(p)
                hits = sum(sym[f] for f in dice)
                auto = sum(self.R.crew[c].auto for c in self.crew[p])
                self.say(f"{self.name(p)} fires {' '.join(map(str, dice))}: {hits} from dice + "
                         f"{self.assign[p][CAN]} cannons + {auto} auto-hits = {tot} damage",
                         kind="fire", data={"player": p, "dice": list(dice), "damage": tot})

    def _resolve_battle(self) -> None:
        b = self.battle
        assert b is not None
        self.battle = None
        att, kind, tgt, _, _, atot, dtot = b
        R = self.R
        log = self.logging
        who = self.name(att)
        if kind == B_NAVY:
            navy = R.navy_base + self.level[att] // R.navy_div
            if log:
                self.say(f"the navy deals {navy}, {who} deals {atot}",
                         kind="battle",
                         data={"attacker": "navy", "target": att, "navy": navy, "damage": atot})
            if atot == navy:
                self.gain_sure(att)
                if log:
                    self.say(f"a tie: {who} gains a sure-fire token",
                             kind="battle", data={"result": "tie", "player": att})
            elif atot < navy:
                if log:
                    self.say(f"{who} loses to the navy: jostled"
                             + (" and loses a booty cube" if self.booty[att] else ""),
                             kind="battle", data={"result": "lost", "player": att})
                if self.booty[att]:
                    self.push(step_of(T_LOSE, att))
                self._jostle_after_loss(att)
            elif log:
                self.say(f"{who} fends off the navy",
                         kind="battle", data={"result": "won", "player": att})
            return
        if kind == B_MERCHANT:
            value = self.m_card[tgt]
            if log:
                self.say(f"merchant {'ab'[tgt]} (card {value}) deals {value}, {who} deals {atot}",
                         kind="battle",
                         data={"player": att, "merchant": "ab"[tgt], "card": value, "damage": atot})
            if atot > value:
                if log:
                    self.say(f"{who} sinks merchant {'ab'[tgt]} and gains {value} gold",
                             kind="battle", data={"result": "won", "player": att, "gold": value})
                if self.R.merchant_legend[value] >= self.n:
                    self.push(step_of(T_LEGEND, att))
                self.push(step_of(T_MCUBE, att, tgt))
                cube = self.m_cube[tgt]
                self.m_cube[tgt] = -1
                self.add_gold(att, value)
                if value != 8 and self.m_deck:
                    self.m_removed += 1
                    self.m_card[tgt] = self.m_deck.pop()
                    if log:
                        self.say(f"merchant card {value} leaves the game; "
                                 f"{self.m_card[tgt]} is revealed",
                                 kind="merchant", data={"card": self.m_card[tgt], "removed": value})
                here = self.pos[att]
                d0, d1 = dist(here, self.ports[0]), dist(here, self.ports[1])
                if d0 == d1:
                    self.push(step_of(T_PORT, att, tgt))
                else:
                    self._merchant_to_port(tgt, 0 if d0 > d1 else 1)
                self._load(att, cube)
            elif atot == value:
                self.gain_sure(att)
                if log:
                    self.say(f"a tie: {who} gains a sure-fire token; the merchant sails on",
                             kind="battle", data={"result": "tie", "player": att})
            else:
                assert isinstance(self.options, PiratesOptions)
                sure = self.options.merchant_loss_surefire
                if sure:
                    self.gain_sure(att)
                if log:
                    self.say(f"{who} loses: jostled" + (", and gains a sure-fire token"
                                                        if sure else ""),
                             kind="battle", data={"result": "lost", "player": att})
                self._jostle_after_loss(att)
            return
        other = self.name(tgt)
        if log:
            self.say(f"{who} deals {atot}, {other} deals {dtot}",
                     kind="battle",
                     data={"player": att, "target": tgt, "damage": atot, "defender_damage": dtot})
        if atot == dtot:
            self.gain_sure(att)
            self.gain_sure(tgt)
            if log:
                self.say("a tie: both gain a sure-fire token",
                         kind="battle", data={"result": "tie", "players": [att, tgt]})
            return
        win, lose = (att, tgt) if atot > dtot else (tgt, att)
        if log:
            self.say(f"{self.name(win)} wins the battle; {self.name(lose)} is jostled and "
                     "gains a sure-fire token",
                     kind="battle", data={"result": "won", "winner": win, "loser": lose})
        self.push(step_of(T_LEGEND, win))
        self.gain_sure(lose)
        self._jostle_after_loss(lose)

    def _jostle_after_loss(self, p: int) -> None:
        if not self.all_in_repair(p):
            self.push(step_of(T_JOSTLE, p))

    def _merchant_to_port(self, m: int, port: int) -> None:
        self.m_pos[m] = self.ports[port]
        self.m_face[m] = 1 - port
        if self.logging:
            self.say(f"merchant {'ab'[m]} returns to port {cell(self.ports[port])}, heading for "
                     f"{cell(self.ports[1 - port])}",
                     kind="merchant", data={"merchant": "ab"[m], "cell": cell(self.ports[port])})

    def _merchants_sail(self) -> None:
        for m in (0, 1):
            here = self.m_pos[m]
            goal = self.ports[self.m_face[m]]
            r, c = here // 4, here % 4
            gr, gc = goal // 4, goal % 4
            r += (gr > r) - (gr < r)
            c += (gc > c) - (gc < c)
            self.m_pos[m] = r * 4 + c
            if self.m_pos[m] == goal:
                self.m_face[m] ^= 1
            if self.logging:
                self.say(f"merchant {'ab'[m]} sails to {cell(self.m_pos[m])}",
                         kind="merchant", data={"merchant": "ab"[m], "cell": cell(self.m_pos[m])})

    def _gain_legend(self, p: int) -> None:
        if self.level[p] >= D.LEGEND_LEVELS:
            return
        self.level[p] += 1
        lv = self.R.legend[self.level[p] - 1]
        if self.logging:
            self.say(f"{self.name(p)} rises to legend level {self.level[p]}: {lv.name}",
                     kind="legend", data={"player": p, "level": self.level[p]})
        if lv.bonus == D.L_GOLD:
            self.add_gold(p, lv.amount)
        elif lv.bonus == D.L_SUREFIRE:
            self.gain_sure(p, lv.amount)
        elif lv.bonus == D.L_DECKHAND and self.dh_reserve[p]:
            self.push(step_of(T_NEWHAND, p))

    # ------------------------------------------------------------------ scoring
    def scores(self) -> list[float]:
        return [float(len(self.treasures[p])) for p in range(self.n)]

    def stats(self) -> dict[str, float | str]:
        buried = [len(t) for t in self.treasures]
        return {
            "rounds": float((self.turn + self.np - 1) // self.np),
            "end": ("third treasure" if self.end_trigger
                    else "round cap" if self.over else "running"),
            "treasures_buried": float(sum(buried)),
            "top_legend_level": float(max(self.level)),
        }

    def check_invariants(self) -> None:
        """Every cube, card, token and Deckhand accounted for, tracks within bounds, the
        task stack consistent with the phase. O(size of the state)."""
        R = self.R
        np = self.np
        # booty cubes: bag + market + merchants + ships + cubes waiting on a full ship
        held = self.bag[:]
        assert len(self.market) == D.BOOTY_TYPES and sorted(self.market) == list(
            range(D.BOOTY_TYPES)), f"market is not one cube of each type: {self.market}"
        for t in self.market:
            held[t] += 1
        for c in self.m_cube:
            assert -1 <= c < D.BOOTY_TYPES, f"merchant cube {c}"
            if c >= 0:
                held[c] += 1
        for b in self.booty:
            assert len(b) <= R.ship_capacity, f"a ship holds {len(b)} cubes"
            for t in b:
                held[t] += 1
        for st in self._steps:
            if st.kind == T_KEEP:
                held[st.data[0]] += 1
        assert min(self.bag) >= 0, f"bag counts {self.bag}"
        assert held == list(R.cubes), f"booty cubes {held}, expected {list(R.cubes)}"
        # crew cards: deck + line + crews is each card once
        seen = [0] * D.CREW_CARDS
        for c in self.crew_deck + self.crew_line:
            seen[c] += 1
        for cs in self.crew:
            assert len(cs) <= 4, f"a crew of {len(cs)} cards"
            for c in cs:
                seen[c] += 1
        assert seen == [1] * D.CREW_CARDS, "crew cards lost or doubled"
        assert len(self.crew_line) == 3, "crew line is not 3 cards"
        assert 0 <= self.crew_known <= len(self.crew_deck), f"crew_known {self.crew_known}"
        # merchant cards and ships
        assert len(self.m_deck) + 2 + self.m_removed == D.MERCHANT_CARDS, "merchant cards"
        for m in (0, 1):
            assert self.m_card[m] in D.MERCHANT_VALUES, f"merchant card {self.m_card[m]}"
            assert 0 <= self.m_pos[m] < 16 and self.m_face[m] in (0, 1), f"merchant {m}"
        # search tokens: each id at most once on the sea or in the box (used ones leave)
        ids = [t for t in self.tokens if t >= 0] + self.box_tokens
        assert len(self.tokens) == D.MAP_CARDS and len(self.box_tokens) == 4, "token places"
        assert len(set(ids)) == len(ids) and all(
            0 <= t < D.SEARCH_TOKENS for t in ids), "search tokens doubled or unknown"
        # sure-fire tokens: supply + players
        assert min(self.sure) >= 0 and self.sure_supply >= 0, "negative sure-fire count"
        assert self.sure_supply + sum(self.sure) == R.surefire_tokens, "sure-fire tokens"
        # each player's mats
        started = self.navy >= 0
        for p in range(np):
            w, a = self.wheel_dh[p], self.assign[p]
            assert all(x in (0, 1) for x in w) and w[0] == 0, f"P{p + 1} wheel deckhands {w}"
            assert min(a) >= 0 and self.dh_reserve[p] in (0, 1), f"P{p + 1} assignments {a}"
            assert sum(w) + sum(a) + self.dh_reserve[p] == R.deckhands, f"P{p + 1} deckhands"
            assert 0 <= self.cap[p] < 6, f"P{p + 1} captain at {self.cap[p]}"
            assert sorted(self.wheel[p]) == list(range(6)) and self.wheel[p][0] == D.HIDE_OUT
            assert 0 <= self.gold[p] <= R.gold_cap, f"P{p + 1} gold {self.gold[p]}"
            assert 1 <= self.level[p] <= D.LEGEND_LEVELS, f"P{p + 1} legend {self.level[p]}"
            tr = self.treasures[p]
            assert len(tr) <= D.TREASURES and len(set(tr)) == len(tr), f"P{p + 1} treasures"
            assert all(x > 0 for x in self.sail_tokens[p]), "sail token"
            if started and self._steps and self._steps[-1].kind not in (T_COVE, T_SIDE):
                assert 0 <= self.pos[p] < 16, f"P{p + 1} ship at {self.pos[p]}"
            if self.hidden[p]:
                assert self.card(self.pos[p]).kind == D.COVE, f"P{p + 1} hidden off a cove"
        assert -1 <= self.navy < 16, f"navy at {self.navy}"
        # phase: a finished game has no steps; a running one waits on a decision
        if self.over:
            assert not self._steps and self.battle is None, "steps left after the end"
        else:
            top = self._steps[-1] if self._steps else None
            assert top is not None and len(top.players) == 1, "no decision pending"
            assert 0 <= top.players[0] < np, f"decision for seat {top.players[0]}"
            resolving = any(st.kind == T_RESOLVE for st in self._steps)
            assert (self.battle is not None) == resolving, "battle without its resolution"
            if top.kind == T_FIRE:
                assert self.battle is not None, "firing outside a battle"
        assert self.turn >= 0 and self.moves_used >= 0 and self.rerolls >= 0

    def private_items(self, player: int) -> dict[str, Any]:
        """None: every hidden part of Tiny Epic Pirates (face-down search tokens, the crew
        deck order, the bag) is hidden from everyone, and each player's view is the same
        (R13.1); nothing is known to one player alone."""
        return {}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        return (float(self.level[player]), float(self.gold[player]),
                float(len(self.booty[player])))

    def winners(self) -> tuple[int, ...]:
        if not self.over:
            return ()
        seats = range(self.np)
        key = {p: (len(self.treasures[p]), *self.tiebreak(p)) for p in seats}
        top = max(key.values())
        return tuple(p for p in seats if key[p] == top and p < self.n)

    # ------------------------------------------------------------------ view
    def _view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    # ------------------------------------------------------------------ clone / resample
    def clone(self) -> PiratesState:
        s: PiratesState = self._clone_base()
        s.R = self.R
        s.solo = self.solo
        s.np = self.np
        s.maps = self.maps
        s.ports = self.ports
        s.wheel = self.wheel
        s.captain = self.captain
        s.tokens = self.tokens[:]
        s.box_tokens = self.box_tokens[:]
        s.market = self.market[:]
        s.bag = self.bag[:]
        s.m_pos = self.m_pos[:]
        s.m_face = self.m_face[:]
        s.m_cube = self.m_cube[:]
        s.m_card = self.m_card[:]
        s.m_deck = self.m_deck[:]
        s.m_removed = self.m_removed
        s.crew_line = self.crew_line[:]
        s.crew_deck = self.crew_deck[:]
        s.crew_known = self.crew_known
        s.navy = self.navy
        s.side = self.side[:]
        s.wheel_dh = [w[:] for w in self.wheel_dh]
        s.cap = self.cap[:]
        s.assign = [a[:] for a in self.assign]
        s.dh_reserve = self.dh_reserve[:]
        s.level = self.level[:]
        s.bloody = self.bloody[:]
        s.gold = self.gold[:]
        s.treasures = [t[:] for t in self.treasures]
        s.booty = [b[:] for b in self.booty]
        s.crew = [c[:] for c in self.crew]
        s.sure = self.sure[:]
        s.sure_supply = self.sure_supply
        s.sail_tokens = [t[:] for t in self.sail_tokens]
        s.pos = self.pos[:]
        s.hidden = self.hidden[:]
        s.turn = self.turn
        s.end_trigger = self.end_trigger
        s.over = self.over
        s.crossed = self.crossed
        s.line_ext = self.line_ext
        s.hide_ext = self.hide_ext
        s.hide_placed = self.hide_placed
        s.moves_used = self.moves_used
        s.sail_bonus = self.sail_bonus
        s.refreshed = self.refreshed
        s.rerolls = self.rerolls
        s.bonus_left = self.bonus_left[:]
        b = self.battle
        s.battle = None if b is None else [b[0], b[1], b[2], b[3][:], b[4][:], b[5], b[6]]
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        # face-down search tokens (on the sea and in the box)
        down = [i for i in range(16) if self.tokens[i] >= 0]
        # sorted first, so the sample depends on what the player sees, not the real order
        pool = sorted([self.tokens[i] for i in down] + self.box_tokens)
        rng.shuffle(pool)
        for i in down:
            self.tokens[i] = pool.pop()
        self.box_tokens = pool
        # the unseen part of the crew deck (cards put on the bottom were seen)
        k = len(self.crew_deck) - self.crew_known
        top = sorted(self.crew_deck[self.crew_known :])
        rng.shuffle(top)
        self.crew_deck[self.crew_known :] = top
        assert len(top) == k
        # merchant deck: sorted by value, so nothing unknown to reshuffle; the bag holds
        # counts only (its draws are chance, reseeded by redeterminize)


def _pirates(state: State) -> PiratesState:
    assert isinstance(state, PiratesState)
    return state
