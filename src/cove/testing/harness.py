"""``random_sim_test``: random games of one configuration, checked at every step.

Like OpenSpiel's ``RandomSimTest``, one function holds every game to the whole contract,
so a game gets the checks by being registered. Cheap checks run after every action; the
costly ones (clones played out, redeterminized copies, portable state round trips) run at
a sample of live positions. Every failure is a :class:`HarnessError` that names the game,
the configuration, the check, and the moves that reach the position, so it reproduces.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cove.bots import Bot, make_bot
from cove.core.actions import action_json
from cove.core.errors import CoveError, IllegalAction
from cove.core.game import Game
from cove.core.record import replay
from cove.core.registry import load
from cove.core.rng import Rng, ScriptRng
from cove.core.state import HIDDEN, State

SHORT_PLAYOUT = 30  # moves a redeterminized copy plays when it is not played to the end


class HarnessError(AssertionError):
    """A contract check failed; the message says which, where and how to get there."""


@dataclass
class Report:
    """What a run checked (returned so tests can assert the checks were not vacuous)."""

    games: int = 0
    actions: int = 0
    positions: int = 0
    live_positions: int = 0
    checks: dict[str, int] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)
    """How the games ended: ``stats()["end"]`` (e.g. "goal", a safety end), "?" when a
    game does not say."""

    def count(self, name: str) -> None:
        self.checks[name] = self.checks.get(name, 0) + 1


class _Ctx:
    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any],
                 bots: Sequence[str] | None = None) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.moves: list[tuple[int, str]] = []
        self.specs = list(bots) if bots else None
        self.bots = self.seated()

    def seated(self) -> list[Bot] | None:
        """Fresh bots for the seats (the same seeds every time), or None: random moves."""
        if self.specs is None:
            return None
        return [make_bot(spec, seed=self.seed * 10 + p) for p, spec in enumerate(self.specs)]

    def fail(self, check: str, detail: str) -> HarnessError:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        moves = json.dumps([[p, t] for p, t in self.moves[-12:]])
        return HarnessError(
            f"{self.game.id} ({self.players} players, seed {self.seed}{opts}), "
            f"after {len(self.moves)} move{'' if len(self.moves) == 1 else 's'}: {check}: "
            f"{detail}\n  last moves: {moves}"
        )


def option_variants(game_id: str) -> list[dict[str, Any]]:
    """The default options, then one configuration per non-default value of each option
    (every choice, both booleans, an int's minimum and maximum, a set option's other
    choices, a per-seat list reversed), as keyword dicts."""
    game = load(game_id)
    out: list[dict[str, Any]] = [{}]
    for f in dataclasses.fields(game.options_cls):
        d, m = f.default, f.metadata
        values: list[Any] = []
        if isinstance(d, bool):
            values = [not d]
        elif m.get("choices") is not None and not isinstance(d, tuple):
            values = [c for c in m["choices"] if c != d]
        elif isinstance(d, tuple) and m.get("per_seat"):
            values = [tuple(reversed(d))]  # every seat another entry
        elif isinstance(d, tuple) and m.get("choices") is not None:
            values = [tuple(c for c in m["choices"] if c not in d) or ()]
        elif isinstance(d, int):
            values = [v for v in (m.get("minimum"), m.get("maximum")) if v is not None and v != d]
            values = [int(v) for v in values if abs(v) < 10_000]
        out += [{f.name: v} for v in values]
    return out


def random_sim_test(game_id: str, players: int, games: int = 2, seed: int = 0,
                    samples: int = 6, view_stride: int = 1, bots: Sequence[str] | None = None,
                    **options: Any) -> Report:
    """Play ``games`` random games of ``game_id`` and check the contract; returns what was
    checked, raises :class:`HarnessError` on the first failure. ``samples``: how many live
    positions per game get the costly checks; ``view_stride``: the replay compares the
    spectator's view before every ``view_stride``-th action (1: before every action), the
    positions compared shifting with the seed. ``bots``: one bot spec per seat to choose
    the moves instead of random choices (the mover of a simultaneous step is still drawn
    at random)."""
    game = load(game_id)
    rep = Report()
    if bots is not None and len(bots) != players:
        raise ValueError(f"bots needs one spec per seat ({players}), got {len(bots)}")
    for i in range(games):
        ctx = _Ctx(game, players, seed * 1000 + i, options, bots)
        try:
            _one_game(ctx, rep, samples, max(1, view_stride))
        except HarnessError:
            raise
        except Exception as e:  # a crash inside a game is a finding, with its moves
            raise ctx.fail("crash", f"{type(e).__name__}: {e}") from e
        rep.games += 1
    if rep.positions and rep.live_positions < 0.95 * rep.positions:
        raise HarnessError(f"{game_id}: only {rep.live_positions} of {rep.positions} sampled "
                           "positions were live: the costly checks were mostly vacuous")
    return rep


def _one_game(ctx: _Ctx, rep: Report, samples: int, stride: int) -> None:
    game = ctx.game
    state = game.new(ctx.players, ctx.seed, **ctx.options)
    opts = state.options
    bound = game.max_actions(ctx.players, opts) if game.max_actions else 100_000
    rng = Rng(ctx.seed + 17)
    # Sample positions spread over the expected length (played once to measure it).
    probe = game.new(ctx.players, ctx.seed, log=False, **ctx.options)
    length = _play_random(probe, Rng(ctx.seed + 17), bound, ctx.seated())
    sample_at = {max(0, (k * length) // (samples + 1)) for k in range(1, samples + 1)}
    rep.positions += len(sample_at)  # a planned position the game never reaches is not live
    spectator_views: dict[int, str] = {0: _dump(state.view(None))}
    old_actions: list[tuple[int, Any]] = []
    _check_step(ctx, rep, state)
    while not state.is_over:
        if state.decisions >= bound:
            raise ctx.fail("bound", f"the game did not end within max_actions={bound}")
        if state.decisions in sample_at:
            rep.live_positions += 1
            _check_position(ctx, rep, state, old_actions, rep.live_positions)
        movers = state.to_move()
        p = movers[rng.below(len(movers))]
        legal = state.legal_actions(p)
        a = legal[rng.below(len(legal))] if ctx.bots is None else ctx.bots[p].act(state, p)
        old_actions = [(p, x) for x in legal if x != a][:3]
        state.apply(p, a)
        ctx.moves.append((p, str(a)))
        rep.actions += 1
        _check_step(ctx, rep, state)
        if ctx.game.simultaneous:
            _check_commit_hidden(ctx, rep, state, movers)
        if (state.decisions + ctx.seed) % stride == 0:
            spectator_views[state.decisions] = _dump(state.view(None))
    _check_end(ctx, rep, state, spectator_views)


def _play_random(state: State, rng: Rng, bound: int, bots: list[Bot] | None = None) -> int:
    """Play on as the checked game plays (random moves, or ``bots``); its length."""
    while not state.is_over and state.decisions < bound:
        movers = state.to_move()
        p = movers[rng.below(len(movers))]
        legal = state.legal_actions(p)
        state.apply(p, legal[rng.below(len(legal))] if bots is None else bots[p].act(state, p))
    return state.decisions


def _dump(v: Any) -> str:
    return json.dumps(v, sort_keys=True, allow_nan=False)


# -- after every action ---------------------------------------------------------------------
def _check_step(ctx: _Ctx, rep: Report, state: State) -> None:
    try:
        state.check_invariants()
    except AssertionError as e:
        raise ctx.fail("invariants", str(e) or "check_invariants failed") from None
    rep.count("invariants")
    movers = state.to_move()
    for p in movers:
        legal = state.legal_actions(p)
        if not legal:
            raise ctx.fail("legal actions", f"P{p + 1} is to move but has no legal action")
        texts = [str(a) for a in legal]
        if len(set(texts)) != len(texts):
            dup = sorted({t for t in texts if texts.count(t) > 1})
            raise ctx.fail("action texts", f"not unique for P{p + 1}: {dup[:5]}")
        for t in texts:
            if t != t.lower() or t != " ".join(t.split()) or not t:
                raise ctx.fail("action texts", f"{t!r} is not lower case and single-spaced")
        rep.count("action texts")
        prompt = state.decision(p).get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            raise ctx.fail("decision", f"decision(P{p + 1}) has no prompt")
        rep.count("decision prompt")


def _check_commit_hidden(ctx: _Ctx, rep: Report, state: State, movers_before: tuple[int, ...]
                         ) -> None:
    """An action taken while several players were to move is a simultaneous commitment:
    while the others still decide, nobody else may see it (history, redacted record).
    Each commitment is checked from one observer, the observer rotating (the spectator and
    every other seat in turn): reading a whole history per observer per move made this
    check quadratic in the game's length."""
    last_p = ctx.moves[-1][0]
    movers = state.to_move()
    if len(movers_before) < 2 or not movers or last_p in movers:
        return
    observers = [q for q in [None, *range(state.n)] if q != last_p]
    for q in (observers[len(ctx.moves) % len(observers)],):
        if state.history_for(q)[-1][1] is not None:
            who = "a spectator" if q is None else f"P{q + 1}"
            raise ctx.fail("secrecy", f"P{last_p + 1}'s commitment {ctx.moves[-1][1]!r} is in "
                           f"the history {who} sees before the reveal")
        rec = state.record(q) if q is not None else state.record(redacted=True)
        if rec["actions"][-1][1] != HIDDEN:
            raise ctx.fail("secrecy", "a redacted record shows a commitment before the reveal")
    rep.count("commitments hidden")


# -- at sampled live positions ------------------------------------------------------------------
def _check_position(ctx: _Ctx, rep: Report, state: State,
                    old_actions: Sequence[tuple[int, Any]], index: int = 0) -> None:
    """The costly checks at one live position. Copies are played to the end (the clone,
    and one seat's redeterminized copy, the seat rotating with ``index``); the other
    seats' copies play a short stretch, which is where a shared mutable part shows."""
    n = state.n
    fp = state.fingerprint()
    views = {p: state.view(p) for p in [None, *range(n)]}
    for p, v in views.items():
        try:
            _dump(v)
        except (TypeError, ValueError) as e:
            raise ctx.fail("views", f"view({p}) is not JSON: {e}") from None
    rep.count("views are JSON")
    _check_score_parts(ctx, rep, state, views)
    _check_private(ctx, rep, state, views)
    # clone independence, on the whole state
    c = state.clone()
    if c.fingerprint() != fp:
        raise ctx.fail("clone", "a fresh clone's fingerprint differs from the original's")
    _play_random(c, Rng(1), 10_000)
    if state.fingerprint() != fp:
        raise ctx.fail("clone", "playing on a clone changed the original")
    rep.count("clone independence")
    for p in range(n):
        d = state.redeterminize(p, Rng(p + 5))
        if d.view(p) != views[p]:
            raise ctx.fail("redeterminize", f"view(P{p + 1}) changed: "
                           f"{_diff(views[p], d.view(p))}")
        if d.infoset_key(p) != state.infoset_key(p):
            raise ctx.fail("infoset_key", f"P{p + 1}'s key changed under redeterminize")
        _play_random(d, Rng(2), 10_000 if p == index % n else SHORT_PLAYOUT)
        if state.fingerprint() != fp:
            raise ctx.fail("redeterminize", "playing on a redeterminized copy changed the "
                           "original")
        fpv = state.for_player(p)
        if fpv.view(p) != views[p]:
            raise ctx.fail("for_player", f"view(P{p + 1}) differs in for_player(P{p + 1})")
        # perfect recall: any move, even another player's secret one, is new information
        nxt = state.clone()
        mover = nxt.to_move()[0]
        nxt.apply(mover, nxt.legal_actions(mover)[0])
        if nxt.infoset_key(p) == state.infoset_key(p):
            raise ctx.fail("infoset_key", f"P{p + 1}'s key is unchanged after a move by "
                           f"P{mover + 1}")
    rep.count("redeterminize")
    _check_illegal(ctx, rep, state, fp, old_actions)
    _check_spaces(ctx, rep, state)
    _check_portable(ctx, rep, state, fp)


def _check_score_parts(ctx: _Ctx, rep: Report, state: State,
                       views: dict[int | None, Any]) -> None:
    """The game's score parts can be read from every view; once over they add up to the
    score in every view."""
    parts_of = ctx.game.score_parts
    if parts_of is None:
        return
    scores = state.scores() if state.is_over else None
    for p, view in views.items():
        for q in range(state.n):
            try:
                parts = list(parts_of(view, q))
            except Exception as e:  # any failure is the finding
                raise ctx.fail("score parts", f"score_parts(view({p}), P{q + 1}) failed: "
                               f"{type(e).__name__}: {e}") from None
            if scores is not None and abs(sum(v for _, v in parts) - scores[q]) > 1e-9:
                raise ctx.fail("score parts", f"P{q + 1}'s parts in view({p}) add up to "
                               f"{sum(v for _, v in parts):g}, not the score {scores[q]:g}: "
                               + ", ".join(f"{k} {v:g}" for k, v in parts))
    rep.count("score parts")


def _check_private(ctx: _Ctx, rep: Report, state: State, views: dict[int | None, Any]) -> None:
    for p in range(state.n):
        items = state.private_items(p)
        for name, value in items.items():
            if _trivial(value):
                continue
            for q, v in views.items():
                if q != p and _contains(v, value):
                    raise ctx.fail("secrecy", f"P{p + 1}'s private {name} appears in "
                                   f"{'the spectator' if q is None else f'P{q + 1}'}'s view")
            rep.count("private items")


def _trivial(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float)) or (
        isinstance(value, (list, dict, str, tuple)) and len(value) == 0)


def _contains(tree: Any, value: Any) -> bool:
    if tree == value:
        return True
    if isinstance(tree, dict):
        return any(_contains(v, value) for v in tree.values())
    if isinstance(tree, list):
        return any(_contains(v, value) for v in tree)
    return False


def _check_illegal(ctx: _Ctx, rep: Report, state: State, fp: str,
                   old_actions: Sequence[tuple[int, Any]]) -> None:
    movers = state.to_move()
    p = movers[0]
    legal = state.legal_actions(p)
    tries: list[tuple[int, Any, str]] = [
        (p, "zz not a move 9", "garbage text"),
        (p, "", "empty text"),
        (p, tuple(legal[:1]), "a tuple holding a legal action"),
        (p, 10**30, "a huge number"),
        (p, {"kind": "no such kind"}, "an unknown JSON form"),
    ]
    for q in range(state.n):
        if q not in movers:
            tries.append((q, legal[0], "another player's move"))
            break
    for q, a in old_actions:  # another position's move, not legal for its player now
        now = state.legal_actions(q) if q in movers else ()
        if q in movers and a not in now and str(a) not in {str(x) for x in now}:
            tries.append((q, a, "a move from another position"))
    for q, a, what in tries:
        try:
            state.apply(q, a)
        except IllegalAction:
            pass
        except CoveError as e:
            raise ctx.fail("illegal input", f"{what} raised {type(e).__name__}, "
                           "not IllegalAction") from None
        else:
            raise ctx.fail("illegal input", f"{what} ({str(a)[:40]!r}) was accepted")
        if state.fingerprint() != fp:
            raise ctx.fail("illegal input", f"{what} changed the state")
    rep.count("illegal input refused")


def _check_spaces(ctx: _Ctx, rep: Report, state: State) -> None:
    game = ctx.game
    if game.actions is None:
        raise ctx.fail("action space", f"{game.id} declares no action universe")
    space = state.action_space
    for p in state.to_move():
        legal = state.legal_actions(p)
        seen: dict[int, Any] = {}
        for a in legal:
            i = space.encode(a)
            if i in seen:
                raise ctx.fail("action space", f"{a} and {seen[i]} share index {i}")
            seen[i] = a
            back = space.decode(i, state, p)
            if back is not a and back != a:
                raise ctx.fail("action space", f"decode(encode({a})) gave {back}")
            j = action_json(a)
            _dump(j)
            if not isinstance(j.get("kind"), str):
                raise ctx.fail("action json", f"{a}'s JSON form has no kind")
        indices = state.legal_indices(p)
        if (type(indices) is not list or any(type(i) is not int for i in indices)
                or indices != [space.encode(a) for a in legal]):
            raise ctx.fail("legal indices", f"legal_indices gave {indices!r} for legal "
                           f"actions encoded {[space.encode(a) for a in legal]}")
        mask = state.legal_mask(p)
        if len(mask) != space.size or [i for i, m in enumerate(mask) if m] != sorted(seen):
            raise ctx.fail("legal mask", f"mask has {sum(mask)} of {len(mask)} set for "
                           f"{len(legal)} legal actions in a space of {space.size}, "
                           f"not exactly at their indices")
        obs = state.observation(p)
        if any(type(x) not in (float, int) for x in obs):
            raise ctx.fail("observation", "observation holds values that are not numbers")
        # a JSON-form move lands exactly like the value
        a = legal[-1]
        c1, c2 = state.clone(), state.clone()
        c1.apply(p, a)
        c2.apply(p, action_json(a))
        if c1.fingerprint() != c2.fingerprint():
            raise ctx.fail("action json", f"applying {a} by its JSON form differs")
    rep.count("action space")


def _check_portable(ctx: _Ctx, rep: Report, state: State, fp: str) -> None:
    data = json.loads(json.dumps(state.to_json()))
    back = ctx.game.from_json(data)
    if back.fingerprint() != fp:
        raise ctx.fail("to_json", "from_json(to_json()) gives another state")
    a, b = state.clone(), back
    _play_random(a, Rng(9), 400)
    _play_random(b, Rng(9), 400)
    if a.fingerprint() != b.fingerprint():
        raise ctx.fail("to_json", "a state read back plays on differently")
    p2 = pickle.loads(pickle.dumps(state))
    if p2.fingerprint() != fp:
        raise ctx.fail("pickle", "pickle round trip gives another state")
    rep.count("portable state")


# -- at the end --------------------------------------------------------------------------------
def _check_end(ctx: _Ctx, rep: Report, state: State, spectator_views: dict[int, str]
               ) -> None:
    n = state.n
    if state.to_move() != ():
        raise ctx.fail("end", "the game is over but to_move() is not empty")
    scores = state.scores()
    if len(scores) != n:
        raise ctx.fail("end", f"{len(scores)} scores for {n} players")
    _check_score_parts(ctx, rep, state, {p: state.view(p) for p in [None, *range(n)]})
    rec = json.loads(json.dumps(state.record()))
    again = replay(rec, log=True)
    if again.fingerprint() != state.fingerprint():
        raise ctx.fail("replay", "replaying the record gives another state")
    # Step by step, the spectator views kept along the way come back: from the recorded
    # chance outcomes when the game has chance (so all of it went through self.rng),
    # else from the seed.
    chance = "chance" in rec
    if chance:
        step = ctx.game.start(n, rec["seed"], options=ctx.options,
                              rng=ScriptRng([(a, b) for a, b in rec["chance"]]))
    else:
        step = ctx.game.new(n, rec["seed"], **ctx.options)
    check = "chance record" if chance else "replay"
    for i, (p, text) in enumerate(rec["actions"]):
        if i in spectator_views and _dump(step.view(None)) != spectator_views[i]:
            raise ctx.fail(check, f"the view before action #{i + 1} differs on replay")
        step.apply(p, text)
    if step.view(None) != state.view(None) or step.scores() != scores:
        raise ctx.fail(check, "replaying the record step by step gives another game")
    rep.count("replay")
    if chance:
        rep.count("chance record")
    for p in range(n):
        red = state.record(p)
        if "seed" in red or "chance" in red:
            raise ctx.fail("redaction", "a redacted record holds the seed or chance outcomes")
    p2 = pickle.loads(pickle.dumps(state))
    if p2.fingerprint() != state.fingerprint():
        raise ctx.fail("pickle", "a finished game does not survive pickling")
    rep.count("end")
    end = state.stats().get("end")
    key = end if isinstance(end, str) else "?"
    rep.ends[key] = rep.ends.get(key, 0) + 1


def _diff(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return _diff(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _diff(x, y, f"{path}[{i}]")
    return f"{path or 'view'}: {str(a)[:80]} != {str(b)[:80]}"


def configurations(game_ids: Sequence[str]) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Every (game, player count, options) the suite runs: each player count with the
    default options, and each non-default option value at one player count. The option
    values take turns over the smaller half of the player counts (at least two of them):
    an option's effect shows at any count, and the large counts, already run with the
    defaults, cost the most."""
    for gid in game_ids:
        game = load(gid)
        counts = range(game.min_players, game.max_players + 1)
        for n in counts:
            yield gid, n, {}
        small = counts[:max(2, (len(counts) + 1) // 2)]
        variants = option_variants(gid)[1:]
        for k, opts in enumerate(variants):
            yield gid, small[k % len(small)], opts


Check = Callable[[State], None]
