"""The state of a game of Trails of Tucana: its fields, the set-up (RULES.md R2), the
scores (R5-R8), the conformance hooks, the copies and the hidden information.

The decision steps that change it are in ``rules.py``, the sheets' networks in
``sheets.py``, what each seat sees in ``view.py``, the research encoding in
``observation.py`` and the action texts and numbering in ``actions.py``; the state's
``_view``, ``_match_action`` and ``_legal_indices`` are those modules' functions
themselves, bound as methods (no extra call).
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from itertools import pairwise
from typing import Any, ClassVar, Final, cast

from cove.core import Rng, State, Step, StepRule
from cove.core.bits import count_common, has, members, set_of
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
)
from cove.games.trails_of_tucana.island import Island
from cove.games.trails_of_tucana.log_text import log_setup
from cove.games.trails_of_tucana.options import TucanaOptions
from cove.games.trails_of_tucana.rules import FLIP, STEPS, WonBlueCard, WonRedCard
from cove.games.trails_of_tucana.sheets import (
    FEATURE_SETS,
    Snapshot,
    commit,
    drawn_on,
    restore,
    root,
    villages_in,
)
from cove.games.trails_of_tucana.view import seat_view, sheet

DECK_COUNTS: Final = [TABLES.deck.count(c) for c in range(len(CARD_NAMES))]
"""How many terrain cards of each kind the deck holds (``check_invariants``)."""


@cache
def _village_letters(card: str, start: int, direction: int, symmetry: bool, players: int,
                     ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Every seat's letter per village, and per letter the two villages that carry it (a
    set of villages, R2.2-R2.5), for a set-up card written from village ``start`` on: the
    same few hundred tables for every game, made once (a solo game is only 26 decisions
    long)."""
    letters = []
    village_pairs = []
    for seat in range(players):
        first = start if symmetry else (start + seat) % VILLAGES
        row = [0] * VILLAGES
        for k, name in enumerate(card):
            row[(first + direction * k) % VILLAGES] = LETTER_NAMES.index(name)
        letters.append(tuple(row))
        village_pairs.append(tuple(set_of(v for v in range(VILLAGES) if row[v] == letter)
                                   for letter in range(LETTERS)))
    return tuple(letters), tuple(village_pairs)


TIEBREAK: Final = ("most bonus points (blue and red cards)",)
"""What ``TucanaState.tiebreak`` compares, in its order, in words (R8.2): the one source
for the end screens, the web and RULES.md."""


class TucanaState(State[TucanaOptions]):
    """A game in play. Per seat (index ``p``; the flat ``parent`` and ``features`` hold
    ``p * size + i``; every other per-seat field holds one value per seat: a tuple of
    immutable values replaced when one changes, see ``sheets.py``, except ``moves`` and
    ``snapshots``, lists written at nearly every decision):

    - the sheet: ``letters`` (its letter per village), ``village_pairs`` (per letter, the
      set of its two villages), ``drawn`` (a flag per edge, 1 where a segment is drawn;
      ``bytes``), ``parent``
      and ``features`` (the networks' union-find and, at each root, the set of villages
      and sights it joins; see ``sheets.py``), ``circled`` (the set of circled sights),
      ``sight_counts`` (circled sights per kind), ``pairs`` (the set of letters whose
      villages are joined), ``linked`` (the set of red-card sight kinds linked to each
      other), ``boxes`` (the sight boxes, per round), ``blue_points``, ``blue_won``,
      ``red_points``;
    - the turn: ``bonus_owed``, ``moves`` (this turn's decisions), ``snapshots`` (the
      sheet before this step's decision, while it is hidden), ``circled_at_turn_start``
      and ``pairs_at_turn_start``.

    And for everyone: ``round``, ``turn``, ``deck`` (a tuple, its top card last),
    ``seen`` (this round's revealed cards), ``revealed`` (the turn's two cards),
    ``blue_cards`` (per letter, the blue bonus cards left, top first), ``red_cards`` (the
    sight kinds of the red cards left), ``red_won``, ``solo_discarded``, the set-up
    (``setup_card``, ``start_village``, ``direction``), ``special_bonus`` and ``over``."""

    __slots__ = (
        "blue_cards",
        "blue_points",
        "blue_won",
        "bonus_owed",
        "boxes",
        "circled",
        "circled_at_turn_start",
        "deck",
        "direction",
        "drawn",
        "features",
        "island",
        "island_actions",
        "letters",
        "linked",
        "moves",
        "over",
        "pairs",
        "pairs_at_turn_start",
        "parent",
        "red_cards",
        "red_points",
        "red_won",
        "revealed",
        "round",
        "seen",
        "setup_card",
        "sight_counts",
        "snapshots",
        "solo_discarded",
        "special_bonus",
        "start_village",
        "turn",
        "village_pairs",
    )

    DERIVED = ("island", "island_actions")  # the island's tables and actions, from the map

    STEPS: ClassVar[Mapping[str, StepRule[TucanaState]]] = STEPS

    island: Island
    island_actions: IslandActions

    # the view and the action matching live in the modules named for them
    def _view(self, player: int | None) -> dict[str, Any]:
        return seat_view(self, player)

    def _match_action(self, seat: int, action: Any, legal: tuple[Hashable, ...]) -> Hashable:
        return match_action(self, seat, action, legal)

    def _legal_indices(self, player: int, legal: tuple[Hashable, ...]) -> list[int]:
        return legal_indices(self, player, legal)

    # -- set-up ------------------------------------------------------------------------
    def setup(self) -> None:
        options = self.options
        n = self.n
        self.island = TABLES.islands[options.map]
        self.island_actions = ISLAND_ACTIONS[options.map]
        rng = self.rng
        self.setup_card = (options.setup_card - 1 if options.setup_card
                           else rng.below(len(TABLES.setup_cards)))
        card = TABLES.setup_cards[self.setup_card]
        self.start_village = rng.below(VILLAGES) if options.random_start else 0
        self.direction = -1 if options.counter_clockwise else 1
        self._write_letters(card)
        # blue cards: #1 only for 1-4 players, #1 over #2 for 5-8
        self.blue_cards: tuple[tuple[int, ...], ...] = tuple(
            t if n >= 5 else t[:1] for t in TABLES.blue)
        self.special_bonus = options.special_bonus
        self.red_cards: tuple[int, ...] = ()  # the sight kinds of the red cards still in play
        if self.special_bonus:
            kinds = list(range(KINDS))
            rng.shuffle(kinds)
            self.red_cards = tuple(sorted(kinds[: 2 if n >= 5 else 1]))
        self.red_won: tuple[WonRedCard, ...] = ()
        self.solo_discarded: tuple[int, ...] = ()
        self._new_sheets()
        # the turn
        self.bonus_owed = (0,) * n
        self.snapshots: list[Snapshot | None] = [None] * n
        self.moves: list[tuple[Action, ...]] = [()] * n
        # every seat's circled sights and joined pairs when the turn began: what it has
        # connected this turn, and who joined a village pair this turn (R6)
        self.circled_at_turn_start = (0,) * n
        self.pairs_at_turn_start = (0,) * n
        self.round = 0
        self.turn = 0
        self.over = False
        self.revealed: tuple[int, int] | None = None
        if self.logging:
            log_setup(self, card)
        self._new_deck()
        self.settle()

    def _write_letters(self, card: str) -> None:
        """Every seat writes the set-up card's letters into its villages (R2.2-R2.5)."""
        self.letters, self.village_pairs = _village_letters(
            card, self.start_village, self.direction, self.options.symmetry, self.n)

    def _new_sheets(self) -> None:
        """Every seat's empty sheet: no segments, circles, boxes or bonus cards."""
        n = self.n
        island = self.island
        self.drawn = (bytes(len(island.edges)),) * n
        self.parent = bytearray(range(island.size)) * n  # every space its own network
        self.features = array(FEATURE_SETS, island.space_features * n)
        self.circled = (0,) * n
        self.sight_counts = (bytes(KINDS),) * n  # per seat, per kind: at most 3
        self.pairs = (0,) * n
        self.linked = (0,) * n
        self.boxes = (0,) * (n * island.rounds)
        self.blue_points = (0,) * n
        self.red_points = (0,) * n
        self.blue_won: tuple[tuple[WonBlueCard, ...], ...] = ((),) * n

    def _new_deck(self) -> None:
        """A round begins: all 27 cards shuffled into a new deck (R3.10)."""
        deck = list(TABLES.deck)
        self.rng.shuffle(deck)
        self.deck = tuple(deck)  # the top card last
        self.seen: tuple[int, ...] = ()
        self.turn = 0

    def next_steps(self) -> Sequence[Step]:
        """The next turn, which opens with the flip of two cards; none once over."""
        return () if self.over else (FLIP,)

    # -- the contract ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def bonus_step(self) -> int:
        """0 in the draw step; k in the k-th bonus step of the turn (0 once over)."""
        top = self.top_step
        return int(top.data.bonus_step) if top is not None else 0

    # -- scoring -----------------------------------------------------------------------
    def sight_sum(self, seat: int, sight_counts: Sequence[int] | None = None) -> int:
        """Sum of the circled sight values on ``seat``'s sheet (or of the first
        ``sight_counts[kind]`` values of each kind)."""
        if sight_counts is None:
            return self.island.sight_points[self.circled[seat]]
        return sum(map(tuple.__getitem__, self.island.sight_cum, sight_counts))

    def pair_sum(self, pairs: int) -> int:
        """Points of the village pairs in ``pairs`` (a set of letters)."""
        return self.island.pair_points[pairs]

    def _score(self, seat: int) -> int:
        rounds = self.island.rounds
        boxes = self.boxes[seat * rounds : seat * rounds + rounds]
        total = (sum(boxes) + self.pair_sum(self.pairs[seat]) + self.blue_points[seat]
                 + self.red_points[seat])
        if not self.over:
            total += self.sight_sum(seat)  # the current round, as if it ended now
        return total

    def scores(self) -> list[float]:
        return [float(self._score(p)) for p in range(self.n)]

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """``TIEBREAK``: the bonus points, blue and red cards together (R8.2)."""
        return (float(self.blue_points[player] + self.red_points[player]),)

    def winners(self) -> tuple[int, ...]:
        """The top score, ties split by ``tiebreak`` (R8.2); alone, the player wins by
        reaching the solo target, and nobody wins below it (R9.3)."""
        if self.n > 1 or not self.over:
            return super().winners()
        return (0,) if self._score(0) >= self.solo_target else ()

    @property
    def solo_target(self) -> int:
        """The score a solo player must reach on this island (R9.2, the data file's)."""
        return TABLES.solo_target[self.island.key]

    # -- conformance hooks ---------------------------------------------------------------
    def check_invariants(self) -> None:
        """Cards, bonus cards, sheets and the step bookkeeping are all accounted for."""
        self._check_flow()
        self._check_bonus_cards()
        movers = self.to_move()
        bonus_step = self.bonus_step
        for p in range(self.n):
            self._check_sheet(p)
            acted = self.snapshots[p] is not None
            _need(not (acted and p in movers), f"P{p + 1}: decided in this step, still to move")
            if p in movers:
                _need(bool(self.bonus_owed[p]) == bool(bonus_step),
                      f"P{p + 1}: moving in step {bonus_step} with {self.bonus_owed[p]} owed")
        _need(self.over or not bonus_step or any(self.bonus_owed),
              "a bonus step with nothing owed")

    def _check_flow(self) -> None:
        """Rounds, turns, the terrain deck and the pending step agree."""
        rounds = self.island.rounds
        _need(0 <= self.round <= rounds and (self.round == rounds) == self.over,
              f"round {self.round} of {rounds} does not match over={self.over}")
        _need(0 <= self.turn <= TURNS_PER_ROUND, f"turn {self.turn} out of range")
        if self.over:
            _need(not self.steps and self.revealed is None, "a finished game still has movers")
            return
        counts = [0] * len(CARD_NAMES)
        for c in [*self.deck, *self.seen]:
            counts[c] += 1
        _need(counts == DECK_COUNTS, f"terrain cards: deck + seen = {counts}")
        _need(len(self.seen) == 2 * (self.turn + 1) and len(self.deck) >= 1,
              f"{len(self.seen)} cards seen, {len(self.deck)} in the deck at turn {self.turn}")
        _need(self.revealed is not None and self.revealed == tuple(self.seen[-2:]),
              "the revealed cards are not the last two seen")
        steps = self.steps
        _need(len(steps) == 1 and steps[0].kind in ("draw", "bonus"),
              f"pending steps {steps}: one draw or bonus step expected")
        _need(bool(self.to_move()), "nobody to move in a running game")

    def _check_bonus_cards(self) -> None:
        n = self.n
        per_letter = 2 if n >= 5 else 1
        for letter in range(LETTERS):
            taken = len({card.value for p in range(n) for card in self.blue_won[p]
                         if card.letter == letter})
            discarded = per_letter if letter in self.solo_discarded else 0
            left = self.blue_cards[letter]
            _need(len(left) + taken + discarded == per_letter,
                  f"blue cards {LETTER_NAMES[letter]}: {left} left, {taken} taken, "
                  f"{discarded} discarded")
        if self.special_bonus:
            _need(len(self.red_cards) + len(self.red_won) == (2 if n >= 5 else 1),
                  f"red cards: {self.red_cards} left, {self.red_won} taken")

    def _check_sheet(self, p: int) -> None:
        """Seat ``p``'s segments, circles, pairs and boxes agree with its networks."""
        island = self.island
        rounds = island.rounds
        _need(len(self.drawn) == self.n and len(drawn_on(self, p)) == len(island.edges)
              and set(drawn_on(self, p)) <= {0, 1}, f"P{p + 1}: a segment flag not 0 or 1")
        _need(0 <= self.bonus_owed[p] <= KINDS,
              f"P{p + 1}: {self.bonus_owed[p]} bonus segments owed")
        circled = self.circled[p]
        for kind in range(KINDS):
            _need(self.sight_counts[p][kind]
                  == count_common(circled, island.kind_mask[kind]),
                  f"P{p + 1}: sight count of kind {kind} disagrees with the circles")
        base = p * island.size
        for sight, space in enumerate(island.sight_space):
            linked = bool(villages_in(self.features[base + root(self, base, space)]))
            _need(linked == has(circled, sight),
                  f"P{p + 1}: sight at {island.labels[space]} circled={has(circled, sight)} "
                  f"but linked to a village={linked}")
        for letter, pair in enumerate(self.village_pairs[p]):
            village_a, village_b = (island.village_space[v] for v in members(pair))
            joined = root(self, base, village_a) == root(self, base, village_b)
            scored = has(self.pairs[p], letter)
            _need(joined == scored,
                  f"P{p + 1}: pair {LETTER_NAMES[letter]} scored={scored} but joined={joined}")
        boxes = self.boxes[p * rounds : p * rounds + rounds]
        _need(all(b == 0 for b in boxes[self.round:]), f"P{p + 1}: a box filled too early")
        _need(all(0 <= x <= y for x, y in pairwise(boxes[: self.round])),
              f"P{p + 1}: sight boxes {boxes} decrease")

    def private_items(self, player: int) -> dict[str, Any]:
        """``player``'s own sheet while their segment of this step is still hidden from
        the others (R3.8). Their ``this_turn`` and ``connected_this_turn`` lists are private
        too but not distinctive (two players may well both have ``["pass"]``), and they
        only ever describe what this sheet shows."""
        if self.snapshots[player] is None:
            return {}  # nothing pending: the whole sheet is public
        own = sheet(self, player, False)
        if own == sheet(self, player, True):
            return {}  # a pass leaves the sheet as the others see it
        return {"own_sheet": own}

    # -- copies and hidden information ---------------------------------------------------
    def clone(self) -> TucanaState:
        s: TucanaState = self._clone_base()
        s.island = self.island
        s.island_actions = self.island_actions
        s.letters = self.letters
        s.village_pairs = self.village_pairs
        s.setup_card = self.setup_card
        s.start_village = self.start_village
        s.direction = self.direction
        s.special_bonus = self.special_bonus
        s.round = self.round
        s.turn = self.turn
        s.over = self.over
        s.revealed = self.revealed
        # tuples, replaced when they change (cove.core.replaced), so shared, not copied
        s.deck = self.deck
        s.seen = self.seen
        s.circled = self.circled
        s.pairs = self.pairs
        s.linked = self.linked
        s.bonus_owed = self.bonus_owed
        s.circled_at_turn_start = self.circled_at_turn_start
        s.pairs_at_turn_start = self.pairs_at_turn_start
        s.blue_cards = self.blue_cards
        s.red_cards = self.red_cards
        s.red_won = self.red_won
        s.solo_discarded = self.solo_discarded
        s.boxes = self.boxes
        s.blue_points = self.blue_points
        s.red_points = self.red_points
        s.blue_won = self.blue_won
        s.sight_counts = self.sight_counts
        s.drawn = self.drawn
        s.parent = self.parent.copy()
        s.features = self.features[:]
        s.snapshots = self.snapshots.copy()
        s.moves = self.moves.copy()
        return s

    def _resample(self, player: int, rng: Rng) -> None:
        # the remaining deck order is unknown to everyone; sorting first makes the sample
        # depend only on what the player sees, not on the real order
        deck = sorted(self.deck)
        rng.shuffle(deck)
        self.deck = tuple(deck)
        # other players' decisions in this step are unknown: undo and redraw at random
        # (each mover makes exactly one decision per step, so one redraw each)
        for q in range(self.n):
            snapshot = self.snapshots[q]
            if q == player or snapshot is None:
                continue
            restore(self, q, snapshot)
            commit(self, q, cast(Action, rng.choice(self._legal_actions(q))))


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise AssertionError(f"trails-of-tucana: {what}")
