"""The state half of the contract: what every game's state class inherits.

A game subclasses :class:`State` and fills in a handful of hooks (``setup``,
``to_move``, ``_legal_actions``, ``_apply``, ``is_over``, ``scores``, ``_view``,
``clone``; ``_resample`` for hidden information). The base class owns everything that
must behave the same in every game:

- validation: ``apply`` checks the mover and the action against ``legal_actions``
  *before* calling ``_apply``, so an illegal action raises :class:`IllegalAction` and
  leaves the state untouched;
- the seeded RNG (``self.rng``), the action history and ``record()``;
- the per-player event log (``say``), kept as a persistent linked list so ``clone()``
  shares it in O(1);
- ``redeterminize``: a clone whose hidden parts (and future chance) are resampled.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from cove.core.errors import IllegalAction
from cove.core.rng import Rng

if TYPE_CHECKING:
    from cove.core.game import Game
    from cove.core.options import Options

Action = Hashable
"""An action is a small frozen value whose ``str()`` is its stable text form."""


class Event(NamedTuple):
    """One line of the game log. ``to`` is None for everyone, else the players who see it."""

    seq: int
    text: str
    to: tuple[int, ...] | None


# A persistent singly linked list: (previous node, payload). Sharing tails makes clone O(1).
_Node = tuple[Any, Any]


class State(ABC):
    """Base of every game state. Players are seats ``0 .. players-1``."""

    __slots__ = (
        "_hist",
        "_legal",
        "_log",
        "_nhist",
        "_nlog",
        "game",
        "logging",
        "n",
        "options",
        "rng",
        "seed",
    )

    game: Game
    n: int
    options: Options
    seed: int
    rng: Rng
    logging: bool

    # -- construction (called by Game.new) ---------------------------------------------
    def _init_base(self, game: Game, players: int, seed: int, options: Options, log: bool) -> None:
        self.game = game
        self.n = players
        self.options = options
        self.seed = seed
        self.rng = Rng(seed)
        self.logging = log
        self._hist: _Node | None = None
        self._nhist = 0
        self._log: _Node | None = None
        self._nlog = 0
        self._legal: tuple[int, Sequence[Action]] | None = None

    @abstractmethod
    def setup(self) -> None:
        """Set up the table from ``self.n``, ``self.options`` and ``self.rng``."""

    # -- hooks a game implements -----------------------------------------------------------
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Players who must decide now; () when the game is over; >1 = simultaneous."""

    @abstractmethod
    def _legal_actions(self, player: int) -> Sequence[Action]:
        """Legal actions for a player in ``to_move()``; never empty for such a player."""

    @abstractmethod
    def _apply(self, player: int, action: Action) -> None:
        """Carry out a legal action (already validated by ``apply``)."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

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

    # -- the contract ------------------------------------------------------------------------
    def legal_actions(self, player: int) -> Sequence[Action]:
        """Legal actions for ``player`` (empty if it is not their turn). Do not mutate."""
        cached = self._legal
        if cached is not None and cached[0] == player:
            return cached[1]
        if player not in self.to_move():
            return ()
        acts = self._legal_actions(player)
        self._legal = (player, acts)
        return acts

    def apply(self, player: int, action: Action | str) -> None:
        """Apply ``action`` (an action value or its text form) for ``player``.

        Raises :class:`IllegalAction` with the reason, leaving the state unchanged.
        """
        movers = self.to_move()
        if player not in movers:
            if not movers:
                raise IllegalAction("the game is over; no player can act")
            who = ", ".join(f"P{p + 1}" for p in movers)
            raise IllegalAction(f"it is not P{player + 1}'s turn; to move: {who}")
        legal = self.legal_actions(player)
        if isinstance(action, str):
            found = self.find_action(player, action)
            if found is None:
                why = self.explain_illegal(player, action)
                raise IllegalAction(
                    (f"{why}. " if why else "")
                    + f"{action!r} is not a legal move for P{player + 1} now; legal: "
                    + _preview(legal)
                )
            action = found
        elif action not in legal:
            raise IllegalAction(
                f"{action!s} is not a legal move for P{player + 1} now; legal: " + _preview(legal)
            )
        self._legal = None
        self._hist = (self._hist, (player, action))
        self._nhist += 1
        self._apply(player, action)

    def find_action(self, player: int, text: str) -> Action | None:
        """The legal action whose text form is ``text`` (whitespace/case tolerant)."""
        want = " ".join(text.split()).lower()
        for a in self.legal_actions(player):
            if str(a).lower() == want:
                return a
        return None

    def view(self, player: int | None = None) -> dict[str, Any]:
        """JSON-ready dict of what ``player`` may see; None is a spectator."""
        if player is not None and not (0 <= player < self.n):
            raise ValueError(f"no player {player}; players are 0..{self.n - 1}")
        over = self.is_over
        v: dict[str, Any] = {
            "game": self.game.id,
            "players": self.n,
            "you": player,
            "to_move": list(self.to_move()),
            "over": over,
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

    def redeterminize(self, player: int, rng: Rng) -> State:
        """A copy in which everything ``player`` cannot see is resampled from ``rng``,
        consistent with what ``player`` knows; its future chance is reseeded too, so a
        search never learns the real deck order. ``self`` is unchanged."""
        s = self.clone()
        s.rng = rng.spawn()
        s._resample(player, rng)
        s._legal = None
        return s

    @property
    def history(self) -> list[tuple[int, Action]]:
        out: list[tuple[int, Action]] = []
        node = self._hist
        while node is not None:
            node, item = node
            out.append(item)
        out.reverse()
        return out

    @property
    def log_length(self) -> int:
        """How many events have been logged (for "what is new since" displays)."""
        return self._nlog

    @property
    def decisions(self) -> int:
        """How many actions have been applied."""
        return self._nhist

    def record(self) -> dict[str, Any]:
        """Everything needed to replay this game: ``cove.replay(state.record())``."""
        return {
            "game": self.game.id,
            "version": self.game.version,
            "players": self.n,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "actions": [[p, str(a)] for p, a in self.history],
        }

    # -- the log -----------------------------------------------------------------------------
    def say(self, text: str, to: Iterable[int] | int | None = None) -> None:
        """Log an event for everyone (``to=None``) or only for some players."""
        if not self.logging:
            return
        who = (to,) if isinstance(to, int) else (tuple(to) if to is not None else None)
        self._log = (self._log, Event(self._nlog, text, who))
        self._nlog += 1

    def events(self, player: int | None = None, since: int = 0) -> list[Event]:
        """The events ``player`` may see (spectator: public ones only), numbered 0, 1, ...
        in the order that viewer saw them, from number ``since`` on.

        Numbering is per viewer on purpose: a global number would show a player the gaps
        left by other players' private events (how many secret choices were made)."""
        visible: list[Event] = []
        node = self._log
        while node is not None:
            node, ev = node
            if ev.to is None or (player is not None and player in ev.to):
                visible.append(ev)
        visible.reverse()
        return [Event(i, ev.text, ev.to) for i, ev in enumerate(visible) if i >= since]

    def log_count(self, player: int | None = None) -> int:
        """How many events ``player`` may see so far (for "what is new since")."""
        return len(self.events(player))

    # -- helpers for subclasses ------------------------------------------------------------
    def _clone_base(self) -> Any:
        s = object.__new__(type(self))
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
        return s

    def __repr__(self) -> str:
        over = self.is_over
        return f"<{self.game.id} state: {self.n} players, {self._nhist} actions, over={over}>"


def _preview(legal: Sequence[Action], limit: int = 12) -> str:
    texts = [str(a) for a in legal[:limit]]
    more = f" ... ({len(legal) - limit} more)" if len(legal) > limit else ""
    return ", ".join(texts) + more if texts else "(none)"
