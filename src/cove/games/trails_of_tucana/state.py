"""The state of a game of Trails of Tucana: its fields, the set-up (RULES.md R2), the
scores (R5-R8), the conformance hooks, the copies and the hidden information.

The decision steps that change it are in ``rules.py``, the sheets' networks in
``sheets.py``, what each seat sees in ``view.py``, the research encoding in
``observation.py`` and the action texts and numbering in ``actions.py``; the state's
``_view``, ``_match_action`` and ``_legal_indices`` are those modules' functions
themselves, bound as methods (no extra call).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from itertools import pairwise
from typing import Any, ClassVar, cast

from cove.core.decisions import Step, StepRule
from cove.core.rng import Rng
from cove.core.state import State
from cove.games.trails_of_tucana.actions import (
    ISLAND_ACTIONS,
    Action,
    IslandActions,
    legal_indices,
    match_action,
)
from cove.games.trails_of_tucana.data import (
    CARD_NAMES,
    KINDS,
    LETTER_NAMES,
    LETTERS,
    TABLES,
    TURNS_PER_ROUND,
    VILLAGES,
    Island,
)
from cove.games.trails_of_tucana.log_text import log_setup
from cove.games.trails_of_tucana.options import TucanaOptions
from cove.games.trails_of_tucana.rules import FLIP, STEPS
from cove.games.trails_of_tucana.sheets import VMASK, Snap, bits, commit, restore, root
from cove.games.trails_of_tucana.view import seat_view, sheet

DECK_COUNTS = [TABLES.deck.count(c) for c in range(len(CARD_NAMES))]
"""How many terrain cards of each kind the deck holds (``check_invariants``)."""


@cache
def _letters(seq: str, start: int, direction: int, symmetry: bool, n: int,
             ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Every seat's letter per village and village bitmask per letter (R2.2-R2.5), for a
    set-up card written from village ``start`` on: the same few hundred tables for every
    game, made once (a solo game is only 26 decisions long)."""
    letters = []
    pair_masks = []
    for p in range(n):
        first = start if symmetry else (start + p) % VILLAGES
        row = [0] * VILLAGES
        for k, ch in enumerate(seq):
            row[(first + direction * k) % VILLAGES] = LETTER_NAMES.index(ch)
        letters.append(tuple(row))
        pair_masks.append(
            tuple(sum(1 << v for v in range(VILLAGES) if row[v] == L) for L in range(LETTERS))
        )
    return tuple(letters), tuple(pair_masks)


TIEBREAK = ("most bonus points (blue and red cards)",)
"""What ``TucanaState.tiebreak`` compares, in its order, in words (R8.2): the one source
for the end screens, the web and RULES.md."""


class TucanaState(State):
    __slots__ = (
        "acts",
        "blue",
        "blue_pts",
        "blue_won",
        "bonus",
        "boxes",
        "cards",
        "circled",
        "deck",
        "direction",
        "drawn",
        "info",
        "isl",
        "kcount",
        "letters",
        "linked",
        "moves",
        "over",
        "pair_masks",
        "pairs",
        "par",
        "red",
        "red_on",
        "red_pts",
        "red_won",
        "rnd",
        "seen",
        "setup_card",
        "snap",
        "solo_dropped",
        "start",
        "turn",
        "turn_start",
    )

    DERIVED = ("acts", "isl")  # the island's tables and actions, from the map option

    STEPS: ClassVar[Mapping[str, StepRule[TucanaState]]] = STEPS

    isl: Island
    acts: IslandActions

    @property
    def opts(self) -> TucanaOptions:
        """``options``, as Trails of Tucana's own (the base class's attribute is typed
        Options, which a compiled subclass may not narrow)."""
        return cast(TucanaOptions, self.options)

    # the view and the action matching live in the modules named for them
    def _view(self, player: int | None) -> dict[str, Any]:
        return seat_view(self, player)

    def _match_action(self, seat: int, action: Any, legal: tuple[Hashable, ...]) -> Hashable:
        return match_action(self, seat, action, legal)

    def _legal_indices(self, player: int, legal: tuple[Hashable, ...]) -> list[int]:
        return legal_indices(self, player, legal)

    # -- set-up ------------------------------------------------------------------------
    def setup(self) -> None:
        o = self.opts
        n = self.n
        self.isl = TABLES.islands[o.map]
        self.acts = ISLAND_ACTIONS[o.map]
        rng = self.rng
        self.setup_card = o.setup_card - 1 if o.setup_card else rng.below(len(TABLES.setup_cards))
        seq = TABLES.setup_cards[self.setup_card]
        self.start = rng.below(VILLAGES) if o.random_start else 0
        self.direction = -1 if o.counter_clockwise else 1
        self._write_letters(seq)
        # blue cards: #1 only for 1-4 players, #1 over #2 for 5-8
        self.blue: list[tuple[int, ...]] = [t if n >= 5 else t[:1] for t in TABLES.blue]
        self.red_on = o.special_bonus
        self.red: list[int] = []
        if self.red_on:
            kinds = list(range(KINDS))
            rng.shuffle(kinds)
            self.red = sorted(kinds[: 2 if n >= 5 else 1])
        self.red_won: list[tuple[int, int, tuple[int, ...]]] = []  # (kind, value, winners)
        self.solo_dropped: list[int] = []
        self._new_sheets()
        # the turn
        self.bonus = [0] * n
        self.snap: list[Snap | None] = [None] * n
        self.moves: list[tuple[Action, ...]] = [()] * n
        # every seat's circled sights and joined pairs at the start of the turn
        self.turn_start: tuple[list[int], list[int]] = ([0] * n, [0] * n)
        self.rnd = 0
        self.turn = 0
        self.over = False
        self.cards: tuple[int, int] | None = None
        if self.logging:
            log_setup(self, seq)
        self._new_deck()
        self.settle()

    def _write_letters(self, seq: str) -> None:
        """Every seat writes the set-up card's letters into its villages (R2.2-R2.5)."""
        self.letters, self.pair_masks = _letters(
            seq, self.start, self.direction, self.opts.symmetry, self.n)

    def _new_sheets(self) -> None:
        """Every seat's empty sheet: no segments, circles, boxes or bonus cards."""
        n = self.n
        isl = self.isl
        size = isl.size
        self.drawn = [0] * n
        self.par = list(range(n * size))
        self.info = list(isl.info0) * n
        self.circled = [0] * n
        self.kcount = [0] * (n * KINDS)
        self.pairs = [0] * n
        self.linked = [0] * n
        self.boxes = [0] * (n * isl.rounds)
        self.blue_pts = [0] * n
        self.red_pts = [0] * n
        self.blue_won: list[tuple[tuple[int, int], ...]] = [()] * n

    def _new_deck(self) -> None:
        """A round begins: all 27 cards shuffled into a new deck (R3.10)."""
        self.deck = list(TABLES.deck)
        self.rng.shuffle(self.deck)
        self.seen: list[int] = []
        self.turn = 0

    def next_steps(self) -> Sequence[Step]:
        """The next turn, which opens with the flip of two cards; none once over."""
        return () if self.over else (FLIP,)

    # -- the contract ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def bstep(self) -> int:
        """0 in the draw step; k in the k-th bonus step of the turn (0 once over)."""
        top = self.top_step
        return int(top.data[0]) if top is not None else 0

    # -- scoring -----------------------------------------------------------------------
    def sight_sum(self, p: int, kcount: Sequence[int] | None = None) -> int:
        """Sum of the circled sight values on seat ``p``'s sheet."""
        if kcount is None:
            return self.isl.sight_points[self.circled[p]]
        return sum(map(tuple.__getitem__, self.isl.sight_cum, kcount))

    def pair_sum(self, pairs: int) -> int:
        """Points of the village pairs in ``pairs`` (a bitmask over the letters)."""
        return self.isl.pair_points[pairs]

    def _score(self, p: int) -> int:
        rounds = self.isl.rounds
        boxes = self.boxes[p * rounds : p * rounds + rounds]
        total = sum(boxes) + self.pair_sum(self.pairs[p]) + self.blue_pts[p] + self.red_pts[p]
        if not self.over:
            total += self.sight_sum(p)  # the current round, as if it ended now
        return total

    def scores(self) -> list[float]:
        return [float(self._score(p)) for p in range(self.n)]

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """``TIEBREAK``: the bonus points, blue and red cards together (R8.2)."""
        return (float(self.blue_pts[player] + self.red_pts[player]),)

    # -- conformance hooks ---------------------------------------------------------------
    def check_invariants(self) -> None:
        """Cards, bonus cards, sheets and the step bookkeeping are all accounted for."""
        self._check_flow()
        self._check_bonus_cards()
        movers = self.to_move()
        for p in range(self.n):
            self._check_sheet(p)
            acted = self.snap[p] is not None
            _need(not (acted and p in movers), f"P{p + 1}: decided in this step, still to move")
            if p in movers:
                _need(bool(self.bonus[p]) == bool(self.bstep),
                      f"P{p + 1}: moving in step {self.bstep} with {self.bonus[p]} owed")
        _need(self.over or not self.bstep or any(self.bonus), "a bonus step with nothing owed")

    def _check_flow(self) -> None:
        """Rounds, turns, the terrain deck and the pending step agree."""
        rounds = self.isl.rounds
        _need(0 <= self.rnd <= rounds and (self.rnd == rounds) == self.over,
              f"round {self.rnd} of {rounds} does not match over={self.over}")
        _need(0 <= self.turn <= TURNS_PER_ROUND, f"turn {self.turn} out of range")
        if self.over:
            _need(not self.steps and self.cards is None, "a finished game still has movers")
            return
        counts = [0] * len(CARD_NAMES)
        for c in self.deck + self.seen:
            counts[c] += 1
        _need(counts == DECK_COUNTS, f"terrain cards: deck + seen = {counts}")
        _need(len(self.seen) == 2 * (self.turn + 1) and len(self.deck) >= 1,
              f"{len(self.seen)} cards seen, {len(self.deck)} in the deck at turn {self.turn}")
        _need(self.cards is not None and list(self.cards) == self.seen[-2:],
              "the revealed cards are not the last two seen")
        steps = self.steps
        _need(len(steps) == 1 and steps[0].kind in ("draw", "bonus"),
              f"pending steps {steps}: one draw or bonus step expected")
        _need(bool(self.to_move()), "nobody to move in a running game")

    def _check_bonus_cards(self) -> None:
        n = self.n
        per_letter = 2 if n >= 5 else 1
        for L in range(LETTERS):
            taken = len({v for p in range(n) for (L2, v) in self.blue_won[p] if L2 == L})
            dropped = per_letter if L in self.solo_dropped else 0
            _need(len(self.blue[L]) + taken + dropped == per_letter,
                  f"blue cards {LETTER_NAMES[L]}: {self.blue[L]} left, {taken} taken, "
                  f"{dropped} discarded")
        if self.red_on:
            _need(len(self.red) + len(self.red_won) == (2 if n >= 5 else 1),
                  f"red cards: {self.red} left, {self.red_won} taken")

    def _check_sheet(self, p: int) -> None:
        """Seat ``p``'s segments, circles, pairs and boxes agree with its networks."""
        isl = self.isl
        rounds = isl.rounds
        _need(0 <= self.drawn[p] < 1 << len(isl.edges), f"P{p + 1}: a segment off the island")
        _need(0 <= self.bonus[p] <= KINDS, f"P{p + 1}: {self.bonus[p]} bonus segments owed")
        circled = self.circled[p]
        for k in range(KINDS):
            _need(self.kcount[p * KINDS + k] == (circled & isl.kind_mask[k]).bit_count(),
                  f"P{p + 1}: sight count of kind {k} disagrees with the circles")
        base = p * isl.size
        for i, sp in enumerate(isl.sight_space):
            linked = bool(self.info[root(self, base + sp)] & VMASK)
            _need(linked == bool(circled >> i & 1),
                  f"P{p + 1}: sight at {isl.labels[sp]} circled={bool(circled >> i & 1)} "
                  f"but linked to a village={linked}")
        for L, pm in enumerate(self.pair_masks[p]):
            va, vb = (isl.village_space[v] for v in bits(pm))
            joined = root(self, base + va) == root(self, base + vb)
            _need(joined == bool(self.pairs[p] >> L & 1),
                  f"P{p + 1}: pair {LETTER_NAMES[L]} scored={bool(self.pairs[p] >> L & 1)} "
                  f"but joined={joined}")
        boxes = self.boxes[p * rounds : p * rounds + rounds]
        _need(all(b == 0 for b in boxes[self.rnd:]), f"P{p + 1}: a box filled too early")
        _need(all(0 <= x <= y for x, y in pairwise(boxes[: self.rnd])),
              f"P{p + 1}: sight boxes {boxes} decrease")

    def private_items(self, player: int) -> dict[str, Any]:
        """``player``'s own sheet while their segment of this step is still hidden from
        the others (R3.8). Their ``this_turn`` and ``connected_this_turn`` lists are private
        too but not distinctive (two players may well both have ``["pass"]``), and they
        only ever describe what this sheet shows."""
        if self.snap[player] is None:
            return {}  # nothing pending: the whole sheet is public
        own = sheet(self, player, False)
        if own == sheet(self, player, True):
            return {}  # a pass leaves the sheet as the others see it
        return {"own_sheet": own}

    # -- copies and hidden information ---------------------------------------------------
    def clone(self) -> TucanaState:
        s: TucanaState = self._clone_base()
        s.isl = self.isl
        s.acts = self.acts
        s.letters = self.letters
        s.pair_masks = self.pair_masks
        s.setup_card = self.setup_card
        s.start = self.start
        s.direction = self.direction
        s.red_on = self.red_on
        s.rnd = self.rnd
        s.turn = self.turn
        s.turn_start = self.turn_start
        s.over = self.over
        s.cards = self.cards
        s.deck = self.deck[:]
        s.seen = self.seen[:]
        s.blue = self.blue[:]
        s.red = self.red[:]
        s.red_won = self.red_won[:]
        s.solo_dropped = self.solo_dropped
        s.drawn = self.drawn[:]
        s.par = self.par[:]
        s.info = self.info[:]
        s.circled = self.circled[:]
        s.kcount = self.kcount[:]
        s.pairs = self.pairs[:]
        s.linked = self.linked[:]
        s.boxes = self.boxes[:]
        s.blue_pts = self.blue_pts[:]
        s.red_pts = self.red_pts[:]
        s.blue_won = self.blue_won[:]
        s.bonus = self.bonus[:]
        s.snap = self.snap[:]
        s.moves = self.moves[:]
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        # the remaining deck order is unknown to everyone; sorting first makes the sample
        # depend only on what the player sees, not on the real order
        self.deck.sort()
        rng.shuffle(self.deck)
        # other players' decisions in this step are unknown: undo and redraw at random
        # (each mover makes exactly one decision per step, so one redraw each)
        for q in range(self.n):
            snap = self.snap[q]
            if q == player or snap is None:
                continue
            restore(self, q, snap)
            commit(self, q, cast(Action, rng.choice(self._legal_actions(q))))


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise AssertionError(f"trails-of-tucana: {what}")
