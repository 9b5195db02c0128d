"""High Water's observation (SPEC.md, "Observation"), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

The sizes come from the data file (an option), never from the player count: there are
always five seat slots, and the slots beyond the players are zeros. Seats are listed from
the observer on. A die's weight in a dice count is a third, added once per die, so three
dice of one code count 1.0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from cove.core import Block, Observer, Out
from cove.games.high_water.actions import MAX_PLAYERS
from cove.games.high_water.data import HWData, get
from cove.games.high_water.options import HighWaterOptions
from cove.games.high_water.rules import CHOICES, PHASE_NAMES, SEG, TRICK, Paying, Rerolling

if TYPE_CHECKING:
    from cove.core import Options
    from cove.games.high_water.state import HighWaterState

THIRD: Final = 1.0 / 3
"""A die's weight in a dice count (3 dice: 1.0)."""


def data_of(options: Options) -> HWData:
    """The data file the options name (the blocks' sizes depend on it)."""
    return get(cast(HighWaterOptions, options).data_file)


def seat_size(data: HWData) -> int:
    """One seat slot: present, 3 one-hots of the trick cards, 5 trick and hold values,
    the dice counts, the crew counts, 3 values per active quest card, the completed
    quests, and influence, won the trick, took the last crate."""
    return (1 + 3 * len(data.trick_cards) + 5 + len(data.colours) * data.faces
            + 5 * len(data.cards) + 3)


def die_index(data: HWData, code: int) -> int:
    """Where a die code (colour * 10 + face) sits in a dice count: colour-major."""
    return (code // 10) * data.faces + code % 10 - 1


def dice_counts(out: Out, at: int, data: HWData, dice: list[int]) -> None:
    """Each die code's count / 3 from ``at``, a third added per die."""
    shares: dict[int, float] = {}
    for code in dice:
        i = die_index(data, code)
        shares[i] = shares.get(i, 0.0) + THIRD
    for i, share in shares.items():
        out.value(at + i, share)


def round_(state: HighWaterState, player: int, out: Out) -> None:
    out.value(0, state.round / state.options.max_rounds)


def water(state: HighWaterState, player: int, out: Out) -> None:
    if state.high_water:
        out.one(0)


def phase(state: HighWaterState, player: int, out: Out) -> None:
    out.one(state.phase)


def step(state: HighWaterState, player: int, out: Out) -> None:
    if state.phase == SEG:
        k = state.step
        if 1 <= k <= 6:
            out.one(k - 1)


def bag(state: HighWaterState, player: int, out: Out) -> None:
    colours = state.data.colours
    out.run(0, [left / max(1, colours[c].count) for c, left in enumerate(state.bag)])


def end(state: HighWaterState, player: int, out: Out) -> None:
    if state.end_triggered:
        out.one(0)


def seats(state: HighWaterState, player: int, out: Out) -> None:
    data, n = state.data, state.n
    cards = data.trick_cards
    t, k, size = len(cards), len(data.cards), seat_size(data)
    in_trick, waiting, order = state.phase == TRICK, state.waiting, state.pick_order
    for slot in range(n):
        p = (player + slot) % n
        at = slot * size
        out.one(at)
        for part, held in enumerate((state.hands[p], state.played[p], state.revealed[p])):
            for c in held:
                out.one(at + 1 + part * t + cards.index(c))
        at += 1 + 3 * t
        if p in waiting:
            out.one(at)
        if in_trick and state.committed[p] >= 0:
            out.one(at + 1)
        out.run(at + 2, [order.index(p) / n if p in order else -1.0, state.gold[p] / 10,
                         state.rum[p] / 10])
        at += 5
        dice_counts(out, at, data, state.dice[p])
        at += len(data.colours) * data.faces
        crew: dict[int, float] = {}
        for c in state.crew[p]:
            crew[c] = crew.get(c, 0.0) + 1.0
        for c, count in crew.items():
            out.value(at + c, count)
        at += k
        active = {quest.card: quest for quest in state.quests[p]}  # a later copy counts
        for cid, quest in active.items():
            out.one(at + 3 * cid)
            out.run(at + 3 * cid + 1, [quest.done / max(1, len(data.cards[cid].tasks)),
                                       quest.markers / max(1, data.max_markers)])
        at += 3 * k
        for c in state.completed[p]:
            out.one(at + c)
        at += k
        out.value(at, state.influence[p] / state.options.goal)
        if p == state.trick_winner:
            out.one(at + 1)
        if p == state.last_picker:
            out.one(at + 2)


def market(state: HighWaterState, player: int, out: Out) -> None:
    k = len(state.data.cards)
    counts: dict[int, float] = {}
    for base, row in ((0, state.crew_row), (k, state.quest_row)):
        for c in row:
            if c >= 0:
                counts[base + c] = counts.get(base + c, 0.0) + 1.0
    for i, count in counts.items():
        out.value(i, count)


def decks(state: HighWaterState, player: int, out: Out) -> None:
    data = state.data
    out.run(0, [len(state.crew_deck) / max(1, len(data.crew_deck)),
                len(state.quest_deck) / max(1, len(data.quest_deck))])


def pending(state: HighWaterState, player: int, out: Out) -> None:
    if state.phase != SEG:
        out.one(len(CHOICES))
        return
    open_ = state.pending
    if open_ is not None:
        out.one(CHOICES.index(open_.kind))


def secret(state: HighWaterState, player: int, out: Out) -> None:
    card = state.committed[player]
    if state.phase == TRICK and card >= 0:
        out.one(state.data.trick_cards.index(card))


def chosen(state: HighWaterState, player: int, out: Out) -> None:
    open_ = state.pending
    if open_ is not None and open_.kind in ("reroll", "pay"):
        record: Rerolling | Paying = open_.data
        picked = record.marked if isinstance(record, Rerolling) else record.chosen
        hold = state.dice[open_.player]
        dice_counts(out, 0, state.data, [hold[j] for j in picked])


OBSERVER: Final = Observer([
    Block("round", round_, "round / max_rounds", size=1, inputs=("round",),
          same_for_all=True),
    Block("water", water, "water high (1/0)", size=1, inputs=("high_water",), same_for_all=True),
    Block("phase", phase, "one-hot phase (" + ", ".join(PHASE_NAMES) + ")",
          size=len(PHASE_NAMES), same_for_all=True),
    Block("step", step, "one-hot segment step 1..6 (all zero outside a segment)", size=6,
          same_for_all=True),
    Block("bag", bag, "per colour, the share of its dice in the bag",
          sized=lambda n, o: len(data_of(o).colours), floats="colours", inputs=("bag",),
          same_for_all=True),
    Block("end", end, "end triggered: someone reached the goal, this is the last round "
          "(1/0)", size=1, inputs=("end_triggered",), same_for_all=True),
    Block("seats", seats, "per seat slot, listed from p on (p, p+1, ...; slots beyond P "
          "are zeros): present (1); hand, played pile and cards revealed this trick (3 × "
          "T one-hot); waiting in the trick, committed, pick position / P (-1 before the "
          "reveal), gold / 10, rum / 10; dice counts / 3 (D); crew card counts (K); per "
          "card: active quest, tasks done / tasks, markers / max (3 K); completed quests "
          "(K); influence / goal, won the trick, took the last crate",
          sized=lambda n, o: MAX_PLAYERS * seat_size(data_of(o)),
          floats=f"{MAX_PLAYERS} × (1 + 3 T + 5 + D + 5 K + 3)",
          inputs=("hands", "played", "revealed", "phase", "waiting", "committed", "pick_order",
                  "gold", "rum", "dice", "crew", "quests", "completed", "influence",
                  "trick_winner", "last_picker")),
    Block("market", market, "face-up crew market counts per card (K), then face-up quest "
          "market counts per card (K)", sized=lambda n, o: 2 * len(data_of(o).cards),
          floats="2 K", inputs=("crew_row", "quest_row"), same_for_all=True),
    Block("decks", decks, "crew and quest deck sizes, each as a share of its full deck",
          size=2, same_for_all=True),
    Block("pending", pending, "one-hot open sub-decision of a segment ("
          + ", ".join(CHOICES) + "), then not in a segment", size=len(CHOICES) + 1,
          floats=f"{len(CHOICES)} + 1", same_for_all=True),
    Block("secret", secret, "one-hot p's own secret trick card, once committed in a trick",
          sized=lambda n, o: len(data_of(o).trick_cards), floats="T"),
    Block("chosen", chosen, "dice counts / 3 of the dice already chosen for a re-roll or a "
          "payment", sized=lambda n, o: len(data_of(o).colours) * data_of(o).faces,
          floats="D", same_for_all=True),
])
"""High Water's observation: 1,260 floats with the built-in data, at every player
count (the sizes depend on the data file only)."""
