"""The observation (SPEC.md, Observation), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent seats are zeros).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cove.core import Block, Observer, Out
from cove.games.tiny_epic_pirates import data
from cove.games.tiny_epic_pirates.turn import B_PIRATE, DECISION_INDEX, DECISIONS, task_argument

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState

SEATS: Final = 4
CELL: Final = 4 + 4 + 5
"""A sea card's floats: map kind, market booty, searched, port, Navy, merchants, plunder."""
MERCHANT: Final = 1 + (data.BOOTY_TYPES + 1) + 1
"""A merchant's floats: card, cube (none or a type), heading."""
SEAT: Final = (1 + 1 + 16 + 1 + 6 + 36 + 6 + 4 + 1 + 1 + 1 + 1 + 1 + data.BOOTY_TYPES + 1 + 1
        + data.CREW_CARDS + data.CAPTAINS + 1)
"""A seat's floats (see the seats block)."""
# where the parts of a seat's floats start
S_POS, S_HIDDEN, S_CAP, S_WHEEL, S_VALUES = 2, 18, 19, 25, 61
S_CREW: Final = S_VALUES + 6 + 4 + 11
S_CAPTAIN: Final = S_CREW + data.CREW_CARDS
S_SIDE: Final = S_CAPTAIN + data.CAPTAINS
assert S_SIDE + 1 == SEAT
DICE_AT: Final = 3 + 2 * SEATS
"""Where the battle's dice counts start in the battle block."""


def sea(state: PiratesState, player: int, out: Out) -> None:
    """Each card of the sea in turn: its map kind and market booty, whether it has been
    searched, is a port, holds the Navy, how many merchants are there, its plunder."""
    cards, maps, tokens, ports = (
        state.ruleset.maps, state.maps, state.search_tokens, state.ports)
    navy_at, merchant_at = state.navy_at, state.merchant_at
    for i in range(16):
        card = cards[maps[i]]
        base = i * CELL
        if card.kind >= 0:
            out.one(base + card.kind)
        if card.booty >= 0:
            out.one(base + 4 + card.booty)
        if tokens[i] < 0:
            out.one(base + 8)
        if i in ports:
            out.one(base + 9)
        if navy_at == i:
            out.one(base + 10)
        merchants = merchant_at.count(i)
        if merchants:
            out.value(base + 11, merchants / 2.0)
        if card.plunder:
            out.value(base + 12, card.plunder / 2.0)


def market(state: PiratesState, player: int, out: Out) -> None:
    for space, booty in enumerate(state.market):
        if booty >= 0:
            out.one(space * data.BOOTY_TYPES + booty)


def merchants(state: PiratesState, player: int, out: Out) -> None:
    for m in (0, 1):
        base = m * MERCHANT
        out.value(base, state.merchant_card[m] / 8.0)
        out.one(base + 2 + state.merchant_cube[m])  # cube -1 (none) is the first of 5
        out.value(base + MERCHANT - 1, float(state.merchant_heading[m]))


def seats(state: PiratesState, player: int, out: Out) -> None:
    """Each seat from the observer's on (absent seats stay zeros)."""
    ruleset = state.ruleset
    pirates = state.pirate_count
    capacity = ruleset.ship_capacity
    surefire_total = max(1, ruleset.surefire_tokens)
    for k in range(min(pirates, SEATS)):
        p = (player + k) % pirates
        base = k * SEAT
        out.one(base)
        if p == state.solo_pirate:
            out.one(base + 1)
        if state.ship_at[p] >= 0:
            out.one(base + S_POS + state.ship_at[p])
        if state.hidden[p]:
            out.one(base + S_HIDDEN)
        if state.captain_space[p] >= 0:
            out.one(base + S_CAP + state.captain_space[p])
        for j, order in enumerate(state.wheel[p]):
            if order >= 0:
                out.one(base + S_WHEEL + 6 * j + order)
        booty = state.booty[p]
        out.run(base + S_VALUES, [
            *[float(d) for d in state.wheel_deckhands[p]],
            *[a / 4.0 for a in state.assignments[p]],
            float(state.deckhand_on_legend_mat[p]),
            state.legend_level[p] / data.LEGEND_LEVELS,
            float(state.bloody[p]), state.gold[p] / ruleset.gold_cap,
            len(state.treasures[p]) / data.TREASURES, booty.count(0) / capacity,
            booty.count(1) / capacity, booty.count(2) / capacity,
            booty.count(3) / capacity, state.surefire[p] / surefire_total,
            sum(state.sail_tokens[p]) / 4.0])
        for c in state.crew[p]:
            out.one(base + S_CREW + c)
        if state.captain[p] >= 0:
            out.one(base + S_CAPTAIN + state.captain[p])
        out.value(base + S_SIDE, float(state.captain_side[p]))


def crew_line(state: PiratesState, player: int, out: Out) -> None:
    for c in state.crew_line:
        out.one(c)


def supply(state: PiratesState, player: int, out: Out) -> None:
    ruleset = state.ruleset
    out.run(0, [len(state.crew_deck) / data.CREW_CARDS,
                len(state.merchant_deck) / data.MERCHANT_CARDS,
                sum(state.bag) / max(1, sum(ruleset.cubes)),
                state.surefire_supply / max(1, ruleset.surefire_tokens),
                float(state.end_triggered), float(state.over)])


def turn(state: PiratesState, player: int, out: Out) -> None:
    """The round, whose turn it is, the pending decision and the turn's counters."""
    pirates = state.pirate_count
    out.value(0, state.turn / (pirates * 60.0))
    out.one(1 + (state.turn % pirates - player) % pirates)
    decider, argument = -1, 0
    top = state.top_step
    if top is not None:
        out.one(1 + SEATS + DECISION_INDEX[top.kind])
        decider, argument = top.players[0], task_argument(top)
    out.run(1 + SEATS + len(DECISIONS), [
        float(state.crossed_ship_line), state.moves_used / 8.0, state.sail_bonus / 4.0,
        float(state.crew_line_refreshed), state.rerolls / 4.0, argument / 6.0,
        float(decider == player)])


def battle(state: PiratesState, player: int, out: Out) -> None:
    """The battle being fought, if any: its kind, the sides, and each side's dice."""
    fight = state.battle
    if fight is None:
        return
    pirates = state.pirate_count
    out.one(fight.kind)
    out.one(3 + (fight.attacker - player) % pirates)
    if fight.kind == B_PIRATE:
        out.one(3 + SEATS + (fight.target - player) % pirates)
    out.run(DICE_AT, [dice.count(face) / 3.0
                      for dice in (fight.attacker_dice, fight.defender_dice)
                      for face in range(1, 7)])


OBSERVER: Final = Observer([
    Block("sea", sea, "16 cards x 13: kind one-hot (4), market booty one-hot (4), "
          "searched, port, navy, merchants here / 2, plunder icons / 2", size=16 * CELL,
          inputs=("ruleset", "maps", "search_tokens", "ports", "navy_at", "merchant_at"),
          same_for_all=True),
    Block("market", market, "for each Gold space 2..5, the booty type one-hot (4)",
          size=4 * data.BOOTY_TYPES, inputs=("market",), same_for_all=True),
    Block("merchants", merchants, "2 merchants x 7: card / 8, cube one-hot (none + 4 "
          "types), heading port index", size=2 * MERCHANT,
          inputs=("merchant_card", "merchant_cube", "merchant_heading"), same_for_all=True),
    Block("seats", seats, "seats from p: present, solo pirate, ship card one-hot (16), "
          "hidden, Captain space one-hot (6), wheel orders one-hot (6 x 6), wheel "
          "Deckhands (6), assignments / 4 (4), Deckhand on the Legend mat, legend / 7, "
          "bloody, gold / gold cap, treasures / 3, booty counts / capacity (4), sure-fire "
          "/ supply total, sail tokens / 4, crew multi-hot (24), captain one-hot (4), "
          "captain side", size=SEATS * SEAT, floats=f"{SEATS} x {SEAT}",
          inputs=("ruleset", "pirate_count", "solo_pirate", "ship_at", "hidden",
                  "captain_space", "wheel", "wheel_deckhands", "assignments",
                  "deckhand_on_legend_mat", "legend_level", "bloody", "gold", "treasures",
                  "booty", "surefire", "sail_tokens", "crew", "captain", "captain_side")),
    Block("crew line", crew_line, "crew line multi-hot (24)", size=data.CREW_CARDS,
          inputs=("crew_line",), same_for_all=True),
    Block("supply", supply, "crew deck / 24, merchant deck / 11, bag / cubes, sure-fire "
          "supply / total, end triggered, over", size=6,
          inputs=("ruleset", "crew_deck", "merchant_deck", "bag", "surefire_supply",
                  "end_triggered", "over"),
          same_for_all=True),
    Block("turn", turn, "turn / (seats x 60); turn player one-hot from p (4); pending "
          "task one-hot (21); crossed the ship line, moves used / 8, sail bonus / 4, line "
          "refreshed, rerolls / 4, task argument / 6; p decides now",
          size=1 + SEATS + len(DECISIONS) + 7),
    Block("battle", battle, "kind one-hot (3), attacker one-hot from p (4), pirate target "
          "one-hot from p (4), attacker dice face counts / 3 (6), defender dice face "
          "counts / 3 (6)", size=DICE_AT + 12),
])
"""Tiny Epic Pirates' observation: 768 floats for every configuration. The turn and the
battle are blocks of the moment (made every call)."""
