"""The state of Tiny Epic Pirates: its fields, setup, the effects several kinds of step
share, scores and the tie-break, clone, resample and invariants.

The flow runs on the core's decision stack (:mod:`cove.core.decisions`): a step is made by
``turn.step_of(kind, player, number)`` and each kind's rule is in rules.py; the top step is
the pending decision (or an automatic step, run by ``settle``). A decision with exactly
one legal action is taken automatically, so the players only see real choices. Rule
numbers (R...) refer to RULES.md.

The sea (sea.py): cards 0..15, row-major, written a1..d4 (column letter, row digit: b3 is
column b, row 3). Assignments (data.py): 0 Rigging, 1 Cannons, 2 Extort, 3 Repair. Wheel
spaces 0..5 (0 = Hide Out). Seats: ``pirate_count`` ships, one per player, and in a solo
game the solo pirate's too (seat ``solo_pirate``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, Final, cast

from cove.core import Rng, State, Step, StepRule
from cove.games.tiny_epic_pirates import data
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
    Battle,
    FoundCube,
    PendingBonus,
    Target,
    step_of,
    turn_steps,
)
from cove.games.tiny_epic_pirates.view import build_view

TIEBREAK: Final = ("higher Legend level", "more gold", "more booty on the ship")
"""What ``PiratesState.tiebreak`` compares among those with the most treasures, in order
(R11.2): the declaration's ``tiebreak``."""


class PiratesState(State[PiratesOptions]):
    # the ruleset, loaded from the options, and the action space's index, made when first
    # needed and shared by clones
    DERIVED: ClassVar[tuple[str, ...]] = ("mask_index", "ruleset")
    STEPS: ClassVar[Mapping[str, StepRule[PiratesState]]] = STEPS

    __slots__ = (
        "assignments",
        "bag",
        "battle",
        "bloody",
        "bonus_left",
        "booty",
        "box_tokens",
        "captain",
        "captain_side",
        "captain_space",
        "crew",
        "crew_bottom_seen",
        "crew_deck",
        "crew_line",
        "crew_line_refreshed",
        "crossed_ship_line",
        "deckhand_on_legend_mat",
        "end_triggered",
        "extort_at_line",
        "extort_before_hide_out",
        "gold",
        "hidden",
        "legend_level",
        "maps",
        "market",
        "mask_index",
        "merchant_at",
        "merchant_card",
        "merchant_cards_removed",
        "merchant_cube",
        "merchant_deck",
        "merchant_heading",
        "moves_used",
        "navy_at",
        "over",
        "pirate_count",
        "placed_on_extort",
        "ports",
        "rerolls",
        "ruleset",
        "sail_bonus",
        "sail_tokens",
        "search_tokens",
        "ship_at",
        "solo_pirate",
        "surefire",
        "surefire_supply",
        "treasures",
        "turn",
        "wheel",
        "wheel_deckhands",
    )

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        ruleset = self.ruleset = data.ruleset(self.options.ruleset)
        self.mask_index: dict[Hashable, int] | None = None
        rng = self.rng
        self.solo_pirate = -1 if self.n > 1 else 1   # the solo pirate's seat (automa), or -1
        pirates = self.pirate_count = self.n if self.n > 1 else 2
        # the sea [SEED]
        maps = list(range(data.MAP_CARDS))
        rng.shuffle(maps)
        self.maps = maps                             # maps[i] = the map card at sea card i
        search_tokens = list(range(data.SEARCH_TOKENS))
        rng.shuffle(search_tokens)
        self.search_tokens = search_tokens[: data.MAP_CARDS]   # face down; -1 once searched
        self.box_tokens = search_tokens[data.MAP_CARDS :]
        # booty: market gets one of each at random, the rest in the bag [SEED]
        market = list(range(data.BOOTY_TYPES))
        rng.shuffle(market)
        self.market = market                         # market[i] = type at value i + 2
        self.bag = [cubes - 1 for cubes in ruleset.cubes]
        # ports on opposite corners, merchants on them facing each other [SEED]
        first_port = rng.choice(CORNERS)
        self.ports = (first_port, OPPOSITE[first_port])
        self.merchant_at = [self.ports[0], self.ports[1]]
        self.merchant_heading = [1, 0]               # the port each merchant heads for
        self.merchant_cube = [self._draw(), self._draw()]
        merchant_deck = list(ruleset.merchants)      # bottom .. top
        self.merchant_card = [merchant_deck.pop(), merchant_deck.pop()]
        self.merchant_deck = merchant_deck
        self.merchant_cards_removed = 0
        # crew [SEED]
        crew_deck = list(range(data.CREW_CARDS))
        rng.shuffle(crew_deck)
        self.crew_line = [crew_deck.pop(), crew_deck.pop(), crew_deck.pop()]
        self.crew_deck = crew_deck                   # top is the end of the list
        self.crew_bottom_seen = 0                    # cards at the bottom everyone has seen
        self.navy_at = -1                            # off the sea until P1 places it
        # players [SEED]
        captains = list(range(data.CAPTAINS))
        rng.shuffle(captains)
        self.captain = captains[:pirates]
        self.captain_side = [0] * pirates            # 0 side A, 1 side B
        self.wheel = []
        for _ in range(pirates):
            orders = [0, 1, 2, 3, 4]
            rng.shuffle(orders)
            self.wheel.append([data.HIDE_OUT, *orders])
        self.wheel_deckhands = [[0] * 6 for _ in range(pirates)]   # 1 on a space holding one
        self.captain_space = [0] * pirates
        self.assignments = [[1, 1, 1, 0] for _ in range(pirates)]  # Deckhands on each
        self.deckhand_on_legend_mat = [1] * pirates  # the 4th Deckhand, until Corsair
        self.legend_level = [1] * pirates
        self.bloody = [False] * pirates
        self.gold = [ruleset.start_gold] * pirates
        self.treasures: list[list[int]] = [[] for _ in range(pirates)]
        self.booty: list[list[int]] = [[] for _ in range(pirates)]
        self.crew: list[list[int]] = [[] for _ in range(pirates)]
        self.surefire = [0] * pirates
        self.surefire_supply = ruleset.surefire_tokens
        self.sail_tokens: list[list[int]] = [[] for _ in range(pirates)]
        self.ship_at = [-1] * pirates
        self.hidden = [False] * pirates
        # turn
        self.turn = 0
        self.end_triggered = False
        self.over = False
        self.crossed_ship_line = False
        self.extort_at_line = 0          # Deckhands on Extort as the Captain crosses the line
        self.extort_before_hide_out = 0  # Deckhands on Extort when the ship hid out
        self.placed_on_extort = 0        # Deckhands the Hide Out placed on Extort
        self.moves_used = 0
        self.sail_bonus = 0
        self.crew_line_refreshed = False
        self.rerolls = 0
        self.bonus_left: list[PendingBonus] = []
        self.battle: Battle | None = None
        if self.logging:
            self.say(
                "the sea: "
                + ", ".join(f"{cell(i)} {ruleset.maps[m].name}" for i, m in enumerate(maps))
            , kind="setup")
            self.say(f"ports at {cell(self.ports[0])} and {cell(self.ports[1])}; market "
                     + ", ".join(f"{ruleset.booty[t]} {v + 2}" for v, t in enumerate(market)),
                     kind="setup")
            self.say("merchant cards " + " and ".join(str(v) for v in self.merchant_card)
                     + "; crew line " + self._line_text(), kind="setup")
        self.push(step_of(T_START, 0),
                  *(step_of(T_SIDE, p) for p in reversed(range(pirates))),
                  *(step_of(T_COVE, p) for p in reversed(range(pirates))),
                  step_of(T_NAVY_SETUP, 0))
        self.settle()

    # ------------------------------------------------------------------ helpers
    def name(self, p: int) -> str:
        return "the solo pirate" if p == self.solo_pirate else f"P{p + 1}"

    def _line_text(self) -> str:
        return ", ".join(self.ruleset.crew[c].name for c in self.crew_line)

    def _draw(self) -> int:
        """Draw one cube from the bag at random; -1 if the bag is empty."""
        bag = self.bag
        total = sum(bag)
        if total == 0:
            return -1
        r = self.rng.below(total)
        for booty, count in enumerate(bag):
            if r < count:
                bag[booty] -= 1
                return booty
            r -= count
        raise AssertionError("unreachable")

    def add_gold(self, p: int, amount: int) -> None:
        """``amount`` Gold more (or less), kept between 0 and the Gold cap (R2.1)."""
        self.gold[p] = max(0, min(self.ruleset.gold_cap, self.gold[p] + amount))

    def gain_surefire(self, p: int, count: int = 1) -> None:
        """``count`` sure-fire tokens from the supply, as far as it lasts."""
        if p == self.solo_pirate:   # the solo pirate takes Gold instead [SOURCED: Dz-Solo]
            self.add_gold(p, count)
            return
        count = min(count, self.surefire_supply)
        self.surefire[p] += count
        self.surefire_supply -= count

    def symbols(self, p: int) -> list[int]:
        """How many of each die face (index 1..6) p's Captain and Crew show."""
        ruleset = self.ruleset
        symbols = [0] * 7
        for face in ruleset.captains[self.captain[p]].dice[self.captain_side[p]]:
            symbols[face] += 1
        for c in self.crew[p]:
            for face in ruleset.crew[c].dice:
                symbols[face] += 1
        return symbols

    def auto_hits(self, p: int) -> int:
        """The automatic hits p's Crew adds to every shot."""
        return sum(self.ruleset.crew[c].auto for c in self.crew[p])

    def damage(self, p: int, dice: Sequence[int]) -> int:
        """R7.7: a hit per symbol matching a die rolled, plus Cannons and auto-hits."""
        symbols = self.symbols(p)
        return (sum(symbols[face] for face in dice) + self.assignments[p][CAN]
                + self.auto_hits(p))

    def dice_count(self, p: int) -> int:
        if p == self.solo_pirate:
            return self.ruleset.solo_dice[len(self.treasures[p])]
        return self.ruleset.legend[self.legend_level[p] - 1].dice

    def sail_total(self, p: int) -> int:
        """R5.1: the Legend level's movement, plus Rigging and the sail tokens spent."""
        return (self.ruleset.legend[self.legend_level[p] - 1].sail
                + self.assignments[p][RIG] + self.sail_bonus)

    def card(self, i: int) -> data.MapCard:
        return self.ruleset.maps[self.maps[i]]

    def order_of(self, p: int) -> int:
        """The Order p's Captain stands on."""
        return self.wheel[p][self.captain_space[p]]

    def wheel_deckhand_count(self, p: int) -> int:
        return sum(self.wheel_deckhands[p])

    def all_in_repair(self, p: int) -> bool:
        on = self.assignments[p]
        return on[RIG] + on[CAN] + on[EXT] == 0 and self.wheel_deckhand_count(p) == 0

    def cove_free(self, i: int, p: int) -> bool:
        """A Cove card no other Pirate Ship occupies [SOURCED: Dz-Hide] (option
        ``cove_blocked_by=hidden``: only a ship hidden there blocks it)."""
        only_hidden = self.options.cove_blocked_by == "hidden"
        return self.card(i).kind == data.COVE and not any(
            self.ship_at[q] == i and (self.hidden[q] or not only_hidden)
            for q in range(self.pirate_count) if q != p)

    def can_bury(self, p: int) -> bool:
        buried = len(self.treasures[p])
        if buried >= data.TREASURES:
            return False
        ruleset = self.ruleset
        here = self.ship_at[p]
        return (self.gold[p] >= ruleset.treasure_cost[buried]
                and self.legend_level[p] >= ruleset.treasure_level[buried]
                and self.card(here).kind != data.STORM and here not in self.treasures[p])

    def targets(self, p: int) -> list[Target]:
        """Attack targets on p's card: the merchants, then the pirates not hidden
        [SOURCED: Dz-Attack]."""
        here = self.ship_at[p]
        out = [Target(B_MERCHANT, m) for m in (0, 1) if self.merchant_at[m] == here]
        out += [Target(B_PIRATE, q) for q in range(self.pirate_count)
                if q != p and self.ship_at[q] == here and not self.hidden[q]]
        return out

    def target_text(self, target: Target) -> str:
        if target.kind == B_MERCHANT:
            return f"merchant {'ab'[target.index]}"
        return self.name(target.index).lower()

    def can_plunder(self, p: int) -> bool:
        return self.card(self.ship_at[p]).kind == data.SETTLEMENT and sum(self.bag) > 0

    def trade_type(self, p: int) -> int:
        """The booty type the market p is on buys, if p carries any; else -1."""
        card = self.card(self.ship_at[p])
        return card.booty if card.kind == data.MARKET and card.booty in self.booty[p] else -1

    def can_search(self, p: int) -> bool:
        return self.search_tokens[self.ship_at[p]] >= 0

    def turn_player(self) -> int:
        return self.turn % self.pirate_count

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
        return choose(self, step, legal) if player == self.solo_pirate else None

    # ------------------------------------------------------------------ effects
    # What several kinds of step share; each kind's own rule is in rules.py.
    def _start_turn(self, p: int) -> None:
        self.crossed_ship_line = False
        self.moves_used = 0
        self.sail_bonus = 0
        self.crew_line_refreshed = False
        self.rerolls = 0
        self.bonus_left = []
        if self.logging:
            round_number = self.turn // self.pirate_count + 1
            self.say(f"-- round {round_number}: {self.name(p)}'s turn --",
                     kind="turn", data={"round": round_number, "player": p})
        self.push(*turn_steps(p))

    def _finish(self, why: str) -> None:
        self.over = True
        self.clear_steps()
        if self.logging:
            scores = self.scores()
            self.say(f"game over: {why}; treasures "
                     + ", ".join(f"{self.name(q)} {len(self.treasures[q])}"
                                 for q in range(self.pirate_count))
                     + "; scores "
                     + ", ".join(f"{self.name(q)} {scores[q]:g}" for q in range(len(scores))),
                     kind="end", data={"why": why, "scores": scores})

    def _carry_out(self, p: int, action: int, choice: int, source: int) -> None:
        """Carry out the order or bonus action ``action`` (bonus actions trigger nothing
        further) with ``choice``, a trade count or an attack target; ``source`` is
        ``BY_ORDER`` for the Order, ``BY_CAPTAIN`` or a crew card for a bonus."""
        ruleset = self.ruleset
        log = self.logging
        who = self.name(p)
        by = ("" if source == BY_ORDER else " (captain)" if source == BY_CAPTAIN
              else f" ({ruleset.crew[source].name})")
        here = self.ship_at[p]
        if action == data.PLUNDER:
            icons = self.card(here).plunder
            if log:
                self.say(f"{who} plunders {cell(here)}{by}",
                         kind="plunder", data={"player": p, "cell": cell(here)})
            for _ in range(icons):
                self._load(p, self._draw())
        elif action == data.TRADE:
            booty = self.trade_type(p)
            count = choice
            value = self.market.index(booty) + 2
            for _ in range(count):
                self.booty[p].remove(booty)
            self.bag[booty] += count
            self.add_gold(p, count * value)
            self.market.remove(booty)
            self.market.insert(0, booty)
            if log:
                name = ruleset.booty[booty]
                self.say(f"{who} trades {count} {name} at {value} for {count * value} gold{by}; "
                         "market " + ", ".join(f"{ruleset.booty[b]} {i + 2}"
                                               for i, b in enumerate(self.market)),
                         kind="trade",
                         data={"player": p, "booty": name, "count": count,
                               "gold": count * value})
        elif action == data.CREW_UP:
            if log:
                self.say(f"{who} crews up{by}", kind="crew_up", data={"player": p})
            self.push(step_of(T_CREW, p))
        elif action == data.SEARCH:
            self._search(p, by)
        elif action == data.ATTACK:
            target = self.targets(p)[choice]
            if log:
                self.say(f"{who} attacks {self.target_text(target)}{by}",
                         kind="attack", data={"player": p, "target": self.target_text(target)})
            self.battle = Battle(p, target.kind, target.index)
            self.push(step_of(T_RESOLVE, p))
            if target.kind == B_PIRATE:
                self.push(step_of(T_ROLL, target.index))
            self.push(step_of(T_ROLL, p))
        elif action == data.HIDE_OUT:
            self.hidden[p] = True
            if log:
                self.say(f"{who} hides out in the cove at {cell(here)}",
                         kind="hide_out", data={"player": p, "cell": cell(here)})
            self.extort_before_hide_out = self.assignments[p][EXT]
            self.placed_on_extort = 0
            self.push(step_of(T_DIST, p))
        elif action == data.BURY:
            buried = len(self.treasures[p])
            cost = ruleset.treasure_cost[buried]
            self.gold[p] -= cost
            self.treasures[p].append(here)
            if log:
                self.say(f"{who} buries treasure {buried + 1} at {cell(here)} for {cost} "
                         f"gold{by}",
                         kind="score",
                         data={"player": p, "points": 1, "treasures": buried + 1,
                               "cell": cell(here), "gold": cost})
            if buried + 1 == data.TREASURES and not self.end_triggered:
                self.end_triggered = True
                if log:
                    self.say(f"{who} has buried a third treasure: the game ends when the "
                             "round is complete", kind="end_triggered", data={"player": p})
        elif action == data.REASSIGN:
            self.push(step_of(T_REASSIGN, p))
        elif action == data.SUREFIRE:
            self.gain_surefire(p)
            if log:
                self.say(f"{who} gains a sure-fire token{by}",
                         kind="surefire", data={"player": p, "tokens": 1})
        elif action == data.GOLD:
            self.add_gold(p, 1)
            if log:
                self.say(f"{who} gains 1 gold{by}", kind="gold", data={"player": p, "gold": 1})

    def _load(self, p: int, booty: int) -> None:
        """Put a cube of type ``booty`` on p's ship, or ask what to throw back if the ship
        is full (-1: nothing was drawn)."""
        if booty < 0:
            return
        name = self.ruleset.booty[booty]
        if len(self.booty[p]) < self.ruleset.ship_capacity:
            self.booty[p].append(booty)
            if self.logging:
                self.say(f"{self.name(p)} loads a {name} cube",
                         kind="cube", data={"player": p, "loaded": name})
        else:
            if self.logging:
                self.say(f"{self.name(p)} finds a {name} cube but the ship is full",
                         kind="cube", data={"player": p, "found": name, "full": True})
            self.push(step_of(T_KEEP, p, booty))

    def _search(self, p: int, by: str) -> None:
        here = self.ship_at[p]
        token = self.search_tokens[here]
        self.search_tokens[here] = -1
        kind, amount = self.ruleset.search[token]
        found = data.SEARCH_KINDS[kind]
        if self.logging:
            self.say(f"{self.name(p)} searches {cell(here)}{by} and finds {found} +{amount}",
                     kind="search",
                     data={"player": p, "cell": cell(here), "found": found, "amount": amount})
        if kind == data.S_GOLD:
            self.add_gold(p, amount)
        elif kind == data.S_BOOTY:
            for _ in range(amount):
                self._load(p, self._draw())
        elif kind == data.S_SAIL:
            if p == self.solo_pirate:
                self.add_gold(p, amount)    # DESIGN: the solo pirate takes Gold instead
            else:
                self.sail_tokens[p].append(amount)
        else:
            self.gain_surefire(p, amount)

    def _crew_draw(self) -> int:
        deck = self.crew_deck
        if len(deck) <= self.crew_bottom_seen:
            self.crew_bottom_seen -= 1
        return deck.pop()

    def _jostle_after_loss(self, p: int) -> None:
        if not self.all_in_repair(p):
            self.push(step_of(T_JOSTLE, p))

    def _merchant_to_port(self, m: int, port: int) -> None:
        self.merchant_at[m] = self.ports[port]
        self.merchant_heading[m] = 1 - port
        if self.logging:
            self.say(f"merchant {'ab'[m]} returns to port {cell(self.ports[port])}, heading for "
                     f"{cell(self.ports[1 - port])}",
                     kind="merchant", data={"merchant": "ab"[m], "cell": cell(self.ports[port])})

    def _merchants_sail(self) -> None:
        """R6.3: each merchant one card toward its port, diagonals too; at the port it turns
        for the other."""
        for m in (0, 1):
            here = self.merchant_at[m]
            goal = self.ports[self.merchant_heading[m]]
            row, column = here // 4, here % 4
            goal_row, goal_column = goal // 4, goal % 4
            row += (goal_row > row) - (goal_row < row)
            column += (goal_column > column) - (goal_column < column)
            self.merchant_at[m] = row * 4 + column
            if self.merchant_at[m] == goal:
                self.merchant_heading[m] = 1 - self.merchant_heading[m]
            if self.logging:
                there = cell(self.merchant_at[m])
                self.say(f"merchant {'ab'[m]} sails to {there}",
                         kind="merchant", data={"merchant": "ab"[m], "cell": there})

    def _gain_legend(self, p: int) -> None:
        if self.legend_level[p] >= data.LEGEND_LEVELS:
            return
        self.legend_level[p] += 1
        level = self.ruleset.legend[self.legend_level[p] - 1]
        if self.logging:
            self.say(f"{self.name(p)} rises to legend level {self.legend_level[p]}: "
                     f"{level.name}",
                     kind="legend", data={"player": p, "level": self.legend_level[p]})
        if level.bonus == data.L_GOLD:
            self.add_gold(p, level.amount)
        elif level.bonus == data.L_SUREFIRE:
            self.gain_surefire(p, level.amount)
        elif level.bonus == data.L_DECKHAND and self.deckhand_on_legend_mat[p]:
            self.push(step_of(T_NEWHAND, p))

    # ------------------------------------------------------------------ scoring
    def scores(self) -> list[float]:
        return [float(len(self.treasures[p])) for p in range(self.n)]

    def stats(self) -> dict[str, float | str]:
        buried = [len(t) for t in self.treasures]
        return {
            "rounds": float((self.turn + self.pirate_count - 1) // self.pirate_count),
            "end": ("third treasure" if self.end_triggered
                    else "round cap" if self.over else "running"),
            "treasures_buried": float(sum(buried)),
            "top_legend_level": float(max(self.legend_level)),
        }

    def check_invariants(self) -> None:
        """Every cube, card, token and Deckhand accounted for, tracks within bounds, the
        task stack consistent with the phase. O(size of the state)."""
        ruleset = self.ruleset
        # booty cubes: bag + market + merchants + ships + cubes waiting on a full ship
        held = self.bag[:]
        assert len(self.market) == data.BOOTY_TYPES and sorted(self.market) == list(
            range(data.BOOTY_TYPES)), f"market is not one cube of each type: {self.market}"
        for booty in self.market:
            held[booty] += 1
        for cube in self.merchant_cube:
            assert -1 <= cube < data.BOOTY_TYPES, f"merchant cube {cube}"
            if cube >= 0:
                held[cube] += 1
        for ship in self.booty:
            assert len(ship) <= ruleset.ship_capacity, f"a ship holds {len(ship)} cubes"
            for booty in ship:
                held[booty] += 1
        for step in self.steps:
            if step.kind == T_KEEP:
                assert isinstance(step.data, FoundCube), f"keep step carries {step.data}"
                held[step.data.cube] += 1
        assert min(self.bag) >= 0, f"bag counts {self.bag}"
        assert held == list(ruleset.cubes), f"booty cubes {held}, expected {list(ruleset.cubes)}"
        # crew cards: deck + line + crews is each card once
        seen = [0] * data.CREW_CARDS
        for c in self.crew_deck + self.crew_line:
            seen[c] += 1
        for crew in self.crew:
            assert len(crew) <= 4, f"a crew of {len(crew)} cards"
            for c in crew:
                seen[c] += 1
        assert seen == [1] * data.CREW_CARDS, "crew cards lost or doubled"
        assert len(self.crew_line) == 3, "crew line is not 3 cards"
        assert 0 <= self.crew_bottom_seen <= len(self.crew_deck), (
            f"crew_bottom_seen {self.crew_bottom_seen}")
        # merchant cards and ships
        assert (len(self.merchant_deck) + 2 + self.merchant_cards_removed
                == data.MERCHANT_CARDS), "merchant cards"
        for m in (0, 1):
            assert self.merchant_card[m] in data.MERCHANT_VALUES, (
                f"merchant card {self.merchant_card[m]}")
            assert 0 <= self.merchant_at[m] < 16 and self.merchant_heading[m] in (0, 1), (
                f"merchant {m}")
        # search tokens: each id at most once on the sea or in the box (used ones leave)
        ids = [t for t in self.search_tokens if t >= 0] + self.box_tokens
        assert len(self.search_tokens) == data.MAP_CARDS and len(self.box_tokens) == 4, (
            "token places")
        assert len(set(ids)) == len(ids) and all(
            0 <= t < data.SEARCH_TOKENS for t in ids), "search tokens doubled or unknown"
        # sure-fire tokens: supply + players
        assert min(self.surefire) >= 0 and self.surefire_supply >= 0, (
            "negative sure-fire count")
        assert self.surefire_supply + sum(self.surefire) == ruleset.surefire_tokens, (
            "sure-fire tokens")
        # each player's mats
        started = self.navy_at >= 0
        top = self.top_step
        for p in range(self.pirate_count):
            on_wheel, on = self.wheel_deckhands[p], self.assignments[p]
            reserve = self.deckhand_on_legend_mat[p]
            assert all(x in (0, 1) for x in on_wheel) and on_wheel[0] == 0, (
                f"P{p + 1} wheel deckhands {on_wheel}")
            assert min(on) >= 0 and reserve in (0, 1), f"P{p + 1} assignments {on}"
            assert sum(on_wheel) + sum(on) + reserve == ruleset.deckhands, f"P{p + 1} deckhands"
            assert 0 <= self.captain_space[p] < 6, f"P{p + 1} captain at {self.captain_space[p]}"
            assert sorted(self.wheel[p]) == list(range(6)) and self.wheel[p][0] == data.HIDE_OUT
            assert 0 <= self.gold[p] <= ruleset.gold_cap, f"P{p + 1} gold {self.gold[p]}"
            assert 1 <= self.legend_level[p] <= data.LEGEND_LEVELS, (
                f"P{p + 1} legend {self.legend_level[p]}")
            treasures = self.treasures[p]
            assert len(treasures) <= data.TREASURES and len(set(treasures)) == len(treasures), (
                f"P{p + 1} treasures")
            assert all(x > 0 for x in self.sail_tokens[p]), "sail token"
            if started and top is not None and top.kind not in (T_COVE, T_SIDE):
                assert 0 <= self.ship_at[p] < 16, f"P{p + 1} ship at {self.ship_at[p]}"
            if self.hidden[p]:
                assert self.card(self.ship_at[p]).kind == data.COVE, (
                    f"P{p + 1} hidden off a cove")
        assert -1 <= self.navy_at < 16, f"navy at {self.navy_at}"
        # phase: a finished game has no steps; a running one waits on a decision
        if self.over:
            assert not self.steps and self.battle is None, "steps left after the end"
        else:
            assert top is not None and len(top.players) == 1, "no decision pending"
            assert 0 <= top.players[0] < self.pirate_count, f"decision for seat {top.players[0]}"
            resolving = any(step.kind == T_RESOLVE for step in self.steps)
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
        return (float(self.legend_level[player]), float(self.gold[player]),
                float(len(self.booty[player])))

    def winners(self) -> tuple[int, ...]:
        if not self.over:
            return ()
        seats = range(self.pirate_count)
        key = {p: (len(self.treasures[p]), *self.tiebreak(p)) for p in seats}
        top = max(key.values())
        return tuple(p for p in seats if key[p] == top and p < self.n)

    # ------------------------------------------------------------------ view
    def _view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)

    # ------------------------------------------------------------------ clone / resample
    def clone(self) -> PiratesState:
        s: PiratesState = self._clone_base()
        s.ruleset = self.ruleset
        s.solo_pirate = self.solo_pirate
        s.pirate_count = self.pirate_count
        s.maps = self.maps
        s.ports = self.ports
        s.wheel = self.wheel
        s.captain = self.captain
        s.mask_index = self.mask_index
        s.search_tokens = self.search_tokens[:]
        s.box_tokens = self.box_tokens[:]
        s.market = self.market[:]
        s.bag = self.bag[:]
        s.merchant_at = self.merchant_at[:]
        s.merchant_heading = self.merchant_heading[:]
        s.merchant_cube = self.merchant_cube[:]
        s.merchant_card = self.merchant_card[:]
        s.merchant_deck = self.merchant_deck[:]
        s.merchant_cards_removed = self.merchant_cards_removed
        s.crew_line = self.crew_line[:]
        s.crew_deck = self.crew_deck[:]
        s.crew_bottom_seen = self.crew_bottom_seen
        s.navy_at = self.navy_at
        s.captain_side = self.captain_side[:]
        s.wheel_deckhands = [w[:] for w in self.wheel_deckhands]
        s.captain_space = self.captain_space[:]
        s.assignments = [a[:] for a in self.assignments]
        s.deckhand_on_legend_mat = self.deckhand_on_legend_mat[:]
        s.legend_level = self.legend_level[:]
        s.bloody = self.bloody[:]
        s.gold = self.gold[:]
        s.treasures = [t[:] for t in self.treasures]
        s.booty = [b[:] for b in self.booty]
        s.crew = [c[:] for c in self.crew]
        s.surefire = self.surefire[:]
        s.surefire_supply = self.surefire_supply
        s.sail_tokens = [t[:] for t in self.sail_tokens]
        s.ship_at = self.ship_at[:]
        s.hidden = self.hidden[:]
        s.turn = self.turn
        s.end_triggered = self.end_triggered
        s.over = self.over
        s.crossed_ship_line = self.crossed_ship_line
        s.extort_at_line = self.extort_at_line
        s.extort_before_hide_out = self.extort_before_hide_out
        s.placed_on_extort = self.placed_on_extort
        s.moves_used = self.moves_used
        s.sail_bonus = self.sail_bonus
        s.crew_line_refreshed = self.crew_line_refreshed
        s.rerolls = self.rerolls
        s.bonus_left = self.bonus_left[:]
        s.battle = self.battle               # a frozen record: shared
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        # face-down search tokens (on the sea and in the box)
        down = [i for i in range(16) if self.search_tokens[i] >= 0]
        # sorted first, so the sample depends on what the player sees, not the real order
        pool = sorted([self.search_tokens[i] for i in down] + self.box_tokens)
        rng.shuffle(pool)
        for i in down:
            self.search_tokens[i] = pool.pop()
        self.box_tokens = pool
        # the unseen part of the crew deck (cards put on the bottom were seen)
        k = len(self.crew_deck) - self.crew_bottom_seen
        top = sorted(self.crew_deck[self.crew_bottom_seen :])
        rng.shuffle(top)
        self.crew_deck[self.crew_bottom_seen :] = top
        assert len(top) == k
        # merchant deck: sorted by value, so nothing unknown to reshuffle; the bag holds
        # counts only (its draws are chance, reseeded by redeterminize)
