"""The rules of Trails of Tucana (see RULES.md for the numbered rules).

Every turn is one simultaneous decision. Each player's part of it is a short sequence:
draw the turn's segment (or pass when nothing fits), then one bonus segment for each
last sight of a kind that it links, chaining. A player's segments go onto their own sheet
at once (their own view shows them), but other players see that sheet as it was at the
start of the turn (a snapshot) until everybody is done; then the turn resolves: blue and
red bonus cards go to whoever completed them this turn, the log tells what everyone drew,
and the next two cards are revealed (or the round is scored).

Connectivity is a union-find per player, stored flat (space ``i`` of seat ``p`` is index
``p * N + i``) with, at each root, a bitmask of the villages and sights in its network, so
clone copies two flat lists and linking is near O(1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cove.core.rng import Rng
from cove.core.state import State
from cove.games.trails_of_tucana.actions import PASS, Action, Bonus, Pass
from cove.games.trails_of_tucana.data import (
    CARD_NAMES,
    DECK_SIZE,
    KINDS,
    LETTERS,
    TABLES,
    VILLAGES,
    Island,
)
from cove.games.trails_of_tucana.options import TucanaOptions

VMASK = (1 << VILLAGES) - 1
LETTER_NAMES = "ABCDE"
TURNS_PER_ROUND = (DECK_SIZE - 1) // 2  # 13: the round ends with one card left

# snapshot of a sheet at the start of the turn: drawn, circled, kind counts, pairs, linked
Snap = tuple[int, int, tuple[int, ...], int, int]


def _bits(x: int) -> list[int]:
    """Indices of the set bits of ``x``, lowest first (one step per set bit)."""
    out = []
    while x:
        low = x & -x
        out.append(low.bit_length() - 1)
        x ^= low
    return out


class TucanaState(State):
    __slots__ = (
        "blue",
        "blue_pts",
        "blue_won",
        "bonus",
        "boxes",
        "cards",
        "circled",
        "deck",
        "dflag",
        "direction",
        "done",
        "drawn",
        "info",
        "isl",
        "kcount",
        "letters",
        "linked",
        "moves",
        "over",
        "pair_masks",
        "pairs",
        "par",
        "red",
        "red_on",
        "red_pts",
        "red_won",
        "rnd",
        "seen",
        "setup_card",
        "snap",
        "solo_dropped",
        "start",
        "turn",
        "waiting",
    )

    isl: Island
    options: TucanaOptions

    # -- set-up ------------------------------------------------------------------------
    def setup(self) -> None:
        o = self.options
        n = self.n
        isl = self.isl = TABLES.islands[o.map]
        size = isl.size
        rng = self.rng
        self.setup_card = o.setup_card - 1 if o.setup_card else rng.below(len(TABLES.setup_cards))
        seq = TABLES.setup_cards[self.setup_card]
        self.start = rng.below(VILLAGES) if o.random_start else 0
        self.direction = -1 if o.counter_clockwise else 1
        letters = []
        pair_masks = []
        for p in range(n):
            first = self.start if o.symmetry else (self.start + p) % VILLAGES
            row = [0] * VILLAGES
            for k, ch in enumerate(seq):
                row[(first + self.direction * k) % VILLAGES] = LETTER_NAMES.index(ch)
            letters.append(tuple(row))
            pair_masks.append(
                tuple(sum(1 << v for v in range(VILLAGES) if row[v] == L) for L in range(LETTERS))
            )
        self.letters = tuple(letters)
        self.pair_masks = tuple(pair_masks)
        # blue cards: #1 only for 1-4 players, #1 over #2 for 5-8
        self.blue: list[tuple[int, ...]] = [t if n >= 5 else t[:1] for t in TABLES.blue]
        self.red_on = o.special_bonus
        self.red: list[int] = []
        if self.red_on:
            kinds = list(range(KINDS))
            rng.shuffle(kinds)
            self.red = sorted(kinds[: 2 if n >= 5 else 1])
        self.red_won: list[tuple[int, int, tuple[int, ...]]] = []  # (kind, value, winners)
        self.solo_dropped: list[int] = []
        # sheets
        self.drawn = [0] * n
        self.dflag = bytearray(n * len(isl.edges))  # 1 where a segment is drawn
        self.par = list(range(n * size))
        self.info = list(isl.info0) * n
        self.circled = [0] * n
        self.kcount = [0] * (n * KINDS)
        self.pairs = [0] * n
        self.linked = [0] * n
        self.boxes = [0] * (n * isl.rounds)
        self.blue_pts = [0] * n
        self.red_pts = [0] * n
        self.blue_won: list[tuple[tuple[int, int], ...]] = [()] * n
        # the turn
        self.bonus = [0] * n
        self.done = [False] * n
        self.waiting = tuple(range(n))
        self.snap: list[Snap | None] = [None] * n
        self.moves: list[tuple[Action, ...]] = [()] * n
        self.rnd = 0
        self.turn = 0
        self.over = False
        self.cards: tuple[int, int] | None = None
        if self.logging:
            self.say(
                f"{isl.name}, {n} player{'s' if n > 1 else ''}. Set-up card "
                f"{self.setup_card + 1}: {' '.join(seq)}; the Mayor (P1) starts at village "
                f"{self.start + 1}, letters go "
                f"{'counter-clockwise' if self.direction < 0 else 'clockwise'}"
                + (", every player in the same villages" if o.symmetry else "")
                + "."
            )
            if self.red:
                self.say("Red bonus cards: " + ", ".join(
                    f"{TABLES.sight_names[k]}-{TABLES.sight_names[k]} ({TABLES.red[k]})"
                    for k in self.red))
        self._new_round()

    def _new_round(self) -> None:
        self.deck = list(TABLES.deck)
        self.rng.shuffle(self.deck)
        self.seen: list[int] = []
        self.turn = 0
        self._reveal()

    def _reveal(self) -> None:
        c1 = self.deck.pop()
        c2 = self.deck.pop()
        self.cards = (c1, c2)
        self.seen += [c1, c2]
        if self.logging:
            self.say(
                f"Round {self.rnd + 1}, turn {self.turn + 1}: the Mayor reveals "
                f"{CARD_NAMES[c1]} and {CARD_NAMES[c2]}."
            )

    # -- the contract ------------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        return self.waiting

    @property
    def is_over(self) -> bool:
        return self.over

    def _legal_actions(self, player: int) -> Sequence[Action]:
        isl = self.isl
        off = player * len(isl.edges)
        f = self.dflag
        acts: list[Action]
        if self.bonus[player]:
            acts = [b for e, b in enumerate(isl.bonuses) if not f[off + e]]
        else:
            assert self.cards is not None
            draws = isl.draws
            acts = [draws[e] for e in isl.matching[self.cards] if not f[off + e]]
        return acts or [PASS]

    def _apply(self, player: int, action: Any) -> None:
        self._step(player, action)
        if self.done[player]:
            # The private line waits until the player's whole part of the turn is done:
            # every line takes the next number in the shared log, so a line per decision
            # would let the others count decisions (and spot a bonus chain) by the
            # numbering of their own lines. How many players are done is public anyway.
            if self.logging:
                self.say(f"P{player + 1}: you {self._summary(player)}", to=player)
            if not self.waiting:
                self._resolve()

    def _step(self, p: int, a: Action) -> None:
        """One decision of seat ``p``'s sequence this turn (no logging, no resolution)."""
        if self.snap[p] is None:
            k = p * KINDS
            self.snap[p] = (
                self.drawn[p],
                self.circled[p],
                tuple(self.kcount[k : k + KINDS]),
                self.pairs[p],
                self.linked[p],
            )
        self.moves[p] = (*self.moves[p], a)
        if isinstance(a, Pass):
            self.bonus[p] = 0
        else:
            if isinstance(a, Bonus):
                self.bonus[p] -= 1
            self._link(p, a.edge)
        if not self.bonus[p]:
            self.done[p] = True
            self.waiting = tuple(q for q in self.waiting if q != p)

    def _find(self, x: int) -> int:
        par = self.par
        while par[x] != x:
            par[x] = x = par[par[x]]
        return x

    def _link(self, p: int, e: int) -> None:
        """Draw edge ``e`` on seat ``p``'s sheet and score what it connects."""
        self.drawn[p] |= 1 << e
        isl = self.isl
        self.dflag[p * len(isl.edges) + e] = 1
        a, b = isl.edges[e]
        base = p * isl.size
        ra = self._find(base + a)
        rb = self._find(base + b)
        if ra == rb:
            return
        self.par[rb] = ra
        info = self.info
        inf = info[ra] | info[rb]
        info[ra] = inf
        vm = inf & VMASK
        sm = inf >> VILLAGES
        if vm:
            new = sm & ~self.circled[p]
            if new:
                self.circled[p] |= new
                kc = self.kcount
                for s in _bits(new):
                    i = p * KINDS + isl.sight_kind[s]
                    kc[i] += 1
                    if kc[i] == isl.per_kind:
                        self.bonus[p] += 1
            done_pairs = self.pairs[p]
            for L, pm in enumerate(self.pair_masks[p]):
                if not (done_pairs >> L) & 1 and vm & pm == pm:
                    done_pairs |= 1 << L
            self.pairs[p] = done_pairs
        if self.red_on and sm:
            for k in self.red:
                if (sm & isl.kind_mask[k]).bit_count() >= 2:
                    self.linked[p] |= 1 << k

    def _resolve(self) -> None:
        """Everybody is done: reveal the turn, hand out bonus cards, move on."""
        n = self.n
        snaps = self.snap
        if self.logging:
            for p in range(n):
                self.say(self._turn_text(p))
        pairs = self.pairs
        new_pairs = [0 if sn is None else pairs[p] & ~sn[3] for p, sn in enumerate(snaps)]
        for L in range(LETTERS) if any(new_pairs) else ():
            won = [p for p in range(n) if (new_pairs[p] >> L) & 1]
            if won and self.blue[L]:
                v = self.blue[L][0]
                self.blue[L] = self.blue[L][1:]
                for p in won:
                    self.blue_pts[p] += v
                    self.blue_won[p] = (*self.blue_won[p], (L, v))
                if self.logging:
                    self.say(f"{_who(won)} take{'s' if len(won) == 1 else ''} the "
                             f"{LETTER_NAMES[L]}-{LETTER_NAMES[L]} blue bonus card ({v}).")
        for k in list(self.red):
            won = [p for p in range(n) if (self.linked[p] >> k) & 1]
            if won:
                v = TABLES.red[k]
                self.red.remove(k)
                self.red_won.append((k, v, tuple(won)))
                for p in won:
                    self.red_pts[p] += v
                if self.logging:
                    name = TABLES.sight_names[k]
                    self.say(f"{_who(won)} take{'s' if len(won) == 1 else ''} the "
                             f"{name}-{name} red bonus card ({v}).")
        self.snap = [None] * n
        self.moves = [()] * n
        self.done = [False] * n
        self.waiting = tuple(range(n))
        self.turn += 1
        if len(self.deck) <= 1:
            self._end_round()
        else:
            self._reveal()

    def _end_round(self) -> None:
        """Score every sheet's circled sights into this round's box; reshuffle or end."""
        n = self.n
        rounds = self.isl.rounds
        for p in range(n):
            self.boxes[p * rounds + self.rnd] = self.sight_sum(p)
        if self.logging:
            box = "I" * (self.rnd + 1) if self.rnd < 3 else str(self.rnd + 1)
            self.say(f"End of round {self.rnd + 1}; sights scored in box {box}: " + ", ".join(
                f"P{p + 1} {self.boxes[p * rounds + self.rnd]}" for p in range(n)))
        if n == 1 and self.rnd == 0 and self.options.solo_discards:
            cands = [L for L in range(LETTERS) if self.blue[L] and not (self.pairs[0] >> L) & 1]
            self.rng.shuffle(cands)
            drop = sorted(cands[: self.options.solo_discards])
            for L in drop:
                self.blue[L] = ()
            self.solo_dropped = drop
            if self.logging and drop:
                self.say("Solo: blue bonus cards discarded: "
                         + ", ".join(f"{LETTER_NAMES[L]}-{LETTER_NAMES[L]}" for L in drop) + ".")
        self.rnd += 1
        if self.rnd >= rounds:
            self.over = True
            self.waiting = ()
            self.cards = None
            self.deck = []
            if self.logging:
                sc = self.scores()
                self.say("Game over. Final scores: "
                         + ", ".join(f"P{p + 1} {int(sc[p])}" for p in range(n)) + ".")
        else:
            self._new_round()

    # -- scoring -----------------------------------------------------------------------
    def sight_sum(self, p: int, kcount: Sequence[int] | None = None) -> int:
        """Sum of the circled sight values on seat ``p``'s sheet."""
        kc = self.kcount[p * KINDS : p * KINDS + KINDS] if kcount is None else kcount
        vals = self.isl.sight_values
        return sum(sum(vals[k][: kc[k]]) for k in range(KINDS))

    def pair_sum(self, pairs: int) -> int:
        pv = self.isl.pair_values
        return sum(pv[L] for L in range(LETTERS) if (pairs >> L) & 1)

    def _score(self, p: int) -> int:
        rounds = self.isl.rounds
        boxes = self.boxes[p * rounds : p * rounds + rounds]
        total = sum(boxes) + self.pair_sum(self.pairs[p]) + self.blue_pts[p] + self.red_pts[p]
        if not self.over:
            total += self.sight_sum(p)  # the current round, as if it ended now
        return total

    def scores(self) -> list[float]:
        return [float(self._score(p)) for p in range(self.n)]

    def tiebreak(self, player: int) -> tuple[float, ...]:
        return (float(self.blue_pts[player] + self.red_pts[player]),)

    # -- copies and hidden information ---------------------------------------------------
    def clone(self) -> TucanaState:
        s: TucanaState = self._clone_base()
        s.isl = self.isl
        s.letters = self.letters
        s.pair_masks = self.pair_masks
        s.setup_card = self.setup_card
        s.start = self.start
        s.direction = self.direction
        s.red_on = self.red_on
        s.rnd = self.rnd
        s.turn = self.turn
        s.over = self.over
        s.cards = self.cards
        s.deck = self.deck[:]
        s.seen = self.seen[:]
        s.blue = self.blue[:]
        s.red = self.red[:]
        s.red_won = self.red_won[:]
        s.solo_dropped = self.solo_dropped
        s.drawn = self.drawn[:]
        s.dflag = self.dflag[:]
        s.waiting = self.waiting
        s.par = self.par[:]
        s.info = self.info[:]
        s.circled = self.circled[:]
        s.kcount = self.kcount[:]
        s.pairs = self.pairs[:]
        s.linked = self.linked[:]
        s.boxes = self.boxes[:]
        s.blue_pts = self.blue_pts[:]
        s.red_pts = self.red_pts[:]
        s.blue_won = self.blue_won[:]
        s.bonus = self.bonus[:]
        s.done = self.done[:]
        s.snap = self.snap[:]
        s.moves = self.moves[:]
        return s

    def _restore(self, q: int, snap: Snap) -> None:
        """Put seat ``q``'s sheet back as it was at the start of the turn."""
        isl = self.isl
        size = isl.size
        base = q * size
        self.par[base : base + size] = range(base, base + size)
        self.info[base : base + size] = isl.info0
        drawn, circled, kc, pairs, linked = snap
        ne = len(isl.edges)
        self.dflag[q * ne : q * ne + ne] = bytes(ne)
        for e in _bits(drawn):
            self.dflag[q * ne + e] = 1
            a, b = isl.edges[e]
            ra = self._find(base + a)
            rb = self._find(base + b)
            if ra != rb:
                self.par[rb] = ra
                self.info[ra] |= self.info[rb]
        self.drawn[q] = drawn
        self.circled[q] = circled
        self.kcount[q * KINDS : q * KINDS + KINDS] = kc
        self.pairs[q] = pairs
        self.linked[q] = linked
        self.bonus[q] = 0
        self.moves[q] = ()

    def _resample(self, player: int, rng: Rng) -> None:
        # the remaining deck order is unknown to everyone; sorting first makes the sample
        # depend only on what the player sees, not on the real order
        self.deck.sort()
        rng.shuffle(self.deck)
        # other players' commitments this turn are unknown: undo and redraw at random
        for q in range(self.n):
            snap = self.snap[q]
            if q == player or snap is None:
                continue
            self._restore(q, snap)
            if self.done[q]:
                self.done[q] = False
                while not self.done[q]:
                    self._step(q, rng.choice(self._legal_actions(q)))
            else:  # in the middle of a bonus chain: as if not started
                self.snap[q] = None

    # -- views -----------------------------------------------------------------------------
    def _sheet(self, q: int, public: bool) -> dict[str, Any]:
        isl = self.isl
        snap = self.snap[q] if public else None
        if snap is not None:
            drawn, circled, kc, pairs, linked = snap
        else:
            k = q * KINDS
            drawn, circled, kc, pairs, linked = (
                self.drawn[q], self.circled[q], tuple(self.kcount[k : k + KINDS]),
                self.pairs[q], self.linked[q],
            )
        rounds = isl.rounds
        boxes = self.boxes[q * rounds : q * rounds + self.rnd]
        sights = self.sight_sum(q, kc)
        pair_pts = self.pair_sum(pairs)
        bonus = self.blue_pts[q] + self.red_pts[q]
        total = sum(boxes) + pair_pts + bonus + (0 if self.over else sights)
        return {
            "letters": [LETTER_NAMES[x] for x in self.letters[q]],
            "segments": [isl.draws[e].ends for e in _bits(drawn)],
            "circled_sights": [isl.labels[isl.sight_space[s]] for s in _bits(circled)],
            "sight_values": {
                TABLES.sight_names[k]: list(isl.sight_values[k][: kc[k]]) for k in range(KINDS)
            },
            "sight_sum": sights,
            "boxes": boxes,
            "pairs": [LETTER_NAMES[L] for L in range(LETTERS) if (pairs >> L) & 1],
            "pair_points": pair_pts,
            "blue_bonus": [f"{LETTER_NAMES[L]}:{v}" for L, v in self.blue_won[q]],
            "bonus_points": bonus,
            "linked_red": [TABLES.sight_names[k] for k in _bits(linked)] if self.red_on else [],
            "score": total,
        }

    def _view(self, player: int | None) -> dict[str, Any]:
        isl = self.isl
        v: dict[str, Any] = {
            "map": isl.key,
            "map_name": isl.name,
            "round": min(self.rnd + 1, isl.rounds),
            "rounds": isl.rounds,
            "turn": self.turn + 1 if not self.over else TURNS_PER_ROUND,
            "turns_per_round": TURNS_PER_ROUND,
            "cards": None if self.cards is None else [CARD_NAMES[c] for c in self.cards],
            "deck": len(self.deck),
            "seen_this_round": [CARD_NAMES[c] for c in self.seen],
            "setup_card": self.setup_card + 1,
            "start_village": self.start + 1,
            "clockwise": self.direction > 0,
            "blue": {LETTER_NAMES[L]: list(self.blue[L]) for L in range(LETTERS)},
            "red": [
                {"sight": TABLES.sight_names[k], "value": TABLES.red[k]} for k in self.red
            ],
            "red_taken": [
                {"sight": TABLES.sight_names[k], "value": val, "by": list(w)}
                for k, val, w in self.red_won
            ],
            "sheets": [self._sheet(q, q != player) for q in range(self.n)],
        }
        if self.n == 1:
            v["solo"] = {
                "target": TABLES.solo_target[isl.key],
                "discarded_blue": [LETTER_NAMES[L] for L in self.solo_dropped],
            }
        if player is not None:
            v["bonus_segments"] = self.bonus[player]
            v["this_turn"] = [str(a) for a in self.moves[player]]
            own = self.snap[player]
            v["connected_this_turn"] = [] if own is None else self._gains(player, own[1], own[3])
        return v

    # -- log text --------------------------------------------------------------------------
    def _gains(self, p: int, circled0: int, pairs0: int) -> list[str]:
        isl = self.isl
        out = []
        new = self.circled[p] & ~circled0
        for s in _bits(new):
            kind = TABLES.sight_names[isl.sight_kind[s]]
            out.append(f"{kind} at {isl.labels[isl.sight_space[s]]}")
        for L in _bits(self.pairs[p] & ~pairs0):
            out.append(f"villages {LETTER_NAMES[L]}-{LETTER_NAMES[L]} ({isl.pair_values[L]})")
        return out

    def _drew(self, p: int) -> str:
        """What seat ``p`` drew this turn: ``h9-i10, bonus a8-a10`` or ``nothing``."""
        return ", ".join(
            "nothing" if isinstance(a, Pass)
            else (f"bonus {a.ends}" if isinstance(a, Bonus) else a.ends)
            for a in self.moves[p]
        )

    def _summary(self, p: int) -> str:
        """Seat ``p``'s own account of its finished turn (the private log line)."""
        snap = self.snap[p]
        assert snap is not None
        drew = self._drew(p)
        text = "draw " + drew + (" (no free segment fits)" if drew == "nothing" else "")
        gains = self._gains(p, snap[1], snap[3])
        if gains:
            text += "; connected: " + ", ".join(gains)
        return text

    def _turn_text(self, p: int) -> str:
        snap = self.snap[p]
        assert snap is not None
        text = f"P{p + 1} draws {self._drew(p)}"
        gains = self._gains(p, snap[1], snap[3])
        if gains:
            text += "; connects " + ", ".join(gains)
        return text + "."


def _who(players: list[int]) -> str:
    return " and ".join(f"P{p + 1}" for p in players)

