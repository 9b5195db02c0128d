"""The state of Tiny Epic Pirates: its fields, setup, the effects several kinds of step
share, scores and the tie-break, clone, resample and invariants.

The flow runs on the core's decision stack (:mod:`cove.core.decisions`): a step is made by
``turn.step_of(kind, player, x)`` and each kind's rule is in rules.py; the top step is
the pending decision (or an automatic step, run by ``settle``). A decision with exactly
one legal action is taken automatically, so the players only see real choices. Rule
numbers (R...) refer to RULES.md.

The sea (sea.py): cards 0..15, row-major, written a1..d4 (column letter, row digit: b3 is
column b, row 3). Assignments (data.py): 0 Rigging, 1 Cannons, 2 Extort, 3 Repair. Wheel
spaces 0..5 (0 = Hide Out).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, cast

from cove.core.decisions import Step, StepRule
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.actions import BY_CAPTAIN, BY_ORDER, Act
from cove.games.tiny_epic_pirates.data import CAN, EXT, RIG
from cove.games.tiny_epic_pirates.options import PiratesOptions
from cove.games.tiny_epic_pirates.rules import STEPS
from cove.games.tiny_epic_pirates.sea import CORNERS, OPPOSITE, cell
from cove.games.tiny_epic_pirates.solo import choose
from cove.games.tiny_epic_pirates.turn import (
    B_MERCHANT,
    B_PIRATE,
    T_COVE,
    T_CREW,
    T_DIST,
    T_FIRE,
    T_JOSTLE,
    T_KEEP,
    T_NAVY_SETUP,
    T_NEWHAND,
    T_REASSIGN,
    T_RESOLVE,
    T_ROLL,
    T_SIDE,
    T_START,
    step_of,
    turn_steps,
)
from cove.games.tiny_epic_pirates.view import build_view

TIEBREAK = ("higher Legend level", "more gold", "more booty on the ship")
"""What ``PiratesState.tiebreak`` compares among those with the most treasures, in order
(R11.2): the declaration's ``tiebreak``."""


class PiratesState(State):
    # the ruleset, loaded from the options, and the action space's index, made when first
    # needed and shared by clones
    DERIVED: ClassVar[tuple[str, ...]] = ("R", "mask_index")
    STEPS: ClassVar[Mapping[str, StepRule[PiratesState]]] = STEPS

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
        "mask_index",
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
        self.mask_index: dict[Hashable, int] | None = None
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
    @property
    def is_over(self) -> bool:
        return self.over

    def _legal_indices(self, player: int, legal: tuple[Any, ...]) -> list[int]:
        """As the core's, with the action space's index kept by the state (and shared by
        its clones) and each legal action's key made inline (``legal_mask`` is made from
        these)."""
        index = self.mask_index
        if index is None:
            index = self.mask_index = self.action_space.index
        try:
            return [index[a.key()] for a in cast("tuple[Act, ...]", legal)]
        except KeyError:
            return super()._legal_indices(player, legal)  # names the action in its error

    def play_for(self, step: Step, player: int, legal: Sequence[Any]) -> Act | None:
        """The solo pirate's decisions are taken by its fixed rules (solo.py)."""
        return choose(self, step, legal) if player == self.solo else None

    # ------------------------------------------------------------------ effects
    # What several kinds of step share; each kind's own rule is in rules.py.
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
        self.push(*turn_steps(p))

    def _finish(self, why: str) -> None:
        self.over = True
        self.clear_steps()
        if self.logging:
            sc = self.scores()
            self.say(f"game over: {why}; treasures "
                     + ", ".join(f"{self.name(q)} {len(self.treasures[q])}"
                                 for q in range(self.np))
                     + "; scores " + ", ".join(f"{self.name(q)} {sc[q]:g}" for q in range(len(sc))),
                     kind="end", data={"why": why, "scores": sc})

    def _carry_out(self, p: int, b: int, choice: int, source: int) -> None:
        """Carry out order or bonus action ``b`` (bonus actions trigger nothing further) with
        ``choice``, a trade count or an attack target; ``source`` is ``BY_ORDER`` for the
        Order, ``BY_CAPTAIN`` or a crew card for a bonus."""
        R = self.R
        log = self.logging
        who = self.name(p)
        src = ("" if source == BY_ORDER else " (captain)" if source == BY_CAPTAIN
               else f" ({R.crew[source].name})")
        if b == D.PLUNDER:
            k = self.card(self.pos[p]).plunder
            if log:
                self.say(f"{who} plunders {cell(self.pos[p])}{src}",
                         kind="plunder", data={"player": p, "cell": cell(self.pos[p])})
            for _ in range(k):
                self._load(p, self._draw())
        elif b == D.TRADE:
            t = self.trade_type(p)
            n = choice
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
            tg = self.targets(p)[choice]
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

    def _crew_draw(self) -> int:
        deck = self.crew_deck
        if len(deck) <= self.crew_known:
            self.crew_known -= 1
        return deck.pop()

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
        for st in self.steps:
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
        top = self.top_step
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
            if started and top is not None and top.kind not in (T_COVE, T_SIDE):
                assert 0 <= self.pos[p] < 16, f"P{p + 1} ship at {self.pos[p]}"
            if self.hidden[p]:
                assert self.card(self.pos[p]).kind == D.COVE, f"P{p + 1} hidden off a cove"
        assert -1 <= self.navy < 16, f"navy at {self.navy}"
        # phase: a finished game has no steps; a running one waits on a decision
        if self.over:
            assert not self.steps and self.battle is None, "steps left after the end"
        else:
            assert top is not None and len(top.players) == 1, "no decision pending"
            assert 0 <= top.players[0] < np, f"decision for seat {top.players[0]}"
            resolving = any(st.kind == T_RESOLVE for st in self.steps)
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
        """R11.2: what ``TIEBREAK`` names, in its order."""
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
        s.mask_index = self.mask_index
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
