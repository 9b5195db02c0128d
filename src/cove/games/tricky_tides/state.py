"""Tricky Tides: the state of a game, its set-up, the flow of rounds and hands, and scoring.

Representation (chosen for speed):

- cards are ints ``suit * 8 + value - 1``; a hand is a 32-bit mask;
- cells are ints 0..11 in reading order; ``layout[cell]`` is the island card there and
  ``sea[cell]`` says whether it was flipped to open sea (both fixed after setup);
- goods are count arrays: ``goods[cell * 5 + type]``, ``hold[player * 5 + type]``, ``bag[type]``;
- every action is a shared :class:`Act` int (``actions.py``), so ``action in legal`` stays
  in C; the legal list of the pending decision is computed once per decision, when the
  state settles after an action (the core's ``settle`` also takes forced single choices
  and resolves steps with nothing to choose);
- the sail actions per (cell, card) are tables precomputed per map geometry, and the
  geometry in force is one :class:`~cove.games.tricky_tides.sailing.Geometry` int
  (``geo``); so ``clone()`` copies a handful of flat lists and shares the rest.

The flow is the core's decision stack (:mod:`cove.core.decisions`): one
:class:`~cove.core.decisions.Step` per pending decision and one rule per kind of step
(``rules.py``: first leader, ship placement, play a card, sail (heading or anchor), open
sea (stop or sail on), pick up / deliver / pass, overboard; the monster steps are in
``monsters.py``). A hand pushes one card play per player; the trick pushes one sail step per
ship in the sailing order; a sail pushes open-sea or pick-up steps, a full hold an overboard
step; when the stack runs empty the hand is over (:meth:`TidesState.next_steps`). A step
with exactly one legal action is carried out at once and not offered (a forced move is not
a decision); ``phase``, ``cur`` and ``heading`` are read from the top step.

The event and monster modules (options ``events`` / ``monsters``) live in ``events.py``
and ``monsters.py``; this file calls them at a few hooks: :meth:`_begin_round` (the next
event is revealed and its :class:`~cove.games.tricky_tides.round_rules.Rules` put in force),
:meth:`_before_sailing` (monster activations are pushed, phase ``MONSTER``),
:meth:`_set_geometry` (wrapping, Strong Currents, Doldrums, Fog Bank), and a few checks of
the ``ex`` bit mask (0 in the base game, so the base pays one int test per hook). State
that only the modules change sits in ``mod`` (an immutable :class:`Modules`, shared by
clones) and ``mact`` (the monster activation in progress).

Imports run one way: ``events.py``, ``monsters.py`` and ``rules.py`` read
:class:`TidesState` only for type checking (its fields and the helpers they share are
methods of the state they are handed), and take the step kinds, the shared step values and
:class:`~cove.games.tricky_tides.decision_stack.TidesRule` from ``decision_stack.py``; this
file imports them all, so no module imports another that imports it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from cove.core.decisions import Step, StepRule
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.tricky_tides import events, monsters, rules, view
from cove.games.tricky_tides.actions import CARD_TEXT, Act
from cove.games.tricky_tides.chance import draws, shuffle
from cove.games.tricky_tides.constants import (
    ALL_CARDS,
    DEAL,
    EVENT_INDEX,
    HANDS,
    ISLAND_COLOUR,
    ISLAND_GOODS,
    ORDER_GOLD,
    ORDER_PAIRS,
    ORDER_SUIT,
    RG,
    ROUNDS,
    SELL,
    G,
)
from cove.games.tricky_tides.data import CUBES, DATA, NAV_CARDS
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
    EX_DRAW,
    EX_EVENTS,
    EX_MONSTERS,
    EX_REVERSE,
    EX_TAX,
)
from cove.games.tricky_tides.sailing import Geometry, deck_headings
from cove.games.tricky_tides.view import card_dict, goods_dict, sight_dict, sight_text


def popcount(x: int) -> int:
    return x.bit_count()


def goods_text(counts: Sequence[int]) -> str:
    return ", ".join(f"{counts[t]} {DATA.goods[t]}" for t in RG if counts[t]) or "nothing"


TIEBREAK = ("most order cards delivered", "most goods in the hold")
"""What :meth:`TidesState.tiebreak` compares, in its order (R9.2): the one source for the
end screens, the web and the help."""


class TidesState(State):
    """A game of Tricky Tides: every field, the set-up, the flow of rounds and hands, the
    helpers the rules and both modules share (chance, geometry, places), scoring and the
    conformance hooks. The decision steps are in ``rules.py``."""

    __slots__ = (
        "anchors",
        "aside",
        "bag",
        "bag_n",
        "colour",
        "ex",
        "geo",
        "goods",
        "hand_no",
        "hands",
        "hcount",
        "hold",
        "hold_limit",
        "layout",
        "lead",
        "leader",
        "mact",
        "mod",
        "odeck",
        "orders_on",
        "played",
        "pos",
        "round",
        "sea",
        "sight",
        "sight_out",
        "sorder",
        "spent",
        "tpos",
        "trick",
        "voids",
        "won",
    )

    aside: int
    anchors: int
    bag: list[int]
    bag_n: int
    colour: tuple[int, ...]
    ex: int
    geo: Geometry
    goods: list[int]
    hand_no: int
    hands: list[int]
    hcount: list[int]
    hold: list[int]
    hold_limit: int
    lead: int
    leader: int
    layout: tuple[int, ...]
    mact: Activation | None
    mod: Modules
    odeck: list[int]
    orders_on: list[int]
    played: int
    pos: list[int]
    round: int
    sea: tuple[bool, ...]
    sight: tuple[int, ...]
    sight_out: tuple[int, ...]
    sorder: tuple[int, ...]
    spent: int
    tpos: int
    trick: list[int]
    voids: int
    won: list[tuple[int, ...]]

    STEPS: ClassVar[Mapping[str, StepRule[Any]]] = rules.STEPS

    # -- the pending step, read from the decision stack ----------------------------------
    @property
    def phase(self) -> int:
        """The kind of decision pending (``PLACE`` ... ``LEADER``); ``OVER`` once the stack
        is empty."""
        top = self.top_step
        return PHASE_OF[top.kind] if top is not None else OVER

    @property
    def cur(self) -> int:
        """The player deciding now; -1 once the game is over."""
        top = self.top_step
        return top.players[0] if top is not None and top.players else -1

    @property
    def heading(self) -> int:
        """The heading of a ship on open sea (step ``open_sea``); -1 otherwise."""
        top = self.top_step
        return top.data[0] if top is not None and top.kind == K_SEA else -1

    def _opts(self) -> TidesOptions:
        # (not typing.cast: that is a call, and some moves ask for an option)
        return self.options  # type: ignore[return-value]

    def _set_geometry(self, wrap: bool | None = None) -> None:
        """The one place where map geometry is chosen, from the rules in force: wrapping
        (Edge of the World; ``wrap`` overrides it), the sailing stride (Strong Currents)
        and which card headings count (Doldrums, Fog Bank). ``runs`` (open sea) always
        follows single steps."""
        r = self.mod.rules
        opts = self._opts()
        if wrap is None:               # option edge_wrap=monsters: ships never wrap
            wrap = r.wrap and opts.edge_wrap == "all"
        self.geo = Geometry.make(self.sea, wrap, r.stride, r.headings,
                                 opts.nav_deck == "flat")

    def one_step(self) -> tuple[tuple[int, ...], ...]:
        """The single-card step table of the monsters (moves, the whale's line, adjacency):
        they wrap whenever Edge of the World is in force, whatever option edge_wrap."""
        return WRAPPED if self.mod.rules.wrap else BOUNDED

    def monster_runs(self) -> tuple[tuple[int, ...], ...]:
        """The open-sea run table for monster moves (see :meth:`one_step`)."""
        one = self.one_step()
        geo = self.geo
        return geo.runs if one is geo.one else sea_runs(one, self.sea)

    def _draw(self) -> int:
        """One cube drawn at random from the bag (the caller checks the bag is not empty):
        one chance outcome of ``bag_n`` through the state's rng, so the chance record
        holds it."""
        return self._take(self.rng.below(self.bag_n))

    def _take(self, r: int) -> int:
        """Take the ``r``-th cube of the bag (cubes counted type by type): its type."""
        bag = self.bag
        self.bag_n -= 1
        for t in RG:
            r -= bag[t]
            if r < 0:
                bag[t] -= 1
                return t
        raise AssertionError("bag count out of step")  # pragma: no cover

    def _draw_cubes(self, m: int) -> list[int]:
        """``m`` cubes drawn one after the other from the bag (at most ``bag_n``): their
        types, in order. The same draws as ``m`` calls of :meth:`_draw`, with the chance
        outcomes batched (:func:`draws`)."""
        return [self._take(r) for r in draws(self.rng, self.bag_n, m)]

    def _draw_order(self) -> int:
        """The top card of the face-down order deck. The deck is kept as an unordered pile
        and the top card is drawn uniformly from it, which is the same as shuffling once
        and drawing from the top (and leaves no hidden order to resample). Cards put under
        the deck (the Sea Dragon) come after the pile, in the order they went there."""
        deck = self.odeck
        if not deck:
            bottom = self.mod.obottom
            self.mod = self.mod._replace(obottom=bottom[1:])
            return bottom[0]
        i = self.rng.below(len(deck))
        deck[i], deck[-1] = deck[-1], deck[i]
        return deck.pop()

    def _fill_islands(self) -> None:
        """Every island, in reading order, draws from the bag until it holds its number of
        goods (never removing any); the bag may run out on the way (R2.10, R8.3)."""
        goods = self.goods
        sea = self.sea
        layout = self.layout
        need: list[int] = []
        for c in range(CELLS):
            b = c * G
            need.append(0 if sea[c] else ISLAND_GOODS[layout[c]] - (
                goods[b] + goods[b + 1] + goods[b + 2] + goods[b + 3] + goods[b + 4]))
        cubes = self._draw_cubes(min(sum(k for k in need if k > 0), self.bag_n))
        i = 0
        for c in range(CELLS):
            k = need[c]
            if k > 0:
                b = c * G
                for t in cubes[i:i + k]:
                    goods[b + t] += 1
                i += k

    def _start_sailing(self) -> None:
        """Every ship sails in the sailing order: one sail step per player."""
        self.push(*SAILING[self.sorder])

    def _place(self, c: int) -> str:
        if self.sea[c]:
            return f"{CELL_NAMES[c]} (open sea)"
        return f"{CELL_NAMES[c]} ({DATA.islands[self.layout[c]].name})"

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        n = self.n
        rng = self.rng
        # R2.2: every cube in the bag
        self.bag = list(DATA.cubes)
        self.bag_n = CUBES
        self.spent = 0
        self.hold = [0] * (n * G)
        self.hcount = [0] * n
        self.won = [()] * n
        self.anchors = (1 << n) - 1                 # R2.1: one anchor each
        self.hold_limit = BASE_RULES.hold_limit     # R7.1: 7 [SEED]
        self.ex = 0
        self.mod = NO_MODULES
        self.mact = None
        # R2.3: secret sightings cards; the rest stay out of play, unseen
        sc = list(range(len(DATA.sightings)))
        shuffle(rng, sc)
        self.sight = tuple(sc[:n])
        self.sight_out = tuple(sc[n:])
        opts = self._opts()
        # each seat's ship colour (option ship_colours, chosen before the map is laid out)
        self.colour = tuple(int(c) - 1 for c in opts.seat_colours(n))
        self.goods = [0] * (CELLS * G)
        self.orders_on = [-1] * CELLS
        self.odeck = list(range(len(DATA.orders)))
        # cards: none dealt yet
        self.hands = [0] * n
        self.aside = ALL_CARDS
        self.played = 0
        self.voids = 0
        self.trick = [-1] * n
        self.tpos = 0
        self.sorder = ()
        self.round = 0
        self.hand_no = 0
        self.pos = [-1] * n
        if self.logging:
            for p in range(n):
                self.say(f"Your secret sightings card is {sight_text(self.sight[p])}", to=p,
                         kind="sightings", data={"player": p,
                                                 "card": DATA.sightings[self.sight[p]].id})
        if opts.first_leader == "ask":
            # R2.4 asked: the map is laid out first (it does not depend on the leader) so the
            # view is whole while the table answers; P1 enters the answer
            self._lay_out()
            self.leader = self.lead = 0
            self.push(LEADER_STEP)
        else:
            # R2.4: the first leader, at random (the engine cannot know who was on a boat)
            self.leader = self.lead = rng.below(n)
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
        for i, t in enumerate(self._draw_cubes(n - 1), 1):
            p = (self.leader + i) % n
            self.hold[p * G + t] += 1
            self.hcount[p] += 1
        if not laid_out:
            self._lay_out()
        # R2.8: ship placement, counter-clockwise from the leader's right; the leader is last
        self.then(*[PLACE_STEPS[(self.leader - i) % n] for i in range(1, n + 1)])
        opts = self._opts()
        if opts.events:
            events.setup(self)         # R12.1: the event deck, shuffled face down
        if opts.monsters:
            monsters.setup(self)       # R14.1: monster standees on their icon islands
        if self.logging:
            self.say(f"P{self.leader + 1} is the first leader and holds the rum barrel",
                     kind="leader", data={"player": self.leader})
            for p in range(n):
                if self.hcount[p]:
                    self.say(f"P{p + 1} draws {goods_text(self.hold[p * G:p * G + G])}",
                             kind="draw", data={"player": p,
                                                "goods": goods_dict(self.hold[p * G:p * G + G])})
            if n < 4:
                flipped = ", ".join(CELL_NAMES[c] for c in range(CELLS) if self.sea[c])
                self.say(f"Islands of unclaimed colours flipped to open sea: {flipped}")

    def _after_placement(self) -> None:
        """R2.9-R2.11 once every ship is placed, then the first round starts."""
        # R2.9: one order on each island's East shore, each drawn as _draw_order does
        islands = [c for c in range(CELLS) if not self.sea[c]]
        deck = self.odeck
        picks = draws(self.rng, len(deck), len(islands))
        for c, i in zip(islands, picks, strict=True):
            deck[i], deck[-1] = deck[-1], deck[i]
            self.orders_on[c] = deck.pop()
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
        dealt = 0
        for p in range(self.n):
            m = 0
            for c in deck[p * DEAL:(p + 1) * DEAL]:
                m |= 1 << c
            hands[p] = m
            dealt |= m
        self.aside = ALL_CARDS ^ dealt
        self.played = 0
        self.voids = 0
        if self.logging:
            for p in range(self.n):
                cards = ", ".join(CARD_TEXT[c] for c in range(NAV_CARDS) if hands[p] >> c & 1)
                self.say(f"You are dealt {cards}", to=p, kind="deal",
                         data={"player": p, "cards": [CARD_TEXT[c] for c in range(NAV_CARDS)
                                                      if hands[p] >> c & 1]})

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
        if self.ex & EX_EVENTS:
            events.reveal(self)
        self._deal()
        if self.logging:
            self.say(f"Round {self.round + 1} begins; P{self.leader + 1} leads", kind="round",
                     data={"round": self.round + 1, "leader": self.leader})
        return self._start_hand()

    def _start_hand(self) -> tuple[Step, ...]:
        """A hand starts: every player plays a card, clockwise from the leader."""
        n = self.n
        self.lead = self.leader
        self.trick = [-1] * n
        self.tpos = 0
        return HAND_STEPS[n][self.leader]

    def _end_trick(self) -> None:
        """Everyone has played: find the winner and the sailing order."""
        n = self.n
        trick = self.trick
        lead = self.lead
        led = trick[lead] >> 3
        winner = lead
        best = trick[lead]
        for p in range(n):
            c = trick[p]
            if c >> 3 == led and c > best:
                best = c
                winner = p
        base = winner if self._opts().sail_ties_from == "winner" else lead
        # the others by (not of the led suit, higher value first, seats from ``base``), as
        # one int key per seat with the seat in its lowest 2 bits
        keys = [(trick[p] >> 3 != led) << 7 | (7 - (trick[p] & 7)) << 4
                | ((p - base) % n) << 2 | p for p in range(n) if p != winner]
        keys.sort()
        self.sorder = (winner, *[k & 3 for k in keys])
        if self.ex & EX_REVERSE:       # Trade Winds: the leader sails last
            self.sorder = self.sorder[::-1]
        self.leader = winner
        if self.logging:
            order = ", ".join(f"P{p + 1}" for p in self.sorder)
            self.say(f"P{winner + 1} wins the hand with {CARD_TEXT[best]} and takes the rum "
                     f"barrel; sailing order {order}", kind="trick",
                     data={"winner": winner, "card": CARD_TEXT[best],
                           "sail_order": list(self.sorder)})
        self._before_sailing()

    def _before_sailing(self) -> None:
        """Monsters are activated here, before any ship sails (monster module)."""
        if self.ex & EX_MONSTERS:
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
        if self.hcount[p] > self.hold_limit:
            self.push(OVERBOARD_STEPS[p])

    def _end_round(self) -> tuple[Step, ...]:
        """The last hand of a round is over: the game ends, or the islands are refilled
        and the next round begins."""
        # the last 2 cards of every hand are discarded unplayed
        for p in range(self.n):
            self.played |= self.hands[p]
            self.hands[p] = 0
        self.round += 1
        self.hand_no = 0
        if self.round >= ROUNDS:
            if self.logging:
                sc = self.scores()
                self.say("Game over. Scores: " + ", ".join(
                    f"P{p + 1} {sc[p]:g}" for p in range(self.n)), kind="score",
                    data={"scores": sc})
                for p in range(self.n):
                    self.say(f"P{p + 1} reveals sightings card "
                             f"{sight_text(self.sight[p])}", kind="sightings",
                             data={"player": p, "card": DATA.sightings[self.sight[p]].id})
            return ()
        self._fill_islands()            # refill in reading order; the bag may run out
        if self.logging:
            self.say(f"Round {self.round} ends: islands refilled, cards reshuffled")
        return self._begin_round()

    # ------------------------------------------------------------------ the decision stack
    def _place_ship(self, p: int, c: int) -> None:
        self.pos[p] = c
        if self.logging:
            self.say(f"P{p + 1} places their ship at {self._place(c)}", kind="place",
                     data={"player": p, "cell": CELL_NAMES[c]})
        if p == self.leader:
            self._after_placement()

    def _pick(self, p: int, t: int, t2: int = -1) -> None:
        """Pick up all goods of type ``t`` (and of ``t2`` under Smugglers)."""
        c = self.pos[p]
        goods = self.goods
        for u in (t,) if t2 < 0 else (t, t2):
            i = c * G + u
            k = goods[i]
            goods[i] = 0
            self.hold[p * G + u] += k
            self.hcount[p] += k
            if self.logging:
                self.say(f"P{p + 1} picks up {k} {DATA.goods[u]} at {CELL_NAMES[c]}" if u == t
                         else f"P{p + 1} also picks up {k} {DATA.goods[u]} (smugglers)",
                         kind="pick_up", data={"player": p, "goods": DATA.goods[u],
                                               "count": k, "cell": CELL_NAMES[c]})
        self._end_turn(p)

    def _deliver(self, p: int, tax: int = -1) -> None:
        c = self.pos[p]
        o = self.orders_on[c]
        hold = self.hold
        hb = p * G
        to_bag = self._opts().delivered_goods_to_bag
        for t, k in ORDER_PAIRS[o]:
            hold[hb + t] -= k
            self.hcount[p] -= k
            if to_bag:
                self.bag[t] += k
                self.bag_n += k
            else:
                self.spent += k
        self.won[p] = (*self.won[p], o)
        self.orders_on[c] = self._draw_order() if self.odeck or self.mod.obottom else -1
        if self.logging:
            od = DATA.orders[o]
            self.say(f"P{p + 1} delivers order {od.id} ({od.gold} gold, "
                     f"{DATA.suits[od.monster]}) at {CELL_NAMES[c]}", kind="deliver",
                     data={"player": p, "order": od.id, "gold": od.gold,
                           "cell": CELL_NAMES[c]})
        if self.ex & (EX_TAX | EX_DRAW):
            events.after_delivery(self, p, tax)
        self._end_turn(p)

    # ------------------------------------------------------------------ the contract
    @property
    def is_over(self) -> bool:
        return not self.steps

    def score_parts(self, p: int) -> tuple[int, int, int]:
        """(order gold, sightings bonus, leftover goods sold) for player ``p``."""
        won = self.won[p]
        bonus = DATA.sightings[self.sight[p]].bonus
        gold = sum(ORDER_GOLD[o] for o in won)
        extra = sum(bonus[ORDER_SUIT[o]] for o in won)
        hb = p * G
        sold = sum(self.hold[hb + t] // SELL[t] for t in RG)
        return gold, extra, sold

    def scores(self) -> list[float]:
        return [float(sum(self.score_parts(p))) for p in range(self.n)]

    def stats(self) -> dict[str, float | str]:
        return {"orders_delivered": float(sum(len(w) for w in self.won))}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """What breaks a tie of scores, in the order of :data:`TIEBREAK` (R9.2)."""
        return (float(len(self.won[player])), float(self.hcount[player]))

    def clone(self) -> TidesState:
        s: TidesState = self._clone_base()
        s.aside = self.aside
        s.anchors = self.anchors
        s.bag = self.bag[:]
        s.bag_n = self.bag_n
        s.colour = self.colour
        s.ex = self.ex
        s.geo = self.geo
        s.goods = self.goods[:]
        s.hand_no = self.hand_no
        s.hands = self.hands[:]
        s.hcount = self.hcount[:]
        s.hold = self.hold[:]
        s.hold_limit = self.hold_limit
        s.lead = self.lead
        s.leader = self.leader
        s.layout = self.layout
        s.mact = self.mact
        s.mod = self.mod
        s.odeck = self.odeck[:]
        s.orders_on = self.orders_on[:]
        s.played = self.played
        s.pos = self.pos[:]
        s.round = self.round
        s.sea = self.sea
        s.sight = self.sight
        s.sight_out = self.sight_out
        s.sorder = self.sorder
        s.spent = self.spent
        s.tpos = self.tpos
        s.trick = self.trick[:]
        s.voids = self.voids
        s.won = self.won[:]
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
        ph = self.phase
        self._check_cubes()
        self._check_cards(ph)
        self._check_orders_and_sightings()
        self._check_flow(ph)
        self._check_modules()

    def _check_cubes(self) -> None:
        bag, goods, hold = self.bag, self.goods, self.hold
        cubes = (sum(bag) + sum(goods) + sum(hold) + self.spent
                 + monsters.pending_cubes(self))
        if cubes != CUBES:
            raise AssertionError(f"{cubes} goods cubes accounted for, not {CUBES}")
        if min(bag) < 0 or min(goods) < 0 or min(hold) < 0 or self.spent < 0:
            raise AssertionError("a negative goods count")
        if self.bag_n != sum(bag):
            raise AssertionError(f"bag_n {self.bag_n} but the bag holds {sum(bag)}")
        for p in range(self.n):
            if self.hcount[p] != sum(hold[p * G:p * G + G]):
                raise AssertionError(f"P{p + 1}'s hold count {self.hcount[p]} is wrong")

    def _check_cards(self, ph: int) -> None:
        union = total = 0
        for m in (*self.hands, self.aside, self.played):
            if union & m:
                raise AssertionError("a navigation card is in two places")
            union |= m
            total += m.bit_count()
        if union != ALL_CARDS or total != NAV_CARDS:
            raise AssertionError(f"{total} navigation cards accounted for, not {NAV_CARDS}")
        if ph in (PLACE, LEADER):
            if any(self.hands) or self.played:
                raise AssertionError("cards dealt before the ships are placed")
        elif ph != OVER:
            for p in range(self.n):
                want = DEAL - self.hand_no - (self.trick[p] >= 0)
                if self.hands[p].bit_count() != want:
                    raise AssertionError(f"P{p + 1} holds {self.hands[p].bit_count()} cards "
                                         f"in hand {self.hand_no + 1}, not {want}")

    def _check_orders_and_sightings(self) -> None:
        orders = sorted([*self.odeck, *self.mod.obottom,
                         *(o for o in self.orders_on if o >= 0), *(o for w in self.won for o in w)])
        if orders != list(range(len(DATA.orders))):
            raise AssertionError(f"orders accounted for: {len(orders)} (or one twice), "
                                 f"not {len(DATA.orders)}")
        if any(o >= 0 and self.sea[c] for c, o in enumerate(self.orders_on)):
            raise AssertionError("an order lies on open sea")
        if sorted((*self.sight, *self.sight_out)) != list(range(len(DATA.sightings))):
            raise AssertionError("a sightings card is missing or dealt twice")

    def _check_steps(self) -> None:
        n = self.n
        if not all(st.kind in rules.STEPS and all(0 <= q < n for q in st.players)
                   for st in self.steps):
            raise AssertionError(f"an unknown step or seat on the stack: {self.steps}")

    def _check_flow(self, ph: int) -> None:
        n = self.n
        if not (0 <= self.round <= ROUNDS and 0 <= self.hand_no < HANDS
                and 0 <= self.leader < n and 0 <= self.lead < n
                and 0 <= self.anchors < 1 << n):
            raise AssertionError(f"a counter out of range: round {self.round}, hand "
                                 f"{self.hand_no}, leader {self.leader}, phase {ph}")
        if (ph == OVER) != (self.round == ROUNDS):
            raise AssertionError(f"phase {PHASE_NAMES[ph]} in round {self.round + 1}")
        if ph not in (PLACE, LEADER) and not all(0 <= c < CELLS for c in self.pos):
            raise AssertionError(f"a ship is off the map: {self.pos}")
        if ph != OVER and not 0 <= self.cur < n:
            raise AssertionError(f"no player to move in phase {PHASE_NAMES[ph]}")

    def _check_modules(self) -> None:
        opts = self._opts()
        mod = self.mod
        if opts.events:             # every chosen event card: face up or in the deck
            deck = sorted([*mod.edeck, *([mod.event] if mod.event >= 0 else [])])
            if deck != sorted(EVENT_INDEX[k] for k in opts.event_deck):
                raise AssertionError(f"event cards accounted for: {deck}")
            if not 0 <= mod.eknown <= len(mod.edeck):
                raise AssertionError(f"{mod.eknown} known event cards in a deck of "
                                     f"{len(mod.edeck)}")
        if opts.monsters:           # 4 monsters, on islands, never two on one
            mp = mod.mpos
            if len(mp) != 4 or len(set(mp)) != 4 or not all(0 <= c < CELLS and not self.sea[c]
                                                            for c in mp):
                raise AssertionError(f"monster positions {mp}")

    def private_items(self, player: int) -> dict[str, Any]:
        """The viewer's hand and (until the end reveals it) their sightings card, exactly
        as in ``view(player)``."""
        heads = deck_headings(self._opts().nav_deck == "flat")
        out: dict[str, Any] = {"hand": [card_dict(c, heads) for c in range(NAV_CARDS)
                                        if self.hands[player] >> c & 1]}
        if self.phase != OVER:
            out["sightings"] = sight_dict(self.sight[player])
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
        caps = [popcount(self.hands[q]) for q in others] + [popcount(self.aside)]
        accept = [0xF & ~(self.voids >> (q * 4)) for q in others] + [0xF]
        new = _constrained_deal(pool, caps, accept, rng)
        for i, q in enumerate(others):
            self.hands[q] = new[i]
        self.aside = new[-1]
        # The pile is unordered (drawn uniformly); sorting makes the sampled world depend
        # only on what the player sees, not on where the real cards happen to lie.
        self.odeck.sort()
        if self.ex & EX_EVENTS:
            events.resample(self, rng)
        if self.phase == OVER:
            return            # the sightings cards are revealed at the end
        hidden = sorted([self.sight[q] for q in others] + list(self.sight_out))
        rng.shuffle(hidden)
        sight = list(self.sight)
        for i, q in enumerate(others):
            sight[q] = hidden[i]
        self.sight = tuple(sight)
        self.sight_out = tuple(hidden[len(others):])

    # ------------------------------------------------------------------ view
    def _view(self, player: int | None) -> dict[str, Any]:
        return view.view_of(self, player)

    # ------------------------------------------------------------------ the legal mask
    def _legal_indices(self, player: int, legal: tuple[Any, ...]) -> list[int]:
        """Every configuration's universe is the action codes in order (see ``universe``
        in ``actions.py``), so an action's index is its code (as a plain int: an ``Act``
        prints as its text)."""
        return list(map(int, cast("tuple[Act, ...]", legal)))


_SUIT_CARDS = tuple(sum(0xFF << (8 * s) for s in range(4) if m >> s & 1) for m in range(16))
"""Bit mask of the navigation cards whose suit is in a 4-bit suit mask (card c has suit
c >> 3)."""
_DEAL_TRIES = 8
"""Quick deals tried before the card-by-card deal that is always feasible."""


def _constrained_deal(pool: int, caps: list[int], accept: list[int], rng: Rng) -> list[int]:
    """Deal the cards of ``pool`` so holder i gets exactly ``caps[i]`` cards, all of suits
    in its ``accept`` mask (bit s = suit s allowed), uniformly enough for search.

    Only for redeterminization (a bot's sampled world), never for the real game's deal.
    Usually one quick deal (:func:`_quick_deal`, exact when at most one holder's suit
    limit binds) succeeds; after ``_DEAL_TRIES`` failed ones the card-by-card deal
    (:func:`_careful_deal`), which never fails, is used."""
    cards = [c for c in range(NAV_CARDS) if pool >> c & 1]
    present = 0
    for c in cards:
        present |= 1 << (c >> 3)
    bound = [i for i in range(len(caps)) if caps[i] and accept[i] & present != present]
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
    out = [0] * len(caps)
    rest = cards
    for i in bound:
        ok_mask = _SUIT_CARDS[accept[i]]
        ok = [c for c in rest if ok_mask >> c & 1]
        k = caps[i]
        if len(ok) < k:
            return None
        hand = 0
        for j in range(k):  # the first k of a partial Fisher-Yates shuffle
            r = j + rng.below(len(ok) - j)
            ok[j], ok[r] = ok[r], ok[j]
            hand |= 1 << ok[j]
        out[i] = hand
        rest = [c for c in rest if not hand >> c & 1]
    rest = rest[:] if rest is cards else rest
    rng.shuffle(rest)
    k = 0
    for i, cap in enumerate(caps):
        if cap and i not in bound:
            hand = 0
            for c in rest[k:k + cap]:
                hand |= 1 << c
            out[i] = hand
            k += cap
    return out


def _careful_deal(cards: list[int], caps: list[int], accept: list[int], rng: Rng
                  ) -> list[int]:
    """Each card, in random order, goes to a random holder that keeps the rest feasible,
    checked with Hall's condition over sets of suits (cards of one suit are
    interchangeable, so checking the 15 suit subsets is exact)."""
    cards = cards[:]
    rng.shuffle(cards)
    left = [0] * 4
    for c in cards:
        left[c >> 3] += 1
    caps = caps[:]
    out = [0] * len(caps)
    for c in cards:
        s = c >> 3
        left[s] -= 1
        options = [i for i in range(len(caps)) if caps[i] and accept[i] >> s & 1]
        rng.shuffle(options)
        for i in options:
            caps[i] -= 1
            if _feasible(left, caps, accept):
                out[i] |= 1 << c
                break
            caps[i] += 1
        else:  # pragma: no cover - the real deal proves a feasible one exists
            raise AssertionError("no consistent deal exists")
    return out


def _feasible(left: list[int], caps: list[int], accept: list[int]) -> bool:
    for sub in range(1, 16):
        need = sum(left[s] for s in range(4) if sub >> s & 1)
        if need and need > sum(caps[i] for i in range(len(caps)) if accept[i] & sub):
            return False
    return True

