"""The Tide's state: its fields, setup, scores, tie-break, clone, resampling and
invariants. Rule numbers (R..) refer to RULES.md in this folder; the decisions and what they
do are in rules.py, the view in view.py, the observation in observation.py.

Tiles are ints (0 empty, 1 shell, 2 bottle, 3 bag, 4 cigarette, 5 melon; data.py). The beach
is a flat list of 36 squares (see beach.py); ``fr`` holds the owner seat of the friend on
each square or -1. Piles are lists, bottom first, so ``pile[-1]`` is the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from cove.core.state import Action, State
from cove.games.the_tide.actions import MaskIndex
from cove.games.the_tide.beach import COL_NAMES, COLS, NEIGHBOURS, RAYS, SQUARES
from cove.games.the_tide.data import DATA, EMPTY, RUBBISH, SHELL, TILE_TYPES
from cove.games.the_tide.options import TideOptions
from cove.games.the_tide.rules import (
    ACT,
    ACT_STEPS,
    KINDS,
    OVER,
    PHASE_INDEX,
    PLACE,
    R_NONE,
    RETURN,
    REWARD,
    REWARDS_STEP,
    SCORED,
    SHIRK,
    STEPS,
    PendingReturn,
    TideRule,
    _p,
    place_step,
)
from cove.games.the_tide.view import build_view

PLURALS = DATA.plurals
HEIGHT = DATA.pile_height
MAX_FRIENDS = DATA.max_on_beach
THRESHOLDS = DATA.thresholds

TIEBREAK = ("most tiles held (rubbish and shells)",)
"""What ``TideState.tiebreak`` compares, in its order (R7.3)."""


class Rules:
    """What the options decide, resolved once per game and shared by every clone."""

    __slots__ = ("adjacency", "at_once", "connect", "every_turn", "mask_index",
                 "one_step", "options", "per_player", "rays", "show_all", "stall_rounds",
                 "stuck_only", "turn_limit", "under_others")

    def __init__(self, o: TideOptions) -> None:
        self.options = o
        self.rays = RAYS[o.move_dirs]
        self.adjacency = NEIGHBOURS[o.shell_adjacency]
        self.connect = NEIGHBOURS[o.connectivity]
        self.under_others = o.collect_under_others
        self.one_step = o.gravity == "one_step"
        self.show_all = o.pile_visibility == "all"
        self.every_turn = o.check_timing == "every_turn"
        self.per_player = o.shirk_penalty == "per_player"
        self.stall_rounds = o.stall_rounds
        self.stuck_only = o.stall_counts == "stuck"
        self.at_once = o.column_end == "at_once"
        self.turn_limit = o.turn_limit
        self.mask_index: MaskIndex | None = None  # made when first asked

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rules, (self.options,))  # resolved again (a compiled class needs its args)


class TideState(State):
    """A game of The Tide. The table: ``grid`` (tile per square), ``fr`` (friend's owner per
    square, -1 none), ``piles`` (bottom first) and ``hidden`` (never-seen tiles at the bottom
    of each pile); per seat ``held`` (tiles by code), ``points``, ``onboard`` and ``waiting``
    friends; ``scored``, the points each seat won by each reward (seat ``p``'s points for
    ``SCORED[k]`` at ``p * KINDS + k``, adding up to ``points[p]``; one tuple, which clones
    share and a reward replaces, so a clone copies nothing for it); ``removed`` tiles by
    code. The turn: ``cur`` (the active seat), ``first``, ``actor`` (the square of the
    friend that collected this turn, -1 none), ``collected``, ``could`` (the active player
    could collect when the turn began), ``col_end`` (a column and its pile ran out),
    ``ret_k`` (tiles the latest return still owes), ``idle`` and ``turns`` (the stall
    guard's and the turn limit's counts), ``end_reason``."""

    __slots__ = (
        "actor",
        "col_end",
        "collected",
        "could",
        "cur",
        "end_reason",
        "first",
        "fr",
        "grid",
        "held",
        "hidden",
        "idle",
        "onboard",
        "piles",
        "points",
        "removed",
        "ret_k",
        "rules",
        "scored",
        "turns",
        "waiting",
    )

    DERIVED = ("rules",)  # the rules, resolved from the options

    STEPS: ClassVar[Mapping[str, TideRule]] = STEPS  # the decisions (rules.py)

    grid: list[int]
    fr: list[int]
    piles: list[list[int]]
    hidden: list[int]
    held: list[list[int]]
    points: list[int]
    scored: tuple[int, ...]
    removed: list[int]
    onboard: list[int]
    waiting: list[int]

    # -- setup (R2) ----------------------------------------------------------------------
    def setup(self) -> None:
        o = self.options
        assert isinstance(o, TideOptions)
        self.rules = rules = Rules(o)

        tiles: list[int] = []
        for t in TILE_TYPES:
            tiles += [t] * DATA.counts[t]
        self.rng.shuffle(tiles)
        self.grid = tiles[:SQUARES]
        self.piles = [tiles[SQUARES + HEIGHT * c: SQUARES + HEIGHT * (c + 1)] for c in range(COLS)]
        # never-seen tiles at the bottom of each pile (only the top is face up)
        self.hidden = [0 if rules.show_all else HEIGHT - 1] * COLS
        self.fr = [-1] * SQUARES
        n = self.n
        self.held = [[0] * 6 for _ in range(n)]
        self.points = [0] * n
        self.scored = (0,) * (n * KINDS)
        self.removed = [0] * 6
        self.onboard = [0] * n
        self.waiting = [1] * n
        self.first = self.rng.below(n)
        self.cur = self.first
        # tiles the latest return still owed; the observation shows it (see there)
        self.ret_k = 0
        self.actor = -1
        self.collected = False
        self.could = False
        self.col_end = False
        self.idle = 0
        self.turns = 0
        self.end_reason = ""
        # each player, from the first, places one friend of the player to their right
        owners = tuple((self.first - 1 + i) % n for i in range(n))
        self.push(ACT_STEPS[self.first], place_step(n, owners))
        if self.logging:
            self.say(f"{_p(self.first)} starts: each player places a friend of the player "
                     "to their right, then the cleaning begins", kind="start",
                     data={"first": self.first})

    # -- contract hooks --------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """The kind of decision on top of the stack (PLACE, ACT, ...), OVER when none."""
        top = self.top_step
        return top.kind if top is not None else OVER

    def scores(self) -> list[float]:
        return [float(x) for x in self.points]

    def stats(self) -> dict[str, float | str]:
        reason = self.end_reason
        kind = (
            "10 points" if "points" in reason
            else "column empty" if "column" in reason
            else "stall guard" if "stall" in reason
            else "turn limit" if "turn limit" in reason
            else reason
        )
        return {"turns": float(self.turns), "end": kind,
                "tiles_collected": float(sum(sum(h) for h in self.held))}

    def check_invariants(self) -> None:
        """Conservation and consistency (R1, R1.4, R4.6, the decision machine)."""
        n = self.n
        total = [0] * 6
        for t in self.grid:
            assert 0 <= t < 6, f"unknown tile code {t} on the beach"
            total[t] += 1
        for c, pile in enumerate(self.piles):
            assert len(pile) <= HEIGHT, f"pile {COL_NAMES[c]} holds {len(pile)} > {HEIGHT}"
            assert EMPTY not in pile, f"pile {COL_NAMES[c]} holds an empty tile"
            assert 0 <= self.hidden[c] <= max(len(pile) - 1, 0), \
                f"pile {COL_NAMES[c]}: {self.hidden[c]} unseen tiles of {len(pile)}"
            for t in pile:
                total[t] += 1
        for p in range(n):
            for t in TILE_TYPES:
                assert self.held[p][t] >= 0, f"{_p(p)} holds {self.held[p][t]} {PLURALS[t]}"
                total[t] += self.held[p][t]
        for t in TILE_TYPES:
            assert self.removed[t] >= 0, f"{self.removed[t]} {PLURALS[t]} removed"
            total[t] += self.removed[t]
            assert total[t] == DATA.counts[t], \
                f"{total[t]} {PLURALS[t]} in play, the box has {DATA.counts[t]}"
        on = [0] * n
        for f in self.fr:
            assert -1 <= f < n, f"friend of unknown seat {f}"
            if f >= 0:
                on[f] += 1
        for p in range(n):
            assert on[p] == self.onboard[p], \
                f"{_p(p)} has {on[p]} friends on the beach, onboard says {self.onboard[p]}"
            assert self.waiting[p] >= 0 and on[p] + self.waiting[p] <= MAX_FRIENDS, \
                f"{_p(p)}: {on[p]} on the beach + {self.waiting[p]} waiting > {MAX_FRIENDS}"
            assert self.points[p] >= 0, f"{_p(p)} has {self.points[p]} points"
            by_reward = self.scored[p * KINDS:(p + 1) * KINDS]
            assert min(by_reward) >= 0 and sum(by_reward) == self.points[p], \
                f"{_p(p)}'s points by reward " + ", ".join(
                    f"{k} {v}" for k, v in zip(SCORED, by_reward, strict=True)) \
                + f" do not add up to {self.points[p]} points"
        rules = self.rules
        assert 0 <= self.turns <= rules.turn_limit, f"turn {self.turns}"
        assert 0 <= self.idle <= rules.stall_rounds * n, f"{self.idle} stalled turns"
        assert 0 <= self.cur < n, f"active seat {self.cur}"
        if not self.steps:
            assert self.end_reason, "the game is over without a reason"
            return
        assert not self.end_reason, f"game running with end reason {self.end_reason!r}"
        assert max(self.points) < DATA.win_points, "someone has 10 points, game not over"
        assert self.idle < rules.stall_rounds * n, "stall limit reached, game not over"
        self._check_stack()

    def _check_stack(self) -> None:
        """The pending decisions: a player's decision on top; the turn's act, or the
        check's rewards once the act is done, at the bottom."""
        n, steps = self.n, self.steps
        top = steps[-1]
        assert top.kind in PHASE_INDEX, f"automatic step {top.kind!r} waits on top"
        assert len(top.players) == 1 and 0 <= top.player < n, f"deciding seats {top.players}"
        if top.kind == PLACE:
            assert top.data and top.player == (top.data[0] + 1) % n, \
                "a placement is not made by the owner's left neighbour"
        elif top.kind == ACT:
            assert top.player == self.cur, "the act is not the active player's"
            assert len(steps) == 1, "a check is left unfinished"
            for p in range(n):  # a finished check leaves no reward to claim (R6.1)
                h = self.held[p]
                assert h[SHELL] < DATA.necklace_shells, f"{_p(p)} keeps {h[SHELL]} shells"
                assert min(h[t] for t in RUBBISH) == 0, f"{_p(p)} keeps a recycling"
                for t in RUBBISH:
                    assert h[t] < THRESHOLDS[t], f"{_p(p)} keeps a collection of {PLURALS[t]}"
        elif top.kind == RETURN:
            r: PendingReturn = top.data[0]
            q = r.player
            assert r.reason != R_NONE and top.player == q, "a return without its owner"
            assert r.left > 0 and r.left == self.ret_k, "a return decision with nothing to return"
            for t in TILE_TYPES:
                assert 0 <= r.pool[t] <= self.held[q][t], \
                    f"return pool {r.pool[t]} {PLURALS[t]} > held {self.held[q][t]}"
        elif top.kind == SHIRK:
            assert self.held[top.player][SHELL] > 0, "a shirking player with no shell to give"
        if top.kind in (SHIRK, RETURN, REWARD):
            assert REWARDS_STEP in steps, f"a {top.kind} decision outside a check"
        assert steps[0] in (ACT_STEPS[self.cur], REWARDS_STEP), \
            "neither the turn's act nor the check's rewards is at the bottom of the stack"

    def private_items(self, player: int) -> dict[str, Any]:
        # Nothing is private: holdings, beach, scores are public (R1.5) and the unseen
        # bottoms of the piles are unseen by everyone (R8.3), so every seat's view is the
        # spectator's view plus "you".
        return {}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """TIEBREAK (R7.3): the most tiles held (rubbish and shells)."""
        return (float(sum(self.held[player])),)

    # -- views, observation, action indices, clone, resample -----------------------------
    def _view(self, player: int | None) -> dict[str, Any]:
        return build_view(self, player)  # view.py

    def _legal_indices(self, player: int, legal: tuple[Action, ...]) -> list[int]:
        """As the core's, with each legal action's index looked up from its numbers
        (:class:`MaskIndex`, made once per game and shared by its clones) instead of
        hashing it; ``legal_mask`` is made from these."""
        rules = self.rules
        index = rules.mask_index
        if index is None:
            index = rules.mask_index = MaskIndex(self.action_space)
        out = index.indices(legal)
        return super()._legal_indices(player, legal) if out is None else out

    def clone(self) -> TideState:
        s: TideState = self._clone_base()
        s.rules = self.rules
        s.grid = self.grid[:]
        s.fr = self.fr[:]
        s.piles = [p[:] for p in self.piles]
        s.hidden = self.hidden[:]
        s.held = [h[:] for h in self.held]
        s.points = self.points[:]
        s.scored = self.scored  # a tuple: shared
        s.removed = self.removed[:]
        s.onboard = self.onboard[:]
        s.waiting = self.waiting[:]
        s.ret_k = self.ret_k
        s.cur = self.cur
        s.first = self.first
        s.actor = self.actor
        s.collected = self.collected
        s.could = self.could
        s.col_end = self.col_end
        s.idle = self.idle
        s.turns = self.turns
        s.end_reason = self.end_reason
        return s

    def _resample(self, player: int, rng: Any) -> None:
        # Everyone sees the same things; the never-seen bottoms of the piles are the only
        # secret. Tiles that were once on top stay where everyone saw them.
        pool: list[int] = []
        for c in range(COLS):
            pool += self.piles[c][: self.hidden[c]]
        if not pool:
            return
        pool.sort()  # the sample then depends on what the player sees, not the real order
        rng.shuffle(pool)
        i = 0
        for c in range(COLS):
            k = self.hidden[c]
            self.piles[c][:k] = pool[i: i + k]
            i += k
