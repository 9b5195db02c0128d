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

What a step carries is its kind's own record, read by name: ``Placing`` (the owners of the
friends still to place), ``ShellDue`` (who owes a shirking shell) and ``PendingReturn`` (a
reward's tiles on their way back).

What the steps do are functions of the state (``TideState`` in state.py holds the fields),
below the rules: friends entering play, the action, the tide, the check and the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from cove.core import AUTO, Action, Step, StepRule, pickle_records
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
from cove.games.the_tide.beach import (
    COLS,
    COLUMN_NAMES,
    COLUMN_SQUARES,
    ROWS,
    SQUARE_NAMES,
    SQUARES,
)
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

NAMES: Final = DATA.names
PLURALS: Final = DATA.plurals
HEIGHT: Final = DATA.pile_height
MAX_FRIENDS: Final = DATA.max_on_beach
THRESHOLDS: Final = DATA.thresholds
COLLECTION_ORDER: Final = DATA.collection_order

# decision kinds (step kinds on the stack that a player decides), in observation order
PLACE, ACT, SHIRK, RETURN, REWARD = "place", "act", "shirk", "return", "reward"
OVER: Final = "over"
PHASES: Final = (PLACE, ACT, SHIRK, RETURN, REWARD)
PHASE_INDEX: Final = {k: i for i, k in enumerate(PHASES)}
# automatic steps
PAY_SHELL, REWARDS_DUE, RETURNING = "pay_shell", "rewards", "returning"
# what a pending return is for (NO_RETURN: no return pending)
NO_RETURN, FOR_RECYCLING, FOR_DOUBLE_RECYCLING, FOR_COLLECTION = range(4)
RETURN_REASONS: Final = ("", "recycling", "double recycling", "specific collection")
# the rewards that score (R6.4, R6.5, R6.7), in the order ``TideState.points_by_reward``
# keeps each seat's points by reward: recycling, double recycling, then a specific
# collection of each rubbish type at its tile code (bottles at BOTTLE = 2 ... melons at
# MELON = 5)
BY_RECYCLING, BY_DOUBLE_RECYCLING = 0, 1
SCORING_REWARDS: Final = ("recycling", "double recycling",
                   *(f"{NAMES[tile]} collections" for tile in RUBBISH))
SCORING_REWARD_COUNT: Final = len(SCORING_REWARDS)


def player_name(seat: int) -> str:
    """A seat as the log and the prompts name it: seat 0 is P1."""
    return f"P{seat + 1}"


def tiles_text(count: int, tile: int) -> str:
    """``count`` tiles of a type in words: "1 bottle", "3 bottles"."""
    return f"{count} {NAMES[tile] if count == 1 else PLURALS[tile]}"


def seat_points_by_reward(points_by_reward: tuple[int, ...], player: int) -> tuple[int, ...]:
    """``player``'s points by reward, in ``SCORING_REWARDS`` order."""
    start = player * SCORING_REWARD_COUNT
    return points_by_reward[start:start + SCORING_REWARD_COUNT]


# -- what the steps carry --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Placing:
    """The ``place`` step's record (R2.3, R6.12): the owners of the friends still to place,
    the one placed now first."""

    owners: tuple[int, ...]

    @property
    def owner(self) -> int:
        """The owner of the friend placed now."""
        return self.owners[0]


@dataclass(frozen=True, slots=True)
class ShellDue:
    """The ``pay_shell`` step's record (R5.2): the owner of a shirking friend, who owes a
    shell."""

    player: int


@dataclass(frozen=True, slots=True)
class PendingReturn:
    """The ``returning`` and ``return`` steps' record: a reward's tiles on their way back to
    the piles (R6.4, R6.5, R6.7)."""

    player: int
    reason: int  # FOR_RECYCLING, FOR_DOUBLE_RECYCLING or FOR_COLLECTION
    pool: tuple[int, ...]  # by tile code: how many of each type may still go back
    left: int  # tiles still to return
    tile: int  # the collected type of a specific collection, else 0

    def returned(self, tile: int) -> PendingReturn:
        """The same return once a ``tile`` went back."""
        pool = list(self.pool)
        pool[tile] -= 1
        return replace(self, pool=tuple(pool), left=self.left - 1)


def place_step(players: int, owners: tuple[int, ...]) -> Step:
    """Place the friends of ``owners`` in order, each by its owner's left neighbour."""
    return Step(PLACE, ((owners[0] + 1) % players,), Placing(owners))


REWARDS_STEP: Final = Step(REWARDS_DUE)
ACT_STEPS: Final = tuple(Step(ACT, (seat,)) for seat in range(6))
"""Each seat's act step, made once: steps are frozen values, so turns share them."""


# -- the decisions: one rule per kind of step on the stack -----------------------------------------
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
    """R2.3, R6.12: a friend enters play. ``data``: :class:`Placing`, the owners of the
    friends still to place; the owner's left neighbour decides."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return [PLACES[square] for square in place_squares(state)]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Place)
        placing: Placing = step.data
        place_friend(state, player, placing.owner, action.sq)
        if len(placing.owners) > 1:
            state.push(place_step(state.n, placing.owners[1:]))

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        placing: Placing = step.data
        return (f"Place a friend of {player_name(placing.owner)} on the beach: on a tile "
                "without a friend, or on any free square when no such tile is left")

    def describe(self, state: TideState, step: Step, player: int) -> dict[str, Any]:
        placing: Placing = step.data
        return {"owner": placing.owner, "count": len(placing.owners)}


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
    the pile only when more than one has room. ``data``: :class:`ShellDue`."""

    def run(self, state: TideState, step: Step) -> None:
        due: ShellDue = step.data
        pay_shell(state, due.player)


class ShirkRule(TideRule):
    """R5.3: the owner of a shirking friend chooses the pile for the shell."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return [RETURNS[SHELL][column] for column in piles_with_room(state)]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Return)
        shirk_pay(state, player, action.pile)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        who = "you" if player is not None else player_name(step.player)
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
        pending: PendingReturn = step.data
        pool = pending.pool
        rooms = piles_with_room(state)
        return [RETURNS[tile][column] for tile in TILE_TYPES if pool[tile] for column in rooms]

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Return)
        pending: PendingReturn = step.data
        return_tile(state, player, action.tile, action.pile)
        state.push(Step(RETURNING, AUTO, pending.returned(action.tile)))

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        pending: PendingReturn = step.data
        your = "your" if player is not None else f"{player_name(step.player)}'s"
        return (f"Return {pending.left} more tile{'s' if pending.left != 1 else ''} of {your} "
                f"{RETURN_REASONS[pending.reason]} to piles: choose a tile and a pile with room")

    def describe(self, state: TideState, step: Step, player: int) -> dict[str, Any]:
        pending: PendingReturn = step.data
        return {"reason": RETURN_REASONS[pending.reason],
                "pool": {NAMES[tile]: pending.pool[tile] for tile in TILE_TYPES
                         if pending.pool[tile]},
                "to_return": pending.left}


class RewardRule(TideRule):
    """R6.5: after a double recycling, 3 points or 1 point and a new friend."""

    def legal(self, state: TideState, step: Step, player: int) -> Sequence[Action]:
        return REWARDS

    def apply(self, state: TideState, step: Step, player: int, action: Any) -> None:
        assert isinstance(action, Reward)
        double_reward(state, player, action.friend)

    def prompt(self, state: TideState, step: Step, player: int | None) -> str:
        who = "you" if player is not None else player_name(step.player)
        return (f"Double recycling: {who} choose{'' if player is not None else 's'} "
                f"{DATA.double_points} points, or {DATA.double_friend_points} point "
                "and a new friend")


class ReturningRule(TideRule):
    """Automatic, R6.10, R6.11: put a reward's tiles back while there is no choice, ask
    when there is one, then remove the rest and score. ``data``: the
    :class:`PendingReturn`."""

    def run(self, state: TideState, step: Step) -> None:
        run_return(state, step.data)


STEPS: dict[str, TideRule] = {
    PLACE: PlaceRule(), ACT: ActRule(), PAY_SHELL: PayShellRule(), SHIRK: ShirkRule(),
    REWARDS_DUE: RewardsRule(), RETURN: ReturnRule(), REWARD: RewardRule(),
    RETURNING: ReturningRule()}
"""Each kind of step's rule, in RULES.md order (``TideState.STEPS``)."""


# -- friends entering play (R2.3, R6.3, R6.12) -----------------------------------------------------
def place_squares(state: TideState) -> list[int]:
    """Where a friend may enter: a tile without a friend, else any square without one."""
    grid, friends = state.grid, state.friends
    out = [square for square in range(SQUARES) if friends[square] < 0 and grid[square]]
    return out or [square for square in range(SQUARES) if friends[square] < 0]


def place_friend(state: TideState, placer: int, owner: int, square: int) -> None:
    state.friends[square] = owner
    state.friends_on_beach[owner] += 1
    state.friends_waiting[owner] -= 1
    if state.logging:
        state.say(f"{player_name(placer)} places a friend of {player_name(owner)} at "
                  f"{SQUARE_NAMES[square]}",
                  kind="place", data={"player": placer, "owner": owner,
                                      "square": SQUARE_NAMES[square]})


def begin_turn(state: TideState, player: int) -> None:
    state.active = player
    state.collector_square = -1
    state.collected = False
    state.could_collect = False
    state.column_end = False
    waiting = state.friends_waiting[player]
    if waiting:  # R6.12: they enter before the owner acts
        state.push(ACT_STEPS[player], place_step(state.n, (player,) * waiting))
    else:
        state.push(ACT_STEPS[player])


# -- the action (R3) -------------------------------------------------------------------------------
def shell_blocked(state: TideState, square: int, player: int) -> bool:
    """R3.5: another player's friend next to a shell keeps ``player`` from collecting it."""
    friends = state.friends
    return not all(friends[next_to] < 0 or friends[next_to] == player
                   for next_to in state.rules.shell_neighbours[square])


def act_actions(state: TideState, player: int) -> list[Action]:
    """The active player's legal actions: collections, then moves, then pass (R3)."""
    grid, friends = state.grid, state.friends
    move_rays = state.rules.move_rays
    collects: list[Action] = []
    moves: list[Action] = []
    for square in range(SQUARES):
        if friends[square] != player:
            continue
        tile = grid[square]
        if tile == SHELL:
            if not shell_blocked(state, square, player):
                collects.append(Collect(square, SHELL, 1))
        elif tile:
            collects.append(Collect(square, tile, len(group(state, square, player))))
        moves_from_here = MOVES[square]
        for ray in move_rays[square]:
            for destination in ray:
                owner = friends[destination]
                if owner < 0:
                    moves.append(moves_from_here[destination])
                elif owner != player:
                    break  # another player's friend: cannot pass or stop
    collects += moves
    collects.append(PASS)
    return collects


def group(state: TideState, start: int, player: int) -> list[int]:
    """The rubbish tile at ``start`` and every connected tile of the same type (R3.7)."""
    grid, friends, neighbours = state.grid, state.friends, state.rules.group_neighbours
    tile = grid[start]
    under_others = state.rules.collect_under_others
    seen = {start}
    stack = [start]
    while stack:
        square = stack.pop()
        for next_to in neighbours[square]:
            if next_to not in seen and grid[next_to] == tile and (
                    under_others or friends[next_to] < 0 or friends[next_to] == player):
                seen.add(next_to)
                stack.append(next_to)
    return sorted(seen)


def can_collect(state: TideState, player: int) -> bool:
    """Whether ``player`` has a legal collection now (R7.4: only turns without one
    count)."""
    grid, friends = state.grid, state.friends
    for square in range(SQUARES):
        if friends[square] != player:
            continue
        tile = grid[square]
        if tile == SHELL:
            if not shell_blocked(state, square, player):
                return True
        elif tile:
            return True
    return False


def act(state: TideState, player: int, action: Action) -> None:
    state.could_collect = state.rules.stuck_turns_only and can_collect(state, player)
    if isinstance(action, Move):
        state.friends[action.dst] = player
        state.friends[action.src] = -1
        if state.logging:
            state.say(f"{player_name(player)} moves a friend from {SQUARE_NAMES[action.src]} "
                      f"to {SQUARE_NAMES[action.dst]}", kind="move",
                      data={"player": player, "from": SQUARE_NAMES[action.src],
                            "to": SQUARE_NAMES[action.dst]})
        after_action(state, False)
    elif isinstance(action, Collect):
        tile = action.tile
        squares = [action.sq] if tile == SHELL else group(state, action.sq, player)
        for square in squares:
            state.grid[square] = EMPTY
        state.held[player][tile] += len(squares)
        state.collector_square = action.sq
        if state.logging:
            where = ", ".join(SQUARE_NAMES[square] for square in squares)
            state.say(f"{player_name(player)} collects {tiles_text(len(squares), tile)} "
                      f"({where})", kind="collect",
                      data={"player": player, "tile": NAMES[tile],
                            "squares": [SQUARE_NAMES[square] for square in squares]})
        after_action(state, True)
    else:
        if state.logging:
            state.say(f"{player_name(player)} passes", kind="pass", data={"player": player})
        after_action(state, False)


def after_action(state: TideState, collected: bool) -> None:
    state.collected = collected
    if collected:
        # R7.2: the column end is judged on the beach right after the tide
        state.column_end = tide(state)
        if state.column_end:
            at_once = state.rules.column_end_at_once
            if state.logging:
                columns = [COLUMN_NAMES[column] for column, squares in enumerate(COLUMN_SQUARES)
                           if not state.piles[column]
                           and not any(state.grid[square] for square in squares)]
                state.say(f"column {', '.join(columns)} and its pile are empty: the game ends "
                          + ("at once" if at_once else "after this check"),
                          kind="column_end", data={"columns": columns, "at_once": at_once})
            if at_once:  # R7.2: "as soon as", before the check
                finish(state, "a column and its pile are empty")
                return
        start_check(state)
    elif state.rules.check_every_turn:
        start_check(state)
    else:
        end_turn(state)


# -- the tide (R4) ---------------------------------------------------------------------------------
def tide(state: TideState) -> bool:
    """Gravity, then one pile tile per column with an empty sea-side square (R4).
    Returns whether some column and its pile are now both empty (R7.2)."""
    grid = state.grid
    logging = state.logging
    one_step = state.rules.one_step_gravity
    notes: list[str] = []
    drops: list[dict[str, str]] = []
    exhausted = False
    for column in range(COLS):
        squares = COLUMN_SQUARES[column]
        tiles = [grid[square] for square in squares]  # row 1 (the sea side) first
        if EMPTY not in tiles:
            continue  # a full column neither slides nor takes a pile tile
        if one_step:
            for row in range(ROWS - 2, -1, -1):
                if tiles[row] and not tiles[row + 1]:
                    tiles[row + 1] = tiles[row]
                    tiles[row] = EMPTY
        else:
            standing = [tile for tile in tiles if tile]
            tiles = [EMPTY] * (ROWS - len(standing)) + standing
        drop_row = -1
        pile = state.piles[column]
        if not tiles[0] and pile:
            row = 0
            while row + 1 < ROWS and not tiles[row + 1]:
                row += 1
            tiles[row] = pile.pop()
            drop_row = row
            if state.hidden[column] >= len(pile):
                state.hidden[column] = max(len(pile) - 1, 0)
        if logging:
            slid = any(tiles[row] != grid[squares[row]] for row in range(ROWS)
                       if row != drop_row)
            bits = ["tiles slide down"] if slid else []
            if drop_row >= 0:
                drops.append({"pile": COLUMN_NAMES[column], "tile": NAMES[tiles[drop_row]],
                              "square": SQUARE_NAMES[squares[drop_row]]})
                bits.append(f"pile {COLUMN_NAMES[column]} drops a {NAMES[tiles[drop_row]]} "
                            f"to {SQUARE_NAMES[squares[drop_row]]}")
            if bits:
                notes.append(f"{COLUMN_NAMES[column]}: {' and '.join(bits)}")
        for row in range(ROWS):
            grid[squares[row]] = tiles[row]
        if not pile and not any(tiles):
            exhausted = True
    if logging:
        state.say("the tide: " + ("; ".join(notes) if notes else "nothing moves"),
                  kind="tide", data={"drops": drops})
    return exhausted


# -- the check (R5, R6) ----------------------------------------------------------------------------
def clockwise(state: TideState) -> list[int]:
    """Every seat, clockwise from the active player (R5.2, R6.1)."""
    return [(state.active + i) % state.n for i in range(state.n)]


def piles_with_room(state: TideState) -> list[int]:
    return [column for column in range(COLS) if len(state.piles[column]) < HEIGHT]


def start_check(state: TideState) -> None:
    """R5.2: every friend on an empty square shirks; its owner owes a shell for it (one
    in all with ``shirk_penalty=per_player``); then the rewards (R6)."""
    grid, friends = state.grid, state.friends
    shirking = [0] * state.n
    for square in range(SQUARES):
        owner = friends[square]
        if owner >= 0 and not grid[square]:
            shirking[owner] += 1
            if state.logging:
                state.say(f"{player_name(owner)}'s friend at {SQUARE_NAMES[square]} is "
                          "shirking on an empty square", kind="shirking",
                          data={"player": owner, "square": SQUARE_NAMES[square]})
    if state.rules.shirk_per_player:  # R5.2 option: one shell however many friends shirk
        shirking = [min(count, 1) for count in shirking]
    due = [Step(PAY_SHELL, AUTO, ShellDue(owner))
           for owner in clockwise(state) for _ in range(shirking[owner])]
    state.then(*due, REWARDS_STEP)


def pay_shell(state: TideState, player: int) -> None:
    if not state.held[player][SHELL]:
        if state.logging:
            state.say(f"{player_name(player)} has no shell to give up", kind="no_shell",
                      data={"player": player})
        return
    rooms = piles_with_room(state)
    if not rooms:
        state.held[player][SHELL] -= 1
        state.removed[SHELL] += 1
        if state.logging:
            state.say(f"{player_name(player)} gives up a shell; every pile is full, so it "
                      "leaves the game", kind="shell_removed", data={"player": player})
    elif len(rooms) == 1:
        shirk_pay(state, player, rooms[0])
    else:
        state.push(Step(SHIRK, (player,)))


def shirk_pay(state: TideState, player: int, pile: int) -> None:
    state.held[player][SHELL] -= 1
    state.piles[pile].append(SHELL)
    if state.logging:
        state.say(f"{player_name(player)} puts a shell back on pile {COLUMN_NAMES[pile]}",
                  kind="shell_returned",
                  data={"player": player, "pile": COLUMN_NAMES[pile]})


def next_reward(state: TideState) -> None:
    """Start the first reward that applies (R6 order), and look again after it; when
    none applies the check, and the turn, are over."""
    for player in clockwise(state):
        held = state.held[player]
        if held[SHELL] >= DATA.necklace_shells:
            necklace(state, player)
            state.push(REWARDS_STEP)
            return
        fewest = min(held[BOTTLE], held[BAG], held[CIGARETTE], held[MELON])
        if fewest >= 2:
            start_return(state, player, FOR_DOUBLE_RECYCLING, (0, 0, 2, 2, 2, 2),
                         DATA.double_returned)
            return
        if fewest >= 1:
            start_return(state, player, FOR_RECYCLING, (0, 0, 1, 1, 1, 1),
                         DATA.recycling_returned)
            return
        for tile in COLLECTION_ORDER:
            if held[tile] >= THRESHOLDS[tile]:
                pool = [0] * 6
                pool[tile] = THRESHOLDS[tile]
                start_return(state, player, FOR_COLLECTION, tuple(pool),
                             DATA.collection_returned)
                return
    end_turn(state)


def necklace(state: TideState, player: int) -> None:
    """R6.2, R6.3: the shells leave the game, the friend that collected the third one
    leaves the beach, and comes back next turn with a partner if a token is free."""
    shells = DATA.necklace_shells
    state.held[player][SHELL] -= shells
    state.removed[SHELL] += shells
    collector = state.collector_square
    if player == state.active and collector >= 0 and state.friends[collector] == player:
        leaver = collector
    else:  # only reachable in hand-built positions: any friend of the player leaves
        leaver = next((square for square in range(SQUARES)
                       if state.friends[square] == player), -1)
    if leaver >= 0:
        state.friends[leaver] = -1
        state.friends_on_beach[player] -= 1
        state.friends_waiting[player] += 1
    partner = state.friends_on_beach[player] + state.friends_waiting[player] < MAX_FRIENDS
    if partner:
        state.friends_waiting[player] += 1
    if state.logging:
        text = f"{player_name(player)} makes a necklace of {shells} shells (they leave the game)"
        if leaver >= 0:
            text += f"; the friend at {SQUARE_NAMES[leaver]} leaves to deliver it"
        text += (", and comes back with a partner next turn" if partner
                 else "; no free token for a partner")
        state.say(text, kind="necklace", data={
            "player": player,
            "friend_leaves": SQUARE_NAMES[leaver] if leaver >= 0 else None,
            "partner": partner})


def start_return(state: TideState, player: int, reason: int, pool: tuple[int, ...],
                 to_return: int) -> None:
    """A reward begins: of the tiles in ``pool``, ``to_return`` go back to the piles."""
    collected_tile = max(TILE_TYPES, key=pool.__getitem__) if reason == FOR_COLLECTION else 0
    state.tiles_to_return = to_return
    if state.logging:
        used = ", ".join(tiles_text(pool[rubbish], rubbish) for rubbish in RUBBISH
                         if pool[rubbish])
        state.say(f"{player_name(player)} completes a {RETURN_REASONS[reason]} ({used}) and "
                  f"returns {to_return} tile{'s' if to_return != 1 else ''} to the piles",
                  kind="reward_start",
                  data={"player": player, "reward": RETURN_REASONS[reason],
                        "to_return": to_return,
                        "tiles": {NAMES[rubbish]: pool[rubbish] for rubbish in RUBBISH
                                  if pool[rubbish]}})
    pending = PendingReturn(player, reason, pool, to_return, collected_tile)
    state.push(REWARDS_STEP, Step(RETURNING, AUTO, pending))


def return_tile(state: TideState, player: int, tile: int, pile: int) -> None:
    state.held[player][tile] -= 1
    state.tiles_to_return -= 1
    state.piles[pile].append(tile)
    if state.logging:
        state.say(f"{player_name(player)} returns a {NAMES[tile]} to pile "
                  f"{COLUMN_NAMES[pile]}", kind="return",
                  data={"player": player, "tile": NAMES[tile], "pile": COLUMN_NAMES[pile]})


def run_return(state: TideState, pending: PendingReturn) -> None:
    """Return tiles while there is no choice (R6.11); ask when there is one; when
    nothing more can go back (R6.10), finish the reward."""
    player = pending.player
    while pending.left > 0:
        rooms = piles_with_room(state)
        types = [tile for tile in TILE_TYPES if pending.pool[tile]]
        if not rooms or not types:
            break
        if len(rooms) == 1 and len(types) == 1:
            return_tile(state, player, types[0], rooms[0])
            pending = pending.returned(types[0])
            continue
        state.push(Step(RETURN, (player,), pending))
        return
    end_return(state, pending)


def end_return(state: TideState, pending: PendingReturn) -> None:
    """The tiles that did not go back leave the game; then the reward scores."""
    player, pool = pending.player, pending.pool
    gone = []
    gone_data: dict[str, int] = {}
    for tile in TILE_TYPES:
        if pool[tile]:
            state.held[player][tile] -= pool[tile]
            state.removed[tile] += pool[tile]
            gone.append(tiles_text(pool[tile], tile))
            gone_data[NAMES[tile]] = pool[tile]
    if state.logging and gone:
        state.say(f"{player_name(player)} removes {', '.join(gone)} from the game",
                  kind="removed", data={"player": player, "tiles": gone_data})
    if pending.reason == FOR_DOUBLE_RECYCLING:
        if state.friends_on_beach[player] + state.friends_waiting[player] < MAX_FRIENDS:
            state.push(Step(REWARD, (player,)))
        else:
            double_reward(state, player, False)
    elif pending.reason == FOR_RECYCLING:
        award(state, player, BY_RECYCLING, DATA.recycling_points, "recycling")
    else:
        collection_award(state, player, pending.tile)


def collection_award(state: TideState, player: int, tile: int) -> None:
    """R6.7, R6.8: a specific collection scores; every other player holding a tile of
    its type gives one up."""
    award(state, player, tile, DATA.collection_points,
          f"a specific collection of {PLURALS[tile]}")
    if state.end_reason:
        return
    for other in clockwise(state):
        if other != player and state.held[other][tile]:
            state.held[other][tile] -= 1
            state.removed[tile] += 1
            if state.logging:
                state.say(f"{player_name(other)} takes part and removes a {NAMES[tile]} from "
                          "the game", kind="takes_part",
                          data={"player": other, "tile": NAMES[tile]})


def double_reward(state: TideState, player: int, friend: bool) -> None:
    if friend:
        state.friends_waiting[player] += 1
        award(state, player, BY_DOUBLE_RECYCLING, DATA.double_friend_points,
              "double recycling, plus a new friend from the next turn")
    else:
        award(state, player, BY_DOUBLE_RECYCLING, DATA.double_points, "double recycling")


def award(state: TideState, player: int, reward: int, points: int, why: str) -> None:
    """``player`` scores ``points`` for ``reward`` (an index of ``SCORING_REWARDS``)."""
    state.points[player] += points
    # a tuple that clones share: replaced, never changed
    by_reward = list(state.points_by_reward)
    by_reward[player * SCORING_REWARD_COUNT + reward] += points
    state.points_by_reward = tuple(by_reward)
    if state.logging:
        state.say(f"{player_name(player)} scores {points} for {why} "
                  f"(total {state.points[player]})", kind="score",
                  data={"player": player, "points": points, "total": state.points[player],
                        "for": why})
    if state.points[player] >= DATA.win_points:
        finish(state, f"{player_name(player)} reaches {DATA.win_points} points")


# -- the end of a turn and of the game (R7) --------------------------------------------------------
def end_turn(state: TideState) -> None:
    """The turn is over: the game ends (R7.2, R7.4, R7.5) or the next turn begins."""
    if state.column_end:
        finish(state, "a column and its pile are empty")
        return
    state.turns += 1
    # R7.4: a collection resets the count; so does, by default, a turn that could
    # have collected (only turns with nothing to collect count)
    counts = not (state.collected or state.could_collect)
    state.idle_turns = state.idle_turns + 1 if counts else 0
    rules = state.rules
    if state.idle_turns >= rules.stall_rounds * state.n:
        finish(state, f"no tile was collected in {state.idle_turns} turns (stall guard)")
    elif state.turns >= rules.turn_limit:
        finish(state, f"the turn limit of {rules.turn_limit} is reached")
    else:
        begin_turn(state, (state.active + 1) % state.n)


def finish(state: TideState, reason: str) -> None:
    state.end_reason = reason
    state.clear_steps()  # nothing pending is decided any more
    if state.logging:
        state.say(f"game over: {reason}; "
                  + ", ".join(f"{player_name(p)} {state.points[p]}" for p in range(state.n)),
                  kind="game_over", data={"reason": reason, "points": list(state.points)})


pickle_records(globals())  # records pickle as calls with their fields (docs/BUILD.md)
