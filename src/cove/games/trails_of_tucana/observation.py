"""Trails of Tucana's observation (SPEC.md, Observation), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

The cards, the round, the bonus cards, then every sheet's segments and score as the
observer sees them: seats from the observer on (p, p+1, ... wrapping), the other sheets
as they were at the start of the step while their owners' decisions are hidden (R3.8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cove.core import Block, Observer, Options, Out
from cove.games.trails_of_tucana.data import CARD_NAMES, KINDS, TABLES, TURNS_PER_ROUND
from cove.games.trails_of_tucana.island import Island
from cove.games.trails_of_tucana.options import TucanaOptions
from cove.games.trails_of_tucana.sheets import drawn_edges, drawn_on

if TYPE_CHECKING:
    from cove.games.trails_of_tucana.state import TucanaState

CARD_KINDS: Final = len(CARD_NAMES)


def island_of(options: Options) -> Island:
    """The island the options name."""
    assert isinstance(options, TucanaOptions)
    return TABLES.islands[options.map]


def cards(state: TucanaState, player: int, out: Out) -> None:
    revealed = state.revealed
    if revealed is not None:
        first, second = revealed
        out.run(0, [float((first == c) + (second == c)) for c in range(CARD_KINDS)])


def seen(state: TucanaState, player: int, out: Out) -> None:
    if not state.options.hide_earlier_cards:
        out.run(0, [state.seen.count(c) / 8 for c in range(CARD_KINDS)])


def round_(state: TucanaState, player: int, out: Out) -> None:
    out.run(0, [state.round / island_of(state.options).rounds, state.turn / TURNS_PER_ROUND])


def bonus_step(state: TucanaState, player: int, out: Out) -> None:
    if state.bonus_step:
        out.one(0)


def bonus_owed(state: TucanaState, player: int, out: Out) -> None:
    out.value(0, state.bonus_owed[player] / KINDS)


def blue(state: TucanaState, player: int, out: Out) -> None:
    out.run(0, [len(stack) / 2 for stack in state.blue_cards])


def red(state: TucanaState, player: int, out: Out) -> None:
    for kind in state.red_cards:
        out.one(kind)


def sheets(state: TucanaState, player: int, out: Out) -> None:
    island = island_of(state.options)
    edges = len(island.edges)
    rounds = island.rounds
    n = state.n
    for k in range(n):
        q = (player + k) % n
        before = state.snapshots[q] if q != player else None
        if before is None:
            drawn, circled, pairs = drawn_on(state, q), state.circled[q], state.pairs[q]
        else:  # the sheet as at the start of the step, while q's decision is hidden
            drawn, circled, pairs = before.drawn, before.circled, before.pairs
        start = k * (edges + 1)
        for edge in drawn_edges(drawn):
            out.one(start + edge)
        score = (state.blue_points[q] + state.red_points[q]
                 + sum(state.boxes[q * rounds : q * rounds + state.round])
                 + island.pair_points[pairs])
        if not state.over:  # the current round's sights, as if it ended now
            score += island.sight_points[circled]
        out.value(start + edges, score / 100)


def sheets_size(players: int, options: Options) -> int:
    return players * (len(island_of(options).edges) + 1)


OBSERVER: Final = Observer([
    Block("cards", cards, "how many of the two revealed cards are desert, forest, "
          "mountain, water, any", size=CARD_KINDS, inputs=("revealed",), same_for_all=True),
    Block("seen", seen, "cards of each kind revealed this round / 8 (zeros with "
          "`hide_earlier_cards`)", size=CARD_KINDS, inputs=("seen",), same_for_all=True),
    Block("round", round_, "rounds finished / rounds, turn of the round (0-based) / 13",
          size=2, inputs=("round", "turn"), same_for_all=True),
    Block("bonus step", bonus_step, "1 in a bonus step, else 0", size=1),
    Block("bonus owed", bonus_owed, "bonus segments the observer owes / 5", size=1,
          inputs=("bonus_owed",)),
    Block("blue", blue, "blue bonus cards left per letter A–E / 2", size=5,
          inputs=("blue_cards",), same_for_all=True),
    Block("red", red, "1 where the red card of that sight kind is still in play", size=5,
          inputs=("red_cards",), same_for_all=True),
    Block("sheets", sheets, "per seat from the observer on (p, p+1, ... wrapping): `E` "
          "values, 1 where that sheet has a segment, then its score / 100 (other sheets as "
          "the observer sees them)", sized=sheets_size, floats="n (E + 1)",
          inputs=("drawn", "circled", "pairs", "snapshots", "blue_points", "red_points",
                  "boxes", "round", "over")),
])
"""Trails of Tucana's observation: ``24 + n (E + 1)`` floats for ``n`` players, ``E`` the
island's number of edges."""
