"""Tricky Tides: the state of a game, its set-up, the flow of rounds and hands, and scoring.

Representation (chosen for speed):

- cards are ints ``suit * 8 + value - 1``; a hand is a set of cards held as one int, read
  and changed only through the named set operations of ``constants.py`` (``has``,
  ``without``, ``cards_in``...);
- cells are ints 0..11 in reading order; ``layout[cell]`` is the island card there and
  ``sea[cell]`` says whether it was flipped to open sea (both fixed after setup);
- goods are count arrays: ``goods[cell * 5 + type]``, ``hold[player * 5 + type]``, ``bag[type]``;
- every action is a shared :class:`Act` int (``actions.py``), so ``action in legal`` stays
  in C; the legal list of the pending decision is computed once per decision, when the
  state settles after an action (the core's ``settle`` also takes forced single choices
  and resolves steps with nothing to choose);
- the sail actions per (cell, card) are tables precomputed per map geometry, and the
  geometry in force is one :class:`~cove.games.tricky_tides.sailing.Geometry` int
  (``geometry``); so ``clone()`` copies a handful of flat lists and shares the rest.

The flow is the core's decision stack (:mod:`cove.core.decisions`): one
:class:`~cove.core.decisions.Step` per pending decision and one rule per kind of step
(``rules.py``: first leader, ship placement, play a card, sail (heading or anchor), open
sea (stop or sail on), pick up / deliver / pass, overboard; the monster steps are in
``monsters.py``). A hand pushes one card play per player; the trick pushes one sail step per
ship in the sailing order; a sail pushes open-sea or pick-up steps, a full hold an overboard
step; when the stack runs empty the hand is over (:meth:`TidesState.next_steps`). A step
with exactly one legal action is carried out at once and not offered (a forced move is not
a decision); ``phase``, ``current`` and ``heading`` are read from the top step.

The event and monster modules (options ``events`` / ``monsters``) live in ``events.py``
and ``monsters.py``; this file calls them at a few hooks: :meth:`_begin_round` (the next
event is revealed and its :class:`~cove.games.tricky_tides.round_rules.Rules` put in force),
:meth:`_before_sailing` (monster activations are pushed, phase ``MONSTER``),
:meth:`_set_geometry` (wrapping, Strong Currents, Doldrums, Fog Bank), and a few checks of
the ``hooks`` flags (0 in the base game, so the base pays one int test per hook). State
that only the modules change sits in ``modules`` (an immutable :class:`Modules`, shared by
clones) and ``activation`` (the monster activation in progress).

Imports run one way: ``events.py``, ``monsters.py`` and ``rules.py`` read
:class:`TidesState` only for type checking (its fields and the helpers they share are
methods of the state they are handed), and take the step kinds, the shared step values and
:class:`~cove.games.tricky_tides.decision_stack.TidesRule` from ``decision_stack.py``; this
file imports them all, so no module imports another that imports it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, cast

from cove.core import Rng, State, Step, StepRule, replaced
from cove.core.bits import first_n, has, including, members, minus, set_of, size
from cove.games.tricky_tides import events, monsters, rules, view
from cove.games.tricky_tides.actions import CARD_TEXT, Act
from cove.games.tricky_tides.chance import draws, shuffle
from cove.games.tricky_tides.constants import (
    ALL_CARDS,
    ALL_SUITS,
    CARD_SUIT,
    CARD_VALUE,
    DEAL,
    EVENT_INDEX,
    EVERY_GOODS_TYPE,
    HANDS,
    ISLAND_COLOUR,
    ISLAND_GOODS,
    NO_CARDS,
    ORDER_GOLD,
    ORDER_PAIRS,
    ORDER_SUIT,
    ROUNDS,
    SELL,
    SUIT_CARDS,
    cards_in,
    suit_of,
    void_suits,
)
from cove.games.tricky_tides.data import CUBES, DATA, GOODS_TYPES, NAV_CARDS, SUITS, VALUES
from cove.games.tricky_tides.decision_stack import (
    ACTION_STEPS,
    HAND_STEPS,
    K_SEA,
    LEADER,
    LEADER_STEP,
    OVER,
    OVERBOARD_STEPS,
    PHASE_NAMES,
    PHASE_OF,
    PLACE,
    PLACE_STEPS,
    SAILING,
)
from cove.games.tricky_tides.geometry import BOUNDED, CELL_NAMES, CELLS, WRAPPED, sea_runs
from cove.games.tricky_tides.module_state import NO_MODULES, Activation, Modules
from cove.games.tricky_tides.options import TidesOptions
from cove.games.tricky_tides.round_rules import (
    BASE_RULES,
    HOOK_DRAW,
    HOOK_EVENTS,
    HOOK_MONSTERS,
    HOOK_REVERSE,
    HOOK_TAX,
)
from cove.games.tricky_tides.sailing import Geometry, deck_headings
from cove.games.tricky_tides.view import card_dict, goods_dict, sight_dict, sight_text


def goods_text(counts: Sequence[int]) -> str:
    return ", ".join(f"{counts[t]} {DATA.goods[t]}" for t in EVERY_GOODS_TYPE
                     if counts[t]) or "nothing"


TIEBREAK: Final = ("most order cards delivered", "most goods in the hold")
"""What :meth:`TidesState.tiebreak` compares, in its order (R9.2): the one source for the
end screens, the web and the help."""


class TidesState(State[TidesOptions]):
    """A game of Tricky Tides: every field, the set-up, the flow of rounds and hands, the
    helpers the rules and both modules share (chance, geometry, places), scoring and the
    conformance hooks. The decision steps are in ``rules.py``."""

    __slots__ = (
        "activation",
        "anchors",
        "aside",
        "bag",
        "bag_count",
        "cards_in_trick",
        "colour",
        "delivered",
        "geometry",
        "goods",
        "hand_no",
        "hands",
        "hold",
        "hold_count",
        "hold_limit",
        "hooks",
        "layout",
        "leader",
        "led_by",
        "modules",
        "order_deck",
        "orders_on",
        "played",
        "round",
        "sailing_order",
        "sea",
        "ship_cells",
        "sightings",
        "sightings_out",
        "spent_goods",
        "trick",
        "voids",
    )

    activation: Activation | None
    """The monster activation in progress (monster module), None between them."""
    anchors: int
    """The seats that still hold their anchor token (a set of seats)."""
    aside: int
    """The navigation cards set aside unseen this round (a set of cards)."""
    bag: list[int]
    """The cubes in the draw bag, per goods type."""
    bag_count: int
    """How many cubes the bag holds (the sum of ``bag``)."""
    cards_in_trick: int
    """How many cards the current hand's trick holds so far."""
    colour: tuple[int, ...]
    """Each seat's ship colour, 0..3."""
    delivered: tuple[tuple[int, ...], ...]
    """Each seat's delivered order cards, in the order delivered."""
    geometry: Geometry
    """The sailing tables of the map geometry in force."""
    goods: bytearray
    """The cubes on each map card: ``goods[cell * 5 + type]`` (a count per byte: a clone
    copies a block of memory, not an int object per entry)."""
    hand_no: int
    """The hand of the round, 0..5."""
    hands: list[int]
    """Each seat's hand (a set of cards)."""
    hold: bytearray
    """Each ship's cargo: ``hold[player * 5 + type]`` (a count per byte, as ``goods``)."""
    hold_count: list[int]
    """How many cubes each ship's hold has (the sum of its part of ``hold``)."""
    hold_limit: int
    """The hold limit in force (7, or the Storm event's)."""
    hooks: int
    """The module hooks that are live (``round_rules.HOOK_*`` flags; 0 in the base game)."""
    layout: tuple[int, ...]
    """The island card on each cell."""
    led_by: int
    """The seat that led the current hand."""
    leader: int
    """The seat holding the rum barrel: the last hand's winner, who leads the next hand."""
    modules: Modules
    """What only the event and monster modules change (shared by clones)."""
    order_deck: tuple[int, ...]
    """The face-down order deck, an unordered pile (see :meth:`_draw_order`)."""
    orders_on: tuple[int, ...]
    """The face-up order on each cell, -1: none. This, ``order_deck`` and ``delivered``
    change a few times a round: tuples, replaced when they change (``cove.core.replaced``)
    and shared by clones."""
    played: int
    """The cards played (or discarded) this round (a set of cards)."""
    round: int
    """The round, 0..2; 3 once the game is over."""
    sailing_order: tuple[int, ...]
    """The seats in the order their ships sail this hand."""
    sea: tuple[bool, ...]
    """Whether each cell is open sea."""
    ship_cells: list[int]
    """The cell of each seat's ship, -1 before it is placed."""
    sightings: tuple[int, ...]
    """Each seat's secret sightings card."""
    sightings_out: tuple[int, ...]
    """The sightings cards out of play, unseen."""
    spent_goods: int
    """Delivered cubes out of play (option ``delivered_goods_to_bag=false``)."""
    trick: list[int]
    """Each seat's card in the current hand, -1: none yet."""
    voids: int
    """The suits each seat has shown it lacks this round (``constants.known_void``)."""

    STEPS: ClassVar[Mapping[str, StepRule[Any]]] = rules.STEPS

    # -- the pending step, read from the decision stack ----------------------------------
    @property
    def phase(self) -> int:
        """The kind of decision pending (``PLACE`` ... ``LEADER``); ``OVER`` once the stack
        is empty."""
        top = self.top_step
        return PHASE_OF[top.kind] if top is not None else OVER

    @property
    def current(self) -> int:
        """The player deciding now; -1 once the game is over."""
        top = self.top_step
        return top.players[0] if top is not None and top.players else -1

    @property
    def heading(self) -> int:
        """The heading of a ship on open sea (step ``open_sea``); -1 otherwise."""
        top = self.top_step
        return top.data.heading if top is not None and top.kind == K_SEA else -1

    def led_suit(self) -> int:
        """The suit of the card that led the current hand (once it is played)."""
        return CARD_SUIT[self.trick[self.led_by]]

    def _set_geometry(self, wrap: bool | None = None) -> None:
        """The one place where map geometry is chosen, from the rules in force: wrapping
        (Edge of the World; ``wrap`` overrides it), the sailing stride (Strong Currents)
        and which card headings count (Doldrums, Fog Bank). ``runs`` (open sea) always
        follows single steps."""
        in_force = self.modules.rules
        options = self.options
        if wrap is None:               # option edge_wrap=monsters: ships never wrap
            wrap = in_force.wrap and options.edge_wrap == "all"
        self.geometry = Geometry.make(self.sea, wrap, in_force.stride, in_force.headings,
                                      options.nav_deck == "flat")

    def one_step(self) -> tuple[tuple[int, ...], ...]:
        """The single-card step table of the monsters (moves, the whale's line, adjacency):
        they wrap whenever Edge of the World is in force, whatever option edge_wrap."""
        return WRAPPED if self.modules.rules.wrap else BOUNDED

    def monster_runs(self) -> tuple[tuple[int, ...], ...]:
        """The open-sea run table for monster moves (see :meth:`one_step`)."""
        one = self.one_step()
        geometry = self.geometry
        return geometry.runs if one is geometry.one else sea_runs(one, self.sea)

    def _draw(self) -> int:
        """One cube drawn at random from the bag (the caller checks the bag is not empty):
        one chance outcome of ``bag_count`` through the state's rng, so the chance record
        holds it."""
        return self._take(self.rng.below(self.bag_count))

    def _take(self, index: int) -> int:
        """Take the ``index``-th cube of the bag (cubes counted type by type): its type."""
        bag = self.bag
        self.bag_count -= 1
        for goods_type in EVERY_GOODS_TYPE:
            index -= bag[goods_type]
            if index < 0:
                bag[goods_type] -= 1
                return goods_type
        raise AssertionError("bag count out of step")  # pragma: no cover

    def _draw_cubes(self, count: int) -> list[int]:
        """``count`` cubes drawn one after the other from the bag (at most ``bag_count``):
        their types, in order. The same draws as ``count`` calls of :meth:`_draw`, with the
        chance outcomes batched (:func:`draws`)."""
        return [self._take(index) for index in draws(self.rng, self.bag_count, count)]

    def _draw_order(self) -> int:
        """The top card of the face-down order deck. The deck is kept as an unordered pile
        and the top card is drawn uniformly from it, which is the same as shuffling once
        and drawing from the top (and leaves no hidden order to resample). Cards put under
        the deck (the Sea Dragon) come after the pile, in the order they went there."""
        deck = self.order_deck
        if not deck:
            under = self.modules.orders_under
            self.modules = self.modules._replace(orders_under=under[1:])
            return under[0]
        i = self.rng.below(len(deck))
        card = deck[i]
        self.order_deck = replaced(deck, i, deck[-1])[:-1]  # the last card fills its place
        return card

    def _fill_islands(self) -> None:
        """Every island, in reading order, draws from the bag until it holds its number of
        goods (never removing any); the bag may run out on the way (R2.10, R8.3)."""
        goods = self.goods
        sea = self.sea
        layout = self.layout
        need: list[int] = []
        for cell in range(CELLS):
            base = cell * GOODS_TYPES
            need.append(0 if sea[cell] else ISLAND_GOODS[layout[cell]] - (
                goods[base] + goods[base + 1] + goods[base + 2] + goods[base + 3]
                + goods[base + 4]))
        cubes = self._draw_cubes(min(sum(k for k in need if k > 0), self.bag_count))
        i = 0
        for cell in range(CELLS):
            k = need[cell]
            if k > 0:
                base = cell * GOODS_TYPES
                for goods_type in cubes[i:i + k]:
                    goods[base + goods_type] += 1
                i += k

    def _start_sailing(self) -> None:
        """Every ship sails in the sailing order: one sail step per player."""
        self.push(*SAILING[self.sailing_order])

    def _place_name(self, cell: int) -> str:
        """The cell and what lies there, for the log: ``b2 (Inkwell Isle)``."""
        if self.sea[cell]:
            return f"{CELL_NAMES[cell]} (open sea)"
        return f"{CELL_NAMES[cell]} ({DATA.islands[self.layout[cell]].name})"

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        n = self.n
        rng = self.rng
        # R2.2: every cube in the bag
        self.bag = list(DATA.cubes)
        self.bag_count = CUBES
        self.spent_goods = 0
        self.hold = bytearray(n * GOODS_TYPES)
        self.hold_count = [0] * n
        self.delivered = ((),) * n
        self.anchors = first_n(n)                   # R2.1: one anchor each
        self.hold_limit = BASE_RULES.hold_limit     # R7.1: 7 [SEED]
        self.hooks = 0
        self.modules = NO_MODULES
        self.activation = None
        # R2.3: secret sightings cards; the rest stay out of play, unseen
        cards = list(range(len(DATA.sightings)))
        shuffle(rng, cards)
        self.sightings = tuple(cards[:n])
        self.sightings_out = tuple(cards[n:])
        options = self.options
        # each seat's ship colour (option ship_colours, chosen before the map is laid out)
        self.colour = tuple(int(c) - 1 for c in options.seat_colours(n))
        self.goods = bytearray(CELLS * GOODS_TYPES)
        self.orders_on = (-1,) * CELLS
        self.order_deck = tuple(range(len(DATA.orders)))
        # cards: none dealt yet
        self.hands = [NO_CARDS] * n
        self.aside = ALL_CARDS
        self.played = NO_CARDS
        self.voids = 0
        self.trick = [-1] * n
        self.cards_in_trick = 0
        self.sailing_order = ()
        self.round = 0
        self.hand_no = 0
        self.ship_cells = [-1] * n
        if self.logging:
            for p in range(n):
                self.say(f"Your secret sightings card is {sight_text(self.sightings[p])}",
                         to=p, kind="sightings",
                         data={"player": p, "card": DATA.sightings[self.sightings[p]].id})
        if options.first_leader == "ask":
            # R2.4 asked: the map is laid out first (it does not depend on the leader) so the
            # view is whole while the table answers; P1 enters the answer
            self._lay_out()
            self.leader = self.led_by = 0
            self.push(LEADER_STEP)
        else:
            # R2.4: the first leader, at random (the engine cannot know who was on a boat)
            self.leader = self.led_by = rng.below(n)
            self._after_leader(laid_out=False)
        self.settle()

    def _lay_out(self) -> None:
        """R2.6/R2.7: islands shuffled into the grid; unclaimed colours flipped to open sea."""
        layout = list(range(len(DATA.islands)))
        shuffle(self.rng, layout)
        self.layout = tuple(layout)
        claimed = self.colour
        self.sea = tuple([ISLAND_COLOUR[i] >= 0 and ISLAND_COLOUR[i] not in claimed
                          for i in layout])
        self._set_geometry()

    def _after_leader(self, laid_out: bool) -> None:
        """Set-up once the first leader is known: R2.5, the map (R2.6/R2.7) unless already
        laid out, then ship placement (R2.8) and the modules."""
        n = self.n
        # R2.5: everyone but the leader draws one good, clockwise from the leader's left
        for i, goods_type in enumerate(self._draw_cubes(n - 1), 1):
            p = (self.leader + i) % n
            self.hold[p * GOODS_TYPES + goods_type] += 1
            self.hold_count[p] += 1
        if not laid_out:
            self._lay_out()
        # R2.8: ship placement, counter-clockwise from the leader's right; the leader is last
        self.then(*[PLACE_STEPS[(self.leader - i) % n] for i in range(1, n + 1)])
        options = self.options
        if options.events:
            events.setup(self)         # R12.1: the event deck, shuffled face down
        if options.monsters:
            monsters.setup(self)       # R14.1: monster standees on their icon islands
        if self.logging:
            self.say(f"P{self.leader + 1} is the first leader and holds the rum barrel",
                     kind="leader", data={"player": self.leader})
            for p in range(n):
                if self.hold_count[p]:
                    hold = self.hold[p * GOODS_TYPES:(p + 1) * GOODS_TYPES]
                    self.say(f"P{p + 1} draws {goods_text(hold)}", kind="draw",
                             data={"player": p, "goods": goods_dict(hold)})
            if n < 4:
                flipped = ", ".join(CELL_NAMES[c] for c in range(CELLS) if self.sea[c])
                self.say(f"Islands of unclaimed colours flipped to open sea: {flipped}")

    def _after_placement(self) -> None:
        """R2.9-R2.11 once every ship is placed, then the first round starts."""
        # R2.9: one order on each island's East shore, each drawn as _draw_order does
        islands = [c for c in range(CELLS) if not self.sea[c]]
        deck = list(self.order_deck)
        orders_on = list(self.orders_on)
        picks = draws(self.rng, len(deck), len(islands))
        for cell, i in zip(islands, picks, strict=True):
            deck[i], deck[-1] = deck[-1], deck[i]
            orders_on[cell] = deck.pop()
        self.order_deck = tuple(deck)
        self.orders_on = tuple(orders_on)
        self._fill_islands()              # R2.10: goods per island, reading order
        if self.logging:
            self.say("Orders dealt and islands stocked")
        self.then(*self._begin_round())

    # ------------------------------------------------------------------ chance helpers
    def _deal(self) -> None:
        """R2.11: shuffle all 32 navigation cards, 8 to each player, the rest set aside.
        A partial Fisher-Yates over the dealt part only, its outcomes drawn together
        (:func:`~cove.games.tricky_tides.chance.draws`)."""
        deck = list(range(NAV_CARDS))
        k = min(self.n * DEAL, NAV_CARDS - 1)
        for i, u in enumerate(draws(self.rng, NAV_CARDS, k)):
            j = i + u
            deck[i], deck[j] = deck[j], deck[i]
        hands = self.hands
        dealt = NO_CARDS
        for p in range(self.n):
            hands[p] = set_of(deck[p * DEAL:(p + 1) * DEAL])
            dealt |= hands[p]
        self.aside = minus(ALL_CARDS, dealt)
        self.played = NO_CARDS
        self.voids = 0
        if self.logging:
            for p in range(self.n):
                cards = [CARD_TEXT[c] for c in cards_in(hands[p])]
                self.say(f"You are dealt {', '.join(cards)}", to=p, kind="deal",
                         data={"player": p, "cards": cards})

    # ------------------------------------------------------------------ round / hand flow
    def next_steps(self) -> Sequence[Step]:
        """The stack is empty: every ship has sailed, the hand is over. The next hand's
        card plays, or the round ends (and the next one starts, or the game is over)."""
        if self.round >= ROUNDS:
            return ()
        self.hand_no += 1
        if self.hand_no < HANDS:
            return self._start_hand()
        return self._end_round()

    def _begin_round(self) -> tuple[Step, ...]:
        """Start of a round: reveal the next event (event module), deal, the leader leads."""
        if self.hooks & HOOK_EVENTS:
            events.reveal(self)
        self._deal()
        if self.logging:
            self.say(f"Round {self.round + 1} begins; P{self.leader + 1} leads", kind="round",
                     data={"round": self.round + 1, "leader": self.leader})
        return self._start_hand()

    def _start_hand(self) -> tuple[Step, ...]:
        """A hand starts: every player plays a card, clockwise from the leader."""
        n = self.n
        self.led_by = self.leader
        self.trick = [-1] * n
        self.cards_in_trick = 0
        return HAND_STEPS[n][self.leader]

    def _end_trick(self) -> None:
        """Everyone has played: find the winner (R3.3) and the sailing order (R4)."""
        n = self.n
        trick = self.trick
        led_by = self.led_by
        led = CARD_SUIT[trick[led_by]]
        winner = led_by
        best = trick[led_by]
        for p in range(n):
            card = trick[p]
            if CARD_SUIT[card] == led and card > best:    # the same suit: the higher value
                best = card
                winner = p
        base = winner if self.options.sail_ties_from == "winner" else led_by
        # the others by (not of the led suit, higher value first, seats clockwise from
        # ``base``), as one int key per seat with the seat in its lowest 2 bits
        keys = [(CARD_SUIT[trick[p]] != led) << 7 | (VALUES - CARD_VALUE[trick[p]]) << 4
                | ((p - base) % n) << 2 | p for p in range(n) if p != winner]
        keys.sort()
        self.sailing_order = (winner, *[k & 3 for k in keys])
        if self.hooks & HOOK_REVERSE:       # Trade Winds: the leader sails last
            self.sailing_order = self.sailing_order[::-1]
        self.leader = winner
        if self.logging:
            order = ", ".join(f"P{p + 1}" for p in self.sailing_order)
            self.say(f"P{winner + 1} wins the hand with {CARD_TEXT[best]} and takes the rum "
                     f"barrel; sailing order {order}", kind="trick",
                     data={"winner": winner, "card": CARD_TEXT[best],
                           "sail_order": list(self.sailing_order)})
        self._before_sailing()

    def _before_sailing(self) -> None:
        """Monsters are activated here, before any ship sails (monster module)."""
        if self.hooks & HOOK_MONSTERS:
            monsters.begin(self)
        else:
            self._start_sailing()

    def _arrive(self, p: int) -> None:
        """The ship of ``p`` has finished sailing (or stayed docked): pick up or deliver.
        (The event module's changes are rules in force all round, ``Rules``, so nothing
        resolves here first.)"""
        self.push(ACTION_STEPS[p])

    def _end_turn(self, p: int) -> None:
        """The sailing player discards their card (already in ``played``); the next sailor's
        step is already on the stack. First the hold limit is checked (after a pick up, or
        when an event lowered it or added goods): over it, the player throws goods
        overboard first."""
        if self.hold_count[p] > self.hold_limit:
            self.push(OVERBOARD_STEPS[p])

    def _end_round(self) -> tuple[Step, ...]:
        """The last hand of a round is over: the game ends, or the islands are refilled
        and the next round begins."""
        # the last 2 cards of every hand are discarded unplayed
        for p in range(self.n):
            self.played |= self.hands[p]
            self.hands[p] = NO_CARDS
        self.round += 1
        self.hand_no = 0
        if self.round >= ROUNDS:
            if self.logging:
                scores = self.scores()
                self.say("Game over. Scores: " + ", ".join(
                    f"P{p + 1} {scores[p]:g}" for p in range(self.n)), kind="score",
                    data={"scores": scores})
                for p in range(self.n):
                    self.say(f"P{p + 1} reveals sightings card "
                             f"{sight_text(self.sightings[p])}", kind="sightings",
                             data={"player": p, "card": DATA.sightings[self.sightings[p]].id})
            return ()
        self._fill_islands()            # refill in reading order; the bag may run out
        if self.logging:
            self.say(f"Round {self.round} ends: islands refilled, cards reshuffled")
        return self._begin_round()

    # ------------------------------------------------------------------ the decision stack
    def _place_ship(self, p: int, cell: int) -> None:
        self.ship_cells[p] = cell
        if self.logging:
            self.say(f"P{p + 1} places their ship at {self._place_name(cell)}", kind="place",
                     data={"player": p, "cell": CELL_NAMES[cell]})
        if p == self.leader:
            self._after_placement()

    def _pick(self, p: int, goods_type: int, second_type: int = -1) -> None:
        """Pick up all goods of ``goods_type`` (and of ``second_type`` under Smugglers)."""
        cell = self.ship_cells[p]
        goods = self.goods
        for t in (goods_type,) if second_type < 0 else (goods_type, second_type):
            i = cell * GOODS_TYPES + t
            k = goods[i]
            goods[i] = 0
            self.hold[p * GOODS_TYPES + t] += k
            self.hold_count[p] += k
            if self.logging:
                self.say(f"P{p + 1} picks up {k} {DATA.goods[t]} at {CELL_NAMES[cell]}"
                         if t == goods_type
                         else f"P{p + 1} also picks up {k} {DATA.goods[t]} (smugglers)",
                         kind="pick_up", data={"player": p, "goods": DATA.goods[t],
                                               "count": k, "cell": CELL_NAMES[cell]})
        self._end_turn(p)

    def _deliver(self, p: int, tax: int = -1) -> None:
        """Deliver the order on the ship's island (R6.3), paying ``tax`` under Harbor Tax."""
        cell = self.ship_cells[p]
        order = self.orders_on[cell]
        hold = self.hold
        base = p * GOODS_TYPES
        to_bag = self.options.delivered_goods_to_bag
        for goods_type, k in ORDER_PAIRS[order]:
            hold[base + goods_type] -= k
            self.hold_count[p] -= k
            if to_bag:
                self.bag[goods_type] += k
                self.bag_count += k
            else:
                self.spent_goods += k
        self.delivered = replaced(self.delivered, p, (*self.delivered[p], order))
        self.orders_on = replaced(self.orders_on, cell, self._draw_order() if self.order_deck
                                  or self.modules.orders_under else -1)
        if self.logging:
            card = DATA.orders[order]
            self.say(f"P{p + 1} delivers order {card.id} ({card.gold} gold, "
                     f"{DATA.suits[card.monster]}) at {CELL_NAMES[cell]}", kind="deliver",
                     data={"player": p, "order": card.id, "gold": card.gold,
                           "cell": CELL_NAMES[cell]})
        if self.hooks & (HOOK_TAX | HOOK_DRAW):
            events.after_delivery(self, p, tax)
        self._end_turn(p)

    # ------------------------------------------------------------------ the contract
    def score_parts(self, p: int) -> tuple[int, int, int]:
        """(order gold, sightings bonus, leftover goods sold) for player ``p``."""
        delivered = self.delivered[p]
        bonus = DATA.sightings[self.sightings[p]].bonus
        gold = sum(ORDER_GOLD[o] for o in delivered)
        extra = sum(bonus[ORDER_SUIT[o]] for o in delivered)
        base = p * GOODS_TYPES
        sold = sum(self.hold[base + t] // SELL[t] for t in EVERY_GOODS_TYPE)
        return gold, extra, sold

    def scores(self) -> list[float]:
        return [float(sum(self.score_parts(p))) for p in range(self.n)]

    def stats(self) -> dict[str, float | str]:
        return {"orders_delivered": float(sum(len(d) for d in self.delivered))}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """What breaks a tie of scores, in the order of :data:`TIEBREAK` (R9.2)."""
        return (float(len(self.delivered[player])), float(self.hold_count[player]))

    def clone(self) -> TidesState:
        s: TidesState = self._clone_base()
        s.activation = self.activation
        s.anchors = self.anchors
        s.aside = self.aside
        s.bag = self.bag[:]
        s.bag_count = self.bag_count
        s.cards_in_trick = self.cards_in_trick
        s.colour = self.colour
        s.delivered = self.delivered
        s.geometry = self.geometry
        s.goods = self.goods.copy()
        s.hand_no = self.hand_no
        s.hands = self.hands[:]
        s.hold = self.hold.copy()
        s.hold_count = self.hold_count[:]
        s.hold_limit = self.hold_limit
        s.hooks = self.hooks
        s.layout = self.layout
        s.led_by = self.led_by
        s.leader = self.leader
        s.modules = self.modules
        s.order_deck = self.order_deck
        s.orders_on = self.orders_on
        s.played = self.played
        s.round = self.round
        s.sailing_order = self.sailing_order
        s.sea = self.sea
        s.ship_cells = self.ship_cells[:]
        s.sightings = self.sightings
        s.sightings_out = self.sightings_out
        s.spent_goods = self.spent_goods
        s.trick = self.trick[:]
        s.voids = self.voids
        return s

    # ------------------------------------------------------------------ conformance hooks
    def check_invariants(self) -> None:
        """Every cube, navigation card, order, sightings card, event card and monster is
        accounted for: the 78 cubes (bag, islands, holds, the whale's drawn goods,
        delivered goods out of play), the 32 navigation cards (hands, set aside, played,
        each once, hand sizes matching the hand number), the 36 orders, the 4 sightings
        cards, the event deck, the monsters (4, on islands, one per island) and the ships
        on the map; counters agree with what they count; the pending steps are known kinds
        decided by seats in range (``test_hooks.py`` breaks each on purpose)."""
        self._check_steps()
        phase = self.phase
        self._check_cubes()
        self._check_cards(phase)
        self._check_orders_and_sightings()
        self._check_flow(phase)
        self._check_modules()

    def _check_cubes(self) -> None:
        bag, goods, hold = self.bag, self.goods, self.hold
        cubes = (sum(bag) + sum(goods) + sum(hold) + self.spent_goods
                 + monsters.pending_cubes(self))
        if cubes != CUBES:
            raise AssertionError(f"{cubes} goods cubes accounted for, not {CUBES}")
        if min(bag) < 0 or min(goods) < 0 or min(hold) < 0 or self.spent_goods < 0:
            raise AssertionError("a negative goods count")
        if self.bag_count != sum(bag):
            raise AssertionError(f"bag_count {self.bag_count} but the bag holds {sum(bag)}")
        for p in range(self.n):
            if self.hold_count[p] != sum(hold[p * GOODS_TYPES:(p + 1) * GOODS_TYPES]):
                raise AssertionError(f"P{p + 1}'s hold count {self.hold_count[p]} is wrong")

    def _check_cards(self, phase: int) -> None:
        union = NO_CARDS
        total = 0
        for cards in (*self.hands, self.aside, self.played):
            if union & cards:
                raise AssertionError("a navigation card is in two places")
            union |= cards
            total += size(cards)
        if union != ALL_CARDS or total != NAV_CARDS:
            raise AssertionError(f"{total} navigation cards accounted for, not {NAV_CARDS}")
        if phase in (PLACE, LEADER):
            if any(self.hands) or self.played:
                raise AssertionError("cards dealt before the ships are placed")
        elif phase != OVER:
            for p in range(self.n):
                want = DEAL - self.hand_no - (self.trick[p] >= 0)
                held = size(self.hands[p])
                if held != want:
                    raise AssertionError(f"P{p + 1} holds {held} cards "
                                         f"in hand {self.hand_no + 1}, not {want}")

    def _check_orders_and_sightings(self) -> None:
        orders = sorted([*self.order_deck, *self.modules.orders_under,
                         *(o for o in self.orders_on if o >= 0),
                         *(o for d in self.delivered for o in d)])
        if orders != list(range(len(DATA.orders))):
            raise AssertionError(f"orders accounted for: {len(orders)} (or one twice), "
                                 f"not {len(DATA.orders)}")
        if any(o >= 0 and self.sea[c] for c, o in enumerate(self.orders_on)):
            raise AssertionError("an order lies on open sea")
        if sorted((*self.sightings, *self.sightings_out)) != list(range(len(DATA.sightings))):
            raise AssertionError("a sightings card is missing or dealt twice")

    def _check_steps(self) -> None:
        n = self.n
        if not all(st.kind in rules.STEPS and all(0 <= q < n for q in st.players)
                   for st in self.steps):
            raise AssertionError(f"an unknown step or seat on the stack: {self.steps}")

    def _check_flow(self, phase: int) -> None:
        n = self.n
        if not (0 <= self.round <= ROUNDS and 0 <= self.hand_no < HANDS
                and 0 <= self.leader < n and 0 <= self.led_by < n
                and 0 <= self.anchors <= first_n(n)):
            raise AssertionError(f"a counter out of range: round {self.round}, hand "
                                 f"{self.hand_no}, leader {self.leader}, phase {phase}")
        if (phase == OVER) != (self.round == ROUNDS):
            raise AssertionError(f"phase {PHASE_NAMES[phase]} in round {self.round + 1}")
        if phase not in (PLACE, LEADER) and not all(0 <= c < CELLS for c in self.ship_cells):
            raise AssertionError(f"a ship is off the map: {self.ship_cells}")
        if phase != OVER and not 0 <= self.current < n:
            raise AssertionError(f"no player to move in phase {PHASE_NAMES[phase]}")

    def _check_modules(self) -> None:
        options = self.options
        modules = self.modules
        if options.events:          # every chosen event card: face up or in the deck
            deck = sorted([*modules.event_deck, *([modules.event] if modules.event >= 0
                                                  else [])])
            if deck != sorted(EVENT_INDEX[k] for k in options.event_deck):
                raise AssertionError(f"event cards accounted for: {deck}")
            if not 0 <= modules.events_known <= len(modules.event_deck):
                raise AssertionError(f"{modules.events_known} known event cards in a deck of "
                                     f"{len(modules.event_deck)}")
        if options.monsters:        # 4 monsters, on islands, never two on one
            cells = modules.monster_cells
            if len(cells) != 4 or len(set(cells)) != 4 or not all(
                    0 <= c < CELLS and not self.sea[c] for c in cells):
                raise AssertionError(f"monster positions {cells}")

    def private_items(self, player: int) -> dict[str, Any]:
        """The viewer's hand and (until the end reveals it) their sightings card, exactly
        as in ``view(player)``."""
        heads = deck_headings(self.options.nav_deck == "flat")
        out: dict[str, Any] = {"hand": [card_dict(c, heads)
                                        for c in cards_in(self.hands[player])]}
        if self.phase != OVER:
            out["sightings"] = sight_dict(self.sightings[player])
        return out

    # ------------------------------------------------------------------ hidden information
    def _resample(self, player: int, rng: Rng) -> None:
        """Redeal what ``player`` cannot see: other hands and the set-aside cards (never a
        suit to a player known to be void in it), the other sightings cards, the order
        deck's order. The bag's make-up follows from public counts; its draw order is the
        reseeded rng's."""
        n = self.n
        others = [q for q in range(n) if q != player]
        pool = self.aside
        for q in others:
            pool |= self.hands[q]
        # holders: the other players, then the aside pile (which may take any suit)
        caps = [size(self.hands[q]) for q in others] + [size(self.aside)]
        accept = [minus(ALL_SUITS, void_suits(self.voids, q)) for q in others] + [ALL_SUITS]
        new = _constrained_deal(pool, caps, accept, rng)
        for i, q in enumerate(others):
            self.hands[q] = new[i]
        self.aside = new[-1]
        # The pile is unordered (drawn uniformly); sorting makes the sampled world depend
        # only on what the player sees, not on where the real cards happen to lie.
        self.order_deck = tuple(sorted(self.order_deck))
        if self.hooks & HOOK_EVENTS:
            events.resample(self, rng)
        if self.phase == OVER:
            return            # the sightings cards are revealed at the end
        hidden = sorted([self.sightings[q] for q in others] + list(self.sightings_out))
        rng.shuffle(hidden)
        sightings = list(self.sightings)
        for i, q in enumerate(others):
            sightings[q] = hidden[i]
        self.sightings = tuple(sightings)
        self.sightings_out = tuple(hidden[len(others):])

    # ------------------------------------------------------------------ view
    def _view(self, player: int | None) -> dict[str, Any]:
        return view.view_of(self, player)

    # ------------------------------------------------------------------ the legal mask
    def _legal_indices(self, player: int, legal: tuple[Any, ...]) -> list[int]:
        """Every configuration's universe is the action codes in order (see ``universe``
        in ``actions.py``), so an action's index is its code (as a plain int: an ``Act``
        prints as its text)."""
        return list(map(int, cast("tuple[Act, ...]", legal)))


_SUIT_CARDS: Final = tuple(sum(SUIT_CARDS[suit] for suit in members(suits))
                    for suits in range(first_n(SUITS) + 1))
"""``_SUIT_CARDS[suits]``: every navigation card whose suit is in the set of suits
``suits``."""
_DEAL_TRIES: Final = 8
"""Quick deals tried before the card-by-card deal that is always feasible."""


def _constrained_deal(pool: int, caps: list[int], accept: list[int], rng: Rng) -> list[int]:
    """Deal the cards of ``pool`` so holder i gets exactly ``caps[i]`` cards, all of suits
    in its ``accept`` set of suits, uniformly enough for search.

    Only for redeterminization (a bot's sampled world), never for the real game's deal.
    Usually one quick deal (:func:`_quick_deal`, exact when at most one holder's suit
    limit binds) succeeds; after ``_DEAL_TRIES`` failed ones the card-by-card deal
    (:func:`_careful_deal`), which never fails, is used."""
    cards = cards_in(pool)
    present = set_of(suit_of(c) for c in cards)
    bound = [i for i in range(len(caps)) if caps[i] and minus(present, accept[i])]
    for _ in range(_DEAL_TRIES):
        out = _quick_deal(cards, caps, accept, bound, rng)
        if out is not None:
            return out
    return _careful_deal(cards, caps, accept, rng)


def _quick_deal(cards: list[int], caps: list[int], accept: list[int], bound: list[int],
                rng: Rng) -> list[int] | None:
    """The holders whose suit limit binds (``bound``) draw their cards at random from the
    cards they may hold, in order; the rest of ``cards`` is shuffled and split among the
    others. None when a limited holder finds too few cards left. With no binding limit
    this is a plain uniform deal; with one it is uniform over the consistent deals."""
    out = [NO_CARDS] * len(caps)
    rest = cards
    for i in bound:
        allowed = _SUIT_CARDS[accept[i]]
        ok = [c for c in rest if has(allowed, c)]
        k = caps[i]
        if len(ok) < k:
            return None
        hand = NO_CARDS
        for j in range(k):  # the first k of a partial Fisher-Yates shuffle
            r = j + rng.below(len(ok) - j)
            ok[j], ok[r] = ok[r], ok[j]
            hand = including(hand, ok[j])
        out[i] = hand
        rest = [c for c in rest if not has(hand, c)]
    rest = rest[:] if rest is cards else rest
    rng.shuffle(rest)
    k = 0
    for i, cap in enumerate(caps):
        if cap and i not in bound:
            out[i] = set_of(rest[k:k + cap])
            k += cap
    return out


def _careful_deal(cards: list[int], caps: list[int], accept: list[int], rng: Rng
                  ) -> list[int]:
    """Each card, in random order, goes to a random holder that keeps the rest feasible,
    checked with Hall's condition over sets of suits (cards of one suit are
    interchangeable, so checking the 15 suit subsets is exact)."""
    cards = cards[:]
    rng.shuffle(cards)
    left = [0] * SUITS
    for c in cards:
        left[suit_of(c)] += 1
    caps = caps[:]
    out = [NO_CARDS] * len(caps)
    for c in cards:
        suit = suit_of(c)
        left[suit] -= 1
        options = [i for i in range(len(caps)) if caps[i] and has(accept[i], suit)]
        rng.shuffle(options)
        for i in options:
            caps[i] -= 1
            if _feasible(left, caps, accept):
                out[i] = including(out[i], c)
                break
            caps[i] += 1
        else:  # pragma: no cover - the real deal proves a feasible one exists
            raise AssertionError("no consistent deal exists")
    return out


def _feasible(left: list[int], caps: list[int], accept: list[int]) -> bool:
    """Hall's condition: for every set of suits, the cards of those suits still to deal
    fit in the holders that accept any of them."""
    for suits in range(1, first_n(SUITS) + 1):
        need = sum(left[s] for s in members(suits))
        if need and need > sum(caps[i] for i in range(len(caps)) if accept[i] & suits):
            return False
    return True
