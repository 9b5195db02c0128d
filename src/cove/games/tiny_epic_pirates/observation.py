"""The observation (SPEC.md, Observation), declared as named blocks
(:mod:`cove.core.observer`): the core lays them out, keeps the blocks that declare their
inputs while those are unchanged, and writes the SPEC.md table from them.

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent seats are zeros).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.core.observer import Block, Observer, Out
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.turn import B_PIRATE, DECISION_INDEX, DECISIONS

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState

SEATS = 4
CELL = 4 + 4 + 5
"""A sea card's floats: map kind, market booty, searched, port, Navy, merchants, plunder."""
MERCHANT = 1 + (D.BOOTY_TYPES + 1) + 1
"""A merchant's floats: card, cube (none or a type), heading."""
SEAT = (1 + 1 + 16 + 1 + 6 + 36 + 6 + 4 + 1 + 1 + 1 + 1 + 1 + D.BOOTY_TYPES + 1 + 1
        + D.CREW_CARDS + D.CAPTAINS + 1)
"""A seat's floats (see the seats block)."""
# where the parts of a seat's floats start
S_POS, S_HIDDEN, S_CAP, S_WHEEL, S_VALUES = 2, 18, 19, 25, 61
S_CREW = S_VALUES + 6 + 4 + 11
S_CAPTAIN = S_CREW + D.CREW_CARDS
S_SIDE = S_CAPTAIN + D.CAPTAINS
assert S_SIDE + 1 == SEAT
DICE_AT = 3 + 2 * SEATS
"""Where the battle's dice counts start in the battle block."""


def sea(state: PiratesState, player: int, out: Out) -> None:
    """Each card of the sea in turn: its map kind and market booty, whether it has been
    searched, is a port, holds the Navy, how many merchants are there, its plunder."""
    cards, maps, tokens, ports, navy, m_pos = (
        state.R.maps, state.maps, state.tokens, state.ports, state.navy, state.m_pos)
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
        if navy == i:
            out.one(base + 10)
        merchants = m_pos.count(i)
        if merchants:
            out.value(base + 11, merchants / 2.0)
        if card.plunder:
            out.value(base + 12, card.plunder / 2.0)


def market(state: PiratesState, player: int, out: Out) -> None:
    for space, booty in enumerate(state.market):
        if booty >= 0:
            out.one(space * D.BOOTY_TYPES + booty)


def merchants(state: PiratesState, player: int, out: Out) -> None:
    for m in (0, 1):
        base = m * MERCHANT
        out.value(base, state.m_card[m] / 8.0)
        out.one(base + 2 + state.m_cube[m])  # cube -1 (none) is the first of 5
        out.value(base + MERCHANT - 1, float(state.m_face[m]))


def seats(state: PiratesState, player: int, out: Out) -> None:
    """Each seat from the observer's on (absent seats stay zeros)."""
    R = state.R
    np = state.np
    cap_total = R.ship_capacity
    sure_total = max(1, R.surefire_tokens)
    for k in range(min(np, SEATS)):
        p = (player + k) % np
        base = k * SEAT
        out.one(base)
        if p == state.solo:
            out.one(base + 1)
        if state.pos[p] >= 0:
            out.one(base + S_POS + state.pos[p])
        if state.hidden[p]:
            out.one(base + S_HIDDEN)
        if state.cap[p] >= 0:
            out.one(base + S_CAP + state.cap[p])
        for j, order in enumerate(state.wheel[p]):
            if order >= 0:
                out.one(base + S_WHEEL + 6 * j + order)
        booty = state.booty[p]
        out.run(base + S_VALUES, [
            *state.wheel_dh[p], *[a / 4.0 for a in state.assign[p]],
            float(state.dh_reserve[p]), state.level[p] / D.LEGEND_LEVELS,
            float(state.bloody[p]), state.gold[p] / R.gold_cap,
            len(state.treasures[p]) / D.TREASURES, booty.count(0) / cap_total,
            booty.count(1) / cap_total, booty.count(2) / cap_total,
            booty.count(3) / cap_total, state.sure[p] / sure_total,
            sum(state.sail_tokens[p]) / 4.0])
        for c in state.crew[p]:
            out.one(base + S_CREW + c)
        if state.captain[p] >= 0:
            out.one(base + S_CAPTAIN + state.captain[p])
        out.value(base + S_SIDE, float(state.side[p]))


def crew_line(state: PiratesState, player: int, out: Out) -> None:
    for c in state.crew_line:
        out.one(c)


def supply(state: PiratesState, player: int, out: Out) -> None:
    R = state.R
    out.run(0, [len(state.crew_deck) / D.CREW_CARDS, len(state.m_deck) / D.MERCHANT_CARDS,
                sum(state.bag) / max(1, sum(R.cubes)),
                state.sure_supply / max(1, R.surefire_tokens), float(state.end_trigger),
                float(state.over)])


def turn(state: PiratesState, player: int, out: Out) -> None:
    """The round, whose turn it is, the pending decision and the turn's counters."""
    np = state.np
    out.value(0, state.turn / (np * 60.0))
    out.one(1 + (state.turn % np - player) % np)
    decider, argument = -1, 0
    top = state.top_step
    if top is not None:
        out.one(1 + SEATS + DECISION_INDEX[top.kind])
        decider, argument = top.players[0], top.data[0]
    out.run(1 + SEATS + len(DECISIONS), [
        float(state.crossed), state.moves_used / 8.0, state.sail_bonus / 4.0,
        float(state.refreshed), state.rerolls / 4.0, argument / 6.0,
        float(decider == player)])


def battle(state: PiratesState, player: int, out: Out) -> None:
    """The battle being fought, if any: its kind, the sides, and each side's dice."""
    b = state.battle
    if b is None:
        return
    np = state.np
    attacker, kind, target, attack_dice, defence_dice = b[:5]
    out.one(kind)
    out.one(3 + (attacker - player) % np)
    if kind == B_PIRATE:
        out.one(3 + SEATS + (target - player) % np)
    out.run(DICE_AT, [dice.count(face) / 3.0 for dice in (attack_dice, defence_dice)
                      for face in range(1, 7)])


OBSERVER = Observer([
    Block("sea", sea, "16 cards x 13: kind one-hot (4), market booty one-hot (4), "
          "searched, port, navy, merchants here / 2, plunder icons / 2", size=16 * CELL,
          inputs=("R", "maps", "tokens", "ports", "navy", "m_pos"), same_for_all=True),
    Block("market", market, "for each Gold space 2..5, the booty type one-hot (4)",
          size=4 * D.BOOTY_TYPES, inputs=("market",), same_for_all=True),
    Block("merchants", merchants, "2 merchants x 7: card / 8, cube one-hot (none + 4 "
          "types), heading port index", size=2 * MERCHANT,
          inputs=("m_card", "m_cube", "m_face"), same_for_all=True),
    Block("seats", seats, "seats from p: present, solo pirate, ship card one-hot (16), "
          "hidden, Captain space one-hot (6), wheel orders one-hot (6 x 6), wheel "
          "Deckhands (6), assignments / 4 (4), Deckhand on the Legend mat, legend / 7, "
          "bloody, gold / gold cap, treasures / 3, booty counts / capacity (4), sure-fire "
          "/ supply total, sail tokens / 4, crew multi-hot (24), captain one-hot (4), "
          "captain side", size=SEATS * SEAT, floats=f"{SEATS} x {SEAT}",
          inputs=("R", "np", "solo", "pos", "hidden", "cap", "wheel", "wheel_dh",
                  "assign", "dh_reserve", "level", "bloody", "gold", "treasures", "booty",
                  "sure", "sail_tokens", "crew", "captain", "side")),
    Block("crew line", crew_line, "crew line multi-hot (24)", size=D.CREW_CARDS,
          inputs=("crew_line",), same_for_all=True),
    Block("supply", supply, "crew deck / 24, merchant deck / 11, bag / cubes, sure-fire "
          "supply / total, end triggered, over", size=6,
          inputs=("R", "crew_deck", "m_deck", "bag", "sure_supply", "end_trigger", "over"),
          same_for_all=True),
    Block("turn", turn, "turn / (seats x 60); turn player one-hot from p (4); pending "
          "task one-hot (21); crossed the ship line, moves used / 8, sail bonus / 4, line "
          "refreshed, rerolls / 4, task argument / 6; p decides now",
          size=1 + SEATS + len(DECISIONS) + 7),
    Block("battle", battle, "kind one-hot (3), attacker one-hot from p (4), pirate target "
          "one-hot from p (4), attacker dice face counts / 3 (6), defender dice face "
          "counts / 3 (6)", size=DICE_AT + 12),
])
"""Tiny Epic Pirates' observation: 768 floats for every configuration. The battle is a
block of the moment (made every call): its dice change in place while it is fought."""
