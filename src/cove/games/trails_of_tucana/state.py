"""The rules of Trails of Tucana (see RULES.md for the numbered rules).

A turn is a series of simultaneous steps in which every mover makes exactly ONE decision:
first the draw step (everyone draws the turn's segment, or passes when nothing fits);
then, while anyone owes bonus segments (one per last sight of a kind linked), a bonus
step for those players only: one bonus segment each, or pass to decline. A player's
segment goes onto their own sheet at once (their own view shows it), but other players
see that sheet as it was at the start of the step (a snapshot) until every mover is
done; then the step is revealed in the public log. Because each mover decides once per
step and who owes a bonus is only known after the reveal, ``to_move()`` never shows a
pending bonus chain (R3.8). When no bonus is owed the turn resolves: blue and red bonus
cards go to whoever completed them this turn, and the next two cards are revealed (or
the round is scored).

The turn runs on the core decision stack: ``draw`` and ``bonus`` are the two kinds of
decision (secret, simultaneous: their step's players shrink as they commit), and the flow
between them is automatic steps: ``reveal_step``, ``end_turn``, ``end_round`` and
``flip`` (see SPEC.md, Decisions). A lone ``pass`` is not forced: it stays an explicit
decision in the record (R3.7).

Connectivity is a union-find per player, stored flat (space ``i`` of seat ``p`` is index
``p * N + i``) with, at each root, a bitmask of the villages and sights in its network, so
clone copies two flat lists and linking is near O(1).
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from itertools import compress, pairwise, product
from operator import add
from struct import Struct
from typing import Any, ClassVar, Protocol, cast

from cove.core.decisions import AUTO, Step, StepRule
from cove.core.errors import IllegalAction
from cove.core.rng import Rng
from cove.core.state import SparseObservation, State, index_run
from cove.games.trails_of_tucana.actions import PASS, Action, Bonus, Draw, Pass
from cove.games.trails_of_tucana.data import (
    CARD_NAMES,
    DECK_SIZE,
    FREE_BYTES,
    KINDS,
    LETTERS,
    TABLES,
    VILLAGES,
    Island,
)
from cove.games.trails_of_tucana.options import TucanaOptions

VMASK = (1 << VILLAGES) - 1
MOVE_TYPES = (Draw, Bonus, Pass)
LETTER_NAMES = "ABCDE"
TURNS_PER_ROUND = (DECK_SIZE - 1) // 2  # 13: the round ends with one card left
DECK_COUNTS = [TABLES.deck.count(c) for c in range(len(CARD_NAMES))]
ONLY_PASS: tuple[Action, ...] = (PASS,)

# snapshot of a sheet at the start of the step: drawn, circled, kind counts, pairs, linked,
# bonus segments owed
Snap = tuple[int, int, tuple[int, ...], int, int, int]


OBS_HEAD = 24
"""Observation values before the sheets: 5 cards, 5 seen, 4 turn, 5 blue, 5 red."""
_NO_ONES: tuple[int, ...] = ()
"""The observation's ``ones``: its every value goes by index, in runs."""


# encoding tables for the observation's head (see _obs_parts): each part's values as the
# bytes of an ``array("d")``, so the head is one array made from their joined bytes
def _packed(values: Sequence[float]) -> bytes:
    return array("d", values).tobytes()


CARDS_HOT: dict[tuple[int, int] | None, bytes] = {
    (c1, c2): _packed([float((c1 == c) + (c2 == c)) for c in range(len(CARD_NAMES))])
    for c1 in range(len(CARD_NAMES)) for c2 in range(len(CARD_NAMES))
}
CARDS_HOT[None] = _packed([0.0] * len(CARD_NAMES))
SEEN_PACK = Struct(f"{len(CARD_NAMES)}d")
NOT_SEEN = SEEN_PACK.pack(*[0.0] * len(CARD_NAMES))
TURN_HOT: dict[tuple[int, int, int], bytes] = {
    (rounds, rnd, turn): _packed([rnd / rounds, turn / TURNS_PER_ROUND, 0.0, 0.0])
    for rounds in {isl.rounds for isl in TABLES.islands.values()}
    for rnd in range(rounds + 1) for turn in range(TURNS_PER_ROUND + 1)
}
"""Per (rounds, round, turn): rounds finished / rounds, the turn / 13, then 0 for the
bonus step and the bonus segments owed (set per call)."""
BLUE_HOT: dict[tuple[int, ...], bytes] = {
    lens: _packed([n / 2 for n in lens]) for lens in product(range(3), repeat=LETTERS)
}
"""Per number of blue cards left on each letter's stack: the numbers / 2."""
RED_HOT: dict[tuple[int, ...], bytes] = {
    reds: _packed([float(k in reds) for k in range(KINDS)])
    for reds in ((), *((k,) for k in range(KINDS)),
                 *((k1, k2) for k1 in range(KINDS) for k2 in range(k1 + 1, KINDS)))
}


BITS8 = tuple(tuple(float(b >> j & 1) for j in range(8)) for b in range(256))
"""Per byte: its eight bits, lowest first, as floats."""


ROTATIONS = tuple(tuple((*range(p, n), *range(p)) for p in range(n)) for n in range(9))
"""Per number of players and seat p: the seats from p on (p, p+1, ... wrapping)."""

REDRAW_BITS = 8
"""A sheet slot whose segments differ in more than this many edges from what it showed is
copied whole from a kept row (``_Seen.redraw``), else set edge by edge."""

SEGMENT_ROWS = 1024
"""How many encoded sheets ``Island.segment_rows`` keeps (a few hundred shared floats
each: a couple of megabytes at most)."""


def _segment_row(isl: Island, drawn: int) -> array[float]:
    """One float per edge, 1.0 where ``drawn`` has a segment: copied whole into a kept
    observation's sheet slot when it differs from the sheet there in many edges (a
    state's, a clone's or a copy's first observation; a sheet put back), since one copy
    costs less than setting the edges one by one (``_Seen.redraw``). The clones and
    copies a search makes of one state show the same sheets, so rows are kept in the
    island's ``segment_rows``, emptied when full."""
    out: list[float] = []
    edges = len(isl.edges)
    for byte in drawn.to_bytes((edges + 7) // 8, "little"):
        out += BITS8[byte]
    row = array("d", out[:edges])
    rows = isl.segment_rows
    if len(rows) >= SEGMENT_ROWS:
        rows.clear()
    rows[drawn] = row
    return row


def _bits(x: int) -> list[int]:
    """Indices of the set bits of ``x``, lowest first (one step per set bit)."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class _Cells(Protocol):
    """A memoryview of an ``array("d")``: its items are floats (typeshed types a
    memoryview's items as ints, those of bytes)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


class _Seen:
    """One observer's whole observation, kept between calls (``TucanaState.obs_seen``):
    ``values`` as last handed out (a copy is handed out, never this array; ``cells`` is a
    memoryview of it, for setting single values), ``head`` the ``obs_cache`` head its
    first 24 values came from, ``shown`` the segments (a bitmask) its slot of each seat
    holds. Where each seat's segments and score go is fixed per observer: ``offset[q]``
    is where seat ``q``'s segments start, ``own`` and ``own_score`` where the observer's
    own segments and score are, ``others`` the other seats with where their segments and
    scores are, in the observation's order. Each state has its own (a clone starts
    without), so one state's moves never reach another's kept values."""

    __slots__ = ("at", "cells", "edges", "head", "isl", "offset", "others", "own",
                 "own_score", "shown", "values")

    def __init__(self, state: TucanaState, player: int) -> None:
        isl = self.isl = state.isl
        edges = self.edges = len(isl.edges)
        n = state.n
        size = OBS_HEAD + n * (edges + 1)
        self.at = index_run(0, size)  # all of it, shared
        self.values = array("d", bytes(8 * size))  # all 0.0
        # one value at a time is set through a view of the same memory: an array's own
        # item assignment parses each float with a format string, a memoryview's does not
        self.cells = cast(_Cells, memoryview(self.values))
        self.head: array[float] | None = None
        self.shown = [0] * n
        offset = [0] * n
        for slot, q in enumerate(ROTATIONS[n][player]):
            offset[q] = OBS_HEAD + slot * (edges + 1)
        self.offset = offset
        self.own = offset[player]
        self.own_score = offset[player] + edges
        self.others = tuple((q, offset[q], offset[q] + edges) for q in ROTATIONS[n][player][1:])

    def redraw(self, q: int, drawn: int) -> None:
        """Seat ``q``'s slot shows the segments ``drawn``: set the values that differ from
        what it showed, one by one when they are few (a move draws one segment), else
        from a kept row (a new observer, a clone's first call, a sheet put back)."""
        cells = self.cells
        off = self.offset[q]
        diff = drawn ^ self.shown[q]
        self.shown[q] = drawn
        if not diff & (diff - 1):  # one segment: the common case
            cells[off + diff.bit_length() - 1] = 1.0 if drawn & diff else 0.0
        elif diff.bit_count() <= REDRAW_BITS:
            while diff:
                low = diff & -diff
                cells[off + low.bit_length() - 1] = 1.0 if drawn & low else 0.0
                diff ^= low
        else:
            isl = self.isl
            row = isl.segment_rows.get(drawn)
            self.values[off : off + self.edges] = _segment_row(isl, drawn) if row is None else row


# -- decisions: one rule per kind of step ---------------------------------------------
class SimultaneousRule(StepRule["TucanaState"]):
    """A step in which every mover makes exactly one secret decision (R3.2, R3.8): the
    segment goes onto their own sheet at once, the others see it when the step is
    revealed. The step's ``data`` is ``(k,)``: 0 for the draw step, k for the k-th bonus
    step of the turn."""

    secret = True
    forced = False  # a lone ``pass`` is still an explicit decision (R3.7)

    def apply(self, state: TucanaState, step: Step, player: int, action: Any) -> None:
        players = step.players
        last = len(players) == 1
        logging = state.logging
        # The last mover's snapshot is only read by the log lines: the reveal below drops
        # every snapshot of the step.
        state._commit(player, action, logging or not last)
        k = step.data[0]
        # One private line per decision: every mover of a step makes exactly one, and
        # each viewer's log is numbered on its own, so the line shows the others nothing.
        if logging:
            state.say(f"P{player + 1}: you {state._summary(player, k)}",
                      to=player, kind="commit", data={"player": player, "action": str(action)})
        if last:  # the reveal_step step, carried out at once (see EndTurnRule)
            RUN_REVEAL(state, _step("reveal_step", AUTO, k))
        else:
            i = players.index(player)
            state.push(_step(step.kind, players[:i] + players[i + 1 :], k))


class DrawRule(SimultaneousRule):
    """The draw step: a segment joining the two cards' terrains, or pass when none fits."""

    def legal(self, state: TucanaState, step: Step, player: int) -> Sequence[Any]:
        isl = state.isl
        cards = state.cards
        assert cards is not None
        # one free flag per segment, from the drawn segments' bits in one C call each
        # (see Island.match_free): the draws that fit are then filtered in C
        free = format(state.drawn[player], isl.free_format).encode().translate(FREE_BYTES)
        return tuple(compress(isl.match_draws[cards], isl.match_free[cards](free))) or ONLY_PASS

    def prompt(self, state: TucanaState, step: Step, player: int) -> str:
        assert state.cards is not None
        ends = _terrain_phrase(*(CARD_NAMES[c] for c in state.cards))
        if self.legal(state, step, player) == ONLY_PASS:
            return f"No free segment joins {ends}: pass"
        return f"Draw one segment joining {ends}"

    def describe(self, state: TucanaState, step: Step, player: int) -> dict[str, Any]:
        assert state.cards is not None
        return {"cards": [CARD_NAMES[c] for c in state.cards]}

    def public_prompt(self, state: TucanaState, step: Step) -> str:
        assert state.cards is not None
        c1, c2 = (CARD_NAMES[c] for c in state.cards)
        return f"draw a segment for {c1} and {c2}"


class BonusRule(SimultaneousRule):
    """A bonus step: a bonus segment anywhere, or pass to decline the rest (R4.3-R4.8)."""

    def legal(self, state: TucanaState, step: Step, player: int) -> Sequence[Any]:
        isl = state.isl
        free = format(state.drawn[player], isl.free_format).encode().translate(FREE_BYTES)
        acts: tuple[Action, ...] = tuple(compress(isl.bonuses, free[::-1]))
        if acts and not state.options.compulsory_bonus:
            acts += ONLY_PASS  # R4.8: a bonus segment may be declined
        return acts or ONLY_PASS

    def prompt(self, state: TucanaState, step: Step, player: int) -> str:
        if self.legal(state, step, player) == ONLY_PASS:
            return "No free segment is left for your bonus: pass"
        rest = "" if state.options.compulsory_bonus else ", or pass to decline"
        return (f"Draw a bonus segment between any two adjacent spaces "
                f"({_segments(state.bonus[player])} owed){rest}")

    def describe(self, state: TucanaState, step: Step, player: int) -> dict[str, Any]:
        return {"bonus_owed": state.bonus[player]}

    def public_prompt(self, state: TucanaState, step: Step) -> str:
        return "draw a bonus segment"


class FlipRule(StepRule["TucanaState"]):
    """Automatic, at the start of a turn: the Mayor reveals the top two cards (R3.1), then
    everyone draws at once (R3.2)."""

    def run(self, state: TucanaState, step: Step) -> None:
        c1 = state.deck.pop()
        c2 = state.deck.pop()
        state.cards = (c1, c2)
        state.seen += [c1, c2]
        state.turn_start = (state.circled[:], state.pairs[:])
        state.obs_cache = None  # cards, turn, bonus cards and boxes may have changed
        if state.logging:
            state.say(
                f"Round {state.rnd + 1}, turn {state.turn + 1}: the Mayor reveals "
                f"{CARD_NAMES[c1]} and {CARD_NAMES[c2]}.",
                kind="reveal",
                data={"round": state.rnd + 1, "turn": state.turn + 1,
                      "cards": [CARD_NAMES[c1], CARD_NAMES[c2]]},
            )
        state.push(DRAW_STEPS[state.n])


class RevealStepRule(StepRule["TucanaState"]):
    """Automatic: every mover of step ``data[0]`` is done. Reveal the step, then the next
    bonus step (for whoever owes a bonus segment now) or the end of the turn (R3.8,
    R4.3)."""

    def run(self, state: TucanaState, step: Step) -> None:
        k = step.data[0]
        state.reveal()
        if state.logging:
            state._log_step(k)
        n = state.n
        state.snap = [None] * n
        bonus = state.bonus
        owing = tuple(p for p in range(n) if bonus[p]) if any(bonus) else ()
        if owing:
            state.push(_step("bonus", owing, k + 1))
        else:  # the end_turn step, carried out at once (the stack holds nothing else)
            RUN_END_TURN(state, END_TURN)


class EndTurnRule(StepRule["TucanaState"]):
    """Automatic: nobody owes a bonus segment. Hand out the blue and red bonus cards
    completed this turn (R6, R7); the round ends when one card is left (R3.9). Then the
    next turn's flip, unless the game is over.

    The end of a turn, of a round and the next flip follow each other with nothing to
    decide in between and nothing else on the stack, so each calls the next directly
    instead of pushing it: the same steps in the same order, without a trip through
    ``settle`` for each (about a third of a decision's time in a solo game)."""

    def run(self, state: TucanaState, step: Step) -> None:
        if state.pairs != state.turn_start[1]:  # a village pair was joined this turn
            state._award_blue()
        if state.red:
            state._award_red()
        state.moves = [()] * state.n
        state.turn += 1
        if len(state.deck) <= 1:
            RUN_END_ROUND(state, END_ROUND)
        if not state.over:
            RUN_FLIP(state, FLIP)  # next_steps() would give FLIP


class EndRoundRule(StepRule["TucanaState"]):
    """Automatic: score every sheet's circled sights into this round's box (R5), the solo
    discard after round 1 (R9.1), then a new deck (R3.10) or the end of the game."""

    def run(self, state: TucanaState, step: Step) -> None:
        n = state.n
        rounds = state.isl.rounds
        for p in range(n):
            state.boxes[p * rounds + state.rnd] = state.sight_sum(p)
        if state.logging:
            rnd = state.rnd
            box = "I" * (rnd + 1) if rnd < 3 else str(rnd + 1)
            scored = [state.boxes[p * rounds + rnd] for p in range(n)]
            state.say(f"End of round {rnd + 1}; sights scored in box {box}: "
                      + ", ".join(f"P{p + 1} {scored[p]}" for p in range(n)),
                      kind="score", data={"round": rnd + 1, "boxes": scored})
        if n == 1 and state.rnd == 0 and state.options.solo_discards:
            state._solo_discard()
        state.rnd += 1
        if state.rnd < rounds:
            state._new_deck()
        else:
            state._game_over()


END_TURN = Step("end_turn")
END_ROUND = Step("end_round")
FLIP = Step("flip")
RUN_FLIP = FlipRule().run
RUN_REVEAL = RevealStepRule().run
RUN_END_TURN = EndTurnRule().run
RUN_END_ROUND = EndRoundRule().run


DRAW_STEPS = tuple(Step("draw", tuple(range(n)), (0,)) for n in range(9))
"""The draw step of a turn, per number of players (everyone draws at once)."""


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


@cache
def _step(kind: str, players: tuple[int, ...], k: int) -> Step:
    """The shared step value for step ``k`` of a turn: steps are frozen, and a turn's few
    hundred possible ones are made once instead of at every decision (the hot path)."""
    return Step(kind, players, (k,))


class TucanaState(State):
    __slots__ = (
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
        "obs_cache",
        "obs_seen",
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

    # the island's tables, from the map option; the observation's parts that change only
    # from one turn to the next, and every observer's kept observation, made again when
    # first needed (see _observation_sparse)
    DERIVED = ("isl", "obs_cache", "obs_seen")
    KEPT = ("obs_seen",)  # every observer's kept observation: a pickle makes it again

    STEPS: ClassVar[Mapping[str, StepRule[TucanaState]]] = {
        "flip": FlipRule(), "draw": DrawRule(), "bonus": BonusRule(),
        "reveal_step": RevealStepRule(), "end_turn": EndTurnRule(), "end_round": EndRoundRule(),
    }

    isl: Island
    options: TucanaOptions

    # -- set-up ------------------------------------------------------------------------
    def setup(self) -> None:
        o = self.options
        n = self.n
        self.isl = TABLES.islands[o.map]
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
        self.obs_cache: tuple[array[float], tuple[int, ...]] | None = None
        self.obs_seen: list[_Seen | None] | None = None
        if self.logging:
            self._log_setup(seq)
        self._new_deck()
        self.settle()

    def _write_letters(self, seq: str) -> None:
        """Every seat writes the set-up card's letters into its villages (R2.2-R2.5)."""
        self.letters, self.pair_masks = _letters(
            seq, self.start, self.direction, self.options.symmetry, self.n)

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

    def _log_setup(self, seq: str) -> None:
        """The public set-up lines: the island, the set-up card, the red cards."""
        o = self.options
        isl = self.isl
        n = self.n
        self.say(
            f"{isl.name}, {n} player{'s' if n > 1 else ''}. Set-up card "
            f"{self.setup_card + 1}: {' '.join(seq)}; the Mayor (P1) starts at village "
            f"{self.start + 1}, letters go "
            f"{'counter-clockwise' if self.direction < 0 else 'clockwise'}"
            + (", every player in the same villages" if o.symmetry else "")
            + ".",
            kind="setup",
            data={"map": isl.key, "setup_card": self.setup_card + 1,
                  "start_village": self.start + 1, "clockwise": self.direction > 0,
                  "symmetry": o.symmetry},
        )
        if self.red:
            self.say("Red bonus cards: " + ", ".join(
                f"{TABLES.sight_names[k]}-{TABLES.sight_names[k]} ({TABLES.red[k]})"
                for k in self.red), kind="setup",
                data={"red": [TABLES.sight_names[k] for k in self.red]})

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
        steps = self._steps
        return int(steps[-1].data[0]) if steps else 0

    def _match_action(self, seat: int, action: Any, legal: tuple[Hashable, ...]) -> Hashable:
        """The core's matching, then the same text with the segment's ends the other way
        round: ``draw i3-j2`` finds ``draw j2-i3`` (R3.3); the move keeps its canonical
        text in the history and the record.

        First a short cut for the common case of search: ``action`` is the legal list's
        own element (moves are shared instances with unique codes, so ``index`` compares
        ints in C; the core's loop would return the same element after a str() each)."""
        if type(action) in MOVE_TYPES:
            try:
                found = legal[legal.index(action)]
            except ValueError:
                found = None
            if found is action:
                return action
        try:
            return super()._match_action(seat, action, legal)
        except IllegalAction as first:
            flipped = _flip_ends(action) if isinstance(action, str) else None
            if flipped is None:
                raise
            try:
                return super()._match_action(seat, flipped, legal)
            except IllegalAction:
                raise first from None

    def _commit(self, p: int, a: Action, snap: bool = True) -> None:
        """Seat ``p``'s one decision of this step on its sheet (no logging, no flow), and
        the snapshot of the sheet before it unless ``snap`` is false."""
        if snap:
            k = p * KINDS
            self.snap[p] = (
                self.drawn[p],
                self.circled[p],
                tuple(self.kcount[k : k + KINDS]),
                self.pairs[p],
                self.linked[p],
                self.bonus[p],
            )
        self.moves[p] = (*self.moves[p], a)
        if a is PASS:  # the only Pass
            self.bonus[p] = 0  # nothing fits, or the rest of the bonus chain is declined
        else:
            if type(a) is Bonus:
                self.bonus[p] -= 1
            self._link(p, a.edge)

    def _log_step(self, k: int) -> None:
        """The public lines of step ``k``, one per seat that decided in it."""
        for p in range(self.n):
            if self.snap[p] is not None:
                drew, gains, earned = self._outcome(p, k)
                self.say(self._step_text(p, k), kind="draw",
                         data={"player": p, "drew": drew, "connected": gains,
                               "earned": earned, "bonus_step": k})

    def _root(self, x: int) -> int:
        """The root of ``x`` without shortening paths: for checks, which must leave the
        state exactly as it was (``par`` is part of the stored state)."""
        par = self.par
        while par[x] != x:
            x = par[x]
        return x

    def _find(self, x: int) -> int:
        par = self.par
        while par[x] != x:
            par[x] = x = par[par[x]]
        return x

    def _link(self, p: int, e: int) -> None:
        """Draw edge ``e`` on seat ``p``'s sheet and score what it connects."""
        self.drawn[p] |= 1 << e
        isl = self.isl
        a, b = isl.edges[e]
        base = p * isl.size
        ra = self._find(base + a)
        rb = self._find(base + b)
        if ra == rb:
            return
        self.par[rb] = ra
        info = self.info
        inf = info[ra] | info[rb]
        info[ra] = inf
        vm = inf & VMASK
        sm = inf >> VILLAGES
        if vm:
            new = sm & ~self.circled[p]
            if new:
                self.circled[p] |= new
                kc = self.kcount
                for s in _bits(new):
                    i = p * KINDS + isl.sight_kind[s]
                    kc[i] += 1
                    if kc[i] == isl.per_kind:
                        self.bonus[p] += 1
            done_pairs = self.pairs[p]
            for L, pm in enumerate(self.pair_masks[p]):
                if not (done_pairs >> L) & 1 and vm & pm == pm:
                    done_pairs |= 1 << L
            self.pairs[p] = done_pairs
        if self.red_on and sm:
            for k in self.red:
                if (sm & isl.kind_mask[k]).bit_count() >= 2:
                    self.linked[p] |= 1 << k

    def _award_blue(self) -> None:
        """Each blue card goes to whoever joined its village pair this turn (R6)."""
        n = self.n
        pairs = self.pairs
        new_pairs = [pairs[p] & ~pairs0 for p, pairs0 in enumerate(self.turn_start[1])]
        for L in range(LETTERS):
            won = [p for p in range(n) if (new_pairs[p] >> L) & 1]
            if won and self.blue[L]:
                v = self.blue[L][0]
                self.blue[L] = self.blue[L][1:]
                for p in won:
                    self.blue_pts[p] += v
                    self.blue_won[p] = (*self.blue_won[p], (L, v))
                if self.logging:
                    self.say(f"{_who(won)} take{'s' if len(won) == 1 else ''} the "
                             f"{LETTER_NAMES[L]}-{LETTER_NAMES[L]} blue bonus card ({v}).",
                             kind="bonus_card", data={"players": won, "card": "blue",
                                                      "pair": LETTER_NAMES[L], "points": v})

    def _award_red(self) -> None:
        """Each red card goes to whoever linked two sights of its kind (R7)."""
        n = self.n
        for k in list(self.red):
            won = [p for p in range(n) if (self.linked[p] >> k) & 1]
            if won:
                v = TABLES.red[k]
                self.red.remove(k)
                self.red_won.append((k, v, tuple(won)))
                for p in won:
                    self.red_pts[p] += v
                if self.logging:
                    name = TABLES.sight_names[k]
                    self.say(f"{_who(won)} take{'s' if len(won) == 1 else ''} the "
                             f"{name}-{name} red bonus card ({v}).",
                             kind="bonus_card", data={"players": won, "card": "red",
                                                      "sight": name, "points": v})

    def _solo_discard(self) -> None:
        """DESIGN solo rule: after round 1, discard blue cards of unjoined pairs (R9.1)."""
        cands = [L for L in range(LETTERS) if self.blue[L] and not (self.pairs[0] >> L) & 1]
        self.rng.shuffle(cands)
        drop = sorted(cands[: self.options.solo_discards])
        for L in drop:
            self.blue[L] = ()
        self.solo_dropped = drop
        if self.logging and drop:
            self.say("Solo: blue bonus cards discarded: "
                     + ", ".join(f"{LETTER_NAMES[L]}-{LETTER_NAMES[L]}" for L in drop) + ".",
                     kind="solo_discard", data={"pairs": [LETTER_NAMES[L] for L in drop]})

    def _game_over(self) -> None:
        self.over = True
        self.obs_cache = None
        self.cards = None
        self.deck = []
        if self.logging:
            sc = self.scores()
            self.say("Game over. Final scores: "
                     + ", ".join(f"P{p + 1} {int(sc[p])}" for p in range(self.n)) + ".",
                     kind="game_over", data={"scores": [int(x) for x in sc]})

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
            _need(not self._steps and self.cards is None, "a finished game still has movers")
            return
        counts = [0] * len(CARD_NAMES)
        for c in self.deck + self.seen:
            counts[c] += 1
        _need(counts == DECK_COUNTS, f"terrain cards: deck + seen = {counts}")
        _need(len(self.seen) == 2 * (self.turn + 1) and len(self.deck) >= 1,
              f"{len(self.seen)} cards seen, {len(self.deck)} in the deck at turn {self.turn}")
        _need(self.cards is not None and list(self.cards) == self.seen[-2:],
              "the revealed cards are not the last two seen")
        _need(len(self._steps) == 1 and self._steps[0].kind in ("draw", "bonus"),
              f"pending steps {self._steps}: one draw or bonus step expected")
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
            linked = bool(self.info[self._root(base + sp)] & VMASK)
            _need(linked == bool(circled >> i & 1),
                  f"P{p + 1}: sight at {isl.labels[sp]} circled={bool(circled >> i & 1)} "
                  f"but linked to a village={linked}")
        for L, pm in enumerate(self.pair_masks[p]):
            va, vb = (isl.village_space[v] for v in _bits(pm))
            joined = self._root(base + va) == self._root(base + vb)
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
        own = self._sheet(player, False)
        if own == self._sheet(player, True):
            return {}  # a pass leaves the sheet as the others see it
        return {"own_sheet": own}

    def _observation_sparse(self, player: int) -> SparseObservation:
        """See SPEC.md: the cards, the round, the bonus cards, then every sheet's segments
        and score as ``player`` sees them (the others' as at the start of the step), in
        sparse form (the core makes the dense list from it): every value as one run from
        index 0 (the 24 head values, then each sheet's segments and score), handed back as
        a copy of ``player``'s kept observation.

        Each observer's observation is kept whole in ``obs_seen`` (a ``_Seen``, made on
        the first call) with the segments each sheet slot shows; a call brings it up to
        date from the state as it is now: the 24 head values are copied in when the
        turn-long ``obs_cache`` is new, a slot's segments only where the sheet it shows
        differs from the one encoded (by the differing bits, or a kept row when many
        differ), and the bonus step, the bonus owed and every score are set each time.
        Nothing in the apply path keeps it: a state nobody observes pays nothing, and
        what is compared is the state itself, so a change by hand is caught like a move.
        What changes only from one turn to the next (the cards, round, turn and bonus
        cards, and every seat's boxed and bonus-card points) is kept in ``obs_cache``
        until the next flip, as before."""
        cache = self.obs_cache
        if cache is None:
            cache = self.obs_cache = self._obs_parts()
        head, fixed = cache
        seen = self.obs_seen
        if seen is None:
            seen = self.obs_seen = [None] * self.n
        view = seen[player]
        if view is None:
            view = seen[player] = _Seen(self, player)
        values = view.values
        cells = view.cells
        if view.head is not head:
            values[:OBS_HEAD] = head
            view.head = head
        steps = self._steps
        cells[12] = 1.0 if steps and steps[-1].data[0] else 0.0
        cells[13] = self.bonus[player] / KINDS
        isl = self.isl
        pair_points = isl.pair_points
        sight_points = isl.sight_points
        over = self.over
        shown = view.shown
        drawn_now = self.drawn
        circled_now = self.circled
        pairs_now = self.pairs
        # the observer's own sheet as it is, then the others' (the snapshot while one is
        # kept: the sheet as at the start of the step); a sheet that differs from its
        # slot in one segment (a move) is set here, in more by ``redraw``
        drawn = drawn_now[player]
        was = shown[player]
        if drawn != was:
            diff = drawn ^ was
            if diff & (diff - 1):
                view.redraw(player, drawn)
            else:
                cells[view.own + diff.bit_length() - 1] = 1.0 if drawn & diff else 0.0
                shown[player] = drawn
        score = fixed[player] + pair_points[pairs_now[player]]
        cells[view.own_score] = (
            score if over else score + sight_points[circled_now[player]]) / 100
        snaps = self.snap
        for q, off, end in view.others:
            snap = snaps[q]
            if snap is None:
                drawn, circled, pairs = drawn_now[q], circled_now[q], pairs_now[q]
            else:
                drawn, circled, _, pairs, _, _ = snap
            was = shown[q]
            if drawn != was:
                diff = drawn ^ was
                if diff & (diff - 1):
                    view.redraw(q, drawn)
                else:
                    cells[off + diff.bit_length() - 1] = 1.0 if drawn & diff else 0.0
                    shown[q] = drawn
            score = fixed[q] + pair_points[pairs]
            cells[end] = (score if over else score + sight_points[circled]) / 100
        return _NO_ONES, view.at, values[:]

    def _obs_parts(self) -> tuple[array[float], tuple[int, ...]]:
        """The observation's first 24 values with 0 for the bonus step and the bonus
        segments owed (filled in per call), and every seat's boxed and bonus-card points.
        Made once a turn, so written for few steps: the head from the bytes of its parts
        (building an ``array`` from floats parses each one), most of them from tables,
        the points of the seats added up seat by seat in C (``map``), one round at a
        time."""
        isl = self.isl
        if self.options.hide_earlier_cards:
            seen = NOT_SEEN
        else:
            count = self.seen.count
            seen = SEEN_PACK.pack(count(0) / 8, count(1) / 8, count(2) / 8, count(3) / 8,
                                  count(4) / 8)
        turn = TURN_HOT.get((isl.rounds, self.rnd, self.turn))
        if turn is None:  # not a turn of play (a state changed by hand)
            turn = _packed([self.rnd / isl.rounds, self.turn / TURNS_PER_ROUND, 0.0, 0.0])
        b0, b1, b2, b3, b4 = self.blue
        lens = (len(b0), len(b1), len(b2), len(b3), len(b4))
        blue = BLUE_HOT.get(lens)
        if blue is None:  # more than two cards on a stack (a state changed by hand)
            blue = _packed([n / 2 for n in lens])
        head = array("d", CARDS_HOT[self.cards] + seen + turn + blue + RED_HOT[tuple(self.red)])
        # every seat's bonus-card points, then its boxes of the rounds played so far (seat
        # q's box of round r is boxes[q * rounds + r]: the slice from r in steps of rounds)
        fixed = map(add, self.blue_pts, self.red_pts)
        boxes = self.boxes
        rounds = isl.rounds
        for r in range(self.rnd):
            fixed = map(add, fixed, boxes[r::rounds])
        return head, tuple(fixed)

    def _legal_indices(self, player: int, legal: tuple[Hashable, ...]) -> list[int]:
        """The legal actions' indices (draws, then bonuses, then pass) from the island's
        own index of the actions, without looking the action space up by the options
        (``legal_mask`` is made from these)."""
        index = self.isl.action_index
        try:
            return [index[a] for a in legal]
        except KeyError:
            return super()._legal_indices(player, legal)  # names the action in its error

    # -- copies and hidden information ---------------------------------------------------
    def clone(self) -> TucanaState:
        s: TucanaState = self._clone_base()
        s.isl = self.isl
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
        s.obs_cache = self.obs_cache
        s.obs_seen = None  # kept per state: the clone's moves must not change these
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

    def _restore(self, q: int, snap: Snap) -> None:
        """Put seat ``q``'s sheet back as it was at the start of the step, before its
        decision in this step."""
        isl = self.isl
        size = isl.size
        base = q * size
        self.par[base : base + size] = range(base, base + size)
        self.info[base : base + size] = isl.info0
        drawn, circled, kc, pairs, linked, bonus = snap
        for e in _bits(drawn):
            a, b = isl.edges[e]
            ra = self._find(base + a)
            rb = self._find(base + b)
            if ra != rb:
                self.par[rb] = ra
                self.info[ra] |= self.info[rb]
        self.drawn[q] = drawn
        self.circled[q] = circled
        self.kcount[q * KINDS : q * KINDS + KINDS] = kc
        self.pairs[q] = pairs
        self.linked[q] = linked
        self.bonus[q] = bonus
        self.moves[q] = self.moves[q][:-1]

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
            self._restore(q, snap)
            self._commit(q, cast(Action, rng.choice(self._legal_actions(q))))

    # -- views -----------------------------------------------------------------------------
    def _sheet(self, q: int, public: bool) -> dict[str, Any]:
        isl = self.isl
        snap = self.snap[q] if public else None
        if snap is not None:
            drawn, circled, kc, pairs, linked, owed = snap
        else:
            k = q * KINDS
            drawn, circled, kc, pairs, linked, owed = (
                self.drawn[q], self.circled[q], tuple(self.kcount[k : k + KINDS]),
                self.pairs[q], self.linked[q], self.bonus[q],
            )
        rounds = isl.rounds
        boxes = self.boxes[q * rounds : q * rounds + self.rnd]
        sights = self.sight_sum(q, kc)
        pair_pts = self.pair_sum(pairs)
        bonus = self.blue_pts[q] + self.red_pts[q]
        total = sum(boxes) + pair_pts + bonus + (0 if self.over else sights)
        return {
            "player": q,  # makes each sheet distinct (the leak check searches for them)
            "letters": [LETTER_NAMES[x] for x in self.letters[q]],
            "segments": [isl.draws[e].ends for e in _bits(drawn)],
            "circled_sights": [isl.labels[isl.sight_space[s]] for s in _bits(circled)],
            "sight_values": {
                TABLES.sight_names[k]: list(isl.sight_values[k][: kc[k]]) for k in range(KINDS)
            },
            "sight_sum": sights,
            "boxes": boxes,
            "pairs": [LETTER_NAMES[L] for L in range(LETTERS) if (pairs >> L) & 1],
            "pair_points": pair_pts,
            "blue_bonus": [f"{LETTER_NAMES[L]}:{v}" for L, v in self.blue_won[q]],
            "bonus_points": bonus,
            "linked_red": [TABLES.sight_names[k] for k in _bits(linked)] if self.red_on else [],
            "bonus_owed": owed,
            "score": total,
        }

    def _view(self, player: int | None) -> dict[str, Any]:
        isl = self.isl
        v: dict[str, Any] = {
            "map": isl.key,
            "map_name": isl.name,
            "round": min(self.rnd + 1, isl.rounds),
            "rounds": isl.rounds,
            "turn": self.turn + 1 if not self.over else TURNS_PER_ROUND,
            "turns_per_round": TURNS_PER_ROUND,
            "cards": None if self.cards is None else [CARD_NAMES[c] for c in self.cards],
            "deck": len(self.deck),
            "bonus_step": self.bstep,
            "setup_card": self.setup_card + 1,
            "start_village": self.start + 1,
            "clockwise": self.direction > 0,
            "blue": {LETTER_NAMES[L]: list(self.blue[L]) for L in range(LETTERS)},
            "red": [
                {"sight": TABLES.sight_names[k], "value": TABLES.red[k]} for k in self.red
            ],
            "red_taken": [
                {"sight": TABLES.sight_names[k], "value": val, "by": list(w)}
                for k, val, w in self.red_won
            ],
            "sheets": [self._sheet(q, q != player) for q in range(self.n)],
        }
        if not self.options.hide_earlier_cards:  # R3.1
            v["seen_this_round"] = [CARD_NAMES[c] for c in self.seen]
        if self.n == 1:
            v["solo"] = {
                "target": TABLES.solo_target[isl.key],
                "discarded_blue": [LETTER_NAMES[L] for L in self.solo_dropped],
            }
        if player is not None:
            v["bonus_segments"] = self.bonus[player]
            v["this_turn"] = [str(a) for a in self.moves[player]]
            circled0, pairs0 = self.turn_start
            v["connected_this_turn"] = self._gains(player, circled0[player], pairs0[player])
        return v

    # -- log text --------------------------------------------------------------------------
    def _gains(self, p: int, circled0: int, pairs0: int) -> list[str]:
        isl = self.isl
        out = []
        new = self.circled[p] & ~circled0
        for s in _bits(new):
            kind = TABLES.sight_names[isl.sight_kind[s]]
            out.append(f"{kind} at {isl.labels[isl.sight_space[s]]}")
        for L in _bits(self.pairs[p] & ~pairs0):
            out.append(f"villages {LETTER_NAMES[L]}-{LETTER_NAMES[L]} ({isl.pair_values[L]})")
        return out

    def _outcome(self, p: int, k: int) -> tuple[str, list[str], int]:
        """Seat ``p``'s decision in step ``k``: what it drew (``j8-k9``, ``bonus i1-k1``,
        ``nothing``, or ``no bonus segment`` when declined), what it connected and how
        many bonus segments it earned."""
        snap = self.snap[p]
        assert snap is not None
        a = self.moves[p][-1]
        gains = self._gains(p, snap[1], snap[3])
        if isinstance(a, Pass):
            free = k and self.drawn[p] != (1 << len(self.isl.edges)) - 1
            return ("no bonus segment" if free else "nothing"), gains, 0
        used = 1 if isinstance(a, Bonus) else 0
        earned = self.bonus[p] - snap[5] + used
        return (f"bonus {a.ends}" if used else a.ends), gains, earned

    def _summary(self, p: int, k: int) -> str:
        """Seat ``p``'s own account of its decision in step ``k`` (the private log line)."""
        drew, gains, earned = self._outcome(p, k)
        if drew == "no bonus segment":
            snap = self.snap[p]
            assert snap is not None
            text = f"decline {_segments(snap[5])}"
        else:
            text = "draw " + drew + (" (no free segment fits)" if drew == "nothing" else "")
        if gains:
            text += "; connected: " + ", ".join(gains)
        if earned:
            text += f"; earned {_segments(earned)}, drawn after the reveal"
        return text

    def _step_text(self, p: int, k: int) -> str:
        """The public line for seat ``p``'s decision in step ``k``, written when the step is
        revealed."""
        drew, gains, earned = self._outcome(p, k)
        if drew == "no bonus segment":
            snap = self.snap[p]
            assert snap is not None
            return f"P{p + 1} declines {_segments(snap[5])}."
        text = f"P{p + 1} draws {drew}"
        if gains:
            text += "; connects " + ", ".join(gains)
        if earned:
            text += f"; earns {_segments(earned)}"
        return text + "."


def _terrain_phrase(c1: str, c2: str) -> str:
    """``a desert space and a water space``; ``two desert spaces``; ``any two adjacent
    spaces`` for two wild cards."""
    if c1 == c2 == "any":
        return "any two adjacent spaces"
    if c1 == c2:
        return f"two {c1} spaces"
    if "any" in (c1, c2):
        other = c2 if c1 == "any" else c1
        return f"a{'n' if other[0] in 'aeiou' else ''} {other} space and any space"
    return (f"a{'n' if c1[0] in 'aeiou' else ''} {c1} space and "
            f"a{'n' if c2[0] in 'aeiou' else ''} {c2} space")


def _flip_ends(text: str) -> str | None:
    """``text`` with the ends of its last word swapped (``draw i3-j2`` -> ``draw j2-i3``),
    or None when its last word does not name two ends."""
    words = text.split()
    if not words or words[-1].count("-") != 1:
        return None
    a, b = words[-1].split("-")
    return " ".join([*words[:-1], f"{b}-{a}"])


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise AssertionError(f"trails-of-tucana: {what}")


def _segments(k: int) -> str:
    return f"{k} bonus segment" + ("s" if k > 1 else "")


def _who(players: list[int]) -> str:
    return " and ".join(f"P{p + 1}" for p in players)

