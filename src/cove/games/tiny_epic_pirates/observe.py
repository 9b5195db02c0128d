"""The observation: a player's information as a fixed-length list of floats (SPEC.md).

Everything public is encoded (R13.1: every seat sees the same), never the hidden parts
(the face-down search tokens, the crew deck order, the bag's contents). Seats are listed
from the observer's own, so a policy learns one seat's point of view. The length depends
on nothing: 4 seats are always laid out (absent seats are zeros).

Speed (issue 15): the encoder runs once per step of a learner, so it is built in sparse
form (``State.observation_sparse``: the indices of the ones, and the other values by
index; the core makes the dense list from it) and kept between calls. :class:`Encoder`
(one per game, kept by the state and shared by its clones) holds the parts fixed for a
whole game (the sea's cards and ports, each seat's wheel and captain) and keeps the parts
that change now and then, each with a copy of the state's fields it was made from:

- the board's ones (search tokens, market, merchants' cubes, crew line; remade in about
  one step of thirty) and the decks' values (merchants' cards and headings, decks, bag,
  supply, the end; one step of ten);
- each seat's values: wheel Deckhands and assignments (one step of three: set from
  arrays kept per distinct wheel and assignments), the rest (gold, booty, legend, crew,
  ...; one step of eight);
- per observer, the seats' ones but for ships and Captains (hidden, crew, wheel orders,
  captain).

Ships, Captains, merchants, the Navy, the turn player and the decision are one-hots read
from precomputed arrays; the turn's few values are made on every call. On every call the
kept copies are compared with the state's own fields (lists compare in C) and only what
differs is made again, so an encoding is used only while the state holds exactly what it
was made from: a clone, a copy or a state changed by hand never gets another's parts.
Every value has one index fixed per game (:attr:`Encoder.at`, handed out shared and never
changed), so a call joins kept arrays into ``ones`` and ``values`` (arrays are made from
struct-packed bytes: from a list, ``array`` converts item by item, several times slower).
Values and layout are those SPEC.md documents.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cove.core.options import Options
from cove.core.state import SparseObservation
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


PACK_Q = _packer("q")
PACK_D = _packer("d")
assert array("q").itemsize == 8 and array("d").itemsize == 8


def _ints(xs: list[int]) -> array[int]:
    return array("q", PACK_Q[len(xs)](*xs))


def _floats(xs: list[float]) -> array[float]:
    return array("d", PACK_D[len(xs)](*xs))


# The merchants' column of the sea (merchants here / 2), every card's value at once:
# MERCHANT_VALUES[16 * m0 + m1] for merchants on cards m0 and m1 (1.0 when they share one).
MERCHANT_VALUES = tuple(
    array("d", [(i == m0) * 0.5 + (i == m1) * 0.5 for i in range(16)])
    for m0 in range(16) for m1 in range(16))
# SHIP_CAPTAIN[k][card][space]: a seat's ship card and Captain space one-hots in slot k
# (index -1, the last entry of each, is none)
SHIP_CAPTAIN = tuple(tuple(tuple(
    array("q", ([b + S_POS + pos] if pos >= 0 else []) + ([b + S_CAP + cap] if cap >= 0 else []))
    for cap in (*range(6), -1)) for pos in (*range(16), -1))
    for b in (SEAT_BASE + k * SEAT for k in range(SEATS)))
# TURN[rel][kind + 1][navy]: the turn player's one-hot (seat from the observer), the
# decision's (kind -1: none, the game is over) and the Navy's card (-1, the last: none)
TURN = tuple(tuple(tuple(
    array("q", [G_TURN + rel] + ([G_DECISION + kind] if kind >= 0 else [])
          + ([navy * CELL + NAVY] if navy >= 0 else []))
    for navy in (*range(16), -1)) for kind in range(-1, len(DECISIONS)))
    for rel in range(SEATS))
# the turn's 8 values, then the battle's 12 dice counts as zeros (no battle): 0.0 is the
# double whose bytes are all zero
TURN_VALUES = struct.Struct("=8d96x").pack
assert array("d", TURN_VALUES(*[1.0] * 8))[8:] == array("d", [0.0] * 12)
# SLOTS[np][player]: (slot, seat) from ``player``'s seat on
SLOTS = tuple(tuple(tuple((k, (player + k) % np) for k in range(min(np, SEATS)))
                    for player in range(np)) for np in range(SEATS + 1))
KEEP = 4096   # kept values of wheel Deckhands and assignments, at most


def _copies(lists: list[list[int]]) -> list[list[int]]:
    return [x[:] for x in lists]


class Encoder:
    """One game's observation encoder, kept by the state and shared by its clones.

    The parts fixed for a whole game are made from the state's ``maps``, ``ports``,
    ``wheel``, ``captain`` and ruleset, which a game never changes (clones share them);
    ``fits`` tells whether a state still holds the very objects it was made from. The
    other parts are kept with a copy of the state's fields they were made from
    (``board_key``, ``decks_key``, ``seat_hot``, ``seat_cold``) and made again when the
    state holds anything else (see the module's docstring)."""

    __slots__ = ("R", "at", "board", "board_key", "captain", "decks", "decks_key",
                 "fixed_ones", "hands", "maps", "np", "plunder", "ports", "sea_ones",
                 "seat_cold", "seat_hot", "seat_ones", "solo", "values", "wheel")

    def __init__(self, s: PiratesState) -> None:
        self.maps, self.ports, self.wheel, self.captain = s.maps, s.ports, s.wheel, s.captain
        self.R, self.np, self.solo = s.R, s.np, s.solo
        ones: list[int] = []
        plunder_at: list[int] = []
        plunder: list[float] = []
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
                plunder_at.append(base + 12)
                plunder.append(card.plunder / 2.0)
        self.sea_ones = ones
        self.plunder = plunder
        # fixed_ones[p][k]: seat p's fixed ones (present, solo pirate, wheel orders and
        # captain) when it sits in slot k
        self.fixed_ones = tuple(tuple(
            [b, *([b + 1] if p == self.solo else []),
             *[b + S_WHEEL + 6 * j + o for j, o in enumerate(w) if o >= 0],
             *([b + S_CAPTAIN + c] if c >= 0 else [])]
            for b in (SEAT_BASE + k * SEAT for k in range(SEATS)))
            for p, (w, c) in enumerate(zip(s.wheel, s.captain, strict=True)))
        # every value's index, in the order the parts make them: the decks' part, the
        # merchants, each slot's seat, the turn's values and the battle's dice
        at = plunder_at
        for m in (0, 1):
            at += [M_BASE + m * MERCHANT, M_BASE + m * MERCHANT + MERCHANT - 1]
        at += range(G_VALUES, G_VALUES + 6)
        at += [i * CELL + MERCHANTS for i in range(16)]
        for k in range(min(self.np, SEATS)):
            b = SEAT_BASE + k * SEAT
            at += [*range(b + S_VALUES, b + S_VALUES + 21), b + S_SIDE]
        at += [G_VALUES + 6, *range(G_FLAGS, G_FLAGS + 7), *range(G_DICE, G_DICE + 12)]
        self.at = array("q", at)
        self.hands: dict[tuple[int, ...], array[float]] = {}
        self.set_board(s)
        self.set_decks(s)
        # each seat's values (observer-independent), and per observer the seats' ones
        # but for ships and Captains (made when asked)
        self.values = [self.seat_values(s, p) for p in range(self.np)]
        self.seat_ones: dict[int, array[int]] = {}
        self.seat_hot: list[Any] = [_copies(s.wheel_dh), _copies(s.assign)]
        self.seat_cold: list[Any] = _seat_cold_snapshot(s)

    def fits(self, s: PiratesState) -> bool:
        return (self.maps is s.maps and self.ports is s.ports and self.wheel is s.wheel
                and self.captain is s.captain and self.R is s.R)

    def set_board(self, s: PiratesState) -> None:
        """The observer-independent ones (the sea, market, merchants' cubes, crew line)
        and the copy of what they were made from."""
        ones = self.sea_ones[:]
        ones += [i * CELL + SEARCHED for i, t in enumerate(s.tokens) if t < 0]
        ones += [SEA + D.BOOTY_TYPES * v + t for v, t in enumerate(s.market) if t >= 0]
        ones += [M_BASE + m * MERCHANT + 2 + s.m_cube[m] for m in (0, 1)]
        ones += [G_BASE + c for c in s.crew_line]
        self.board = _ints(ones)
        self.board_key = (s.tokens[:], s.market[:], s.m_cube[:], s.crew_line[:])

    def set_decks(self, s: PiratesState) -> None:
        """The observer-independent values (plunder, merchants' cards and headings, the
        decks, bag and supply) and the copy of what they were made from."""
        R = s.R
        self.decks = _floats([
            *self.plunder, s.m_card[0] / 8.0, float(s.m_face[0]), s.m_card[1] / 8.0,
            float(s.m_face[1]), len(s.crew_deck) / D.CREW_CARDS,
            len(s.m_deck) / D.MERCHANT_CARDS, sum(s.bag) / max(1, sum(R.cubes)),
            s.sure_supply / max(1, R.surefire_tokens), FLOAT[s.end_trigger],
            FLOAT[s.over]])
        self.decks_key = (s.m_card[:], s.m_face[:], s.bag[:], len(s.crew_deck),
                          len(s.m_deck), s.sure_supply, s.end_trigger, s.over)

    @staticmethod
    def seat_values(s: PiratesState, p: int) -> array[float]:
        """Seat ``p``'s values made afresh."""
        R = s.R
        cap_total = R.ship_capacity
        booty = s.booty[p]
        return _floats([
            *s.wheel_dh[p], *[a / 4.0 for a in s.assign[p]], float(s.dh_reserve[p]),
            s.level[p] / D.LEGEND_LEVELS, FLOAT[s.bloody[p]], s.gold[p] / R.gold_cap,
            len(s.treasures[p]) / D.TREASURES, booty.count(0) / cap_total,
            booty.count(1) / cap_total, booty.count(2) / cap_total,
            booty.count(3) / cap_total, s.sure[p] / max(1, R.surefire_tokens),
            sum(s.sail_tokens[p]) / 4.0, float(s.side[p])])

    def make_seat_ones(self, s: PiratesState, player: int) -> array[int]:
        """The seats' ones from ``player``'s on, but for ships and Captains; kept."""
        ones: list[int] = []
        for k, p in SLOTS[self.np][player]:
            base = SEAT_BASE + k * SEAT
            ones += self.fixed_ones[p][k]
            if s.hidden[p]:
                ones.append(base + S_HIDDEN)
            ones += [base + S_CREW + c for c in s.crew[p]]
        made = self.seat_ones[player] = _ints(ones)
        return made

    def set_seats_hot(self, wd: list[list[int]], assign: list[list[int]]) -> None:
        """Wheel Deckhands or assignments changed: the seats' first 10 values set anew
        where they changed (made once per distinct wheel and assignments)."""
        old_wd, old_assign = self.seat_hot
        hands = self.hands
        for p in range(self.np):
            w, a = wd[p], assign[p]
            if w != old_wd[p] or a != old_assign[p]:
                key = (*w, *a)
                made = hands.get(key)
                if made is None:
                    if len(hands) >= KEEP:
                        hands.clear()
                    made = hands[key] = _floats([*w, a[0] / 4.0, a[1] / 4.0, a[2] / 4.0,
                                                 a[3] / 4.0])
                self.values[p][:10] = made
                old_wd[p] = w[:]
                old_assign[p] = a[:]

    def set_seats_cold(self, s: PiratesState, now: list[Any]) -> None:
        """Anything else of a seat changed: the values of the seats that changed made
        afresh, the ones dropped if a ship hid or a crew changed."""
        kept = self.seat_cold
        changed = 0
        for i, col in enumerate(now):
            was = kept[i]
            if col != was:
                for p in range(self.np):
                    if col[p] != was[p]:
                        changed |= 1 << p
                kept[i] = _copies(col) if type(col[0]) is list else col[:]
                if i <= 1:
                    self.seat_ones = {}
        for p in range(self.np):
            if changed >> p & 1:
                self.values[p] = self.seat_values(s, p)


def _seat_cold_snapshot(s: PiratesState) -> list[Any]:
    """A copy of the seats' fields the cold check reads (hidden and crew first: they make
    ones), in the order ``observation_sparse`` lists them."""
    return [s.hidden[:], _copies(s.crew), s.dh_reserve[:], s.level[:], s.bloody[:],
            s.gold[:], _copies(s.treasures), _copies(s.booty), s.sure[:],
            _copies(s.sail_tokens), s.side[:]]


def observation_sparse(s: PiratesState, player: int) -> SparseObservation:
    """``player``'s observation as ``(ones, at, values)`` (the layout is in SPEC.md);
    ``at`` is the encoder's own array, shared between calls and never changed."""
    enc = s.obs_static
    if enc is None or not enc.fits(s):
        enc = s.obs_static = Encoder(s)
    if (s.tokens, s.market, s.m_cube, s.crew_line) != enc.board_key:
        enc.set_board(s)
    if (s.m_card, s.m_face, s.bag, len(s.crew_deck), len(s.m_deck), s.sure_supply,
            s.end_trigger, s.over) != enc.decks_key:
        enc.set_decks(s)
    wd, assign = s.wheel_dh, s.assign
    if [wd, assign] != enc.seat_hot:
        enc.set_seats_hot(wd, assign)
    now = [s.hidden, s.crew, s.dh_reserve, s.level, s.bloody, s.gold, s.treasures, s.booty,
           s.sure, s.sail_tokens, s.side]
    if now != enc.seat_cold:
        enc.set_seats_cold(s, now)
    seat_ones = enc.seat_ones.get(player)
    ones = enc.board + (seat_ones if seat_ones is not None else enc.make_seat_ones(s, player))
    m0, m1 = s.m_pos
    values = enc.decks + MERCHANT_VALUES[16 * m0 + m1]
    seat_values = enc.values
    pos, cap = s.pos, s.cap
    np = s.np
    for k, q in SLOTS[np][player]:
        ones += SHIP_CAPTAIN[k][pos[q]][cap[q]]
        values += seat_values[q]
    kind, p, x = -1, -1, 0
    if not s.over:
        top = s._steps[-1]
        kind, p, x = DECISION_INDEX[top.kind], top.players[0], top.data[0]
    ones += TURN[(s.turn % np - player) % np][kind + 1][s.navy]
    b = s.battle
    if b is None:
        values.frombytes(TURN_VALUES(
            s.turn / (np * 60.0), FLOAT[s.crossed], s.moves_used / 8.0, s.sail_bonus / 4.0,
            FLOAT[s.refreshed], s.rerolls / 4.0, x / 6.0, FLOAT[p == player]))
        return ones, enc.at, values
    ones += _ints([G_BATTLE + b[1], G_BATTLE + 3 + (b[0] - player) % np])
    if b[1] == B_PIRATE:
        ones.append(G_BATTLE + 3 + SEATS + (b[2] - player) % np)
    assert b[1] != B_MERCHANT or 0 <= b[2] < 2
    values += _floats([
        s.turn / (np * 60.0), FLOAT[s.crossed], s.moves_used / 8.0, s.sail_bonus / 4.0,
        FLOAT[s.refreshed], s.rerolls / 4.0, x / 6.0, FLOAT[p == player],
        *[dice.count(f) / 3.0 for dice in (b[3], b[4]) for f in range(1, 7)]])
    return ones, enc.at, values
