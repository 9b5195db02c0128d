"""The observation: a player's information as a fixed-length list of floats (SPEC.md).

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent seats are zeros).

Speed (issue 15): the encoder runs once per step of a learner, so it is built from
precomputed one-hot tuples (``HOT[n][i]``; ``HOT[n][-1]`` is all zeros) extended into one
list, and the parts fixed for a whole game (the sea's cards and ports, each seat's wheel
and captain) are encoded once per game into :class:`Static`, kept by the state and shared
by its clones. Values and layout are those SPEC.md documents.
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
# offsets inside a sea card's block
SEARCHED, NAVY, MERCHANTS = 8, 10, 11


def observation_size(players: int, options: Options) -> int:
    return SIZE


def _hots(n: int) -> tuple[tuple[float, ...], ...]:
    """``n`` one-hot tuples of length ``n``, then the all-zero one (index -1: none)."""
    return (*(tuple(1.0 if j == i else 0.0 for j in range(n)) for i in range(n)), (0.0,) * n)


HOT = {n: _hots(n) for n in {3, 4, 6, 16, D.BOOTY_TYPES, D.BOOTY_TYPES + 1, D.CAPTAINS,
                             SEATS, len(DECISIONS)}}
ZERO_SEAT = (0.0,) * SEAT
ZERO_CREW = (0.0,) * D.CREW_CARDS
ZERO_BATTLE = (0.0,) * (3 + 2 * SEATS + 12)
FLOAT = (0.0, 1.0)


class Static:
    """The encoded parts that stay fixed for a whole game: the sea's 16 card blocks with
    kind, booty, ports and plunder filled in (searched, navy and merchants zero), and per
    seat its wheel orders (6 x 6) and captain one-hot. Made from the state's ``maps``,
    ``ports``, ``wheel`` and ``captain``, which a game never changes (clones share them);
    ``fits`` tells whether a state still holds the very objects it was made from."""

    __slots__ = ("captain", "maps", "ports", "sea", "seat_captain", "seat_wheel", "wheel")

    def __init__(self, s: PiratesState) -> None:
        self.maps, self.ports, self.wheel, self.captain = s.maps, s.ports, s.wheel, s.captain
        sea: list[float] = []
        for i in range(16):
            card = s.card(i)
            sea += HOT[4][card.kind] + HOT[D.BOOTY_TYPES][card.booty]
            sea += (0.0, float(i in s.ports), 0.0, 0.0, card.plunder / 2.0)
        self.sea = sea
        self.seat_wheel = tuple(sum((HOT[6][o] for o in w), ()) for w in s.wheel)
        self.seat_captain = tuple(HOT[D.CAPTAINS][c] for c in s.captain)

    def fits(self, s: PiratesState) -> bool:
        return (self.maps is s.maps and self.ports is s.ports and self.wheel is s.wheel
                and self.captain is s.captain)


def static(s: PiratesState) -> Static:
    st = s.obs_static
    if st is None or not st.fits(s):
        st = s.obs_static = Static(s)
    return st


def observation(s: PiratesState, player: int) -> list[float]:
    R = s.R
    st = static(s)
    out = st.sea[:]
    for i, t in enumerate(s.tokens):
        if t < 0:
            out[i * CELL + SEARCHED] = 1.0
    if s.navy >= 0:
        out[s.navy * CELL + NAVY] = 1.0
    m0, m1 = s.m_pos
    if m0 == m1:
        out[m0 * CELL + MERCHANTS] = 1.0
    else:
        out[m0 * CELL + MERCHANTS] = out[m1 * CELL + MERCHANTS] = 0.5
    hb = HOT[D.BOOTY_TYPES]
    for t in s.market:
        out += hb[t]
    hc = HOT[D.BOOTY_TYPES + 1]
    for m in (0, 1):
        out.append(s.m_card[m] / 8.0)
        out += hc[s.m_cube[m] + 1]
        out.append(float(s.m_face[m]))
    np = s.np
    cap_total = R.ship_capacity
    sure_total = max(1, R.surefire_tokens)
    h16, h6 = HOT[16], HOT[6]
    for k in range(SEATS):
        if k >= np:
            out += ZERO_SEAT
            continue
        p = (player + k) % np
        out += (1.0, FLOAT[p == s.solo])
        out += h16[s.pos[p]]
        out.append(FLOAT[s.hidden[p]])
        out += h6[s.cap[p]]
        out += st.seat_wheel[p]
        out += map(float, s.wheel_dh[p])
        out += [a / 4.0 for a in s.assign[p]]
        booty = s.booty[p]
        out += (float(s.dh_reserve[p]), s.level[p] / D.LEGEND_LEVELS, FLOAT[s.bloody[p]],
                s.gold[p] / R.gold_cap, len(s.treasures[p]) / D.TREASURES,
                booty.count(0) / cap_total, booty.count(1) / cap_total,
                booty.count(2) / cap_total, booty.count(3) / cap_total,
                s.sure[p] / sure_total, sum(s.sail_tokens[p]) / 4.0)
        base = len(out)
        out += ZERO_CREW
        for c in s.crew[p]:
            out[base + c] = 1.0
        out += st.seat_captain[p]
        out.append(float(s.side[p]))
    base = len(out)
    out += ZERO_CREW
    for c in s.crew_line:
        out[base + c] = 1.0
    out += (len(s.crew_deck) / D.CREW_CARDS, len(s.m_deck) / D.MERCHANT_CARDS,
            sum(s.bag) / max(1, sum(R.cubes)), s.sure_supply / sure_total,
            FLOAT[s.end_trigger], FLOAT[s.over], s.turn / (np * 60.0))
    hs = HOT[SEATS]
    out += hs[(s.turn_player() - player) % np]
    kind, p, x = -1, -1, 0
    if not s.over:
        top = s.steps[-1]
        kind, p, x = DECISION_INDEX[top.kind], top.players[0], top.data[0]
    out += HOT[len(DECISIONS)][kind]
    out += (FLOAT[s.crossed], s.moves_used / 8.0, s.sail_bonus / 4.0, FLOAT[s.refreshed],
            s.rerolls / 4.0, x / 6.0, FLOAT[p == player])
    b = s.battle
    if b is None:
        out += ZERO_BATTLE
    else:
        out += HOT[3][b[1]]
        out += hs[(b[0] - player) % np]
        out += hs[(b[2] - player) % np if b[1] == B_PIRATE else -1]
        for dice in (b[3], b[4]):
            out += [dice.count(f) / 3.0 for f in range(1, 7)]
        assert b[1] != B_MERCHANT or 0 <= b[2] < 2
    return out
