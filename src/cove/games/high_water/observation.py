"""High Water's observation (SPEC.md, "Observation"), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

The sizes come from the data file (an option), never from the player count: there are
always five seat slots, and the slots beyond the players are zeros. Seats are listed from
the observer on. A die's weight in a dice count is a third, added once per die, so three
dice of one code count 1.0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from cove.core.observer import Block, Observer, Out
from cove.games.high_water.actions import MAX_PLAYERS
from cove.games.high_water.data import HWData, get
from cove.games.high_water.options import HighWaterOptions
from cove.games.high_water.rules import CHOICES, PHASE_NAMES, SEG, TRICK

if TYPE_CHECKING:
    from cove.core.options import Options
    from cove.games.high_water.state import HighWaterState

THIRD = 1.0 / 3
"""A die's weight in a dice count (3 dice: 1.0)."""


def data_of(options: Options) -> HWData:
    """The data file the options name (the blocks' sizes depend on it)."""
    return get(cast(HighWaterOptions, options).data_file)


def seat_size(D: HWData) -> int:
    """One seat slot: present, 3 one-hots of the trick cards, 5 trick and hold values,
    the dice counts, the crew counts, 3 values per active quest card, the completed
    quests, and influence, won the trick, took the last crate."""
    return 1 + 3 * len(D.trick_cards) + 5 + len(D.colours) * D.faces + 5 * len(D.cards) + 3


def die_index(D: HWData, code: int) -> int:
    """Where a die code (colour * 10 + face) sits in a dice count: colour-major."""
    return (code // 10) * D.faces + code % 10 - 1


def dice_counts(out: Out, at: int, D: HWData, dice: list[int]) -> None:
    """Each die code's count / 3 from ``at``, a third added per die."""
    shares: dict[int, float] = {}
    for code in dice:
        i = die_index(D, code)
        shares[i] = shares.get(i, 0.0) + THIRD
    for i, share in shares.items():
        out.value(at + i, share)


def round_(state: HighWaterState, player: int, out: Out) -> None:
    out.value(0, state.rnd / state.opts.max_rounds)


def water(state: HighWaterState, player: int, out: Out) -> None:
    if state.high:
        out.one(0)


def phase(state: HighWaterState, player: int, out: Out) -> None:
    out.one(state.phase)


def step(state: HighWaterState, player: int, out: Out) -> None:
    if state.phase == SEG:
        k = state.step
        if 1 <= k <= 6:
            out.one(k - 1)


def bag(state: HighWaterState, player: int, out: Out) -> None:
    colours = state.D.colours
    out.run(0, [left / max(1, colours[c].count) for c, left in enumerate(state.bag)])


def end(state: HighWaterState, player: int, out: Out) -> None:
    if state.triggered:
        out.one(0)


def seats(state: HighWaterState, player: int, out: Out) -> None:
    D, n = state.D, state.n
    cards = D.trick_cards
    t, k, size = len(cards), len(D.cards), seat_size(D)
    in_trick, waiting, order = state.phase == TRICK, state.waiting, state.order
    for slot in range(n):
        p = (player + slot) % n
        at = slot * size
        out.one(at)
        for part, held in enumerate((state.hands[p], state.played[p], state.keys[p])):
            for c in held:
                out.one(at + 1 + part * t + cards.index(c))
        at += 1 + 3 * t
        if p in waiting:
            out.one(at)
        if in_trick and state.commit[p] >= 0:
            out.one(at + 1)
        out.run(at + 2, [order.index(p) / n if p in order else -1.0, state.gold[p] / 10,
                         state.rum[p] / 10])
        at += 5
        dice_counts(out, at, D, state.dice[p])
        at += len(D.colours) * D.faces
        crew: dict[int, float] = {}
        for c in state.crew[p]:
            crew[c] = crew.get(c, 0.0) + 1.0
        for c, count in crew.items():
            out.value(at + c, count)
        at += k
        active = {cid: (done, marks) for cid, done, marks in state.quests[p]}
        for cid, (done, marks) in active.items():
            out.one(at + 3 * cid)
            out.run(at + 3 * cid + 1, [done / max(1, len(D.cards[cid].tasks)),
                                       marks / max(1, D.max_markers)])
        at += 3 * k
        for c in state.done_q[p]:
            out.one(at + c)
        at += k
        out.value(at, state.influence[p] / state.opts.goal)
        if p == state.won:
            out.one(at + 1)
        if p == state.last:
            out.one(at + 2)


def market(state: HighWaterState, player: int, out: Out) -> None:
    k = len(state.D.cards)
    counts: dict[int, float] = {}
    for base, row in ((0, state.crew_row), (k, state.quest_row)):
        for c in row:
            if c >= 0:
                counts[base + c] = counts.get(base + c, 0.0) + 1.0
    for i, count in counts.items():
        out.value(i, count)


def decks(state: HighWaterState, player: int, out: Out) -> None:
    D = state.D
    out.run(0, [len(state.crew_deck) / max(1, len(D.crew_deck)),
                len(state.quest_deck) / max(1, len(D.quest_deck))])


def pending(state: HighWaterState, player: int, out: Out) -> None:
    if state.phase != SEG:
        out.one(len(CHOICES))
        return
    open_ = state.pending
    if open_ is not None:
        out.one(CHOICES.index(open_.kind))


def secret(state: HighWaterState, player: int, out: Out) -> None:
    card = state.commit[player]
    if state.phase == TRICK and card >= 0:
        out.one(state.D.trick_cards.index(card))


def chosen(state: HighWaterState, player: int, out: Out) -> None:
    open_ = state.pending
    if open_ is not None and open_.kind in ("reroll", "pay"):
        picked = open_.data[2] if open_.kind == "reroll" else open_.data[3]
        hold = state.dice[open_.player]
        dice_counts(out, 0, state.D, [hold[j] for j in picked])


OBSERVER = Observer([
    Block("round", round_, "round / max_rounds", size=1, inputs=("rnd",),
          same_for_all=True),
    Block("water", water, "water high (1/0)", size=1, inputs=("high",), same_for_all=True),
    Block("phase", phase, "one-hot phase (" + ", ".join(PHASE_NAMES) + ")",
          size=len(PHASE_NAMES), same_for_all=True),
    Block("step", step, "one-hot segment step 1..6 (all zero outside a segment)", size=6,
          same_for_all=True),
    Block("bag", bag, "per colour, the share of its dice in the bag",
          sized=lambda n, o: len(data_of(o).colours), floats="colours", inputs=("bag",),
          same_for_all=True),
    Block("end", end, "end triggered: someone reached the goal, this is the last round "
          "(1/0)", size=1, inputs=("triggered",), same_for_all=True),
    Block("seats", seats, "per seat slot, listed from p on (p, p+1, ...; slots beyond P "
          "are zeros): present (1); hand, played pile and cards revealed this trick (3 × "
          "T one-hot); waiting in the trick, committed, pick position / P (-1 before the "
          "reveal), gold / 10, rum / 10; dice counts / 3 (D); crew card counts (K); per "
          "card: active quest, tasks done / tasks, markers / max (3 K); completed quests "
          "(K); influence / goal, won the trick, took the last crate",
          sized=lambda n, o: MAX_PLAYERS * seat_size(data_of(o)),
          floats=f"{MAX_PLAYERS} × (1 + 3 T + 5 + D + 5 K + 3)",
          inputs=("hands", "played", "keys", "phase", "waiting", "commit", "order", "gold",
                  "rum", "dice", "crew", "quests", "done_q", "influence", "won", "last")),
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
