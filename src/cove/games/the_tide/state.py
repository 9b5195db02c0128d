"""The Tide: the rules. Rule numbers (R..) refer to RULES.md in this folder.

Tiles are ints (0 empty, 1 shell, 2 bottle, 3 bag, 4 cigarette, 5 melon). The beach is a flat
list of 36 squares (see beach.py); ``fr`` holds the owner seat of the friend on each square or
-1. Piles are lists, bottom first, so ``pile[-1]`` is the top.

A turn runs on the core's decision stack (``cove.core.decisions``); each kind of step has
a rule below. Players decide ``place`` (the left neighbour puts a friend of the player to
their right on the beach), ``act`` (move, collect, pass), then, inside the check, ``shirk``
(the owner picks the pile for a shirking shell), ``return`` (which tile of a reward goes
back to which pile) and ``reward`` (double recycling: 3 points, or 1 point and a friend).
Automatic steps carry the check between them: ``pay_shell`` (one shirking friend's shell is
due), ``rewards`` (start the next reward that applies; when none does, the turn ends) and
``returning`` (a reward's tiles go back). A turn that ends pushes the next one.
A decision with a single legal answer is taken by the automatic step and logged by its own
event, as before the stack (R6.11).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from cove.core.decisions import AUTO, Step, StepRule
from cove.core.state import Action, SparseObservation, State
from cove.games.the_tide.actions import (
    MOVES,
    PASS,
    PLACES,
    RETURNS,
    REWARDS,
    Collect,
    MaskIndex,
    Move,
    Place,
    Return,
    Reward,
)
from cove.games.the_tide.beach import (
    COL_NAMES,
    COLS,
    COLUMN_SQUARES,
    NEIGHBOURS,
    RAYS,
    ROWS,
    SQ_NAMES,
    SQUARES,
)
from cove.games.the_tide.data import DATA
from cove.games.the_tide.observe import Board, Friends, Layout, Seats, layout
from cove.games.the_tide.options import TideOptions

EMPTY, SHELL, BOTTLE, BAG, CIGARETTE, MELON = range(6)
RUBBISH = (BOTTLE, BAG, CIGARETTE, MELON)
TILE_TYPES = (SHELL, *RUBBISH)
NAMES = DATA.names
PLURALS = DATA.plurals
HEIGHT = DATA.pile_height
MAX_FRIENDS = DATA.max_on_beach
THRESHOLDS = DATA.thresholds
COLLECTION_ORDER = DATA.collection_order

# decision kinds (step kinds on the stack that a player decides), in observation order
PLACE, ACT, SHIRK, RETURN, REWARD = "place", "act", "shirk", "return", "reward"
OVER = "over"
PHASES = (PLACE, ACT, SHIRK, RETURN, REWARD)
PHASE_INDEX = {k: i for i, k in enumerate(PHASES)}
# automatic steps
PAY_SHELL, REWARDS_DUE, RETURNING = "pay_shell", "rewards", "returning"
# what a pending return belongs to (R_NONE: no return pending)
R_NONE, R_RECYCLE, R_DOUBLE, R_COLLECTION = range(4)
RETURN_REASONS = ("", "recycling", "double recycling", "specific collection")


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _count(n: int, tile: int) -> str:
    return f"{n} {NAMES[tile] if n == 1 else PLURALS[tile]}"


OBS_FIXED = SQUARES * 6 + COLS * (1 + HEIGHT * 5) + 5 + 5 + 1 + 5 + 1 + 3 + 3
OBS_PER_SEAT = SQUARES + 8 + 3


def observation_size(players: int, options: object) -> int:
    return OBS_FIXED + OBS_PER_SEAT * players


class Rules:
    """What the options decide, resolved once per game and shared by every clone."""

    __slots__ = ("adjacency", "at_once", "connect", "every_turn", "layout", "mask_index",
                 "one_step", "per_player", "rays", "show_all", "stall_rounds", "stuck_only",
                 "turn_limit", "under_others")

    def __init__(self, o: TideOptions) -> None:
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
        self.layout: Layout | None = None  # found by the first observation


# -- the decisions: one rule per kind of step on the stack ---------------------------------
def _place_step(n: int, owners: tuple[int, ...]) -> Step:
    """Place the friends of ``owners`` in order, each by its owner's left neighbour."""
    return Step(PLACE, ((owners[0] + 1) % n,), owners)


REWARDS_STEP = Step(REWARDS_DUE)
ACT_STEPS = tuple(Step(ACT, (p,)) for p in range(6))
"""Each seat's act step, made once: steps are frozen values, so turns share them."""


@dataclass(frozen=True, slots=True)
class PendingReturn:
    """A reward's tiles on their way back to the piles (R6.4, R6.5, R6.7)."""

    player: int
    reason: int  # R_RECYCLE, R_DOUBLE or R_COLLECTION
    pool: tuple[int, ...]  # by tile code: how many of each type may still go back
    left: int  # tiles still to return
    tile: int  # the collected type of a specific collection, else 0

    def returned(self, t: int) -> PendingReturn:
        pool = list(self.pool)
        pool[t] -= 1
        return replace(self, pool=tuple(pool), left=self.left - 1)


class TideRule(StepRule["TideState"]):
    """A Tide step. ``forced`` stays off: the check's single choices (R6.11) are taken by the
    automatic steps and logged by their own events (the core would add a second, "forced"
    event), and a lone ``pass`` or placement is still the player's to make, as it always was.
    ``prompt`` also answers for a spectator (``player=None``, third person): everything in
    a decision is public (R1.5), so the public prompt is the same sentence."""

    forced = False

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        raise NotImplementedError

    def public_prompt(self, state: TideState, step: Step) -> str:
        return self.prompt(state, step, None)


class PlaceRule(TideRule):
    """R2.3, R6.12: a friend enters play. ``data``: the owners of the friends still to
    place, the current one first; the owner's left neighbour decides."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return [PLACES[s] for s in state._place_squares()]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Place)
        state._place(player, step.data[0], action.sq)
        if len(step.data) > 1:
            state.push(_place_step(state.n, step.data[1:]))

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        return (f"Place a friend of {_p(step.data[0])} on the beach: on a tile without a "
                "friend, or on any free square when no such tile is left")

    def describe(self, state: TideState, step: Step, player: int) -> dict[str, Any]:
        return {"owner": step.data[0], "count": len(step.data)}


class ActRule(TideRule):
    """R3: the active player's one action; a collection brings the tide and the check."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return state._act_actions(player)

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        state._act(player, action)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        return ("Take one action with one friend: move it 1-3 squares in a straight line "
                "without crossing another player's friend, collect the tile under it, or pass")


class ShirkRule(TideRule):
    """R5.3: the owner of a shirking friend chooses the pile for the shell."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return [RETURNS[SHELL][c] for c in state._rooms()]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Return)
        state._shirk_pay(player, action.pile)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        who = "you" if player is not None else _p(step.player)
        return (f"A friend of {'yours' if player is not None else who} shirked on an empty "
                f"square: choose a pile with room for the shell {who} "
                f"give{'' if player is not None else 's'} up")


class ReturnRule(TideRule):
    """R6.4, R6.5, R6.7: which tile of a reward goes back to which pile.
    ``data``: the :class:`PendingReturn`."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        pool = step.data[0].pool
        rooms = state._rooms()
        return [RETURNS[t][c] for t in TILE_TYPES if pool[t] for c in rooms]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Return)
        state._return_tile(player, action.tile, action.pile)
        state.push(Step(RETURNING, AUTO, (step.data[0].returned(action.tile),)))

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        r: PendingReturn = step.data[0]
        your = "your" if player is not None else f"{_p(step.player)}'s"
        return (f"Return {r.left} more tile{'s' if r.left != 1 else ''} of {your} "
                f"{RETURN_REASONS[r.reason]} to piles: choose a tile and a pile with room")

    def describe(self, state: TideState, step: Step, player: int) -> dict[str, Any]:
        r: PendingReturn = step.data[0]
        return {"reason": RETURN_REASONS[r.reason],
                "pool": {NAMES[t]: r.pool[t] for t in TILE_TYPES if r.pool[t]},
                "to_return": r.left}


class RewardRule(TideRule):
    """R6.5: after a double recycling, 3 points or 1 point and a new friend."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return REWARDS

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Reward)
        state._double_reward(player, action.friend)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        who = "you" if player is not None else _p(step.player)
        return (f"Double recycling: {who} choose{'' if player is not None else 's'} "
                f"{DATA.double_points} points, or {DATA.double_friend_points} point "
                "and a new friend")


class PayShellRule(TideRule):
    """Automatic, R5.2, R5.3: a shirking friend's owner gives up a shell; the owner chooses
    the pile only when more than one has room. ``data``: the owner."""

    def run(self, state: TideState, step: Step) -> None:
        state._pay_shell(step.data[0])


class RewardsRule(TideRule):
    """Automatic, R6.1: start the first reward that applies, and look again after it; the
    check is over when none applies."""

    def run(self, state: TideState, step: Step) -> None:
        state._next_reward()


class ReturningRule(TideRule):
    """Automatic, R6.10, R6.11: put a reward's tiles back while there is no choice, ask
    when there is one, then remove the rest and score. ``data``: the PendingReturn."""

    def run(self, state: TideState, step: Step) -> None:
        state._run_return(step.data[0])


class TideState(State):
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
        "obs_board",
        "obs_friends",
        "obs_seats",
        "onboard",
        "piles",
        "points",
        "removed",
        "ret_k",
        "rules",
        "turns",
        "waiting",
    )

    # the rules, resolved from the options; the observation's kept parts (see there)
    DERIVED = ("rules", "obs_board", "obs_friends", "obs_seats")

    STEPS: ClassVar[Mapping[str, TideRule]] = {
        PLACE: PlaceRule(), ACT: ActRule(), SHIRK: ShirkRule(), RETURN: ReturnRule(),
        REWARD: RewardRule(), PAY_SHELL: PayShellRule(), REWARDS_DUE: RewardsRule(),
        RETURNING: ReturningRule()}

    grid: list[int]
    fr: list[int]
    piles: list[list[int]]
    hidden: list[int]
    held: list[list[int]]
    points: list[int]
    removed: list[int]
    onboard: list[int]
    waiting: list[int]

    # -- setup (R2) ----------------------------------------------------------------------
    def setup(self) -> None:
        o = self.options
        assert isinstance(o, TideOptions)
        self.rules = rules = Rules(o)
        self.obs_board: Board | None = None
        self.obs_friends: Friends | None = None
        self.obs_seats: Seats | None = None

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
        self.push(ACT_STEPS[self.first], _place_step(n, owners))
        if self.logging:
            self.say(f"{_p(self.first)} starts: each player places a friend of the player "
                     "to their right, then the cleaning begins", kind="start",
                     data={"first": self.first})

    # -- contract hooks --------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """The kind of decision on top of the stack (PLACE, ACT, ...), OVER when none."""
        return self._steps[-1].kind if self._steps else OVER

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
        rules = self.rules
        assert 0 <= self.turns <= rules.turn_limit, f"turn {self.turns}"
        assert 0 <= self.idle <= rules.stall_rounds * n, f"{self.idle} stalled turns"
        assert 0 <= self.cur < n, f"active seat {self.cur}"
        if not self._steps:
            assert self.end_reason, "the game is over without a reason"
            return
        assert not self.end_reason, f"game running with end reason {self.end_reason!r}"
        assert max(self.points) < DATA.win_points, "someone has 10 points, game not over"
        assert self.idle < rules.stall_rounds * n, "stall limit reached, game not over"
        self._check_stack()

    def _check_stack(self) -> None:
        """The pending decisions: a player's decision on top; the turn's act, or the
        check's rewards once the act is done, at the bottom."""
        n, steps = self.n, self._steps
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
        # R7.3: most tiles held (rubbish and shells)
        return (float(sum(self.held[player])),)

    # -- friends entering play (R2.3, R6.3, R6.12) ---------------------------------------
    def _place_squares(self) -> list[int]:
        grid, fr = self.grid, self.fr
        out = [s for s in range(SQUARES) if fr[s] < 0 and grid[s]]
        return out or [s for s in range(SQUARES) if fr[s] < 0]

    def _place(self, placer: int, owner: int, sq: int) -> None:
        self.fr[sq] = owner
        if self.obs_friends is not None:
            self.obs_friends.put(sq, owner)
        self.onboard[owner] += 1
        self.waiting[owner] -= 1
        if self.logging:
            self.say(f"{_p(placer)} places a friend of {_p(owner)} at {SQ_NAMES[sq]}",
                     kind="place", data={"player": placer, "owner": owner,
                                         "square": SQ_NAMES[sq]})

    def _begin_turn(self, p: int) -> None:
        self.cur = p
        self.actor = -1
        self.collected = False
        self.could = False
        self.col_end = False
        if self.waiting[p]:  # R6.12: they enter before the owner acts
            self.push(ACT_STEPS[p], _place_step(self.n, (p,) * self.waiting[p]))
        else:
            self.push(ACT_STEPS[p])

    # -- the action (R3) -------------------------------------------------------------------
    def _act_actions(self, p: int) -> list[Action]:
        grid, fr = self.grid, self.fr
        adjacency, rays = self.rules.adjacency, self.rules.rays
        collects: list[Action] = []
        moves: list[Action] = []
        for s in range(SQUARES):
            if fr[s] != p:
                continue
            t = grid[s]
            if t == SHELL:
                if all(fr[a] < 0 or fr[a] == p for a in adjacency[s]):
                    collects.append(Collect(s, SHELL, 1))
            elif t:
                collects.append(Collect(s, t, len(self._group(s, p))))
            row = MOVES[s]
            for ray in rays[s]:
                for d in ray:
                    o = fr[d]
                    if o < 0:
                        moves.append(row[d])
                    elif o != p:
                        break  # another player's friend: cannot pass or stop
        collects += moves
        collects.append(PASS)
        return collects

    def _group(self, start: int, p: int) -> list[int]:
        """The rubbish tile at ``start`` and every connected tile of the same type."""
        grid, fr, nb = self.grid, self.fr, self.rules.connect
        t = grid[start]
        under = self.rules.under_others
        seen = {start}
        stack = [start]
        while stack:
            s = stack.pop()
            for a in nb[s]:
                if a not in seen and grid[a] == t and (under or fr[a] < 0 or fr[a] == p):
                    seen.add(a)
                    stack.append(a)
        return sorted(seen)

    def _can_collect(self, p: int) -> bool:
        """Whether ``p`` has a legal collection now (R7.4: only turns without one count)."""
        grid, fr, adjacency = self.grid, self.fr, self.rules.adjacency
        for s in range(SQUARES):
            if fr[s] != p:
                continue
            t = grid[s]
            if t == SHELL:
                if all(fr[a] < 0 or fr[a] == p for a in adjacency[s]):
                    return True
            elif t:
                return True
        return False

    def _act(self, p: int, action: Action) -> None:
        self.could = self.rules.stuck_only and self._can_collect(p)
        if isinstance(action, Move):
            self.fr[action.dst] = p
            self.fr[action.src] = -1
            friends = self.obs_friends
            if friends is not None:
                friends.put(action.dst, p)
                friends.put(action.src, -1)
            if self.logging:
                self.say(f"{_p(p)} moves a friend from {SQ_NAMES[action.src]} "
                         f"to {SQ_NAMES[action.dst]}", kind="move",
                         data={"player": p, "from": SQ_NAMES[action.src],
                               "to": SQ_NAMES[action.dst]})
            self._after_action(False)
        elif isinstance(action, Collect):
            sq, t = action.sq, action.tile
            squares = [sq] if t == SHELL else self._group(sq, p)
            for s in squares:
                self.grid[s] = EMPTY
            self.held[p][t] += len(squares)
            self.actor = sq
            if self.logging:
                where = ", ".join(SQ_NAMES[s] for s in squares)
                self.say(f"{_p(p)} collects {_count(len(squares), t)} ({where})",
                         kind="collect", data={"player": p, "tile": NAMES[t],
                                               "squares": [SQ_NAMES[s] for s in squares]})
            self._after_action(True)
        else:
            if self.logging:
                self.say(f"{_p(p)} passes", kind="pass", data={"player": p})
            self._after_action(False)

    def _after_action(self, collected: bool) -> None:
        self.collected = collected
        if collected:
            # R7.2: the column end is judged on the beach right after the tide
            self.col_end = self._tide()
            if self.col_end:
                at_once = self.rules.at_once
                if self.logging:
                    cols = [COL_NAMES[c] for c, sq in enumerate(COLUMN_SQUARES)
                            if not self.piles[c] and not any(self.grid[s] for s in sq)]
                    self.say(f"column {', '.join(cols)} and its pile are empty: the game ends "
                             + ("at once" if at_once else "after this check"),
                             kind="column_end", data={"columns": cols, "at_once": at_once})
                if at_once:  # R7.2: "as soon as", before the check
                    self._finish("a column and its pile are empty")
                    return
            self._start_check()
        elif self.rules.every_turn:
            self._start_check()
        else:
            self._end_turn()

    # -- the tide (R4) ---------------------------------------------------------------------
    def _tide(self) -> bool:
        """Gravity, then one pile tile per column with an empty sea-side square (R4).
        Returns whether some column and its pile are now both empty (R7.2)."""
        grid = self.grid
        logging = self.logging
        one_step = self.rules.one_step
        notes: list[str] = []
        drops: list[dict[str, str]] = []
        exhausted = False
        for c in range(COLS):
            squares = COLUMN_SQUARES[c]
            col = [grid[s] for s in squares]
            if EMPTY not in col:
                continue  # a full column neither slides nor takes a pile tile
            if one_step:
                for r in range(ROWS - 2, -1, -1):
                    if col[r] and not col[r + 1]:
                        col[r + 1] = col[r]
                        col[r] = EMPTY
            else:
                tiles = [t for t in col if t]
                col = [EMPTY] * (ROWS - len(tiles)) + tiles
            drop = -1
            pile = self.piles[c]
            if not col[0] and pile:
                r = 0
                while r + 1 < ROWS and not col[r + 1]:
                    r += 1
                col[r] = pile.pop()
                drop = r
                if self.hidden[c] >= len(pile):
                    self.hidden[c] = max(len(pile) - 1, 0)
            if logging:
                slid = any(col[r] != grid[squares[r]] for r in range(ROWS) if r != drop)
                bits = ["tiles slide down"] if slid else []
                if drop >= 0:
                    drops.append({"pile": COL_NAMES[c], "tile": NAMES[col[drop]],
                                  "square": SQ_NAMES[squares[drop]]})
                    bits.append(f"pile {COL_NAMES[c]} drops a {NAMES[col[drop]]} "
                                f"to {SQ_NAMES[squares[drop]]}")
                if bits:
                    notes.append(f"{COL_NAMES[c]}: {' and '.join(bits)}")
            for r in range(ROWS):
                grid[squares[r]] = col[r]
            if not pile and not any(col):
                exhausted = True
        if logging:
            self.say("the tide: " + ("; ".join(notes) if notes else "nothing moves"),
                     kind="tide", data={"drops": drops})
        return exhausted

    # -- the check (R5, R6) --------------------------------------------------------------
    def _order(self) -> list[int]:
        return [(self.cur + i) % self.n for i in range(self.n)]

    def _rooms(self) -> list[int]:
        return [c for c in range(COLS) if len(self.piles[c]) < HEIGHT]

    def _start_check(self) -> None:
        grid, fr = self.grid, self.fr
        q_of = [0] * self.n
        for s in range(SQUARES):
            if fr[s] >= 0 and not grid[s]:
                q_of[fr[s]] += 1
                if self.logging:
                    self.say(f"{_p(fr[s])}'s friend at {SQ_NAMES[s]} is shirking on an "
                             "empty square", kind="shirking",
                             data={"player": fr[s], "square": SQ_NAMES[s]})
        if self.rules.per_player:  # R5.2 option: one shell however many friends shirk
            q_of = [min(k, 1) for k in q_of]
        due = [Step(PAY_SHELL, AUTO, (q,)) for q in self._order() for _ in range(q_of[q])]
        self.then(*due, REWARDS_STEP)

    def _pay_shell(self, q: int) -> None:
        if not self.held[q][SHELL]:
            if self.logging:
                self.say(f"{_p(q)} has no shell to give up", kind="no_shell", data={"player": q})
            return
        rooms = self._rooms()
        if not rooms:
            self.held[q][SHELL] -= 1
            self.removed[SHELL] += 1
            if self.logging:
                self.say(f"{_p(q)} gives up a shell; every pile is full, so it leaves "
                         "the game", kind="shell_removed", data={"player": q})
        elif len(rooms) == 1:
            self._shirk_pay(q, rooms[0])
        else:
            self.push(Step(SHIRK, (q,)))

    def _shirk_pay(self, q: int, pile: int) -> None:
        self.held[q][SHELL] -= 1
        self.piles[pile].append(SHELL)
        if self.logging:
            self.say(f"{_p(q)} puts a shell back on pile {COL_NAMES[pile]}", kind="shell_returned",
                     data={"player": q, "pile": COL_NAMES[pile]})

    def _next_reward(self) -> None:
        """Start the first reward that applies (R6 order), and look again after it; when
        none applies the check, and the turn, are over."""
        for q in self._order():
            h = self.held[q]
            if h[SHELL] >= DATA.necklace_shells:
                self._necklace(q)
                self.push(REWARDS_STEP)
                return
            least = min(h[BOTTLE], h[BAG], h[CIGARETTE], h[MELON])
            if least >= 2:
                self._start_return(q, R_DOUBLE, (0, 0, 2, 2, 2, 2), DATA.double_returned)
                return
            if least >= 1:
                self._start_return(q, R_RECYCLE, (0, 0, 1, 1, 1, 1), DATA.recycling_returned)
                return
            for t in COLLECTION_ORDER:
                if h[t] >= THRESHOLDS[t]:
                    pool = [0] * 6
                    pool[t] = THRESHOLDS[t]
                    self._start_return(q, R_COLLECTION, tuple(pool), DATA.collection_returned)
                    return
        self._end_turn()

    def _necklace(self, q: int) -> None:
        k = DATA.necklace_shells
        self.held[q][SHELL] -= k
        self.removed[SHELL] += k
        leaver = -1
        if q == self.cur and self.actor >= 0 and self.fr[self.actor] == q:
            leaver = self.actor
        else:  # only reachable in hand-built positions: any friend of q leaves
            leaver = next((s for s in range(SQUARES) if self.fr[s] == q), -1)
        if leaver >= 0:
            self.fr[leaver] = -1
            if self.obs_friends is not None:
                self.obs_friends.put(leaver, -1)
            self.onboard[q] -= 1
            self.waiting[q] += 1
        partner = self.onboard[q] + self.waiting[q] < MAX_FRIENDS
        if partner:
            self.waiting[q] += 1
        if self.logging:
            text = f"{_p(q)} makes a necklace of {k} shells (they leave the game)"
            if leaver >= 0:
                text += f"; the friend at {SQ_NAMES[leaver]} leaves to deliver it"
            text += (", and comes back with a partner next turn" if partner
                     else "; no free token for a partner")
            self.say(text, kind="necklace", data={
                "player": q, "friend_leaves": SQ_NAMES[leaver] if leaver >= 0 else None,
                "partner": partner})

    def _start_return(self, q: int, kind: int, pool: tuple[int, ...], k: int) -> None:
        tile = max(TILE_TYPES, key=pool.__getitem__) if kind == R_COLLECTION else 0
        self.ret_k = k
        if self.logging:
            used = ", ".join(_count(pool[t], t) for t in RUBBISH if pool[t])
            self.say(f"{_p(q)} completes a {RETURN_REASONS[kind]} ({used}) and returns "
                     f"{k} tile{'s' if k != 1 else ''} to the piles", kind="reward_start",
                     data={"player": q, "reward": RETURN_REASONS[kind], "to_return": k,
                           "tiles": {NAMES[t]: pool[t] for t in RUBBISH if pool[t]}})
        self.push(REWARDS_STEP, Step(RETURNING, AUTO, (PendingReturn(q, kind, pool, k, tile),)))

    def _return_tile(self, q: int, t: int, pile: int) -> None:
        self.held[q][t] -= 1
        self.ret_k -= 1
        self.piles[pile].append(t)
        if self.logging:
            self.say(f"{_p(q)} returns a {NAMES[t]} to pile {COL_NAMES[pile]}", kind="return",
                     data={"player": q, "tile": NAMES[t], "pile": COL_NAMES[pile]})

    def _run_return(self, r: PendingReturn) -> None:
        """Return tiles while there is no choice (R6.11); ask when there is one; when
        nothing more can go back (R6.10), finish the reward."""
        q = r.player
        while r.left > 0:
            rooms = self._rooms()
            types = [t for t in TILE_TYPES if r.pool[t]]
            if not rooms or not types:
                break
            if len(rooms) == 1 and len(types) == 1:
                self._return_tile(q, types[0], rooms[0])
                r = r.returned(types[0])
                continue
            self.push(Step(RETURN, (q,), (r,)))
            return
        self._end_return(r)

    def _end_return(self, r: PendingReturn) -> None:
        """The tiles that did not go back leave the game; then the reward scores."""
        q, pool = r.player, r.pool
        gone = []
        gone_data: dict[str, int] = {}
        for t in TILE_TYPES:
            if pool[t]:
                self.held[q][t] -= pool[t]
                self.removed[t] += pool[t]
                gone.append(_count(pool[t], t))
                gone_data[NAMES[t]] = pool[t]
        if self.logging and gone:
            self.say(f"{_p(q)} removes {', '.join(gone)} from the game", kind="removed",
                     data={"player": q, "tiles": gone_data})
        if r.reason == R_DOUBLE:
            if self.onboard[q] + self.waiting[q] < MAX_FRIENDS:
                self.push(Step(REWARD, (q,)))
            else:
                self._double_reward(q, False)
        elif r.reason == R_RECYCLE:
            self._award(q, DATA.recycling_points, "recycling")
        else:
            self._collection_award(q, r.tile)

    def _collection_award(self, q: int, t: int) -> None:
        self._award(q, DATA.collection_points, f"a specific collection of {PLURALS[t]}")
        if self.end_reason:
            return
        for o in self._order():
            if o != q and self.held[o][t]:
                self.held[o][t] -= 1
                self.removed[t] += 1
                if self.logging:
                    self.say(f"{_p(o)} takes part and removes a {NAMES[t]} from the game",
                             kind="takes_part", data={"player": o, "tile": NAMES[t]})

    def _double_reward(self, q: int, friend: bool) -> None:
        if friend:
            self.waiting[q] += 1
            self._award(q, DATA.double_friend_points, "double recycling, plus a new friend "
                        "from the next turn")
        else:
            self._award(q, DATA.double_points, "double recycling")

    def _award(self, q: int, pts: int, why: str) -> None:
        self.points[q] += pts
        if self.logging:
            self.say(f"{_p(q)} scores {pts} for {why} (total {self.points[q]})",
                     kind="score", data={"player": q, "points": pts, "total": self.points[q],
                                         "for": why})
        if self.points[q] >= DATA.win_points:
            self._finish(f"{_p(q)} reaches {DATA.win_points} points")

    def _end_turn(self) -> None:
        """The turn is over: the game ends (R7.2, R7.4, R7.5) or the next turn begins."""
        if self.col_end:
            self._finish("a column and its pile are empty")
            return
        self.turns += 1
        # R7.4: a collection resets the count; so does, by default, a turn that could
        # have collected (only turns with nothing to collect count)
        self.idle = 0 if self.collected or self.could else self.idle + 1
        rules = self.rules
        if self.idle >= rules.stall_rounds * self.n:
            self._finish(f"no tile was collected in {self.idle} turns (stall guard)")
        elif self.turns >= rules.turn_limit:
            self._finish(f"the turn limit of {rules.turn_limit} is reached")
        else:
            self._begin_turn((self.cur + 1) % self.n)

    def _finish(self, reason: str) -> None:
        self.end_reason = reason
        self._steps = ()  # nothing pending is decided any more
        if self.logging:
            self.say(f"game over: {reason}; "
                     + ", ".join(f"{_p(p)} {self.points[p]}" for p in range(self.n)),
                     kind="game_over", data={"reason": reason, "points": list(self.points)})

    # -- views, clone, resample ------------------------------------------------------------
    def _view(self, player: int | None) -> dict[str, Any]:
        names: list[str | None] = [n or None for n in NAMES]
        grid, fr = self.grid, self.fr
        piles = []
        for pile in self.piles:
            entry: dict[str, Any] = {"height": len(pile), "top": names[pile[-1]] if pile else None}
            if self.rules.show_all:
                entry["tiles"] = [NAMES[t] for t in pile]
            piles.append(entry)
        seats = []
        for p in range(self.n):
            h = self.held[p]
            seats.append({
                "held": {NAMES[t]: h[t] for t in TILE_TYPES},
                "shells": h[SHELL],
                "points": self.points[p],
                "tiles": sum(h),
                "friends_on_beach": self.onboard[p],
                "friends_waiting": self.waiting[p],
            })
        v: dict[str, Any] = {
            "beach": [[names[grid[r * COLS + c]] for c in range(COLS)] for r in range(ROWS)],
            "friends": [[fr[r * COLS + c] if fr[r * COLS + c] >= 0 else None
                         for c in range(COLS)] for r in range(ROWS)],
            "piles": piles,
            "pile_visibility": "all" if self.rules.show_all else "top",
            "seats": seats,
            "removed": {NAMES[t]: self.removed[t] for t in TILE_TYPES},
            "active": self.cur,
            "first_player": self.first,
            "turn": self.turns + 1,
            "idle_turns": self.idle,
            "stall_limit": self.rules.stall_rounds * self.n,
            "stall_counts": "stuck" if self.rules.stuck_only else "idle",
            "column_end": self.col_end,
            "end_reason": self.end_reason or None,
        }
        return v

    def _observation_sparse(self, player: int) -> SparseObservation:
        """``observation_size(n) = OBS_FIXED + OBS_PER_SEAT * n`` floats (SPEC.md,
        Observation) in sparse form: the one-hots as indices, the counts and scales as
        values at fixed places (``Layout.at``; a value may be 0.0); the core makes the
        dense list from it. Seats are relative: index k is the seat k places after
        ``player``. Pile slots never seen by anyone (R8.3) are zeros. The beach and piles
        (``obs_board``), the friends (``obs_friends``, moved along by the apply path) and
        the seats' counts (``obs_seats``) are kept parts, remade when the state's lists
        differ from the copies they hold (observe.py); the rest is built each call."""
        rules = self.rules
        lay = rules.layout
        if lay is None:
            lay = rules.layout = layout(self.n)
        n = lay.n
        grid, piles, hidden = self.grid, self.piles, self.hidden
        board = self.obs_board
        if board is None or board.grid != grid or board.piles != piles \
                or board.hidden != hidden:
            board = self.obs_board = Board(grid, piles, hidden, lay.piles)
        held, points, onboard, waiting, removed = (
            self.held, self.points, self.onboard, self.waiting, self.removed)
        seats = self.obs_seats
        if seats is None or seats.held != held or seats.points != points \
                or seats.onboard != onboard or seats.waiting != waiting \
                or seats.removed != removed:
            seats = self.obs_seats = Seats(held, points, onboard, waiting, removed)
        counts = seats.turned[player]
        if counts is None:
            counts = seats.turn(player)
        # friends: a one for each friend, at its square's seat slot
        fr = self.fr
        friends = self.obs_friends
        if friends is None or friends.fr != fr:
            try:
                friends = self.obs_friends = Friends(fr, n)
            except ValueError:  # a friend of no seat, in a state made by hand
                friends = self.obs_friends = None
        if friends is not None:
            ones = board.ones + array("q", map(lay.turn_friends[player].__getitem__,
                                               friends.offsets))
        else:
            base = lay.friends
            ones = board.ones + array("q", [base + i * n + (f - player) % n
                                            for i, f in enumerate(fr) if f >= 0])
        ones.append(lay.active + (self.cur - player) % n)
        steps = self._steps
        placed = 0.0
        if steps:
            top = steps[-1]
            kind = top.kind
            ones.append(lay.decider + (top.players[0] - player) % n)
            ones.append(lay.phase + PHASE_INDEX[kind])
            if kind == PLACE:
                placing = top.data
                if placing:
                    ones.append(lay.placing + (placing[0] - player) % n)
                    placed = len(placing) / MAX_FRIENDS
            elif kind == RETURN:
                pending: PendingReturn = top.data[0]
                pool = pending.pool
                if pending.reason > 0:
                    ones.append(lay.ret + 5 + pending.reason)
                if self.col_end:
                    ones.append(lay.counters + 2)
                return ones, lay.at, board.heights + counts + array("d", (
                    placed, pool[1] / 4, pool[2] / 4, pool[3] / 4, pool[4] / 4,
                    pool[5] / 4, self.ret_k / 4, self.idle / (rules.stall_rounds * n),
                    self.turns / rules.turn_limit))
        if self.col_end:
            ones.append(lay.counters + 2)
        return ones, lay.at, board.heights + counts + array("d", (
            placed, 0.0, 0.0, 0.0, 0.0, 0.0, self.ret_k / 4,
            self.idle / (rules.stall_rounds * n), self.turns / rules.turn_limit))

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
        s.obs_board = self.obs_board
        s.obs_friends = None  # moved along by its own state's apply path: not shared
        s.obs_seats = self.obs_seats
        s.grid = self.grid[:]
        s.fr = self.fr[:]
        s.piles = [p[:] for p in self.piles]
        s.hidden = self.hidden[:]
        s.held = [h[:] for h in self.held]
        s.points = self.points[:]
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
