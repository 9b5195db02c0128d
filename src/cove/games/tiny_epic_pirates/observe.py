"""The observation: a player's information as a fixed-length list of floats (SPEC.md).

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent seats are zeros).

Speed (issue 15): the encoder runs once per step of a learner, so it is built in sparse
form (``State.observation_sparse``: the indices of the ones, and the other values by
index; the core makes the dense list from it), and the parts fixed for a whole game (the
sea's cards and ports, each seat's wheel and captain) are encoded once per game into
:class:`Static`, kept by the state and shared by its clones. Values and layout are those
SPEC.md documents.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from cove.core.options import Options
from cove.core.state import SparseObservation, index_run
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


FLOAT = (0.0, 1.0)
# offsets inside a seat's block
S_POS, S_HIDDEN, S_CAP, S_WHEEL, S_VALUES = 2, 18, 19, 25, 61
S_CREW = S_VALUES + 6 + 4 + 11
S_CAPTAIN = S_CREW + D.CREW_CARDS
S_SIDE = S_CAPTAIN + D.CAPTAINS
assert S_SIDE + 1 == SEAT
# offsets of the global part
G_BASE = SEA + MARKET + 2 * MERCHANT + SEATS * SEAT
G_VALUES = G_BASE + D.CREW_CARDS
G_TURN = G_VALUES + 7
G_DECISION = G_TURN + SEATS
G_FLAGS = G_DECISION + len(DECISIONS)
G_BATTLE = G_FLAGS + 7
G_DICE = G_BATTLE + 3 + 2 * SEATS
assert G_DICE + 12 == SIZE


class Static:
    """The encoded parts that stay fixed for a whole game, in sparse form: the sea's 16
    card blocks with kind, booty, ports and plunder (searched, navy and merchants are set
    per call), and per seat and seat slot its wheel orders (6 x 6) and captain one-hot.
    Made from the state's ``maps``, ``ports``, ``wheel`` and ``captain``, which a game
    never changes (clones share them); ``fits`` tells whether a state still holds the very
    objects it was made from."""

    __slots__ = ("captain", "maps", "ports", "sea_at", "sea_ones", "sea_values",
                 "seat_ones", "wheel")

    def __init__(self, s: PiratesState) -> None:
        self.maps, self.ports, self.wheel, self.captain = s.maps, s.ports, s.wheel, s.captain
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        for i in range(16):
            card = s.card(i)
            base = i * CELL
            if card.kind >= 0:
                ones.append(base + card.kind)
            if card.booty >= 0:
                ones.append(base + 4 + card.booty)
            if i in s.ports:
                ones.append(base + 9)
            if card.plunder:
                at.append(base + 12)
                values.append(card.plunder / 2.0)
        self.sea_ones = array("q", ones)
        self.sea_at = array("q", at)
        self.sea_values = array("d", values)
        # seat_ones[p][k]: seat p's wheel and captain one-hots when it sits in slot k
        self.seat_ones = tuple(tuple(
            array("q", [SEA + MARKET + 2 * MERCHANT + k * SEAT + off
                        for off in [S_WHEEL + 6 * j + o for j, o in enumerate(w) if o >= 0]
                        + ([S_CAPTAIN + c] if c >= 0 else [])])
            for k in range(SEATS)) for w, c in zip(s.wheel, s.captain, strict=True))

    def fits(self, s: PiratesState) -> bool:
        return (self.maps is s.maps and self.ports is s.ports and self.wheel is s.wheel
                and self.captain is s.captain)


def static(s: PiratesState) -> Static:
    st = s.obs_static
    if st is None or not st.fits(s):
        st = s.obs_static = Static(s)
    return st


def observation_sparse(s: PiratesState, player: int) -> SparseObservation:
    """``player``'s observation as ``(ones, at, values)`` (the layout is in SPEC.md)."""
    R = s.R
    st = static(s)
    ones = st.sea_ones[:]
    at = st.sea_at[:]
    values = st.sea_values[:]
    ones += array("q", [i * CELL + SEARCHED for i, t in enumerate(s.tokens) if t < 0])
    if s.navy >= 0:
        ones.append(s.navy * CELL + NAVY)
    m0, m1 = s.m_pos
    if m0 == m1:
        ones.append(m0 * CELL + MERCHANTS)
    else:
        at.append(m0 * CELL + MERCHANTS)
        at.append(m1 * CELL + MERCHANTS)
        values.append(0.5)
        values.append(0.5)
    base = SEA
    for t in s.market:
        if t >= 0:
            ones.append(base + t)
        base += D.BOOTY_TYPES
    for m in (0, 1):
        at.append(base)
        values.append(s.m_card[m] / 8.0)
        ones.append(base + 2 + s.m_cube[m])
        if s.m_face[m]:
            at.append(base + MERCHANT - 1)
            values.append(float(s.m_face[m]))
        base += MERCHANT
    np = s.np
    cap_total = R.ship_capacity
    sure_total = max(1, R.surefire_tokens)
    for k in range(min(np, SEATS)):
        p = (player + k) % np
        ones.append(base)
        if p == s.solo:
            ones.append(base + 1)
        if s.pos[p] >= 0:
            ones.append(base + S_POS + s.pos[p])
        if s.hidden[p]:
            ones.append(base + S_HIDDEN)
        if s.cap[p] >= 0:
            ones.append(base + S_CAP + s.cap[p])
        ones += st.seat_ones[p][k]
        at += index_run(base + S_VALUES, 21)
        values.extend(s.wheel_dh[p])
        values.extend([a / 4.0 for a in s.assign[p]])
        booty = s.booty[p]
        values.extend((float(s.dh_reserve[p]), s.level[p] / D.LEGEND_LEVELS,
                       FLOAT[s.bloody[p]], s.gold[p] / R.gold_cap,
                       len(s.treasures[p]) / D.TREASURES, booty.count(0) / cap_total,
                       booty.count(1) / cap_total, booty.count(2) / cap_total,
                       booty.count(3) / cap_total, s.sure[p] / sure_total,
                       sum(s.sail_tokens[p]) / 4.0))
        crew = base + S_CREW
        ones += array("q", [crew + c for c in s.crew[p]])
        if s.side[p]:
            at.append(base + S_SIDE)
            values.append(float(s.side[p]))
        base += SEAT
    ones += array("q", [G_BASE + c for c in s.crew_line])
    at += index_run(G_VALUES, 7)
    values.extend((len(s.crew_deck) / D.CREW_CARDS, len(s.m_deck) / D.MERCHANT_CARDS,
                   sum(s.bag) / max(1, sum(R.cubes)), s.sure_supply / sure_total,
                   FLOAT[s.end_trigger], FLOAT[s.over], s.turn / (np * 60.0)))
    ones.append(G_TURN + (s.turn_player() - player) % np)
    kind, p, x = -1, -1, 0
    if not s.over:
        top = s.steps[-1]
        kind, p, x = DECISION_INDEX[top.kind], top.players[0], top.data[0]
    if kind >= 0:
        ones.append(G_DECISION + kind)
    at += index_run(G_FLAGS, 7)
    values.extend((FLOAT[s.crossed], s.moves_used / 8.0, s.sail_bonus / 4.0,
                   FLOAT[s.refreshed], s.rerolls / 4.0, x / 6.0, FLOAT[p == player]))
    b = s.battle
    if b is not None:
        ones.append(G_BATTLE + b[1])
        ones.append(G_BATTLE + 3 + (b[0] - player) % np)
        if b[1] == B_PIRATE:
            ones.append(G_BATTLE + 3 + SEATS + (b[2] - player) % np)
        at += index_run(G_DICE, 12)
        for dice in (b[3], b[4]):
            values.extend([dice.count(f) / 3.0 for f in range(1, 7)])
        assert b[1] != B_MERCHANT or 0 <= b[2] < 2
    return ones, at, values
