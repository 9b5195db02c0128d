"""The observation: a player's information as a fixed-length list of floats (SPEC.md).

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent ones are zeros).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cove.core.options import Options
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.board import B_MERCHANT, B_PIRATE, DECISION_INDEX, DECISIONS

if TYPE_CHECKING:
    from cove.games.tiny_epic_pirates.state import PiratesState

SEATS = 4
CELL = 4 + 4 + 5      # map kind, market booty, searched/port/navy/merchants/plunder
SEA = 16 * CELL
MARKET = 4 * D.BOOTY_TYPES
MERCHANT = 1 + (D.BOOTY_TYPES + 1) + 1
SEAT = (1 + 1 + 16 + 1 + 6 + 36 + 6 + 4 + 1 + 1 + 1 + 1 + 1 + D.BOOTY_TYPES + 1 + 1
        + D.CREW_CARDS + D.CAPTAINS + 1)
GLOBAL = (D.CREW_CARDS + 7 + SEATS + len(DECISIONS) + 6 + 1 + 3 + 2 * SEATS + 12)
SIZE = SEA + MARKET + 2 * MERCHANT + SEATS * SEAT + GLOBAL


def observation_size(players: int, options: Options) -> int:
    return SIZE


def _hot(n: int, i: int) -> list[float]:
    out = [0.0] * n
    if 0 <= i < n:
        out[i] = 1.0
    return out


def observation(s: PiratesState, player: int) -> list[float]:
    R = s.R
    out: list[float] = []
    merchants_at = [0] * 16
    for m in (0, 1):
        merchants_at[s.m_pos[m]] += 1
    for i in range(16):
        card = s.card(i)
        out += _hot(4, card.kind) + _hot(D.BOOTY_TYPES, card.booty)
        out += [float(s.tokens[i] < 0), float(i in s.ports), float(s.navy == i),
                merchants_at[i] / 2.0, card.plunder / 2.0]
    for t in s.market:
        out += _hot(D.BOOTY_TYPES, t)
    for m in (0, 1):
        out += [s.m_card[m] / 8.0, *_hot(D.BOOTY_TYPES + 1, s.m_cube[m] + 1)]
        out += [float(s.m_face[m])]
    order = [(player + k) % s.np for k in range(s.np)]
    for k in range(SEATS):
        if k >= len(order):
            out += [0.0] * SEAT
            continue
        p = order[k]
        out += [1.0, float(p == s.solo), *_hot(16, s.pos[p]), float(s.hidden[p])]
        out += _hot(6, s.cap[p])
        for o in s.wheel[p]:
            out += _hot(6, o)
        out += [float(x) for x in s.wheel_dh[p]] + [a / 4.0 for a in s.assign[p]]
        out += [float(s.dh_reserve[p]), s.level[p] / D.LEGEND_LEVELS, float(s.bloody[p]),
                s.gold[p] / R.gold_cap, len(s.treasures[p]) / D.TREASURES]
        out += [s.booty[p].count(t) / R.ship_capacity for t in range(D.BOOTY_TYPES)]
        out += [s.sure[p] / max(1, R.surefire_tokens), sum(s.sail_tokens[p]) / 4.0]
        crew = [0.0] * D.CREW_CARDS
        for c in s.crew[p]:
            crew[c] = 1.0
        out += crew + _hot(D.CAPTAINS, s.captain[p]) + [float(s.side[p])]
    line = [0.0] * D.CREW_CARDS
    for c in s.crew_line:
        line[c] = 1.0
    out += line
    out += [len(s.crew_deck) / D.CREW_CARDS, len(s.m_deck) / D.MERCHANT_CARDS,
            sum(s.bag) / max(1, sum(R.cubes)), s.sure_supply / max(1, R.surefire_tokens),
            float(s.end_trigger), float(s.over), s.turn / (s.np * 60.0)]
    out += _hot(SEATS, order.index(s.turn_player()))
    kind, p, x = -1, -1, 0
    if not s.over:
        top = s.steps[-1]
        kind, p, x = DECISION_INDEX[top.kind], top.players[0], top.data[0]
    out += _hot(len(DECISIONS), kind)
    out += [float(s.crossed), s.moves_used / 8.0, s.sail_bonus / 4.0, float(s.refreshed),
            s.rerolls / 4.0, x / 6.0]
    out += [float(p == player)]
    b = s.battle
    if b is None:
        out += [0.0] * (3 + 2 * SEATS + 12)
    else:
        out += _hot(3, b[1])
        out += _hot(SEATS, order.index(b[0]))
        out += _hot(SEATS, order.index(b[2]) if b[1] == B_PIRATE else -1)
        for dice in (b[3], b[4]):
            out += [dice.count(f) / 3.0 for f in range(1, 7)]
        assert b[1] != B_MERCHANT or 0 <= b[2] < 2
    return out
