"""A fuzzer for the public contract of every registered game (a script, not a timed test).

    .venv/bin/python benchmarks/fuzz.py --seconds 300 --seed 1 [--games N] [--game ID]

Random games with random options (drawn from each game's declared options) are played by
random moves. At sampled steps the fuzzer throws garbage and look-alike inputs at
``State.apply``: random and huge text, other types (ints, floats, bools, None, dicts,
lists, a tuple of a legal action's fields), an action kept from an earlier state, another
player's move, and bad seats (float, bool, str, negative, out of range). Each must raise a
``cove.CoveError`` subclass and leave the state exactly as it was (the JSON of
``state.record()`` and of every ``view(p)``). Each finished game's record is mutated
(fields flipped, deleted, inserted; actions changed; the JSON truncated or its bytes
garbled) and fed to ``cove.replay`` and ``load_record``, which may raise only
RecordError/CoveError. The built-in data file of every game with a ``data_file`` option
is copied into a temporary directory, mutated and loaded through that option, which may
raise only DataError/OptionError (a game that starts from a mutated file is played a
little).

Anything else is a finding. The summary lists each kind of finding once, with how often
it happened and a reproducer (the record is written to ``--out``); the exit code is 1 when
there is any finding. All randomness comes from one seeded ``cove.Rng``: the same seed and
``--games`` give the same run.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cove
from cove.core.actions import match_text
from cove.core.data import builtin_data_file
from cove.core.errors import CoveError, DataError, OptionError
from cove.core.game import Game
from cove.core.options import describe_options
from cove.core.record import load_record
from cove.core.rng import Rng
from cove.core.state import State
from cove.lab.runner import advance

# The kinds of input thrown at apply(); tests pick slices of them by kind.
INPUT_KINDS = ("text", "huge-text", "type", "tuple", "stale", "other-player", "seat")
HUGE = 1 << 20


@dataclasses.dataclass
class Finding:
    kind: str  # what was checked, e.g. "apply:seat" or "record" or "data"
    game: str
    problem: str  # what went wrong, one line
    reproducer: str | Callable[[], str]  # a callable is called once, for a new finding
    count: int = 1

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.game, self.problem)


@dataclasses.dataclass
class Report:
    seed: int
    games: int = 0
    moves: int = 0
    inputs: int = 0
    records: int = 0
    data_files: int = 0
    seconds: float = 0.0
    per_game: dict[str, int] = dataclasses.field(default_factory=dict)
    findings: dict[tuple[str, str, str], Finding] = dataclasses.field(default_factory=dict)

    def add(self, finding: Finding) -> None:
        seen = self.findings.get(finding.key)
        if seen is None:
            if callable(finding.reproducer):
                finding.reproducer = finding.reproducer()
            self.findings[finding.key] = finding
        else:
            seen.count += 1

    def summary(self) -> str:
        lines = [
            f"fuzz seed {self.seed}: {self.games} games ("
            + ", ".join(f"{g} {n}" for g, n in sorted(self.per_game.items()))
            + f"), {self.moves} moves, {self.inputs} bad inputs, {self.records} mutated "
            f"records, {self.data_files} mutated data files, {self.seconds:.1f} s",
            f"findings: {len(self.findings)} kinds, "
            f"{sum(f.count for f in self.findings.values())} in all",
        ]
        for f in sorted(self.findings.values(), key=lambda f: f.key):
            lines.append(f"- [{f.kind}] {f.game}: {f.problem} (x{f.count})")
            lines.append(f"    reproduce: {f.reproducer}")
        return "\n".join(lines)


def short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_error(e: BaseException) -> str:
    """A finding's problem: the exception type and the first words of its message,
    with digits blurred so that one bug found with many values counts once."""
    words = "".join("#" if c.isdigit() else c for c in short(str(e), 70))
    return f"{type(e).__name__}: {words}"


# -- random values --------------------------------------------------------------------------
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789 ,.;:-+#'\"[]{}()\\/\t\n\u00b2\u0663\u00e9\u2191"


def random_text(rng: Rng, length: int) -> str:
    return "".join(ALPHABET[rng.below(len(ALPHABET))] for _ in range(length))


def random_options(game: cove.Game, rng: Rng) -> dict[str, Any]:
    """About half the declared options at a random allowed value (data files excepted)."""
    out: dict[str, Any] = {}
    for spec in describe_options(game.options_cls):
        if rng.random() < 0.5 or spec["name"].endswith("_file"):
            continue
        field = next(f for f in dataclasses.fields(game.options_cls) if f.name == spec["name"])
        lo, hi = field.metadata.get("minimum"), field.metadata.get("maximum")
        choices = spec["choices"]
        kind = spec["type"]
        if kind == "bool":
            out[spec["name"]] = rng.random() < 0.5
        elif kind == "int":
            a = int(lo) if lo is not None else -5
            b = int(hi) if hi is not None else a + 50
            out[spec["name"]] = a + rng.below(min(b - a, 60) + 1)
        elif kind == "float":
            x = float(lo) if lo is not None else 0.0
            y = float(hi) if hi is not None else x + 10.0
            out[spec["name"]] = x + (y - x) * rng.random()
        elif kind == "list" and choices:
            out[spec["name"]] = [c for c in choices if rng.random() < 0.5]
        elif choices:
            out[spec["name"]] = choices[rng.below(len(choices))]
    return out


def new_game(game: cove.Game, rng: Rng, report: Report) -> State | None:
    players = game.min_players + rng.below(game.max_players - game.min_players + 1)
    seed = rng.below(1 << 31)
    opts = random_options(game, rng)
    try:
        return game.new(players, seed, **opts)
    except CoveError:  # a cross-field check refused the mix: play the defaults instead
        pass
    except Exception as e:  # any other exception is a finding
        report.add(Finding("new", game.id, describe_error(e),
                           f"cove.load({game.id!r}).new({players}, {seed}, **{opts!r})"))
    try:
        return game.new(players, seed)
    except Exception as e:
        report.add(Finding("new", game.id, describe_error(e),
                           f"cove.load({game.id!r}).new({players}, {seed})"))
        return None


# -- bad inputs to apply() ------------------------------------------------------------------
def snapshot(state: State) -> str:
    views = [state.view(p) for p in [None, *range(state.n)]]
    return json.dumps([state.record(), views], sort_keys=True, default=repr)


def fields_tuple(action: Any) -> tuple[Any, ...]:
    if isinstance(action, tuple):
        return tuple(action)
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        return dataclasses.astuple(action)
    return (action,)


def bad_inputs(state: State, player: int, rng: Rng, earlier: list[Any],
               kinds: tuple[str, ...]) -> Iterator[tuple[str, Any, Any, str]]:
    """(kind, seat, action, label) tuples that apply() must refuse."""
    legal = list(state.legal_actions(player))
    pick = legal[rng.below(len(legal))] if legal else None

    def not_legal_text(t: str) -> bool:
        # the contract accepts a unique prefix or short form of a legal text (match_text)
        found, _ = match_text(legal, t)
        return found is None

    if "text" in kinds:
        for length in (0, 1, 3, 12, 40):
            t = random_text(rng, length)
            if not_legal_text(t):
                yield "text", player, t, f"text {t!r}"
        if pick is not None:
            for t in (str(pick) + "x", "x" + str(pick), str(pick).upper() + " 9"):
                if not_legal_text(t):
                    yield "text", player, t, f"look-alike text {t!r}"
    if "huge-text" in kinds:
        big = random_text(rng, 50) * (HUGE // 50)
        if pick is not None:
            big = str(pick) + " " + big
        yield "huge-text", player, big, f"text of {len(big)} characters"
    if "type" in kinds:
        for value in (0, 1, -1, len(legal), 2**70, 0.5, 1.0, float("nan"), True, False, None,
                      {}, {"action": str(pick)}, [], [str(pick)], b"x", object()):
            yield "type", player, value, f"value {value!r}"
    if "tuple" in kinds and pick is not None:
        tup = fields_tuple(pick)
        if tup != pick:
            yield "tuple", player, tup, f"tuple {tup!r} of legal {pick!r}"
        yield "tuple", player, (pick,), f"1-tuple of legal {pick!r}"
        yield "tuple", player, [pick], f"list of legal {pick!r}"
    if "stale" in kinds:
        for old in earlier[-6:]:
            if old in legal:
                continue  # an equal action is legal now: that is the contract
            yield "stale", player, old, f"earlier action {old!r} ({str(old)!r})"
    if "other-player" in kinds:
        movers = state.to_move()
        for q in range(state.n):
            if q in movers:
                continue
            if pick is not None:
                yield "other-player", q, pick, f"P{player + 1}'s legal {str(pick)!r} as P{q + 1}"
                yield "other-player", q, str(pick), f"P{player + 1}'s text {str(pick)!r} as " \
                    f"P{q + 1}"
        for q in movers:
            if q == player:
                continue
            for a in state.legal_actions(q)[:3]:
                if a not in legal:
                    yield "other-player", player, a, f"P{q + 1}'s move {a!r} as P{player + 1}"
    if "seat" in kinds and pick is not None:
        for seat in (float(player), player == 1, str(player), -1,
                     -state.n + player, state.n, 2**64, None, (player,)):
            yield "seat", seat, pick, f"seat {seat!r} with legal {str(pick)!r}"


def check_input(state: State, kind: str, seat: Any, action: Any, label: str,
                report: Report, reproduce: Callable[[], str]) -> bool:
    """Throw one bad input; False when the state may now be corrupt (stop this game)."""
    before = snapshot(state)
    report.inputs += 1
    try:
        state.apply(seat, action)
    except CoveError as e:
        if len(str(e)) > 5000:
            report.add(Finding(f"apply:{kind}", state.game.id,
                               "the error message echoes the input (over 5,000 characters)",
                               lambda: f"{reproduce()}; s.apply({seat!r}, <{label}>)"))
        problem = None
    except Exception as e:
        problem = f"raised {describe_error(e)}"
    else:
        problem = "accepted (no error)"
    changed = snapshot(state) != before
    if problem is None and not changed:
        return True
    if changed:
        problem = (problem or "raised a CoveError") + " and changed the state"
    shown = short(label, 100)
    report.add(Finding(f"apply:{kind}", state.game.id, f"{short(label.split(' ')[0], 20)} "
                       f"input {problem}", lambda: f"{reproduce()}; s.apply({seat!r}, <{shown}>)"))
    return not changed


# -- one game -------------------------------------------------------------------------------
class Saver:
    """Writes the record a reproducer needs into the output directory."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.count = 0

    def __call__(self, record: dict[str, Any], upto: int | None) -> str:
        tail = "" if upto is None else f", upto={upto}"
        if self.out is None:
            return (f"cove.replay(<record of {record.get('game')!r} seed "
                    f"{record.get('seed')!r}>{tail})")
        self.count += 1
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / f"finding-{self.count}.json"
        path.write_text(json.dumps(record, default=repr))
        return f"s = cove.replay(json.load(open({str(path)!r})){tail})"


def play_and_poke(state: State, rng: Rng, report: Report, kinds: tuple[str, ...],
                  save: Saver, max_moves: int, poke_rate: float) -> State:
    """Random moves with bad inputs at sampled steps; returns the final state. After an
    input that changed the state, the game goes on from a replay of its record before.

    Its own loop rather than :func:`cove.lab.runner.advance`: a poke that changed the state
    replaces the state object mid-game, and a mover is drawn at random among simultaneous
    movers, so the loop is the test."""
    earlier: list[Any] = []
    moves = 0
    while not state.is_over and moves < max_moves:
        movers = state.to_move()
        p = movers[rng.below(len(movers))]
        legal = state.legal_actions(p)
        if not legal:
            report.add(Finding("contract", state.game.id, "a player to move has no legal move",
                               save(state.record(), None)))
            return state
        if rng.random() < poke_rate:
            record = state.record()

            def reproduce(record: dict[str, Any] = record) -> str:
                return save(record, None)

            for kind, seat, bad, label in bad_inputs(state, p, rng, earlier, kinds):
                if not check_input(state, kind, seat, bad, label, report, reproduce):
                    state = cove.replay(record)
                    break
            legal = state.legal_actions(p)
        a = legal[rng.below(len(legal))]
        earlier.append(a)
        try:
            state.apply(p, a)
        except Exception as e:
            report.add(Finding("apply:legal", state.game.id, describe_error(e),
                               f"{save(state.record(), None)}; s.apply({p}, {a!r})"))
            return state
        moves += 1
        report.moves += 1
    return state


# -- records --------------------------------------------------------------------------------
GARBAGE: tuple[Any, ...] = (None, True, 0, -1, 2**70, 1.5, float("inf"), "", "x" * 300, [],
                            {}, [[]], {"a": 1}, [0, "x"], "2", 10**30)


def mutate_record(record: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], str]:
    rec: dict[str, Any] = json.loads(json.dumps(record))
    keys = list(rec)
    how = rng.below(9)
    actions = rec.get("actions")
    if how == 0:
        k = keys[rng.below(len(keys))]
        rec[k] = GARBAGE[rng.below(len(GARBAGE))]
        return rec, f"set {k} to {rec[k]!r}"[:120]
    if how == 1:
        k = keys[rng.below(len(keys))]
        del rec[k]
        return rec, f"deleted {k}"
    if how == 2:
        k = ["extra", "data", "options", "seed"][rng.below(4)]
        rec[k] = GARBAGE[rng.below(len(GARBAGE))] if k != "data" else {
            "data_file": "sha256:" + "0" * 64}
        return rec, f"inserted {k}"
    if how == 3 and isinstance(rec.get("options"), dict):
        opts = rec["options"]
        name = list(opts)[rng.below(len(opts))] if opts and rng.random() < 0.7 else "zz"
        opts[name] = GARBAGE[rng.below(len(GARBAGE))]
        return rec, f"option {name} = {opts[name]!r}"[:120]
    if isinstance(actions, list) and actions:
        i = rng.below(len(actions))
        if how == 4:
            actions[i][0] = GARBAGE[rng.below(len(GARBAGE))]
            return rec, f"action #{i + 1} seat = {actions[i][0]!r}"[:120]
        if how == 5:
            actions[i][1] = random_text(rng, rng.below(20))
            return rec, f"action #{i + 1} text changed"
        if how == 6:
            del actions[i]
            return rec, f"action #{i + 1} deleted"
        if how == 7:
            j = rng.below(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
            return rec, f"actions #{i + 1} and #{j + 1} swapped"
        actions.insert(i, GARBAGE[rng.below(len(GARBAGE))])
        return rec, f"garbage inserted at action #{i + 1}"
    rec["players"] = GARBAGE[rng.below(len(GARBAGE))]
    return rec, f"players = {rec['players']!r}"[:120]


def _saved(save: Saver, record: dict[str, Any], what: str) -> str:
    return f"{save(record, None)}  # ({what})"


def fuzz_records(record: dict[str, Any], rng: Rng, report: Report, tmp: Path,
                 save: Saver, count: int) -> None:
    game = str(record.get("game"))
    for _ in range(count):
        rec, what = mutate_record(record, rng)
        report.records += 1
        try:
            cove.replay(rec, log=False)
        except CoveError:
            pass
        except Exception as e:
            report.add(Finding("record", game, f"{what.split(' ')[0]}...: {describe_error(e)}",
                               functools.partial(_saved, save, rec, what)))
    text = json.dumps(record)
    path = tmp / "record.json"
    for _ in range(count):
        report.records += 1
        if rng.random() < 0.5:
            data = text[: rng.below(len(text))].encode()
            what = "JSON truncated"
        else:
            raw = bytearray(text.encode())
            for _ in range(1 + rng.below(4)):
                raw[rng.below(len(raw))] = rng.below(256)
            data = bytes(raw)
            what = "bytes garbled"
        path.write_bytes(data)
        try:
            cove.replay(load_record(path), log=False)
        except CoveError:
            pass
        except Exception as e:
            kept = tmp.parent / f"bad-record-{report.records}.json"
            kept.write_bytes(data)
            report.add(Finding("record-file", game, f"{what}: {describe_error(e)}",
                               f"cove.replay(load_record({str(kept)!r}))"))


# -- data files -----------------------------------------------------------------------------
def mutate_toml(text: str, rng: Rng) -> tuple[str, str]:
    lines = text.splitlines()
    how = rng.below(7)
    i = rng.below(len(lines))
    if how == 0:
        del lines[i]
        return "\n".join(lines), f"line {i + 1} deleted"
    if how == 1:
        lines.insert(i, lines[rng.below(len(lines))])
        return "\n".join(lines), f"a line duplicated at {i + 1}"
    if how == 2:  # change a number
        for _ in range(20):
            j = rng.below(len(lines))
            digits = [k for k, c in enumerate(lines[j]) if c.isdigit()]
            if digits:
                k = digits[rng.below(len(digits))]
                new = ["0", "-1", "99", "999999", "1.5", "\"x\"", "true", "[]"][rng.below(8)]
                lines[j] = lines[j][:k] + new + lines[j][k + 1:]
                return "\n".join(lines), f"line {j + 1}: a digit became {new}"
    if how == 3:  # change a string
        for _ in range(20):
            j = rng.below(len(lines))
            if '"' in lines[j]:
                a = lines[j].index('"')
                b = lines[j].find('"', a + 1)
                if b > a:
                    new = ["", "zz", "r 9+", "any", "x" * 200][rng.below(5)]
                    lines[j] = lines[j][: a + 1] + new + lines[j][b:]
                    return "\n".join(lines), f"line {j + 1}: a string became {new[:20]!r}"
    if how == 4:
        cut = rng.below(len(text))
        return text[:cut], f"truncated at {cut}"
    if how == 5:
        lines[i] = random_text(rng, 1 + rng.below(30))
        return "\n".join(lines), f"line {i + 1} replaced by noise"
    lines[i] = lines[i].replace("=", "= [", 1)
    return "\n".join(lines), f"line {i + 1}: an opened bracket"


def data_file_games(ids: Sequence[str]) -> list[Game]:
    """The games among ``ids`` a data file can be given to (a ``data_file`` option) whose
    built-in file the fuzzer can copy."""
    out = []
    for gid in ids:
        game = cove.load(gid)
        names = {f.name for f in dataclasses.fields(game.options_cls)}
        if "data_file" in names and builtin_data_file(game.options(game.min_players)):
            out.append(game)
    return out


def fuzz_data_file(game: Game, rng: Rng, report: Report, tmp: Path, max_moves: int) -> None:
    builtin = builtin_data_file(game.options(game.min_players))
    assert builtin is not None
    mutated, what = mutate_toml(builtin.read_text(encoding="utf-8"), rng)
    report.data_files += 1
    path = tmp / f"data-{report.data_files}{builtin.suffix}"
    path.write_text(mutated, encoding="utf-8")
    players = game.min_players + rng.below(game.max_players - game.min_players + 1)
    seed = rng.below(1 << 31)
    try:
        state = game.new(players, seed, data_file=str(path))
    except (DataError, OptionError):
        return
    except Exception as e:
        kept = tmp.parent / f"bad-data-{report.data_files}{builtin.suffix}"
        kept.write_text(mutated, encoding="utf-8")
        report.add(Finding("data", game.id, f"{what.split(':')[0].split(' ')[0]}...: "
                           f"{describe_error(e)}",
                           f"COVE_DATA_DIR={tmp.parent} cove.load({game.id!r}).new({players}, "
                           f"{seed}, data_file={str(kept)!r})"))
        return

    def pick(s: State, p: int) -> Any:
        legal = s.legal_actions(p)
        if not legal:
            raise RuntimeError(f"P{p + 1} is to move and has no legal move")
        return legal[rng.below(len(legal))]

    try:  # a file that loads must give a game that plays
        advance(state, pick, moves=max_moves)
    except Exception as e:
        kept = tmp.parent / f"bad-data-{report.data_files}{builtin.suffix}"
        kept.write_text(mutated, encoding="utf-8")
        report.add(Finding("data-play", game.id, describe_error(e),
                           f"COVE_DATA_DIR={tmp.parent}: a game from {str(kept)!r} "
                           f"({what}) seed {seed}, {players} players, move "
                           f"{state.decisions + 1}"))
        return
    path.unlink()


# -- the run --------------------------------------------------------------------------------
def run(seconds: float = 60.0, seed: int = 1, games: int | None = None,
        game_ids: list[str] | None = None, kinds: tuple[str, ...] = INPUT_KINDS,
        records: bool = True, data_files: bool = True, out: Path | None = None,
        max_moves: int = 400, poke_rate: float = 0.15, record_mutations: int = 6) -> Report:
    """Fuzz until ``seconds`` pass or ``games`` games were played (whichever first)."""
    rng = Rng(seed)
    report = Report(seed)
    ids = game_ids or cove.ids()
    data_games = data_file_games(ids)
    save = Saver(out)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cove-fuzz-") as top:
        tmp = Path(top) / "data"
        tmp.mkdir()
        old_dir = os.environ.get("COVE_DATA_DIR")
        os.environ["COVE_DATA_DIR"] = top
        try:
            k = 0
            while (games is None or k < games) and time.perf_counter() - start < seconds:
                game = cove.load(ids[k % len(ids)])
                k += 1
                state = new_game(game, rng, report)
                if state is None:
                    continue
                report.games += 1
                report.per_game[game.id] = report.per_game.get(game.id, 0) + 1
                state = play_and_poke(state, rng, report, kinds, save, max_moves, poke_rate)
                if records:
                    fuzz_records(state.record(), rng, report, tmp, save, record_mutations)
                if data_files and data_games:
                    fuzz_data_file(data_games[k % len(data_games)], rng, report, tmp,
                                   max_moves)
        finally:
            if old_dir is None:
                os.environ.pop("COVE_DATA_DIR", None)
            else:
                os.environ["COVE_DATA_DIR"] = old_dir
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="time budget (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--games", type=int, help="stop after this many games (deterministic)")
    ap.add_argument("--game", action="append", choices=cove.ids(),
                    help="fuzz only this game (repeatable; default every game)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "cove-fuzz",
                    help="directory for the records of findings")
    args = ap.parse_args(argv)
    report = run(args.seconds, args.seed, args.games, args.game, out=args.out)
    print(report.summary())
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
