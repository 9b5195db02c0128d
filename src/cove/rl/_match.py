"""One game behind an environment: the public contract turned into arrays and rewards.

Everything here goes through the public game contract only (``cove.load``, ``game.new``,
``game.action_space``, ``game.observation_size``, ``state.to_move``, ``legal_indices``,
``observation``, ``observation_sparse``, ``apply``, ``is_over``, ``scores``, ``winners``,
``stats``, ``view`` and the game's renderer), so it keeps working while the games'
internals change.
"""

from __future__ import annotations

import json
from array import array
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
import numpy.typing as npt

import cove
from cove.core.state import SparseObservation, _run_bytes, index_run

if TYPE_CHECKING:
    from cove.core.actions import ActionSpace

Reward = Literal["win", "margin", "dense"]
REWARDS: tuple[Reward, ...] = ("win", "margin", "dense")

OnIllegal = Literal["raise", "random", "lose"]
ON_ILLEGAL: tuple[OnIllegal, ...] = ("raise", "random", "lose")

Obs = dict[str, npt.NDArray[Any]]

_ILLEGAL = object()


def whole_run(sparse: SparseObservation, size: int) -> bool:
    """True when ``sparse`` gives every value as one run from index 0 (no ones, ``at`` is
    ``0 .. size-1`` in order, as a game whose observation is all values builds it). Then the
    values are the observation as they stand, and numpy converts them in one pass from
    their buffer: at 585-1260 values, about a sixth of the cost of setting them by index
    (benchmarks/rl_speed.py; docs/RESEARCH.md, "Speed")."""
    ones, at, _ = sparse
    if len(ones) or len(at) != size:
        return False
    if at is index_run(0, size):  # the shared run itself: no comparison to make
        return True
    return isinstance(at, array) and at.typecode == "q" and at.tobytes() == _run_bytes(size)


def fill(out: npt.NDArray[np.float32], sparse: SparseObservation,
         at_index: npt.NDArray[np.intp] | None = None) -> None:
    """Set the zeroed ``out`` to the observation ``sparse`` stands for (``(ones, at,
    values)``: State.observation_sparse), by index; numpy reads an ``array.array``'s
    buffer as it is, with no conversion per element. ``at_index``: ``at`` already as an
    index array."""
    ones, at, values = sparse
    out[np.asarray(ones, np.intp)] = 1.0
    if len(at):
        out[np.asarray(at, np.intp) if at_index is None else at_index] = values


class EnvError(cove.CoveError, ValueError):
    """Bad input to an environment: what was wrong and what is valid."""


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def check_choice(what: str, value: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise EnvError(f"{what}={value!r} is not valid; {what} is one of: "
                       + ", ".join(allowed))


def check_seat(seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
        raise EnvError(f"seat must be a whole number 0..{players - 1}, not {seat!r}")
    if not 0 <= int(seat) < players:
        raise EnvError(f"no seat {seat}; seats are 0..{players - 1} for {players} players")
    return int(seat)


def check_max_cycles(max_cycles: object) -> int | None:
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise EnvError(f"max_cycles must be a whole number >= 1 or None, not {max_cycles!r}")
    return max_cycles


def load_game(game_id: object) -> cove.Game:
    if not isinstance(game_id, str):
        raise EnvError(f"a game id is text, one of: {', '.join(cove.ids())}; "
                       f"got {game_id!r}")
    return cove.load(game_id)


def action_index(action: object, size: int) -> int:
    """``action`` checked as an index into a Discrete(size) space."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = int(action)
        else:
            raise EnvError(f"an action is an index 0..{size - 1} (int), not {action!r}")
    index = int(cast(int, action))
    if not 0 <= index < size:
        raise EnvError(f"action index {index} is outside 0..{size - 1}")
    return index


def final_rewards(state: cove.State, reward: str) -> list[float]:
    """Each seat's reward for a finished game: its win share (ties split), or with
    "margin" its score minus the best other score over the score spread (at least 1), so
    in [-1, 1]. A solo game's margin is 0."""
    n = len(state.scores())
    if reward == "margin":
        scores = [float(x) for x in state.scores()]
        if n == 1:
            return [0.0]
        spread = max(1.0, max(scores) - min(scores))
        return [(scores[p] - max(scores[q] for q in range(n) if q != p)) / spread
                for p in range(n)]
    winners = state.winners()
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


class Match:
    """A game in progress with the pieces every environment needs."""

    def __init__(self, game_id: str, players: int, options: dict[str, Any],
                 reward: str = "win", on_illegal: str = "raise") -> None:
        self.game = load_game(game_id)
        check_choice("reward", reward, REWARDS)
        check_choice("on_illegal", on_illegal, ON_ILLEGAL)
        self.reward = cast(Reward, reward)
        self.on_illegal = cast(OnIllegal, on_illegal)
        self.players = players
        self.options = dict(options)
        # cove's own errors (PlayerCountError, OptionError) say what is valid
        self.state: cove.State = self.game.new(players, seed=0, log=False, **options)
        self.space: ActionSpace = self.game.action_space(players, **options)
        self.size = self.space.size  # read every step: an attribute, not the property
        self.obs_size = self.game.observation_size(players, **options)
        # the game builds the sparse form (from its declared blocks, or its own code),
        # else the sparse form would be found from the dense one
        self._sparse = (self.game.observer is not None
                        or type(self.state)._observation_sparse
                        is not cove.State._observation_sparse)
        self._last_scores = [float(x) for x in self.state.scores()]
        self._legal: tuple[Any, ...] | None = None
        # the last ``at`` of a sparse observation and its index array: games whose values
        # sit at fixed places hand back the same (read-only) ``at`` every call
        self._at: object = None
        self._at_index: npt.NDArray[np.intp] | None = None
        self._indices: list[int] = []

    # -- lifecycle -------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        self.state = self.game.new(self.players, seed=seed, log=False, **self.options)
        self._last_scores = [float(x) for x in self.state.scores()]

    def to_move(self) -> tuple[int, ...]:
        return self.state.to_move()

    @property
    def over(self) -> bool:
        return self.state.is_over

    def safety_end(self) -> bool:
        """True when the game stopped at a safety end (a DESIGN cap on its length)."""
        if not self.state.is_over:
            return False
        end = self.state.stats().get("end")
        return isinstance(end, str) and end in self.state.game.safety_ends

    # -- arrays ----------------------------------------------------------------------------
    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation as a new float32 array (see :meth:`observation_into`)."""
        out = np.empty(self.obs_size, np.float32)
        self.observation_into(out, seat)
        return out

    def observation_into(self, out: npt.NDArray[np.float32], seat: int) -> None:
        """Write ``seat``'s observation into ``out`` (float32, the observation's length):
        from the game's sparse form (its values copied as they stand when they are one
        whole run, else ``out`` zeroed and filled by index) when the game builds one,
        else from the dense list. Makes no array of the observation's size."""
        state = self.state
        if self._sparse:
            sparse = state.observation_sparse(seat)
            if whole_run(sparse, self.obs_size):
                out[:] = sparse[2]
                return
            at = sparse[1]
            if at is not self._at:
                self._at, self._at_index = at, np.asarray(at, np.intp)
            out.fill(0.0)
            fill(out, sparse, self._at_index)
            return
        out[:] = state.observation(seat)

    def legal_indices(self, seat: int) -> tuple[tuple[Any, ...], list[int]]:
        """``seat``'s legal actions now and their action indices, in the same order (both
        empty when it is not asked). Kept while the state hands back the same legal
        tuple, so the mask and the step that follows it encode the legal actions once."""
        state = self.state
        legal = state.legal_actions(seat)
        if legal is not self._legal:
            self._indices = state.legal_indices(seat)
            self._legal = legal
        return legal, self._indices

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s legal mask (``state.legal_mask``) as a new int8 array."""
        out = np.empty(self.size, np.int8)
        self.mask_into(out, seat)
        return out

    def mask_into(self, out: npt.NDArray[np.int8], seat: int) -> None:
        """Write ``seat``'s legal mask into ``out`` (int8, the action space's size), set
        from the indices of the legal actions rather than converted from a list of
        ``space.size`` booleans; all zeros once the game is over."""
        out.fill(0)
        if self.state.is_over:
            return
        indices = self.legal_indices(seat)[1]
        if len(indices) > 48:  # many: numpy's indexing wins over its fixed cost
            out[indices] = 1
        else:
            for i in indices:
                out[i] = 1

    def obs(self, seat: int) -> Obs:
        return {"observation": self.observation(seat), "action_mask": self.mask(seat)}

    # -- moves -----------------------------------------------------------------------------
    def check_legal(self, seat: int, action: object) -> None:
        """Under on_illegal="raise", the EnvError :meth:`play` would raise for ``action``
        (an index), raised before anything is applied; nothing otherwise."""
        if self.on_illegal == "raise":
            index = action_index(action, self.size)
            legal, indices = self.legal_indices(seat)
            if legal and index not in indices:
                raise self._illegal(seat, index, indices)

    def play(self, seat: int, action: object, rng: np.random.Generator) -> bool:
        """Apply action index ``action`` for ``seat``. Returns False when the index was
        illegal and ``on_illegal`` is "lose" (the caller ends the episode); with
        "random" an illegal index is replaced by a legal one drawn from ``rng``; with
        "raise" it is an EnvError naming the legal indices."""
        size = self.size
        index = action if type(action) is int and 0 <= action < size \
            else action_index(action, size)
        legal, indices = self.legal_indices(seat)
        if not legal:
            raise EnvError(f"{agent_name(seat)} is not to move; to move: "
                           + ", ".join(agent_name(p) for p in self.state.to_move()))
        try:  # should two legal actions share an index, the first one is taken
            chosen = legal[indices.index(index)]
        except ValueError:
            chosen = _ILLEGAL
        if chosen is _ILLEGAL:
            if self.on_illegal == "lose":
                return False
            if self.on_illegal == "random":
                chosen = legal[int(rng.integers(len(legal)))]
            else:
                raise self._illegal(seat, index, indices)
        self.state.apply(seat, chosen)
        return True

    def _illegal(self, seat: int, index: int, indices: list[int]) -> EnvError:
        shown_indices = sorted(set(indices))
        shown = ", ".join(str(i) for i in shown_indices[:20])
        more = f" and {len(shown_indices) - 20} more" if len(shown_indices) > 20 else ""
        return EnvError(f"action index {index} is not legal for {agent_name(seat)} now; "
                        f"legal indices: {shown}{more} (see the action_mask)")

    # -- rewards ---------------------------------------------------------------------------
    def step_rewards(self) -> list[float]:
        """Rewards for the step just taken: score changes in "dense" mode, the final
        reward when the game has just ended in the others, else zeros."""
        n = self.players
        if self.reward == "dense":
            now = [float(x) for x in self.state.scores()]
            out = [now[p] - self._last_scores[p] for p in range(n)]
            self._last_scores = now
            return out
        if not self.state.is_over:
            return [0.0] * n
        return self.final_rewards()

    def final_rewards(self) -> list[float]:
        return final_rewards(self.state, self.reward)

    def forfeit_rewards(self, seat: int) -> list[float]:
        """Rewards when ``seat`` played an illegal index under on_illegal="lose": -1 for
        it, 0 for the others (the episode ends without a result)."""
        return [-1.0 if p == seat else 0.0 for p in range(self.players)]

    # -- rendering -------------------------------------------------------------------------
    def render(self, seat: int | None) -> str:
        view = self.state.view(seat)
        if self.game.render is not None:
            return self.game.render(view, False)
        return json.dumps(view, indent=1, sort_keys=True)
