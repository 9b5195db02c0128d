"""The Tide's decisions: one rule per kind of step on the core's decision stack, in
RULES.md order, and what the steps do. Rule numbers (R..) refer to RULES.md in this folder.

A turn runs on the core's decision stack (``cove.core.decisions``). Players decide
``place`` (the left neighbour puts a friend of the player to their right on the beach),
``act`` (move, collect, pass), then, inside the check, ``shirk`` (the owner picks the pile
for a shirking shell), ``return`` (which tile of a reward goes back to which pile) and
``reward`` (double recycling: 3 points, or 1 point and a friend). Automatic steps carry the
check between them: ``pay_shell`` (one shirking friend's shell is due), ``rewards`` (start
the next reward that applies; when none does, the turn ends) and ``returning`` (a reward's
tiles go back). A turn that ends pushes the next one. A decision with a single legal answer
is taken by the automatic step and logged by its own event (R6.11).

What the steps do are functions of the state (``TideState`` in state.py holds the fields),
below the rules: friends entering play, the action, the tide, the check and the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cove.core.decisions import AUTO, Step, StepRule
from cove.core.serial import pickle_by_fields
from cove.core.state import Action
from cove.games.the_tide.actions import (
    MOVES,
    PASS,
    PLACES,
    RETURNS,
    REWARDS,
    Collect,
    Move,
    Place,
    Return,
    Reward,
)
from cove.games.the_tide.beach import COL_NAMES, COLS, COLUMN_SQUARES, ROWS, SQ_NAMES, SQUARES
from cove.games.the_tide.data import (
    BAG,
    BOTTLE,
    CIGARETTE,
    DATA,
    EMPTY,
    MELON,
    RUBBISH,
    SHELL,
    TILE_TYPES,
)

if TYPE_CHECKING:
    from cove.games.the_tide.state import TideState

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
# the rewards that score (R6.4, R6.5, R6.7), in the order ``TideState.scored`` keeps each
# seat's points by reward: recycling, double recycling, then a specific collection of each
# rubbish type at its tile code (bottles at BOTTLE = 2 ... melons at MELON = 5)
S_RECYCLE, S_DOUBLE = 0, 1
SCORED = ("recycling", "double recycling", *(f"{NAMES[t]} collections" for t in RUBBISH))
KINDS = len(SCORED)


def _p(seat: int) -> str:
    return f"P{seat + 1}"


def _count(n: int, tile: int) -> str:
    return f"{n} {NAMES[tile] if n == 1 else PLURALS[tile]}"


# -- the decisions: one rule per kind of step on the stack -----------------------------------------
def place_step(n: int, owners: tuple[int, ...]) -> Step:
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


pickle_by_fields(PendingReturn)


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
        return [PLACES[s] for s in place_squares(state)]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Place)
        place_friend(state, player, step.data[0], action.sq)
        if len(step.data) > 1:
            state.push(place_step(state.n, step.data[1:]))

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        return (f"Place a friend of {_p(step.data[0])} on the beach: on a tile without a "
                "friend, or on any free square when no such tile is left")

    def describe(self, state: TideState, step: Step, player: int) -> dict[str, Any]:
        return {"owner": step.data[0], "count": len(step.data)}


class ActRule(TideRule):
    """R3: the active player's one action; a collection brings the tide and the check."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return act_actions(state, player)

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        act(state, player, action)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        return ("Take one action with one friend: move it 1-3 squares in a straight line "
                "without crossing another player's friend, collect the tile under it, or pass")


class PayShellRule(TideRule):
    """Automatic, R5.2, R5.3: a shirking friend's owner gives up a shell; the owner chooses
    the pile only when more than one has room. ``data``: the owner."""

    def run(self, state: TideState, step: Step) -> None:
        pay_shell(state, step.data[0])


class ShirkRule(TideRule):
    """R5.3: the owner of a shirking friend chooses the pile for the shell."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return [RETURNS[SHELL][c] for c in piles_with_room(state)]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Return)
        shirk_pay(state, player, action.pile)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        who = "you" if player is not None else _p(step.player)
        return (f"A friend of {'yours' if player is not None else who} shirked on an empty "
                f"square: choose a pile with room for the shell {who} "
                f"give{'' if player is not None else 's'} up")


class RewardsRule(TideRule):
    """Automatic, R6.1: start the first reward that applies, and look again after it; the
    check is over when none applies."""

    def run(self, state: TideState, step: Step) -> None:
        next_reward(state)


class ReturnRule(TideRule):
    """R6.4, R6.5, R6.7: which tile of a reward goes back to which pile.
    ``data``: the :class:`PendingReturn`."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        pool = step.data[0].pool
        rooms = piles_with_room(state)
        return [RETURNS[t][c] for t in TILE_TYPES if pool[t] for c in rooms]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Return)
        return_tile(state, player, action.tile, action.pile)
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
        double_reward(state, player, action.friend)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        who = "you" if player is not None else _p(step.player)
        return (f"Double recycling: {who} choose{'' if player is not None else 's'} "
                f"{DATA.double_points} points, or {DATA.double_friend_points} point "
                "and a new friend")


class ReturningRule(TideRule):
    """Automatic, R6.10, R6.11: put a reward's tiles back while there is no choice, ask
    when there is one, then remove the rest and score. ``data``: the PendingReturn."""

    def run(self, state: TideState, step: Step) -> None:
        run_return(state, step.data[0])


STEPS: dict[str, TideRule] = {
    PLACE: PlaceRule(), ACT: ActRule(), PAY_SHELL: PayShellRule(), SHIRK: ShirkRule(),
    REWARDS_DUE: RewardsRule(), RETURN: ReturnRule(), REWARD: RewardRule(),
    RETURNING: ReturningRule()}
"""Each kind of step's rule, in RULES.md order (``TideState.STEPS``)."""


# -- friends entering play (R2.3, R6.3, R6.12) -----------------------------------------------------
def place_squares(state: TideState) -> list[int]:
    grid, fr = state.grid, state.fr
    out = [s for s in range(SQUARES) if fr[s] < 0 and grid[s]]
    return out or [s for s in range(SQUARES) if fr[s] < 0]


def place_friend(state: TideState, placer: int, owner: int, sq: int) -> None:
    state.fr[sq] = owner
    state.onboard[owner] += 1
    state.waiting[owner] -= 1
    if state.logging:
        state.say(f"{_p(placer)} places a friend of {_p(owner)} at {SQ_NAMES[sq]}",
                  kind="place", data={"player": placer, "owner": owner,
                                      "square": SQ_NAMES[sq]})


def begin_turn(state: TideState, p: int) -> None:
    state.cur = p
    state.actor = -1
    state.collected = False
    state.could = False
    state.col_end = False
    if state.waiting[p]:  # R6.12: they enter before the owner acts
        state.push(ACT_STEPS[p], place_step(state.n, (p,) * state.waiting[p]))
    else:
        state.push(ACT_STEPS[p])


# -- the action (R3) -------------------------------------------------------------------------------
def act_actions(state: TideState, p: int) -> list[Action]:
    grid, fr = state.grid, state.fr
    adjacency, rays = state.rules.adjacency, state.rules.rays
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
            collects.append(Collect(s, t, len(group(state, s, p))))
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


def group(state: TideState, start: int, p: int) -> list[int]:
    """The rubbish tile at ``start`` and every connected tile of the same type."""
    grid, fr, nb = state.grid, state.fr, state.rules.connect
    t = grid[start]
    under = state.rules.under_others
    seen = {start}
    stack = [start]
    while stack:
        s = stack.pop()
        for a in nb[s]:
            if a not in seen and grid[a] == t and (under or fr[a] < 0 or fr[a] == p):
                seen.add(a)
                stack.append(a)
    return sorted(seen)


def can_collect(state: TideState, p: int) -> bool:
    """Whether ``p`` has a legal collection now (R7.4: only turns without one count)."""
    grid, fr, adjacency = state.grid, state.fr, state.rules.adjacency
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


def act(state: TideState, p: int, action: Action) -> None:
    state.could = state.rules.stuck_only and can_collect(state, p)
    if isinstance(action, Move):
        state.fr[action.dst] = p
        state.fr[action.src] = -1
        if state.logging:
            state.say(f"{_p(p)} moves a friend from {SQ_NAMES[action.src]} "
                      f"to {SQ_NAMES[action.dst]}", kind="move",
                      data={"player": p, "from": SQ_NAMES[action.src],
                            "to": SQ_NAMES[action.dst]})
        after_action(state, False)
    elif isinstance(action, Collect):
        sq, t = action.sq, action.tile
        squares = [sq] if t == SHELL else group(state, sq, p)
        for s in squares:
            state.grid[s] = EMPTY
        state.held[p][t] += len(squares)
        state.actor = sq
        if state.logging:
            where = ", ".join(SQ_NAMES[s] for s in squares)
            state.say(f"{_p(p)} collects {_count(len(squares), t)} ({where})",
                      kind="collect", data={"player": p, "tile": NAMES[t],
                                            "squares": [SQ_NAMES[s] for s in squares]})
        after_action(state, True)
    else:
        if state.logging:
            state.say(f"{_p(p)} passes", kind="pass", data={"player": p})
        after_action(state, False)


def after_action(state: TideState, collected: bool) -> None:
    state.collected = collected
    if collected:
        # R7.2: the column end is judged on the beach right after the tide
        state.col_end = tide(state)
        if state.col_end:
            at_once = state.rules.at_once
            if state.logging:
                cols = [COL_NAMES[c] for c, sq in enumerate(COLUMN_SQUARES)
                        if not state.piles[c] and not any(state.grid[s] for s in sq)]
                state.say(f"column {', '.join(cols)} and its pile are empty: the game ends "
                          + ("at once" if at_once else "after this check"),
                          kind="column_end", data={"columns": cols, "at_once": at_once})
            if at_once:  # R7.2: "as soon as", before the check
                finish(state, "a column and its pile are empty")
                return
        start_check(state)
    elif state.rules.every_turn:
        start_check(state)
    else:
        end_turn(state)


# -- the tide (R4) ---------------------------------------------------------------------------------
def tide(state: TideState) -> bool:
    """Gravity, then one pile tile per column with an empty sea-side square (R4).
    Returns whether some column and its pile are now both empty (R7.2)."""
    grid = state.grid
    logging = state.logging
    one_step = state.rules.one_step
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
        pile = state.piles[c]
        if not col[0] and pile:
            r = 0
            while r + 1 < ROWS and not col[r + 1]:
                r += 1
            col[r] = pile.pop()
            drop = r
            if state.hidden[c] >= len(pile):
                state.hidden[c] = max(len(pile) - 1, 0)
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
        state.say("the tide: " + ("; ".join(notes) if notes else "nothing moves"),
                  kind="tide", data={"drops": drops})
    return exhausted


# -- the check (R5, R6) ----------------------------------------------------------------------------
def order(state: TideState) -> list[int]:
    return [(state.cur + i) % state.n for i in range(state.n)]


def piles_with_room(state: TideState) -> list[int]:
    return [c for c in range(COLS) if len(state.piles[c]) < HEIGHT]


def start_check(state: TideState) -> None:
    grid, fr = state.grid, state.fr
    q_of = [0] * state.n
    for s in range(SQUARES):
        if fr[s] >= 0 and not grid[s]:
            q_of[fr[s]] += 1
            if state.logging:
                state.say(f"{_p(fr[s])}'s friend at {SQ_NAMES[s]} is shirking on an "
                          "empty square", kind="shirking",
                          data={"player": fr[s], "square": SQ_NAMES[s]})
    if state.rules.per_player:  # R5.2 option: one shell however many friends shirk
        q_of = [min(k, 1) for k in q_of]
    due = [Step(PAY_SHELL, AUTO, (q,)) for q in order(state) for _ in range(q_of[q])]
    state.then(*due, REWARDS_STEP)


def pay_shell(state: TideState, q: int) -> None:
    if not state.held[q][SHELL]:
        if state.logging:
            state.say(f"{_p(q)} has no shell to give up", kind="no_shell", data={"player": q})
        return
    rooms = piles_with_room(state)
    if not rooms:
        state.held[q][SHELL] -= 1
        state.removed[SHELL] += 1
        if state.logging:
            state.say(f"{_p(q)} gives up a shell; every pile is full, so it leaves "
                      "the game", kind="shell_removed", data={"player": q})
    elif len(rooms) == 1:
        shirk_pay(state, q, rooms[0])
    else:
        state.push(Step(SHIRK, (q,)))


def shirk_pay(state: TideState, q: int, pile: int) -> None:
    state.held[q][SHELL] -= 1
    state.piles[pile].append(SHELL)
    if state.logging:
        state.say(f"{_p(q)} puts a shell back on pile {COL_NAMES[pile]}", kind="shell_returned",
                  data={"player": q, "pile": COL_NAMES[pile]})


def next_reward(state: TideState) -> None:
    """Start the first reward that applies (R6 order), and look again after it; when
    none applies the check, and the turn, are over."""
    for q in order(state):
        h = state.held[q]
        if h[SHELL] >= DATA.necklace_shells:
            necklace(state, q)
            state.push(REWARDS_STEP)
            return
        least = min(h[BOTTLE], h[BAG], h[CIGARETTE], h[MELON])
        if least >= 2:
            start_return(state, q, R_DOUBLE, (0, 0, 2, 2, 2, 2), DATA.double_returned)
            return
        if least >= 1:
            start_return(state, q, R_RECYCLE, (0, 0, 1, 1, 1, 1), DATA.recycling_returned)
            return
        for t in COLLECTION_ORDER:
            if h[t] >= THRESHOLDS[t]:
                pool = [0] * 6
                pool[t] = THRESHOLDS[t]
                start_return(state, q, R_COLLECTION, tuple(pool), DATA.collection_returned)
                return
    end_turn(state)


def necklace(state: TideState, q: int) -> None:
    k = DATA.necklace_shells
    state.held[q][SHELL] -= k
    state.removed[SHELL] += k
    leaver = -1
    if q == state.cur and state.actor >= 0 and state.fr[state.actor] == q:
        leaver = state.actor
    else:  # only reachable in hand-built positions: any friend of q leaves
        leaver = next((s for s in range(SQUARES) if state.fr[s] == q), -1)
    if leaver >= 0:
        state.fr[leaver] = -1
        state.onboard[q] -= 1
        state.waiting[q] += 1
    partner = state.onboard[q] + state.waiting[q] < MAX_FRIENDS
    if partner:
        state.waiting[q] += 1
    if state.logging:
        text = f"{_p(q)} makes a necklace of {k} shells (they leave the game)"
        if leaver >= 0:
            text += f"; the friend at {SQ_NAMES[leaver]} leaves to deliver it"
        text += (", and comes back with a partner next turn" if partner
                 else "; no free token for a partner")
        state.say(text, kind="necklace", data={
            "player": q, "friend_leaves": SQ_NAMES[leaver] if leaver >= 0 else None,
            "partner": partner})


def start_return(state: TideState, q: int, kind: int, pool: tuple[int, ...], k: int) -> None:
    tile = max(TILE_TYPES, key=pool.__getitem__) if kind == R_COLLECTION else 0
    state.ret_k = k
    if state.logging:
        used = ", ".join(_count(pool[t], t) for t in RUBBISH if pool[t])
        state.say(f"{_p(q)} completes a {RETURN_REASONS[kind]} ({used}) and returns "
                  f"{k} tile{'s' if k != 1 else ''} to the piles", kind="reward_start",
                  data={"player": q, "reward": RETURN_REASONS[kind], "to_return": k,
                        "tiles": {NAMES[t]: pool[t] for t in RUBBISH if pool[t]}})
    state.push(REWARDS_STEP, Step(RETURNING, AUTO, (PendingReturn(q, kind, pool, k, tile),)))


def return_tile(state: TideState, q: int, t: int, pile: int) -> None:
    state.held[q][t] -= 1
    state.ret_k -= 1
    state.piles[pile].append(t)
    if state.logging:
        state.say(f"{_p(q)} returns a {NAMES[t]} to pile {COL_NAMES[pile]}", kind="return",
                  data={"player": q, "tile": NAMES[t], "pile": COL_NAMES[pile]})


def run_return(state: TideState, r: PendingReturn) -> None:
    """Return tiles while there is no choice (R6.11); ask when there is one; when
    nothing more can go back (R6.10), finish the reward."""
    q = r.player
    while r.left > 0:
        rooms = piles_with_room(state)
        types = [t for t in TILE_TYPES if r.pool[t]]
        if not rooms or not types:
            break
        if len(rooms) == 1 and len(types) == 1:
            return_tile(state, q, types[0], rooms[0])
            r = r.returned(types[0])
            continue
        state.push(Step(RETURN, (q,), (r,)))
        return
    end_return(state, r)


def end_return(state: TideState, r: PendingReturn) -> None:
    """The tiles that did not go back leave the game; then the reward scores."""
    q, pool = r.player, r.pool
    gone = []
    gone_data: dict[str, int] = {}
    for t in TILE_TYPES:
        if pool[t]:
            state.held[q][t] -= pool[t]
            state.removed[t] += pool[t]
            gone.append(_count(pool[t], t))
            gone_data[NAMES[t]] = pool[t]
    if state.logging and gone:
        state.say(f"{_p(q)} removes {', '.join(gone)} from the game", kind="removed",
                  data={"player": q, "tiles": gone_data})
    if r.reason == R_DOUBLE:
        if state.onboard[q] + state.waiting[q] < MAX_FRIENDS:
            state.push(Step(REWARD, (q,)))
        else:
            double_reward(state, q, False)
    elif r.reason == R_RECYCLE:
        award(state, q, S_RECYCLE, DATA.recycling_points, "recycling")
    else:
        collection_award(state, q, r.tile)


def collection_award(state: TideState, q: int, t: int) -> None:
    award(state, q, t, DATA.collection_points, f"a specific collection of {PLURALS[t]}")
    if state.end_reason:
        return
    for o in order(state):
        if o != q and state.held[o][t]:
            state.held[o][t] -= 1
            state.removed[t] += 1
            if state.logging:
                state.say(f"{_p(o)} takes part and removes a {NAMES[t]} from the game",
                          kind="takes_part", data={"player": o, "tile": NAMES[t]})


def double_reward(state: TideState, q: int, friend: bool) -> None:
    if friend:
        state.waiting[q] += 1
        award(state, q, S_DOUBLE, DATA.double_friend_points, "double recycling, plus a new "
              "friend from the next turn")
    else:
        award(state, q, S_DOUBLE, DATA.double_points, "double recycling")


def award(state: TideState, q: int, kind: int, pts: int, why: str) -> None:
    """``q`` scores ``pts`` for the reward ``kind`` (an index of ``SCORED``)."""
    state.points[q] += pts
    scored = list(state.scored)  # a tuple that clones share: replaced, never changed
    scored[q * KINDS + kind] += pts
    state.scored = tuple(scored)
    if state.logging:
        state.say(f"{_p(q)} scores {pts} for {why} (total {state.points[q]})",
                  kind="score", data={"player": q, "points": pts, "total": state.points[q],
                                      "for": why})
    if state.points[q] >= DATA.win_points:
        finish(state, f"{_p(q)} reaches {DATA.win_points} points")


# -- the end of a turn and of the game (R7) --------------------------------------------------------
def end_turn(state: TideState) -> None:
    """The turn is over: the game ends (R7.2, R7.4, R7.5) or the next turn begins."""
    if state.col_end:
        finish(state, "a column and its pile are empty")
        return
    state.turns += 1
    # R7.4: a collection resets the count; so does, by default, a turn that could
    # have collected (only turns with nothing to collect count)
    state.idle = 0 if state.collected or state.could else state.idle + 1
    rules = state.rules
    if state.idle >= rules.stall_rounds * state.n:
        finish(state, f"no tile was collected in {state.idle} turns (stall guard)")
    elif state.turns >= rules.turn_limit:
        finish(state, f"the turn limit of {rules.turn_limit} is reached")
    else:
        begin_turn(state, (state.cur + 1) % state.n)


def finish(state: TideState, reason: str) -> None:
    state.end_reason = reason
    state.clear_steps()  # nothing pending is decided any more
    if state.logging:
        state.say(f"game over: {reason}; "
                  + ", ".join(f"{_p(p)} {state.points[p]}" for p in range(state.n)),
                  kind="game_over", data={"reason": reason, "points": list(state.points)})
