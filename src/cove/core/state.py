"""The state half of the contract: what every game's state class inherits.

A game subclasses :class:`State` and fills in a handful of hooks (``setup``, ``to_move``,
``_legal_actions``, ``_apply``, ``is_over``, ``scores``, ``_view``, ``_ask``,
``clone``; ``_resample`` for hidden information), or drives its flow with the decision
stack of :mod:`cove.core.decisions`, which provides the first four. The base class owns
everything that must behave the same in every game:

- validation: ``apply`` checks the seat, the mover and the action against the legal
  actions *before* anything changes, and applies the legal list's own element, so an
  illegal or look-alike input raises :class:`IllegalAction` and leaves the state untouched;
- the forms of an action: value, text (exact, or a unique short form) and JSON;
- the seeded RNG (``self.rng``), which records its outcomes when the game is logged;
- the history, with secret commitments that stay hidden from the other players until the
  game reveals them (``record(p)``, ``history(p)``);
- the per-viewer typed event log (``say``), kept as a persistent list so ``clone()`` shares
  it in O(1) and a viewer's new events are found in O(new events);
- ``redeterminize`` and ``for_player``: what a bot may be handed;
- portable state: ``to_json`` / ``Game.from_json``, ``fingerprint``, pickling.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic

from cove.core.actions import ActionSpace, action_json, json_key, match_text
from cove.core.compiled import mypyc_attr
from cove.core.decisions import Step, StepRule
from cove.core.errors import IllegalAction, SeatError
from cove.core.history import SPECTATORS, Event, Node, log_push
from cove.core.rng import Rng, TapeRng
from cove.core.typevars import OptionsT

if TYPE_CHECKING:
    from cove.core.game import Game
    from cove.core.observer import Observed

Action = Hashable
"""An action is a small frozen value whose ``str()`` is its stable text form."""

HIDDEN: Final = "(hidden)"
"""How a redacted record shows another player's unrevealed commitment."""

SparseObservation = tuple[Sequence[int], Sequence[int], Sequence[float]]
"""An observation as ``(ones, at, values)``: see ``State.observation_sparse``."""


@lru_cache(maxsize=4096)
def index_run(start: int, length: int) -> array[int]:
    """The indices ``start .. start + length - 1`` as an ``array("q")``, made once: a
    sparse observation places a run of values with ``at += index_run(i, k)`` and
    ``values.extend(...)``. Shared between callers, so never changed in place."""
    return array("q", range(start, start + length))


@lru_cache(maxsize=64)
def _run_bytes(size: int) -> bytes:
    """``index_run(0, size)`` as bytes: a whole-observation run is recognised by one
    comparison of bytes (comparing arrays goes element by element)."""
    return index_run(0, size).tobytes()


MAX_TEXT: Final = 200
"""Typed moves longer than this are refused without being searched or echoed."""

_SCAN: Final = 16
"""``apply`` looks for the given action among at most this many legal actions itself (by
identity, the legal list's own element); a longer list goes straight to ``_match_action``,
which a game may override with a faster search (an index of its legal actions)."""


_BASE_SLOTS: Final = (
    "_hist", "_legal", "_legal_for", "_log", "_nhist", "_nlog", "_observed", "_reveal_at",
    "_secret_next", "_steps",
    "game", "logging", "n", "options", "rng", "seed",
)


@mypyc_attr(allow_interpreted_subclasses=True)  # each game subclasses it
class State(ABC, Generic[OptionsT]):
    """Base of every game state. Players are seats ``0 .. players-1``. Generic in the
    game's options class: ``class TideState(State[TideOptions])`` types ``self.options``."""

    __slots__ = _BASE_SLOTS

    CORE_SLOTS: ClassVar[tuple[str, ...]] = _BASE_SLOTS
    """The core's own slots (the stack, the chains, the kept legal list and observation):
    ``to_json`` stores them apart from the game's fields, and no game touches the private
    ones (``tests/games/test_core_private.py``)."""

    STEPS: ClassVar[Mapping[str, StepRule[Any]]] = {}
    """The decision-stack rules by step kind, for games that drive their flow with it."""

    _STACK_LEGAL: ClassVar[bool] = True
    """Set per class: ``_legal_actions`` is the stack's, so the legal list ``settle`` finds
    for the next decision is the one ``legal_actions`` would compute (and is kept)."""

    _PLAYS_FOR: ClassVar[bool] = False
    """Set per class: ``play_for`` is overridden (some seat is played by the rules)."""

    _STACK_TURNS: ClassVar[bool] = True
    """Set per class: ``to_move`` is the stack's, so the game is over exactly when no step
    is pending (``is_over``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._STACK_LEGAL = cls._legal_actions is State._legal_actions
        cls._PLAYS_FOR = cls.play_for is not State.play_for
        cls._STACK_TURNS = cls.to_move is State.to_move

    DERIVED: ClassVar[tuple[str, ...]] = ()
    """Slots rebuilt by ``setup`` from the options (data tables, rule switches): left out
    of ``to_json`` and ``fingerprint`` because the options already determine them."""

    game: Game
    n: int
    options: OptionsT
    seed: int
    rng: Rng
    logging: bool

    # -- construction (called by Game.new) ---------------------------------------------
    def _init_base(self, game: Game, players: int, seed: int, options: Any, log: bool,
                   rng: Rng | None = None) -> None:
        self.game = game
        self.n = players
        self.options = options
        self.seed = seed
        self.rng = rng if rng is not None else (TapeRng(seed) if log else Rng(seed))
        self.logging = log
        self._hist: Node | None = None
        self._nhist = 0
        self._log: Node | None = None
        self._nlog = 0
        # The legal actions of seat ``_legal_for`` now, kept until the next move (None: not
        # known; setting ``_legal = None`` is how tools that change a state by hand drop it).
        # Two slots rather than a pair: no tuple per decision, and the hot paths compare
        # ``_legal_for is player``, which for seat numbers (small ints, one object each in
        # CPython) is the whole seat check; any other player value takes the checked path.
        self._legal: tuple[Action, ...] | None = None
        self._legal_for = -1
        self._steps: tuple[Step, ...] = ()
        self._secret_next = False
        self._reveal_at = 0
        self._observed: Observed | None = None  # kept observation blocks (core.observer)

    @abstractmethod
    def setup(self) -> None:
        """Set up the table from ``self.n``, ``self.options`` and ``self.rng``."""

    # -- hooks a game implements (the first four come from the decision stack if used) ----
    def to_move(self) -> tuple[int, ...]:
        """Players who must decide now; () when the game is over; >1 = simultaneous."""
        steps = self._steps
        if not steps:
            return ()
        top = steps[-1]
        rule = self.STEPS[top.kind]
        return top.players if rule.plain_movers else rule.movers(self, top)

    def _legal_actions(self, player: int) -> Sequence[Action]:
        """Legal actions for a player in ``to_move()``; never empty for such a player."""
        top = self._steps[-1]
        return self.STEPS[top.kind].legal(self, top, player)

    def _apply(self, player: int, action: Action) -> None:
        """Carry out a legal action (already validated by ``apply``): the top step is
        popped, its rule applies the action, then the stack settles."""
        steps = self._steps
        top = steps[-1]
        self._steps = steps[:-1]
        rule = self.STEPS[top.kind]
        if rule.secret:
            self.keep_secret()
        rule.apply(self, top, player, action)
        self.settle()

    def _ask(self, player: int | None) -> dict[str, Any]:
        """What ``player`` (a mover) is deciding: ``{"kind", "prompt", ...}`` with a plain
        one-sentence prompt. ``player=None``: the same described publicly, for everyone
        else (no private reasons)."""
        steps = self._steps
        if not steps:
            return {"kind": "turn", "prompt": ""}
        top = steps[-1]
        rule = self.STEPS[top.kind]
        kind = rule.name or top.kind
        if player is None:
            return {"kind": kind, "prompt": rule.public_prompt(self, top)}
        return {"kind": kind, "prompt": rule.prompt(self, top, player),
                **rule.describe(self, top, player)}

    @property
    def is_over(self) -> bool:
        if self._STACK_TURNS:
            return not self._steps  # a settled stack's top is always someone's decision
        return not self.to_move()

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score: final once the game is over, the running score before."""

    @abstractmethod
    def _view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see (None: a spectator). Build it by whitelisting."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy. Start with ``s = self._clone_base()``; copy mutable fields."""

    def _resample(self, player: int, rng: Rng) -> None:
        """On a fresh clone, resample everything ``player`` cannot see (hidden games)."""
        return None

    def _observation(self, player: int) -> list[float]:
        """``player``'s information as ``game.observation_size(...)`` floats. A game
        implements this or ``_observation_sparse``; by default it is built from the
        latter, so a game that gives the sparse form has one source of truth."""
        if (type(self)._observation_sparse is State._observation_sparse
                and self.game.observer is None):
            raise NotImplementedError(f"{self.game.id} has no observation encoding")
        ones, at, values = self._observation_sparse(player)
        size = self.game.observation_size_for(self.n, self.options)
        if (not len(ones) and len(at) == size and isinstance(at, array)
                and at.tobytes() == _run_bytes(size)):
            return list(values)  # every value as one run from 0 (see rl._match.whole_run)
        out = [0.0] * size
        for i in ones:
            out[i] = 1.0
        for i, v in zip(at, values, strict=True):
            out[i] = v
        return out

    def _observation_sparse(self, player: int) -> SparseObservation:
        """``player``'s observation as ``(ones, at, values)`` (see ``observation_sparse``):
        from the game's declared blocks (``Game.observer``, :mod:`cove.core.observer`),
        else found from the dense ``_observation``."""
        observer = self.game.observer
        if observer is not None:
            return observer.sparse(self, player)
        ones: list[int] = []
        at: list[int] = []
        values: list[float] = []
        for i, x in enumerate(self._observation(player)):
            if x == 1.0:
                ones.append(i)
            elif x:
                at.append(i)
                values.append(x)
        return ones, at, values

    def explain_illegal(self, player: int, text: str) -> str:
        """The rules reason why ``text`` is not a legal move for ``player`` now, or '' when
        there is nothing better to say than the list of legal moves. Override to help players
        ("buying is step 4 and you are in step 3")."""
        return ""

    def stats(self) -> dict[str, float | str]:
        """Game-specific figures for designers, read by the simulator when a game is over,
        e.g. ``{"rounds": 14, "end": "goal"}``. Numbers are averaged over a run; texts are
        counted (how games ended). Default: none."""
        return {}

    def check_invariants(self) -> None:
        """Raise AssertionError naming what broke when a conservation rule fails (every
        card, cube, tile, die and coin accounted for; tracks within bounds). The
        conformance harness calls it after every action. Default: nothing to check."""
        return None

    def private_items(self, player: int) -> dict[str, Any]:
        """Named JSON values that ``player`` alone may see (a hand, a secret card), as they
        appear in ``view(player)``. The harness checks that none of them appears in another
        player's or a spectator's view; choose values distinctive enough to be searched for
        (a whole hand, card ids). Default: none."""
        return {}

    def tiebreak(self, player: int) -> tuple[float, ...]:
        """Tie-break key among tied top scores, larger is better. Default: no tie-break."""
        return ()

    def play_for(self, step: Step, player: int, legal: Sequence[Action]) -> Action | None:
        """The choice the rules make for ``player`` in a forced step that offers several
        (a seat played by fixed rules, such as a solo opponent), or None when the player
        decides. ``settle`` calls it only when a game overrides it."""
        return None

    # -- the decision stack ------------------------------------------------------------
    def push(self, *steps: Step) -> None:
        """Put steps on the stack; the last one given is decided first."""
        self._steps = self._steps + steps

    def then(self, *steps: Step) -> None:
        """Put steps on the stack to be decided in the order given (the first one next)."""
        self._steps = self._steps + tuple(reversed(steps))

    def pop(self) -> Step:
        top = self._steps[-1]
        self._steps = self._steps[:-1]
        return top

    def clear_steps(self) -> None:
        """Drop every pending step (the game ends, or nothing pending is decided any more)."""
        self._steps = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        """The pending steps, bottom first (the last one is being decided now)."""
        return self._steps

    @property
    def top_step(self) -> Step | None:
        """The step being decided now (the top of the stack), None when none is pending."""
        steps = self._steps
        return steps[-1] if steps else None

    def next_steps(self) -> Sequence[Step]:
        """Called when the stack is empty: the steps that come next (the next turn, in
        the order they are decided), or none when the game is over."""
        return ()

    def settle(self) -> None:
        """Run automatic steps and take forced choices until a real decision (or the end
        of the game) is on top of the stack, then keep that decision's legal list for
        ``legal_actions``. An empty stack asks ``next_steps`` for more. An automatic step
        (no players) runs. A forced step (``rule.forced``) with one mover is passed over
        when it ``lapses``; otherwise its only legal choice is taken (logged as a
        ``kind="forced"`` event if ``rule.log_forced``), one that offers nothing is left
        (``rule.idle``), and one that offers several may be decided by the rules
        (``play_for``)."""
        self._legal = None  # the stack may have been changed by hand (tests, tools)
        while True:
            steps = self._steps
            if not steps:
                more = self.next_steps()
                if not more:
                    return  # the game is over
                self._steps = tuple(reversed(more))  # then(*more)
                continue
            top = steps[-1]
            rule = self.STEPS[top.kind]
            if not top.players:  # an automatic step
                self._steps = steps[:-1]
                rule.run(self, top)
                continue
            movers = top.players if rule.plain_movers else rule.movers(self, top)
            if not rule.forced:  # a real decision
                if len(movers) == 1 and rule.plain_movers and self._STACK_LEGAL:
                    # one player decides: their legal list is needed whatever they choose
                    legal = rule.legal(self, top, movers[0])
                    self._legal = legal if type(legal) is tuple else tuple(legal)
                    self._legal_for = movers[0]
                return
            if len(movers) != 1:  # a simultaneous decision
                return
            if rule.can_lapse and rule.lapses(self, top):
                self._steps = steps[:-1]
                continue
            player = movers[0]
            legal = rule.legal(self, top, player)
            if not legal:
                self._steps = steps[:-1]
                rule.idle(self, top, player)
                continue
            if len(legal) == 1:
                action = legal[0]
                if self.logging and rule.log_forced:
                    self.say(f"P{player + 1}: {action} (the only choice)", kind="forced",
                             data={"player": player, "action": action_json(action)})
            else:
                chosen = self.play_for(top, player, legal) if self._PLAYS_FOR else None
                if chosen is None:  # the player decides: keep their list, as above
                    if self._STACK_LEGAL:  # (a game's own _legal_actions is asked each time)
                        self._legal = legal if type(legal) is tuple else tuple(legal)
                        self._legal_for = player
                    return
                action = chosen
            self._steps = steps[:-1]
            rule.apply(self, top, player, action)

    # -- secrets -----------------------------------------------------------------------
    def keep_secret(self) -> None:
        """Called from ``_apply``: the action being applied stays hidden from the other
        players (in ``history(p)`` and ``record(p)``) until ``reveal()``."""
        self._secret_next = True

    def reveal(self) -> None:
        """Every secret action applied so far becomes visible to everyone."""
        self._reveal_at = self._nhist + 1 if self._secret_next else self._nhist

    # -- the contract ------------------------------------------------------------------------
    def seat(self, player: Any) -> int:
        """``player`` checked as a seat number, or SeatError saying what is valid."""
        if type(player) is int and 0 <= player < self.n:  # the common case, fast
            return player
        if isinstance(player, bool) or not isinstance(player, int):
            raise SeatError(f"a player is a seat number 0..{self.n - 1}, not {_short(player)}")
        if not 0 <= player < self.n:
            raise SeatError(f"no player {player}; seats are 0..{self.n - 1} "
                            f"(P1..P{self.n})")
        return int(player)

    def legal_actions(self, player: object) -> tuple[Action, ...]:
        """Legal actions for ``player`` (empty if it is not their turn), as a tuple.
        ``player`` is a seat number; anything else (True, 1.0, None) is refused with
        SeatError, so it is typed ``object``: a compiled ``int`` would take True."""
        cached = self._legal
        if cached is not None and self._legal_for is player:
            return cached
        seat = self.seat(player)
        if seat not in self.to_move():
            return ()
        acts = self._legal_actions(seat)
        if type(acts) is not tuple:
            acts = tuple(acts)
        self._legal = acts
        self._legal_for = seat
        return acts

    def apply(self, player: object, action: Action | str | Mapping[str, Any]) -> None:
        """Apply ``action`` for ``player`` (a seat number; typed ``object`` as in
        ``legal_actions``): an action value, its text (exact or a unique short form) or
        its JSON form. Raises :class:`IllegalAction` with the reason, leaving the state
        unchanged."""
        legal = self._legal
        if legal is not None and self._legal_for is player:
            # the hot path: the legal list was asked for (or kept by settle) since the last
            # move, which also means that ``player`` is a seat and to move
            seat = self._legal_for
        else:
            try:
                seat = self.seat(player)
            except SeatError as e:
                raise IllegalAction(str(e)) from None
            movers = self.to_move()
            if seat not in movers:
                if not movers:
                    raise IllegalAction("the game is over; no player can act")
                who = ", ".join(f"P{p + 1}" for p in movers)
                raise IllegalAction(f"it is not P{seat + 1}'s turn; to move: {who}")
            legal = self.legal_actions(seat)
        if len(legal) <= _SCAN:
            # a bot or client passing the list's own element (the common case), found here
            # without a call; any other form, or a long list, goes to _match_action
            for act in legal:
                if act is action:
                    break
            else:
                act = self._match_action(seat, action, legal)
        else:
            act = self._match_action(seat, action, legal)
        self._legal = None
        self._secret_next = False
        self._apply(seat, act)
        self._hist = (self._hist, (seat, act, self._secret_next))
        self._nhist += 1
        self._secret_next = False

    def _match_action(self, seat: int, action: Any, legal: tuple[Action, ...]) -> Action:
        given: object = action  # (typed object, so that ``is`` does not make ``a`` Any)
        for a in legal:  # a bot or client passing the list's own element: fast
            if a is given:
                return a
        if isinstance(action, str):
            if len(action) > MAX_TEXT:
                raise IllegalAction(f"a move is at most {MAX_TEXT} characters; "
                                    f"got {len(action)}")
            found, candidates = match_text(legal, action)
            if found is not None:
                return found
            if candidates:
                raise IllegalAction(f"{action!r} could be any of: "
                                    + ", ".join(str(a) for a in candidates[:12])
                                    + ("..." if len(candidates) > 12 else "")
                                    + "; type more of the move")
            why = self.explain_illegal(seat, action)
            raise IllegalAction((f"{why}. " if why else "")
                                + f"{action!r} is not a legal move for P{seat + 1} now; "
                                "legal: " + _preview(legal))
        if isinstance(action, Mapping):
            try:
                want = json_key(dict(action))
            except (TypeError, ValueError):
                raise IllegalAction("an action's JSON form must be a JSON object") from None
            for a in legal:
                if json_key(action_json(a)) == want:
                    return a
            raise IllegalAction(f"{_short(dict(action))} is not a legal move for P{seat + 1} "
                                "now; legal: " + _preview(legal))
        t = type(action)
        for a in legal:
            if type(a) is t and a == action and str(a) == str(action):
                return a
        raise IllegalAction(f"{_short(action)} is not a legal move for P{seat + 1} now; "
                            "legal: " + _preview(legal))

    def find_action(self, player: int, text: str) -> Action | None:
        """The legal action whose text form is exactly ``text`` (case and spacing
        ignored); None when there is none. Records replay through this, strictly."""
        want = " ".join(text.split()).lower()
        for a in self.legal_actions(player):
            if str(a).lower() == want:
                return a
        return None

    def decision(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` is asked now: ``{"kind", "players", "prompt", ...}``. For a
        player who is not to move (or a spectator): what the movers are deciding, with
        ``"waiting": True`` and nothing private."""
        if player is not None:
            player = self.seat(player)
        movers = self.to_move()
        if not movers:
            return {"kind": "over", "players": [], "prompt": "The game is over.",
                    "waiting": False}
        if player is not None and player in movers:
            d = dict(self._ask(player))
            d["players"] = list(movers)
            d["waiting"] = False
            return d
        pub = self._ask(None)
        who = ", ".join(f"P{p + 1}" for p in movers)
        text = f"Waiting for {who}" + (f": {pub['prompt']}" if pub.get("prompt") else ".")
        return {"kind": pub.get("kind", "turn"), "players": list(movers), "prompt": text,
                "waiting": True}

    def view(self, player: int | None = None) -> dict[str, Any]:
        """JSON-ready dict of what ``player`` may see; None is a spectator."""
        if player is not None:
            player = self.seat(player)
        over = self.is_over
        v: dict[str, Any] = {
            "game": self.game.id,
            "players": self.n,
            "you": player,
            "to_move": list(self.to_move()),
            "over": over,
            "decision": self.decision(player),
        }
        if over:
            v["scores"] = self.scores()
            v["winners"] = list(self.winners())
        v.update(self._view(player))
        return v

    def winners(self) -> tuple[int, ...]:
        """Seats that won (several share a tie); () while the game is running."""
        if not self.is_over:
            return ()
        scores = self.scores()
        best = max(scores)
        tied = [p for p in range(self.n) if scores[p] == best]
        if len(tied) > 1:
            keys = {p: self.tiebreak(p) for p in tied}
            top = max(keys.values())
            tied = [p for p in tied if keys[p] == top]
        return tuple(tied)

    # -- action spaces and observations --------------------------------------------------
    @property
    def action_space(self) -> ActionSpace:
        return self.game.space_for(self.n, self.options)

    def legal_indices(self, player: int) -> list[int]:
        """The indices in ``action_space`` of ``legal_actions(player)``, in the same order
        (empty when ``player`` is not asked): the legal actions as a learner numbers them,
        the pgx way of keeping the legal-action mask with the state. A game that can
        number its actions faster than the action space's keys and dictionary (they run
        once per step of a learner) overrides ``_legal_indices``; the conformance harness
        checks it against ``action_space.encode``."""
        player = self.seat(player)
        return self._legal_indices(player, self.legal_actions(player))

    def _legal_indices(self, player: int, legal: tuple[Action, ...]) -> list[int]:
        """``legal`` (``player``'s legal actions now) numbered as ``action_space`` does;
        an action the space does not know raises its IllegalAction."""
        space = self.action_space
        index, key = space.index, space.key
        try:  # the space's dictionary read inline: no call per action through encode
            if key is None:
                return [index[a] for a in legal]
            return [index[key(a)] for a in legal]
        except (KeyError, TypeError):
            return [space.encode(a) for a in legal]  # names the unknown action

    def legal_mask(self, player: int) -> list[bool]:
        """``action_space.size`` booleans, True exactly at the legal actions' indices."""
        out = [False] * self.action_space.size
        for i in self.legal_indices(player):
            out[i] = True
        return out

    def observation(self, player: int) -> list[float]:
        """``player``'s information as a fixed-length list of floats (see the game's
        SPEC.md); its length is ``game.observation_size(players, **options)``."""
        player = self.seat(player)
        obs = self._observation(player)
        size = self.game.observation_size_for(self.n, self.options)
        if len(obs) != size:
            raise AssertionError(f"{self.game.id}: observation has {len(obs)} values, "
                                 f"declared {size}")
        return obs

    def observation_sparse(self, player: int) -> SparseObservation:
        """``observation(p)`` in sparse form, ``(ones, at, values)``: the observation is
        0.0 everywhere but 1.0 at each index in ``ones`` and ``values[k]`` at ``at[k]``
        (``at`` and ``values`` of one length, no index twice). The three are lists or, for
        speed, ``array.array`` ("q" indices, "d" values), which numpy reads without a
        conversion per element. Games whose observations are mostly one-hot blocks build
        this form and the core makes the dense list from it, so a wrapper fills a zeroed
        array by index instead of converting hundreds of Python floats
        (docs/ARCHITECTURE.md). The arrays may be shared with the game's caches (a
        whole-observation ``at`` is ``index_run(0, size)`` itself, which a reader
        recognises by identity): read them, never change them."""
        return self._observation_sparse(self.seat(player))

    def infoset_key(self, player: int) -> str:
        """Equal for two states exactly when ``player``'s information is equal: what they
        see now and the history as they saw it (perfect recall)."""
        player = self.seat(player)
        doc = [self.view(player), [[q, None if a is None else str(a)]
                                   for q, a in self.history_for(player)]]
        return hashlib.blake2b(json.dumps(doc, sort_keys=True, separators=(",", ":"))
                               .encode(), digest_size=16).hexdigest()

    # -- what bots are given ---------------------------------------------------------------
    def redeterminize(self, player: int, rng: Rng) -> State:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``,
        consistent with what ``player`` knows; its future chance is reseeded too, so a
        search never learns the real deck order. ``self`` is unchanged."""
        player = self.seat(player)
        s = self.clone()
        s.rng = rng.spawn()
        s._resample(player, rng)
        s._legal = None
        return s

    def for_player(self, player: int, rng: Rng | None = None) -> State:
        """What a bot or heuristic of ``player`` is handed: a playable state that holds
        only what ``player`` may know. Hidden parts are a sample consistent with p's view
        (drawn from ``rng``, or seeded from p's information alone when none is given),
        the seed and the chance record are gone, other players' unrevealed commitments
        are out of the history and the log holds only p's events. The real state is never
        exposed."""
        player = self.seat(player)
        if rng is None:
            rng = Rng(int(self.infoset_key(player)[:16], 16))
        s = self.redeterminize(player, rng)
        s.seed = 0
        entries = self._hist_entries() if self._secret_after_reveal() else None
        if entries is not None:
            hist: Node | None = None
            for i, (q, a, secret) in enumerate(entries):
                hidden = secret and q != player and i >= self._reveal_at
                hist = (hist, (q, None if hidden else a, secret))
            s._hist = hist
        if self._nlog:
            log: Node | None = None
            evs = self.events(player)
            for ev in evs:
                log = log_push(log, ev, self.n)
            s._log = log
            s._nlog = len(evs)
        return s

    def _secret_after_reveal(self) -> bool:
        """Whether any action since the last reveal is a secret (O(actions since then))."""
        node, i = self._hist, self._nhist - 1
        while node is not None and i >= self._reveal_at:
            node, (_, _, secret) = node
            if secret:
                return True
            i -= 1
        return False

    # -- history, records --------------------------------------------------------------
    def _hist_entries(self) -> list[tuple[int, Action, bool]]:
        out: list[tuple[int, Action, bool]] = []
        node = self._hist
        while node is not None:
            node, item = node
            out.append(item)
        out.reverse()
        return out

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every applied action in order, secrets included (the full record)."""
        return [(p, a) for p, a, _ in self._hist_entries()]

    def history_for(self, player: int | None) -> list[tuple[int, Action | None]]:
        """The history as ``player`` saw it: another player's commitment is None until it
        is revealed (``player=None``: a spectator, who sees no commitment before its
        reveal)."""
        out: list[tuple[int, Action | None]] = []
        for i, (q, a, secret) in enumerate(self._hist_entries()):
            hidden = secret and q != player and i >= self._reveal_at
            out.append((q, None if hidden else a))
        return out

    @property
    def log_length(self) -> int:
        """How many events have been logged (for "what is new since" displays)."""
        return self._nlog

    @property
    def decisions(self) -> int:
        """How many actions have been applied."""
        return self._nhist

    def can_undo(self, player: object) -> bool:
        """Whether ``player`` may take back their latest decision now: nobody has decided
        since, no chance outcome was drawn since and it revealed nothing hidden to them
        (:mod:`cove.core.undo`, the same rules for every game)."""
        from cove.core.undo import why_not

        return not why_not(self, self.seat(player))

    def undone(self, player: object) -> State:
        """The game without ``player``'s latest decision (a new state; this one is
        unchanged); ValueError saying why when :meth:`can_undo` is false."""
        from cove.core.undo import undone

        return undone(self, self.seat(player))

    def record(self, player: int | None = None, *, redacted: bool = False) -> dict[str, Any]:
        """Everything needed to replay this game: ``cove.replay(state.record())``.

        ``record(p)`` is the record redacted for player ``p`` (``redacted=True`` without a
        player: for a spectator): other players' unrevealed commitments show as
        ``"(hidden)"``, and the seed and chance outcomes, which would reveal every hidden
        card, are left out. A redacted record is for showing, not for replay."""
        out: dict[str, Any] = {
            "game": self.game.id,
            "version": self.game.version,
            "players": self.n,
            "options": self.options.to_dict(),
        }
        data = self.game.data_digests(self.options)
        if data:
            out["data"] = data
        if player is None and not redacted:
            out["seed"] = self.seed
            out["actions"] = [[p, str(a)] for p, a in self.history]
            tape = getattr(self.rng, "tape", None)
            if tape is not None:
                out["chance"] = [list(x) for x in tape]
            return out
        if player is not None:
            player = self.seat(player)
        out["redacted_for"] = player
        out["actions"] = [[p, HIDDEN if a is None else str(a)]
                          for p, a in self.history_for(player)]
        return out

    # -- the log -----------------------------------------------------------------------------
    def say(self, text: str, to: Iterable[int] | int | None = None, *, kind: str = "log",
            data: Mapping[str, Any] | None = None) -> None:
        """Log an event for everyone (``to=None``) or only for some players (and
        spectators, when ``to`` holds :data:`SPECTATORS`; ``everyone_but(p)``), with a
        ``kind`` and JSON-ready ``data`` for programs."""
        if not self.logging:
            return
        who = (to,) if isinstance(to, int) else (tuple(to) if to is not None else None)
        self._log = log_push(self._log, Event(self._nlog, text, who, kind, data), self.n)
        self._nlog += 1

    def everyone_but(self, player: int) -> tuple[int, ...]:
        """An audience for :meth:`say`: every seat but ``player``, and the spectators
        (``player`` was told the same thing in words of its own)."""
        return (*(p for p in range(self.n) if p != player), SPECTATORS)

    def events(self, player: int | None = None, since: int = 0) -> list[Event]:
        """The events ``player`` may see (spectator: public ones only), numbered 0, 1, ...
        in the order that viewer saw them, from number ``since`` on. Costs O(events
        returned), so polling for new events stays cheap in long games.

        Numbering is per viewer on purpose: a global number would show a player the gaps
        left by other players' private events (how many secret choices were made)."""
        k = 0 if player is None else self.seat(player) + 1
        out: list[Event] = []
        node = self._log
        while node is not None:
            prev, ev, seen = node
            count = seen[k]
            if count <= since:
                break
            if ev.to is None or (SPECTATORS if player is None else player) in ev.to:
                out.append(ev._replace(seq=count - 1))
            node = prev
        out.reverse()
        return out

    def log_count(self, player: int | None = None) -> int:
        """How many events ``player`` may see so far (for "what is new since")."""
        if self._log is None:
            return 0
        return int(self._log[2][0 if player is None else self.seat(player) + 1])

    # -- portable state (core/portable.py) ----------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (hidden parts and future chance included):
        ``game.from_json(state.to_json())`` gives back an equal state."""
        from cove.core import portable
        return portable.state_json(self)

    def _all_events(self) -> list[Event]:
        out: list[Event] = []
        node = self._log
        while node is not None:
            node, ev, _ = node
            out.append(ev)
        out.reverse()
        return out

    def fingerprint(self) -> str:
        """A digest of the whole state (hidden parts, history, log and RNG included):
        equal exactly when ``to_json`` is equal. The history and the log are hashed link by
        link (:mod:`cove.core.digest`), so fingerprinting a state, its clones and copies
        played a little further costs what changed, not the whole game again."""
        from cove.core import portable
        return portable.fingerprint(self)

    def __getstate__(self) -> dict[str, Any]:
        from cove.core import portable
        return portable.pickled(self)

    def __setstate__(self, data: dict[str, Any]) -> None:
        from cove.core import portable
        portable.unpickle(self, data)

    # -- helpers for subclasses ------------------------------------------------------------
    def _clone_base(self) -> Any:
        s = type(self)()  # a state class takes no arguments (Game.start sets it up)
        s.game = self.game
        s.n = self.n
        s.options = self.options
        s.seed = self.seed
        s.rng = self.rng.copy()
        s.logging = self.logging
        s._hist = self._hist
        s._nhist = self._nhist
        s._log = self._log
        s._nlog = self._nlog
        s._legal = self._legal
        s._legal_for = self._legal_for
        s._steps = self._steps
        s._secret_next = self._secret_next
        s._reveal_at = self._reveal_at
        s._observed = None
        return s

    def __repr__(self) -> str:
        over = self.is_over
        return f"<{self.game.id} state: {self.n} players, {self._nhist} actions, over={over}>"


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _preview(legal: Sequence[Action], limit: int = 12) -> str:
    texts = [str(a) for a in legal[:limit]]
    more = f" ... ({len(legal) - limit} more)" if len(legal) > limit else ""
    return ", ".join(texts) + more if texts else "(none)"
