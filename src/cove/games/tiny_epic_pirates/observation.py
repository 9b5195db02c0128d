"""The observation: a player's information as a fixed-length list of floats (SPEC.md).

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent seats are zeros).

Speed: the encoder runs once per step of a learner, so it is kept between
calls and hands the observation out as ONE WHOLE RUN of values (``State.observation_sparse``
with no ones, ``at`` the core's shared ``index_run(0, SIZE)`` and every value in an
``array("d")``): the environments convert that in one pass (``np.array(values,
np.float32)``) instead of zeroing an array and setting some hundred ones and values by
index. :class:`Encoder` (one per game, kept by the state and shared by its clones) keeps
``array("d")`` blocks laid out as in the observation:

- ``common``: the whole observation but for the seats and the turn: the sea's cards and
  ports and the plunder (fixed for a game), the board's ones (search tokens, market,
  merchants' cubes, crew line), the decks' values (merchants' cards and headings, decks,
  bag, supply, the end), the merchants' column and the Navy's card (one of these changes
  in about one step of four); the seats' slots stay zeros (absent seats);
- ``blocks``: each seat's block of SEAT values, which does not depend on the slot it is
  copied to: the fixed ones (present, solo pirate, wheel orders, captain), the ship's
  card and Captain's space (one-hots moved where they moved: one step of four or five),
  the wheel Deckhands and assignments (one step of three: written with one
  ``pack_into``) and the rest (hidden, crew, gold, booty, legend, ...; made again for the
  seats that changed, in about one step of eight).

Each kept part has a copy of the state's fields it was made from; on every call the
copies are compared with the state's own fields (lists compare in C) and only what
differs is set again, so a part is used only while the state holds exactly what it was
made from: a clone, a copy or a state changed by hand never gets another's parts. A call
then copies ``common`` (the copy is the caller's own), copies each seat's block into its
slot from the observer's on (slice copies, in C) and writes the turn's 33 values with one
``pack_into`` (the turn player's and decision's one-hots as ready bytes), and in a battle
its ones and dice.

Measured (10 seeded 3-player games, 8359 decisions, the mover observed at each through
``cove.rl._match.Match.observation``; valgrind instruction counts, the same games without
observing subtracted): the sparse form with ones and values by index, kept per part, cost
about 65,500 instructions a call (39,500 in the game, 26,000 in the environment's
``np.zeros`` and fills); this whole run costs about 52,200 (39,800 and 12,400). The
game's part stays about the same (its compares of the kept copies dominate: about 22,800
instructions a call when nothing changed); the environment's conversion halves.
``benchmarks/rl_speed.py`` (four alternations, noisy): aec/raw 0.39-0.44 before,
0.40-0.49 after; bound 0.52-0.57 before, 0.55-0.61 after. Values and layout are those
SPEC.md documents (tests compare them with a plain encoding and a fresh encoder).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cove.core.options import Options
from cove.core.state import SparseObservation, index_run
from cove.games.tiny_epic_pirates import data as D
from cove.games.tiny_epic_pirates.turn import B_MERCHANT, B_PIRATE, DECISION_INDEX, DECISIONS

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
# where the merchants' and the seats' blocks start
M_BASE = SEA + MARKET
SEAT_BASE = M_BASE + 2 * MERCHANT
# offsets of the global part
G_BASE = SEAT_BASE + SEATS * SEAT
G_VALUES = G_BASE + D.CREW_CARDS
G_TURN = G_VALUES + 7
G_DECISION = G_TURN + SEATS
G_FLAGS = G_DECISION + len(DECISIONS)
G_BATTLE = G_FLAGS + 7
G_DICE = G_BATTLE + 3 + 2 * SEATS
assert G_DICE + 12 == SIZE


def _packer(code: str) -> tuple[Callable[..., bytes], ...]:
    """``PACK[n](*xs)``: n numbers as the bytes of an ``array(code)``; an array made from
    these bytes costs a fraction of one made from a list (no conversion per item)."""
    return tuple(struct.Struct(f"={n}{code}").pack for n in range(SIZE + 1))


PACK_D = _packer("d")
assert array("d").itemsize == 8


def _floats(xs: list[float]) -> array[float]:
    return array("d", PACK_D[len(xs)](*xs))


def _zeros(n: int) -> array[float]:
    return array("d", bytes(8 * n))  # 0.0 is the double whose bytes are all zero


WHOLE = index_run(0, SIZE)
"""Every index in order: the ``at`` of every observation (shared, never changed)."""
NO_ONES: tuple[int, ...] = ()
# The merchants' column of the sea (merchants here / 2), every card's value at once:
# MERCHANT_VALUES[16 * m0 + m1] for merchants on cards m0 and m1 (1.0 when they share one),
# copied to the sea's slice MERCHANT_COLUMN
MERCHANT_VALUES = tuple(
    array("d", [(i == m0) * 0.5 + (i == m1) * 0.5 for i in range(16)])
    for m0 in range(16) for m1 in range(16))
MERCHANT_COLUMN = slice(MERCHANTS, SEA, CELL)
CREW_ZEROS = _zeros(D.CREW_CARDS)
assert S_CREW + D.CREW_CARDS == S_CAPTAIN and S_VALUES + 21 == S_CREW
# Writers of several doubles into an array at once (``pack_into(out, byte offset, ...)``,
# no array made in between). TURN writes the turn's values from G_VALUES + 6 on: the turn,
# the turn player's and the decision's one-hots (4 + 21 doubles as the bytes of
# TURN_HOTS[rel][kind + 1]; kind -1: none, the game is over), then the 7 flags up to the
# battle (the battle's ones and dice are written only in a battle).
assert G_VALUES + 7 == G_TURN and G_FLAGS + 7 == G_BATTLE
TURN = struct.Struct(f"=d{8 * (G_FLAGS - G_TURN)}s7d").pack_into
TURN_AT = 8 * (G_VALUES + 6)
TURN_HOTS = tuple(tuple(
    array("d", [float(i == rel) for i in range(SEATS)]
          + [float(i == kind) for i in range(len(DECISIONS))]).tobytes()
    for kind in range(-1, len(DECISIONS))) for rel in range(SEATS))
KIND = {k: i + 1 for k, i in DECISION_INDEX.items()}
"""A decision kind's row in TURN_HOTS (0: none)."""
DICE = struct.Struct("=12d").pack_into
DICE_AT = 8 * G_DICE
DECKS = struct.Struct("=6d").pack_into
DECKS_AT = 8 * G_VALUES
HOT = struct.Struct("=10d").pack_into
HOT_AT = 8 * S_VALUES
# SPANS[np][player]: (slot's slice, seat) of each slot from ``player``'s seat on
SPANS = tuple(tuple(tuple((slice(SEAT_BASE + k * SEAT, SEAT_BASE + (k + 1) * SEAT),
                           (player + k) % np) for k in range(min(np, SEATS)))
                    for player in range(np)) for np in range(SEATS + 1))


def _copies(lists: list[list[int]]) -> list[list[int]]:
    return [x[:] for x in lists]


class Encoder:
    """One game's observation encoder, kept by the state and shared by its clones.

    The parts fixed for a whole game are made from the state's ``maps``, ``ports``,
    ``wheel``, ``captain`` and ruleset (``fixed``), which a game never changes (clones
    share them): a state holding others gets a new encoder. The other parts are kept with
    a copy of the state's fields they were made from (``common_key``, ``seat_hot``,
    ``pos``, ``cap``, ``seat_cold``) and set again where the state holds anything else
    (see the module's docstring)."""

    __slots__ = ("blocks", "board_ones", "cap", "common", "common_key", "fixed", "np",
                 "pos", "seat_cold", "seat_hot")

    def __init__(self, s: PiratesState) -> None:
        self.fixed = _fixed(s)
        self.np = s.np
        common = self.common = _zeros(SIZE)
        for i in range(16):
            card = s.card(i)
            base = i * CELL
            if card.kind >= 0:
                common[base + card.kind] = 1.0
            if card.booty >= 0:
                common[base + 4 + card.booty] = 1.0
            if i in s.ports:
                common[base + 9] = 1.0
            if card.plunder:
                common[base + 12] = card.plunder / 2.0
        self.board_ones: list[int] = []
        self.set_board(s)
        self.set_decks(s)
        self.set_merchants(s.m_pos)
        if s.navy >= 0:
            common[s.navy * CELL + NAVY] = 1.0
        self.common_key = _common_key(_common_now(s))
        # each seat's block (from its slot's start): the fixed ones, then the rest as the
        # state holds it
        self.blocks: list[array[float]] = []
        for p, (w, c) in enumerate(zip(s.wheel, s.captain, strict=True)):
            block = _zeros(SEAT)
            block[0] = 1.0
            if p == s.solo:
                block[1] = 1.0
            for j, o in enumerate(w):
                if o >= 0:
                    block[S_WHEEL + 6 * j + o] = 1.0
            if c >= 0:
                block[S_CAPTAIN + c] = 1.0
            if s.pos[p] >= 0:
                block[S_POS + s.pos[p]] = 1.0
            if s.cap[p] >= 0:
                block[S_CAP + s.cap[p]] = 1.0
            self.blocks.append(block)
            self.set_seat_ones(p, s.hidden[p], s.crew[p])
            self.set_seat_values(s, p)
        self.seat_hot: list[Any] = [_copies(s.wheel_dh), _copies(s.assign)]
        self.pos, self.cap = s.pos[:], s.cap[:]
        self.seat_cold: list[Any] = _seat_cold_snapshot(s)

    def set_common(self, s: PiratesState, now: list[Any]) -> None:
        """Something of the board, the decks, the merchants' places or the Navy changed:
        the parts that changed set anew in ``common``."""
        kept = self.common_key
        if now[:4] != kept[:4]:
            self.set_board(s)
        if now[4:12] != kept[4:12]:
            self.set_decks(s)
        if now[12] != kept[12]:
            self.set_merchants(s.m_pos)
        navy, was = now[13], kept[13]
        if navy != was:
            if was >= 0:
                self.common[was * CELL + NAVY] = 0.0
            if navy >= 0:
                self.common[navy * CELL + NAVY] = 1.0
        self.common_key = _common_key(now)

    def set_board(self, s: PiratesState) -> None:
        """The observer-independent ones that change (search tokens, market, merchants'
        cubes, crew line) set in ``common``, the old ones cleared."""
        common = self.common
        for i in self.board_ones:
            common[i] = 0.0
        ones = [i * CELL + SEARCHED for i, t in enumerate(s.tokens) if t < 0]
        ones += [SEA + D.BOOTY_TYPES * v + t for v, t in enumerate(s.market) if t >= 0]
        ones += [M_BASE + m * MERCHANT + 2 + s.m_cube[m] for m in (0, 1)]
        ones += [G_BASE + c for c in s.crew_line]
        for i in ones:
            common[i] = 1.0
        self.board_ones = ones

    def set_decks(self, s: PiratesState) -> None:
        """The observer-independent values that change (merchants' cards and headings,
        the decks, bag and supply, the end) set in ``common``."""
        R = s.R
        common = self.common
        common[M_BASE] = s.m_card[0] / 8.0
        common[M_BASE + MERCHANT - 1] = float(s.m_face[0])
        common[M_BASE + MERCHANT] = s.m_card[1] / 8.0
        common[M_BASE + 2 * MERCHANT - 1] = float(s.m_face[1])
        DECKS(common, DECKS_AT, len(s.crew_deck) / D.CREW_CARDS,
              len(s.m_deck) / D.MERCHANT_CARDS, sum(s.bag) / max(1, sum(R.cubes)),
              s.sure_supply / max(1, R.surefire_tokens), FLOAT[s.end_trigger],
              FLOAT[s.over])

    def set_merchants(self, m_pos: list[int]) -> None:
        """The sea's merchants column set anew."""
        m0, m1 = m_pos
        self.common[MERCHANT_COLUMN] = MERCHANT_VALUES[16 * m0 + m1]

    def set_seat_ones(self, p: int, hidden: bool, crew: list[int]) -> None:
        """Seat ``p``'s hidden flag and crew multi-hot set anew in its block."""
        block = self.blocks[p]
        block[S_HIDDEN] = 1.0 if hidden else 0.0
        block[S_CREW:S_CAPTAIN] = CREW_ZEROS
        for c in crew:
            block[S_CREW + c] = 1.0

    def set_seat_values(self, s: PiratesState, p: int) -> None:
        """Seat ``p``'s values made afresh in its block."""
        R = s.R
        cap_total = R.ship_capacity
        booty = s.booty[p]
        block = self.blocks[p]
        block[S_VALUES:S_CREW] = _floats([
            *s.wheel_dh[p], *[a / 4.0 for a in s.assign[p]], float(s.dh_reserve[p]),
            s.level[p] / D.LEGEND_LEVELS, FLOAT[s.bloody[p]], s.gold[p] / R.gold_cap,
            len(s.treasures[p]) / D.TREASURES, booty.count(0) / cap_total,
            booty.count(1) / cap_total, booty.count(2) / cap_total,
            booty.count(3) / cap_total, s.sure[p] / max(1, R.surefire_tokens),
            sum(s.sail_tokens[p]) / 4.0])
        block[S_SIDE] = float(s.side[p])

    def set_seats_hot(self, wd: list[list[int]], assign: list[list[int]]) -> None:
        """Wheel Deckhands or assignments changed: the first 10 values of the seats where
        they changed written anew."""
        old_wd, old_assign = self.seat_hot
        blocks = self.blocks
        for p in range(self.np):
            w, a = wd[p], assign[p]
            if w != old_wd[p] or a != old_assign[p]:
                HOT(blocks[p], HOT_AT, *w, a[0] / 4.0, a[1] / 4.0, a[2] / 4.0, a[3] / 4.0)
                old_wd[p] = w[:]
                old_assign[p] = a[:]

    def set_pos(self, pos: list[int]) -> None:
        """Ships moved: their one-hots moved in the seats' blocks."""
        self.pos = _moved(self.blocks, S_POS, pos, self.pos)

    def set_cap(self, cap: list[int]) -> None:
        """Captains moved: their one-hots moved in the seats' blocks."""
        self.cap = _moved(self.blocks, S_CAP, cap, self.cap)

    def set_seats_cold(self, s: PiratesState, now: list[Any]) -> None:
        """Anything else of a seat changed: the values of the seats that changed made
        afresh, their hidden flag and crew set anew if they changed."""
        kept = self.seat_cold
        changed = ones = 0
        for i, col in enumerate(now):
            was = kept[i]
            if col != was:
                for p in range(self.np):
                    if col[p] != was[p]:
                        changed |= 1 << p
                        if i <= 1:
                            ones |= 1 << p
                kept[i] = _copies(col) if type(col[0]) is list else col[:]
        for p in range(self.np):
            if ones >> p & 1:
                self.set_seat_ones(p, s.hidden[p], s.crew[p])
            if changed >> p & 1:
                self.set_seat_values(s, p)


def _moved(blocks: list[array[float]], at: int, now: list[int], was: list[int]) -> list[int]:
    """Each seat's one-hot at ``at`` in its block moved from ``was`` to ``now`` (-1: none)
    where they differ; a copy of ``now``."""
    for p, x in enumerate(now):
        old = was[p]
        if x != old:
            if old >= 0:
                blocks[p][at + old] = 0.0
            if x >= 0:
                blocks[p][at + x] = 1.0
    return now[:]


def _fixed(s: PiratesState) -> tuple[Any, ...]:
    """The state's fields the parts fixed for a whole game are made from."""
    return (s.maps, s.ports, s.wheel, s.captain, s.R)


def _common_now(s: PiratesState) -> list[Any]:
    """The fields ``common`` is made from, as the state holds them (not copied)."""
    return [s.tokens, s.market, s.m_cube, s.crew_line, s.m_card, s.m_face, s.bag,
            len(s.crew_deck), len(s.m_deck), s.sure_supply, s.end_trigger, s.over,
            s.m_pos, s.navy]


def _common_key(now: list[Any]) -> list[Any]:
    """A copy of ``_common_now``'s list (its lists copied)."""
    tokens, market, m_cube, line, m_card, m_face, bag, crew, deck, sure, end, over, m_pos, \
        navy = now
    return [tokens[:], market[:], m_cube[:], line[:], m_card[:], m_face[:], bag[:], crew,
            deck, sure, end, over, m_pos[:], navy]


def _seat_cold_snapshot(s: PiratesState) -> list[Any]:
    """A copy of the seats' fields the cold check reads (hidden and crew first: they make
    ones), in the order ``observation_sparse`` lists them."""
    return [s.hidden[:], _copies(s.crew), s.dh_reserve[:], s.level[:], s.bloody[:],
            s.gold[:], _copies(s.treasures), _copies(s.booty), s.sure[:],
            _copies(s.sail_tokens), s.side[:]]


def observation_sparse(s: PiratesState, player: int) -> SparseObservation:
    """``player``'s observation (the layout is in SPEC.md) as one whole run: ``((),
    WHOLE, values)`` with ``values`` an ``array("d")`` of every value, the caller's own;
    ``WHOLE`` is the core's shared ``index_run(0, SIZE)``, never changed."""
    enc = s.obs_static
    if enc is None or _fixed(s) != enc.fixed:
        enc = s.obs_static = Encoder(s)
    now = _common_now(s)
    if now != enc.common_key:
        enc.set_common(s, now)
    wd, assign = s.wheel_dh, s.assign
    if [wd, assign] != enc.seat_hot:
        enc.set_seats_hot(wd, assign)
    if s.pos != enc.pos:
        enc.set_pos(s.pos)
    if s.cap != enc.cap:
        enc.set_cap(s.cap)
    now = [s.hidden, s.crew, s.dh_reserve, s.level, s.bloody, s.gold, s.treasures, s.booty,
           s.sure, s.sail_tokens, s.side]
    if now != enc.seat_cold:
        enc.set_seats_cold(s, now)
    out = enc.common[:]
    blocks = enc.blocks
    np = s.np
    for slot, q in SPANS[np][player]:
        out[slot] = blocks[q]
    p, x, kind = -1, 0, 0
    if not s.over:
        top = s._steps[-1]
        p, x, kind = top.players[0], top.data[0], KIND[top.kind]
    TURN(out, TURN_AT, s.turn / (np * 60.0), TURN_HOTS[(s.turn % np - player) % np][kind],
         FLOAT[s.crossed], s.moves_used / 8.0, s.sail_bonus / 4.0, FLOAT[s.refreshed],
         s.rerolls / 4.0, x / 6.0, FLOAT[p == player])
    b = s.battle
    if b is not None:
        out[G_BATTLE + b[1]] = 1.0
        out[G_BATTLE + 3 + (b[0] - player) % np] = 1.0
        if b[1] == B_PIRATE:
            out[G_BATTLE + 3 + SEATS + (b[2] - player) % np] = 1.0
        assert b[1] != B_MERCHANT or 0 <= b[2] < 2
        DICE(out, DICE_AT, *[dice.count(f) / 3.0 for dice in (b[3], b[4])
                             for f in range(1, 7)])
    return NO_ONES, WHOLE, out
