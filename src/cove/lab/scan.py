"""``cove scan``: restricted players look for dominant and useless options, after Jaffe et
al. (AIIDE 2012): a player barred from an option, or held to it, against players who may
choose freely.

Options. An option is an action kind (the ``kind`` of an action's JSON form: ``by="kind"``,
the default) or one entry of the game's action space (``by="action"``, named by its
text). Sample games with the base bot in every seat find the options that were a real
choice: legal while something else was legal too. The ``top`` options chosen most often
are scanned (all of them with ``top=0``).

Restrictions. For each option X, two restricted players: ``never X`` plays something other
than X whenever anything else is legal, ``always X`` plays X whenever X is legal. Within
what its restriction allows, the restricted player keeps the base bot's own choice; when
the restriction forbids that choice it takes the allowed action the base bot's heuristic
rates best one step ahead (the ``greedy`` bot's lookahead), so the restriction, not a
weaker way of choosing, is what is measured.

Pairing. Each restriction plays ``games`` games: in game g the restricted player sits in
seat g mod players and the base bot in every other seat. The same games (same seeds)
are played once more with the base bot in that seat too, so each game gives a paired
difference of that seat's win share (ties split); its mean and 95% interval are the
restriction's effect. Only games in which the restriction changed a decision differ.

Verdicts, from the interval of the effect:
- ``always X`` above 0: X looks dominant (holding to it beats choosing freely);
- ``never X`` above 0: X looks like a trap (avoiding it beats choosing freely);
- ``never X`` inside +-5 points of win share (``SMALL``) although it changed a decision
  in at least a fifth of the games (``BITES``): avoiding X cost next to nothing, so X
  may be useless.

A wide interval gives no verdict: more games narrow it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cove.bots import Bot, make_bot
from cove.bots.evaluate import lookahead, values_fn
from cove.core.errors import CoveError
from cove.core.game import Game
from cove.core.state import Action, State
from cove.games import load
from cove.lab.runner import action_kind, advance, game_seed
from cove.lab.stats import mean_ci

BY = ("kind", "action")
BITES = 0.2
"""The share of games a ``never X`` must change a decision in for a verdict of useless."""
SMALL = 0.05
"""The win share within which an effect counts as nothing (the equivalence margin)."""

Progress = Callable[[int, int], None]


class ScanError(CoveError, ValueError):
    """Bad input to a scan: what was wrong and what is valid."""


@dataclass(frozen=True)
class Restriction:
    """``never`` or ``always`` the option ``option``."""

    rule: str
    option: str

    def allowed(self, labels: Sequence[str]) -> list[int]:
        """The positions of the legal actions (labelled ``labels``) this restriction
        allows; all of them when it allows none (a forced move stays forced)."""
        if self.rule == "never":
            keep = [i for i, label in enumerate(labels) if label != self.option]
        else:
            keep = [i for i, label in enumerate(labels) if label == self.option]
        return keep or list(range(len(labels)))

    def __str__(self) -> str:
        return f"{self.rule} {self.option}"


Labeller = Callable[[State, int, Sequence[Action]], list[str]]


def labeller(game: Game, by: str, players: int, options: dict[str, Any]) -> Labeller:
    """How a legal action is named as an option: its kind, or its action-space entry."""
    if by not in BY:
        raise ScanError(f"by={by!r} is not valid; scan by one of: {', '.join(BY)}")
    if by == "kind":
        return lambda state, p, legal: [action_kind(a) for a in legal]
    names = [str(entry) for entry in game.action_space(players, **options).universe]

    def by_action(state: State, p: int, legal: Sequence[Action]) -> list[str]:
        return [names[i] for i in state.legal_indices(p)]
    return by_action


class Restricted(Bot):
    """The base bot held to a restriction (see the module's text). ``changed`` counts
    the decisions the restriction changed."""

    name = "restricted"

    def __init__(self, base: Bot, restriction: Restriction, label: Labeller,
                 seed: int = 0) -> None:
        super().__init__(seed)
        self.base = base
        self.restriction = restriction
        self.label = label
        self.changed = 0

    def act(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        allowed = self.restriction.allowed(self.label(state, player, legal))
        choice = self.base.act(state, player)
        if len(allowed) == len(legal) or legal.index(choice) in allowed:
            return choice
        self.changed += 1
        return self.choose(state.for_player(player, self.rng), player,
                           [legal[i] for i in allowed])

    def choose(self, state: State, player: int,
               allowed: Sequence[Action] | None = None) -> Action:
        options = list(allowed if allowed is not None else state.legal_actions(player))
        if len(options) == 1:
            return options[0]
        rated = lookahead(state, player, options, values_fn(state), self.rng, 1)
        best = max(rated)
        return options[rated.index(best)]


def _share(state: State, seat: int) -> float:
    winners = state.winners()
    return 1.0 / len(winners) if seat in winners else 0.0


def _play(game: Game, players: int, seed: int, bots: list[Bot],
          options: dict[str, Any]) -> State:
    state = game.new(players, seed, log=False, **options)
    advance(state, lambda s, p: bots[p].act(s, p))
    return state


def sample_options(game: Game, players: int, base: str, label: Labeller, games: int,
                   seed: int, options: dict[str, Any]) -> dict[str, int]:
    """How often each option was chosen in ``games`` sample games of the base bot in
    every seat, counting only decisions in which it was a real choice."""
    chosen: dict[str, int] = {}
    for g in range(games):
        s = game_seed(seed, 10_000 + g)
        bots = [make_bot(base, seed=game_seed(s, 1000 + p)) for p in range(players)]
        state = game.new(players, s, log=False, **options)

        def choose(state: State, p: int, bots: list[Bot] = bots) -> Action:
            legal = state.legal_actions(p)
            action = bots[p].act(state, p)
            labels = label(state, p, legal)
            if len(set(labels)) > 1:
                name = labels[legal.index(action)]
                chosen[name] = chosen.get(name, 0) + 1
            return action
        advance(state, choose)
    return chosen


def run_scan(game_id: str, players: int, base: str = "greedy", games: int = 200,
             seed: int = 1, options: dict[str, Any] | None = None, by: str = "kind",
             top: int = 12, sample: int = 20, progress: Progress | None = None
             ) -> dict[str, Any]:
    """Scan ``game_id``'s options (see the module's text). Returns a JSON-ready dict:
    ``game``, ``players``, ``base``, ``games``, ``by``, ``options`` (the game's),
    ``sampled`` (option -> times chosen), ``restrictions`` (per restriction: ``rule``,
    ``option``, ``effect``, ``ci_low``, ``ci_high``, ``changed_games``, ``verdict``) and
    ``findings`` (the restrictions with a verdict), ``seconds``."""
    game = load(game_id)
    opts = dict(options or {})
    probe = game.new(players, seed, log=False, **opts)  # checks players and options
    make_bot(base)  # checks the spec
    for what, value, least in (("games", games, 1), ("top", top, 0), ("sample", sample, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ScanError(f"{what} must be a whole number >= {least}, not {value!r}")
    label = labeller(game, by, players, opts)
    start = time.perf_counter()
    chosen = sample_options(game, players, base, label, sample, seed, opts)
    scanned = sorted(chosen, key=lambda o: (-chosen[o], o))
    if top:
        scanned = scanned[:top]
    restrictions = [Restriction(rule, o) for o in scanned for rule in ("never", "always")]
    rows = []
    total = len(restrictions) * games
    for k, restriction in enumerate(restrictions):
        diffs: list[float] = []
        changed_games = 0
        for g in range(games):
            s = game_seed(seed, g)
            seat = g % players
            bots = [make_bot(base, seed=game_seed(s, 1000 + p)) for p in range(players)]
            free = _share(_play(game, players, s, bots, opts), seat)
            bots = [make_bot(base, seed=game_seed(s, 1000 + p)) for p in range(players)]
            held = Restricted(bots[seat], restriction, label, seed=game_seed(s, 2000))
            bots[seat] = held
            diffs.append(_share(_play(game, players, s, bots, opts), seat) - free)
            changed_games += held.changed > 0
            if progress is not None:
                progress(k * games + g + 1, total)
        effect, low, high = mean_ci(diffs)
        row = {"rule": restriction.rule, "option": restriction.option, "effect": effect,
               "ci_low": low, "ci_high": high, "changed_games": changed_games}
        row["verdict"] = verdict(restriction.rule, low, high, changed_games / games)
        rows.append(row)
    return {"game": game.id, "players": players, "base": base, "games": games,
            "seed": seed, "by": by, "options": probe.options.to_dict(), "sampled": chosen,
            "restrictions": rows, "findings": [r for r in rows if r["verdict"]],
            "seconds": time.perf_counter() - start}


def verdict(rule: str, low: float, high: float, changed_share: float) -> str:
    """The finding a restriction's effect interval supports, or "" (module text)."""
    if low > 0:
        return "dominant" if rule == "always" else "trap"
    if rule == "never" and low >= -SMALL and high <= SMALL and changed_share >= BITES:
        return "useless?"
    return ""


def format_scan(result: dict[str, Any]) -> str:
    """The scan as a table a person reads, findings first."""
    lines = [f"scan {result['game']}, {result['players']} players, base bot "
             f"{result['base']}, {result['games']} paired games per restriction, by "
             f"{result['by']}"]
    meaning = {"dominant": "holding to it beats choosing freely",
               "trap": "avoiding it beats choosing freely",
               "useless?": "avoiding it cost next to nothing"}
    findings = result["findings"]
    if findings:
        lines.append("What stands out:")
        for r in findings:
            lines.append(f"  {r['rule']} {r['option']}: {r['verdict']} ({meaning[r['verdict']]}:"
                         f" win share {r['effect']:+.1%}, 95% {r['ci_low']:+.1%} to "
                         f"{r['ci_high']:+.1%})")
    else:
        lines.append("Nothing stands out: no restriction changed the win share beyond its "
                     "interval.")
    lines.append(f"{'restriction':32} {'effect':>8} {'95% interval':>18} {'changed':>8}")
    for r in result["restrictions"]:
        name = f"{r['rule']} {r['option']}"[:32]
        lines.append(f"{name:32} {r['effect']:>+8.1%} {r['ci_low']:>+8.1%} to "
                     f"{r['ci_high']:>+7.1%} {r['changed_games']:>8}")
    lines.append(f"({result['seconds']:.1f} s)")
    return "\n".join(lines)
