"""Every Cove game as an OpenSpiel Python game (needs ``cove[openspiel]``).

    import pyspiel
    import cove.rl.openspiel          # registers cove_<id> for every game on import
    game = pyspiel.load_game("cove_<id>(players=3)")  # the id with _ for -

Parameters: ``players``, ``seed`` (the games' deals are drawn from it: each
``new_initial_state`` is a new deal), ``reward`` ("win": win share, summing to 1, or
to 0 when nobody wins, as in a solo game lost; "margin": the normalised score margin)
and every game option (a list option is text joined with ``/``, e.g. ``colours=3/1``).
Cove's chance happens inside its states, so the games are *sampled stochastic*: there
are no chance nodes, and ``resample_from_infostate`` gives information-set searches
(OpenSpiel's ISMCTS) worlds consistent with a player's view.
Simultaneous steps are sequential and imperfect-information, as in the AEC environment.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
import pyspiel

import cove
from cove.rl._match import REWARDS, EnvError, Match, fill, final_rewards, whole_run

PREFIX = "cove_"
LIST_SEP = "/"


def game_name(game_id: str) -> str:
    """The OpenSpiel short name of a Cove game: ``my-game`` -> ``cove_my_game``."""
    return PREFIX + game_id.replace("-", "_")


def _default_players(game: cove.Game) -> int:
    return max(game.min_players, min(2, game.max_players))


@functools.cache
def _parameters_of(game_id: str) -> tuple[tuple[str, Any], ...]:
    game = cove.load(game_id)
    out: dict[str, Any] = {"players": _default_players(game), "seed": 0, "reward": "win"}
    for opt in game.describe()["options"]:
        default = opt["default"]
        out[opt["name"]] = LIST_SEP.join(default) if isinstance(default, list) else default
    return tuple(out.items())


def _parameters(game: cove.Game) -> dict[str, Any]:
    """Parameter defaults: players, seed, reward and the game's options (a list option is
    text joined with ``/``: OpenSpiel's game strings use commas between parameters)."""
    return dict(_parameters_of(game.id))


def _game_type(game: cove.Game) -> Any:
    T = pyspiel.GameType
    return T(
        short_name=game_name(game.id),
        long_name=f"Cove {game.name}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=(T.ChanceMode.SAMPLED_STOCHASTIC if game.chance
                     else T.ChanceMode.DETERMINISTIC),
        information=(T.Information.IMPERFECT_INFORMATION
                     if game.hidden_information or game.simultaneous
                     else T.Information.PERFECT_INFORMATION),
        utility=T.Utility.GENERAL_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class CoveSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """One configuration of a Cove game (players, reward and options fixed)."""

    COVE_ID = ""
    """The Cove game id; each registered game is a subclass that sets it."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cove_game = cove.load(self.COVE_ID)
        merged = {**_parameters(cove_game), **(params or {})}
        players, seed, reward = merged.pop("players"), merged.pop("seed"), merged.pop("reward")
        if reward not in REWARDS[:2]:
            raise EnvError(f"reward={reward!r} is not valid for OpenSpiel; one of: win, margin")
        options = {k: v for k, v in merged.items() if v != _parameters(cove_game)[k]}
        for opt in cove_game.describe()["options"]:
            name = opt["name"]
            if name in options and isinstance(opt["default"], list):
                options[name] = [s for s in str(options[name]).split(LIST_SEP) if s]
        self.match = Match(cove_game.id, players, options, reward)
        self.cove_game = self.match.game
        self.options = options
        bound = (cove_game.max_actions(players, cove_game.options(players, **options))
                 if cove_game.max_actions is not None else 100_000)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.match.space.size,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0 if reward == "win" else -1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=bound,
        )
        super().__init__(_game_type(cove_game), info, {**(params or {})})
        self._params = dict(params or {})
        self._rng = np.random.default_rng(seed)
        self._observers: dict[bool, CoveObserver] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> CoveSpielGame:
        """The game itself: OpenSpiel clones a Python state by deep-copying its
        attributes, and the clone belongs to the same game."""
        return self

    def new_initial_state(self) -> CoveSpielState:
        """A new deal: each call draws the next game seed from the ``seed`` parameter."""
        state = self.cove_game.new(self.match.players, seed=int(self._rng.integers(2**62)),
                                   log=False, **self.options)
        return CoveSpielState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CoveObserver:
        if params:
            raise EnvError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        observer = self._observers.get(perfect_recall)
        if observer is None:  # OpenSpiel asks for one on every observation_tensor call
            observer = self._observers[perfect_recall] = CoveObserver(self.match.obs_size,
                                                                      perfect_recall)
        return observer


class _Held:
    """A Cove state that deep-copies as ``state.clone()`` (cheap; no generic deepcopy)."""

    def __init__(self, state: cove.State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())


class CoveSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type hints
    """A Cove state behind OpenSpiel's State API."""

    def __init__(self, game: CoveSpielGame, state: cove.State) -> None:
        super().__init__(game)
        self.cove_game = game
        self._held = _Held(state)

    @property
    def state(self) -> cove.State:
        """The Cove state behind this OpenSpiel state."""
        return self._held.state

    def current_player(self) -> int:
        movers = self.state.to_move()
        return int(movers[0]) if movers else int(pyspiel.PlayerId.TERMINAL)

    def _legal_actions(self, player: int) -> list[int]:
        space = self.cove_game.match.space
        return sorted(space.encode(a) for a in self.state.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        player = self.state.to_move()[0]
        space = self.cove_game.match.space
        self.state.apply(player, space.decode(int(action), self.state, player))

    def _action_to_string(self, player: int, action: int) -> str:
        space = self.cove_game.match.space
        for a in self.state.legal_actions(player) if player >= 0 else ():
            if space.encode(a) == action:
                return str(a)
        key = space.universe[action] if 0 <= action < space.size else action
        return f"#{action} {key}"

    def is_terminal(self) -> bool:
        return bool(self.state.is_over)

    def returns(self) -> list[float]:
        if not self.state.is_over:
            return [0.0] * self.cove_game.match.players
        return final_rewards(self.state, self.cove_game.match.reward)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A world consistent with ``player_id``'s information (Cove's redeterminize),
        seeded from the sampler, for information-set searches."""
        seed = int(float(probability_sampler()) * 2**53)
        return CoveSpielState(self.cove_game,
                              self.state.redeterminize(player_id, cove.Rng(seed)))

    def clone(self) -> CoveSpielState:
        return CoveSpielState(self.cove_game, self.state.clone())

    def __str__(self) -> str:
        return self.cove_game.match.game.render(self.state.view(None), False) \
            if self.cove_game.match.game.render is not None \
            else json.dumps(self.state.view(None), sort_keys=True)


class CoveObserver:
    """OpenSpiel's Python observer: the observation tensor is ``state.observation(p)``,
    set from its sparse form; the string is the player's view (``perfect_recall``: the
    information-set key, equal exactly when the player's information is equal)."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CoveSpielState, player: int) -> None:
        # from the sparse form: no list of floats to convert
        sparse = state.state.observation_sparse(player)
        tensor = self.tensor
        if whole_run(sparse, tensor.size):
            tensor[:] = sparse[2]
            return
        tensor.fill(0.0)
        fill(tensor, sparse)

    def string_from(self, state: CoveSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.state.infoset_key(player)
        return json.dumps(state.state.view(player), sort_keys=True, separators=(",", ":"))


def register(game_id: str) -> str:
    """Register one Cove game with OpenSpiel (again is fine); returns its short name."""
    game = cove.load(game_id)
    name = game_name(game.id)
    if name not in pyspiel.registered_names():
        # a class, not a closure: OpenSpiel keeps the factory until the process ends
        cls = type(f"Cove_{game.id.replace('-', '_')}", (CoveSpielGame,),
                   {"COVE_ID": game.id, "__doc__": f"{game.name} as an OpenSpiel game."})
        pyspiel.register_game(_game_type(game), cls)
    return name


def register_all() -> list[str]:
    """Register every Cove game; returns their short names."""
    return [register(i) for i in cove.ids()]


NAMES = register_all()

__all__ = ["NAMES", "CoveObserver", "CoveSpielGame", "CoveSpielState", "game_name",
           "register", "register_all"]
