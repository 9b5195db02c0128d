"""The Tide's state: its fields, setup, scores, tie-break, clone, resampling and
invariants. Rule numbers (R..) refer to RULES.md in this folder; the decisions and what they
do are in rules.py, the view in view.py, the observation in observation.py.

Tiles are ints (0 empty, 1 shell, 2 bottle, 3 bag, 4 cigarette, 5 melon; data.py). The beach
is a flat list of 36 squares (see beach.py); ``friends`` holds the owner seat of the friend on
each square or -1. Piles are lists, bottom first, so ``pile[-1]`` is the top.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from cove.core import Action, State
from cove.games.the_tide.actions import MaskIndex
from cove.games.the_tide.beach import COLS, COLUMN_NAMES, NEIGHBOURS, RAYS, SQUARES
from cove.games.the_tide.data import DATA, EMPTY, RUBBISH, SHELL, TILE_TYPES
from cove.games.the_tide.options import TideOptions
from cove.games.the_tide.rules import (
    ACT,
    ACT_STEPS,
    NO_RETURN,
    OVER,
    PHASE_INDEX,
    PLACE,
    RETURN,
    REWARD,
    REWARDS_STEP,
    SCORING_REWARD_COUNT,
    SCORING_REWARDS,
    SHIRK,
    STEPS,
    PendingReturn,
    Placing,
    TideRule,
    place_step,
    player_name,
    seat_points_by_reward,
)
from cove.games.the_tide.view import build_view

PLURALS: Final = DATA.plurals
HEIGHT: Final = DATA.pile_height
MAX_FRIENDS: Final = DATA.max_on_beach
THRESHOLDS: Final = DATA.thresholds

TIEBREAK: Final = ("most tiles held (rubbish and shells)",)
"""What ``TideState.tiebreak`` compares, in its order (R7.3)."""


class Rules:
    """What the options decide, resolved once per game and shared by every clone."""

    __slots__ = ("check_every_turn", "collect_under_others", "column_end_at_once",
                 "group_neighbours", "mask_index", "move_rays", "one_step_gravity",
                 "options", "shell_neighbours", "shirk_per_player", "show_whole_piles",
                 "stall_rounds", "stuck_turns_only", "turn_limit")

    def __init__(self, options: TideOptions) -> None:
        self.options = options
        self.move_rays = RAYS[options.move_dirs]  # R3.2
        self.shell_neighbours = NEIGHBOURS[options.shell_adjacency]  # R3.5
        self.group_neighbours = NEIGHBOURS[options.connectivity]  # R3.7
        self.collect_under_others = options.collect_under_others  # R3.8
        self.one_step_gravity = options.gravity == "one_step"  # R4.2
        self.show_whole_piles = options.pile_visibility == "all"  # R1.5
        self.check_every_turn = options.check_timing == "every_turn"  # R5.1
        self.shirk_per_player = options.shirk_penalty == "per_player"  # R5.2
        self.stall_rounds = options.stall_rounds  # R7.4
        self.stuck_turns_only = options.stall_counts == "stuck"  # R7.4
        self.column_end_at_once = options.column_end == "at_once"  # R7.2
        self.turn_limit = options.turn_limit  # R7.5
        self.mask_index: MaskIndex | None = None  # made when first asked

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rules, (self.options,))  # resolved again (a compiled class needs its args)


class TideState(State[TideOptions]):
    """A game of The Tide. The table: ``grid`` (tile per square), ``friends`` (the owner of
    the friend on each square, -1 none), ``piles`` (bottom first) and ``hidden`` (never-seen
    tiles at the bottom of each pile); per seat ``held`` (tiles by code), ``points``,
    ``friends_on_beach`` and ``friends_waiting``; ``points_by_reward``, the points each seat
    won by each reward (seat ``p``'s points for ``SCORING_REWARDS[k]`` at
    ``p * SCORING_REWARD_COUNT + k``, adding up to ``points[p]``; one tuple, which clones
    share and a reward replaces, so a clone copies nothing for it); ``removed`` tiles by
    code. The turn: ``active`` (the active seat), ``first_player``, ``collector_square``
    (the square of the friend that collected this turn, -1 none), ``collected``,
    ``could_collect`` (the active player could collect when the turn began), ``column_end``
    (a column and its pile ran out), ``tiles_to_return`` (tiles the latest return still
    owes), ``idle_turns`` and ``turns`` (the stall guard's and the turn limit's counts),
    ``end_reason``."""

    __slots__ = (
        "active",
        "collected",
        "collector_square",
        "column_end",
        "could_collect",
        "end_reason",
        "first_player",
        "friends",
        "friends_on_beach",
        "friends_waiting",
        "grid",
        "held",
        "hidden",
        "idle_turns",
        "piles",
        "points",
        "points_by_reward",
        "removed",
        "rules",
        "tiles_to_return",
        "turns",
    )

    DERIVED = ("rules",)  # the rules, resolved from the options

    STEPS: ClassVar[Mapping[str, TideRule]] = STEPS  # the decisions (rules.py)

    grid: list[int]
    friends: list[int]
    piles: list[list[int]]
    hidden: list[int]
    held: list[list[int]]
    points: list[int]
    points_by_reward: tuple[int, ...]
    removed: list[int]
    friends_on_beach: list[int]
    friends_waiting: list[int]

    # -- setup (R2) ----------------------------------------------------------------------
    def setup(self) -> None:
        self.rules = rules = Rules(self.options)

        tiles: list[int] = []
        for tile in TILE_TYPES:
            tiles += [tile] * DATA.counts[tile]
        self.rng.shuffle(tiles)
        self.grid = tiles[:SQUARES]
        self.piles = [tiles[SQUARES + HEIGHT * column: SQUARES + HEIGHT * (column + 1)]
                      for column in range(COLS)]
        # never-seen tiles at the bottom of each pile (only the top is face up)
        self.hidden = [0 if rules.show_whole_piles else HEIGHT - 1] * COLS
        self.friends = [-1] * SQUARES
        n = self.n
        self.held = [[0] * 6 for _ in range(n)]
        self.points = [0] * n
        self.points_by_reward = (0,) * (n * SCORING_REWARD_COUNT)
        self.removed = [0] * 6
        self.friends_on_beach = [0] * n
        self.friends_waiting = [1] * n
        self.first_player = first = self.rng.below(n)
        self.active = first
        # tiles the latest return still owed; the observation shows it (see there)
        self.tiles_to_return = 0
        self.collector_square = -1
        self.collected = False
        self.could_collect = False
        self.column_end = False
        self.idle_turns = 0
        self.turns = 0
        self.end_reason = ""
        # each player, from the first, places one friend of the player to their right
        owners = tuple((first - 1 + i) % n for i in range(n))
        self.push(ACT_STEPS[first], place_step(n, owners))
        if self.logging:
            self.say(f"{player_name(first)} starts: each player places a friend of the "
                     "player to their right, then the cleaning begins", kind="start",
                     data={"first": first})

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
        end = (
            "10 points" if "points" in reason
            else "column empty" if "column" in reason
            else "stall guard" if "stall" in reason
            else "turn limit" if "turn limit" in reason
            else reason
        )
        return {"turns": float(self.turns), "end": end,
                "tiles_collected": float(sum(sum(held) for held in self.held))}

    def check_invariants(self) -> None:
        """Conservation and consistency (R1, R1.4, R4.6, the decision machine)."""
        n = self.n
        total = [0] * 6
        for tile in self.grid:
            assert 0 <= tile < 6, f"unknown tile code {tile} on the beach"
            total[tile] += 1
        for column, pile in enumerate(self.piles):
            name = COLUMN_NAMES[column]
            assert len(pile) <= HEIGHT, f"pile {name} holds {len(pile)} > {HEIGHT}"
            assert EMPTY not in pile, f"pile {name} holds an empty tile"
            assert 0 <= self.hidden[column] <= max(len(pile) - 1, 0), \
                f"pile {name}: {self.hidden[column]} unseen tiles of {len(pile)}"
            for tile in pile:
                total[tile] += 1
        for player in range(n):
            held = self.held[player]
            for tile in TILE_TYPES:
                assert held[tile] >= 0, \
                    f"{player_name(player)} holds {held[tile]} {PLURALS[tile]}"
                total[tile] += held[tile]
        for tile in TILE_TYPES:
            assert self.removed[tile] >= 0, f"{self.removed[tile]} {PLURALS[tile]} removed"
            total[tile] += self.removed[tile]
            assert total[tile] == DATA.counts[tile], \
                f"{total[tile]} {PLURALS[tile]} in play, the box has {DATA.counts[tile]}"
        on_beach = [0] * n
        for owner in self.friends:
            assert -1 <= owner < n, f"friend of unknown seat {owner}"
            if owner >= 0:
                on_beach[owner] += 1
        for player in range(n):
            name, waiting = player_name(player), self.friends_waiting[player]
            assert on_beach[player] == self.friends_on_beach[player], \
                (f"{name} has {on_beach[player]} friends on the beach, friends_on_beach "
                 f"says {self.friends_on_beach[player]}")
            assert waiting >= 0 and on_beach[player] + waiting <= MAX_FRIENDS, \
                f"{name}: {on_beach[player]} on the beach + {waiting} waiting > {MAX_FRIENDS}"
            assert self.points[player] >= 0, f"{name} has {self.points[player]} points"
            by_reward = seat_points_by_reward(self.points_by_reward, player)
            assert min(by_reward) >= 0 and sum(by_reward) == self.points[player], \
                f"{name}'s points by reward " + ", ".join(
                    f"{reward} {points}"
                    for reward, points in zip(SCORING_REWARDS, by_reward, strict=True)) \
                + f" do not add up to {self.points[player]} points"
        rules = self.rules
        assert 0 <= self.turns <= rules.turn_limit, f"turn {self.turns}"
        assert 0 <= self.idle_turns <= rules.stall_rounds * n, \
            f"{self.idle_turns} stalled turns"
        assert 0 <= self.active < n, f"active seat {self.active}"
        if not self.steps:
            assert self.end_reason, "the game is over without a reason"
            return
        assert not self.end_reason, f"game running with end reason {self.end_reason!r}"
        assert max(self.points) < DATA.win_points, "someone has 10 points, game not over"
        assert self.idle_turns < rules.stall_rounds * n, "stall limit reached, game not over"
        self._check_stack()

    def _check_stack(self) -> None:
        """The pending decisions: a player's decision on top; the turn's act, or the
        check's rewards once the act is done, at the bottom."""
        n, steps = self.n, self.steps
        top = steps[-1]
        assert top.kind in PHASE_INDEX, f"automatic step {top.kind!r} waits on top"
        assert len(top.players) == 1 and 0 <= top.player < n, f"deciding seats {top.players}"
        if top.kind == PLACE:
            placing = top.data
            assert isinstance(placing, Placing) and placing.owners \
                and top.player == (placing.owner + 1) % n, \
                "a placement is not made by the owner's left neighbour"
        elif top.kind == ACT:
            assert top.player == self.active, "the act is not the active player's"
            assert len(steps) == 1, "a check is left unfinished"
            for player in range(n):  # a finished check leaves no reward to claim (R6.1)
                name, held = player_name(player), self.held[player]
                assert held[SHELL] < DATA.necklace_shells, f"{name} keeps {held[SHELL]} shells"
                assert min(held[tile] for tile in RUBBISH) == 0, f"{name} keeps a recycling"
                for tile in RUBBISH:
                    assert held[tile] < THRESHOLDS[tile], \
                        f"{name} keeps a collection of {PLURALS[tile]}"
        elif top.kind == RETURN:
            pending = top.data
            assert isinstance(pending, PendingReturn), "a return decision without its tiles"
            owner = pending.player
            assert pending.reason != NO_RETURN and top.player == owner, \
                "a return without its owner"
            assert pending.left > 0 and pending.left == self.tiles_to_return, \
                "a return decision with nothing to return"
            for tile in TILE_TYPES:
                assert 0 <= pending.pool[tile] <= self.held[owner][tile], \
                    (f"return pool {pending.pool[tile]} {PLURALS[tile]} > held "
                     f"{self.held[owner][tile]}")
        elif top.kind == SHIRK:
            assert self.held[top.player][SHELL] > 0, "a shirking player with no shell to give"
        if top.kind in (SHIRK, RETURN, REWARD):
            assert REWARDS_STEP in steps, f"a {top.kind} decision outside a check"
        assert steps[0] in (ACT_STEPS[self.active], REWARDS_STEP), \
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
        s.friends = self.friends[:]
        s.piles = [pile[:] for pile in self.piles]
        s.hidden = self.hidden[:]
        s.held = [held[:] for held in self.held]
        s.points = self.points[:]
        s.points_by_reward = self.points_by_reward  # a tuple: shared
        s.removed = self.removed[:]
        s.friends_on_beach = self.friends_on_beach[:]
        s.friends_waiting = self.friends_waiting[:]
        s.tiles_to_return = self.tiles_to_return
        s.active = self.active
        s.first_player = self.first_player
        s.collector_square = self.collector_square
        s.collected = self.collected
        s.could_collect = self.could_collect
        s.column_end = self.column_end
        s.idle_turns = self.idle_turns
        s.turns = self.turns
        s.end_reason = self.end_reason
        return s

    def _resample(self, player: int, rng: Any) -> None:
        # Everyone sees the same things; the never-seen bottoms of the piles are the only
        # secret. Tiles that were once on top stay where everyone saw them.
        pool: list[int] = []
        for column in range(COLS):
            pool += self.piles[column][: self.hidden[column]]
        if not pool:
            return
        pool.sort()  # the sample then depends on what the player sees, not the real order
        rng.shuffle(pool)
        taken = 0
        for column in range(COLS):
            unseen = self.hidden[column]
            self.piles[column][:unseen] = pool[taken: taken + unseen]
            taken += unseen
