"""``cove soak``: many games with every conformance check on, looking for the rare game
that breaks a rule of the contract.

Each game is one run of the conformance harness (:func:`cove.testing.random_sim_test`,
the checks every game's tests run on a few seeds): invariants and unique, well-formed
action texts after every move, a legal move for everyone asked (a stuck state is a
failure), an end within the game's bound, hidden information kept hidden, clones,
redeterminized copies, portable copies and pickles at sampled positions, and the record
replayed at the end. Moves are random, or chosen by bots (``bots``). Game ``g`` is the
harness's seed ``g``, so ``cove soak GAME --first g --games 1`` plays exactly that game
again, and its failure names the moves that reach it.

The soak reports each failure once per kind of check (with its game and the command that
replays it), how the games ended (a safety end is a cut-off, not the game's own end), and
the moves and checks made. Games run serially, in local processes or on Ray
(``backend``), with the same results.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from cove.core.errors import CoveError
from cove.games import load
from cove.lab.runner import chunks, make_backend
from cove.testing import HarnessError, random_sim_test

Progress = Callable[[int, int], None]


class SoakError(CoveError, ValueError):
    """Bad input to a soak: what was wrong and what is valid."""


Task = tuple[str, int, tuple[tuple[str, Any], ...], tuple[str, ...] | None, tuple[int, ...]]


def soak_games(task: Task) -> list[dict[str, Any]]:
    """Play and check the games of ``task`` (game id, players, options, bot specs or None,
    game indices): one dict per game, ``{"game", "moves", "checks", "end"}`` and, for a
    game that failed, ``"failure"`` (the harness's message) and ``"check"``."""
    game_id, players, options, bots, indices = task
    out = []
    for g in indices:
        row: dict[str, Any] = {"game": g}
        try:
            rep = random_sim_test(game_id, players, games=1, seed=g, samples=3,
                                  view_stride=7, bots=bots, **dict(options))
        except HarnessError as e:
            text = str(e)
            row.update(failure=text, check=_check_of(text), moves=0, checks=0, end="")
        else:
            row.update(moves=rep.actions, checks=sum(rep.checks.values()),
                       end=next(iter(rep.ends), "unnamed (its stats() give no end)"))
        out.append(row)
    return out


def _check_of(message: str) -> str:
    """The check a harness message names: ``... after 12 moves: replay: ...``."""
    head = message.split("\n", 1)[0]
    parts = head.split(": ")
    return parts[1] if len(parts) > 2 else "check"


def run_soak(game_id: str, players: int, games: int = 1000, first: int = 0,
             options: dict[str, Any] | None = None, bots: Sequence[str] | None = None,
             jobs: int = 1, backend: str = "serial", address: str | None = None,
             progress: Progress | None = None) -> dict[str, Any]:
    """Soak ``games`` games (harness seeds ``first .. first + games - 1``); see the module
    text. Returns a JSON-ready dict: ``game``, ``players``, ``games``, ``first``,
    ``options``, ``bots``, ``failures`` (one per check: ``check``, ``game``, ``count``,
    ``message``, ``replay``), ``failed_games``, ``ends`` (end -> games), ``cut_offs``
    (games that stopped at a safety end), ``moves``, ``checks``, ``seconds``."""
    game = load(game_id)
    opts = dict(options or {})
    game.new(players, 0, log=False, **opts)  # checks the players and options
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SoakError(f"games must be a whole number >= 1, not {games!r}")
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise SoakError(f"first must be a whole number >= 0, not {first!r}")
    specs = tuple(bots) if bots else None
    if specs is not None and len(specs) == 1:
        specs = specs * players
    if specs is not None and len(specs) != players:
        raise SoakError(f"bots needs 1 spec or {players} (one per seat), got {len(specs)}")
    start = time.perf_counter()
    pool = make_backend(backend, jobs, address)
    size = max(1, min(50, games // (4 * max(1, jobs))))
    tasks = [(game.id, players, tuple(sorted(opts.items())), specs, tuple(c))
             for c in chunks(range(first, first + games), size)]
    rows: list[dict[str, Any]] = []
    try:
        for part in pool.map(soak_games, tasks):
            rows += part
            if progress is not None:
                progress(len(rows), games)
    finally:
        pool.close()
    return summarize(game.id, players, first, opts, specs, rows, game.safety_ends,
                     time.perf_counter() - start)


def summarize(game_id: str, players: int, first: int, options: dict[str, Any],
              bots: tuple[str, ...] | None, rows: list[dict[str, Any]],
              safety_ends: Sequence[str], seconds: float) -> dict[str, Any]:
    failures: dict[str, dict[str, Any]] = {}
    ends: dict[str, int] = {}
    for row in sorted(rows, key=lambda r: r["game"]):
        if "failure" in row:
            seen = failures.setdefault(row["check"], {
                "check": row["check"], "game": row["game"], "count": 0,
                "message": row["failure"],
                "replay": replay_command(game_id, players, row["game"], options, bots)})
            seen["count"] += 1
        else:
            ends[row["end"]] = ends.get(row["end"], 0) + 1
    return {"game": game_id, "players": players, "games": len(rows), "first": first,
            "options": options, "bots": list(bots) if bots else None,
            "failures": list(failures.values()),
            "failed_games": sum("failure" in r for r in rows),
            "ends": ends, "cut_offs": sum(n for e, n in ends.items() if e in safety_ends),
            "moves": sum(r["moves"] for r in rows), "checks": sum(r["checks"] for r in rows),
            "seconds": seconds}


def replay_command(game_id: str, players: int, index: int, options: dict[str, Any],
                   bots: tuple[str, ...] | None) -> str:
    """The command that plays game ``index`` of a soak again, alone."""
    extra = "".join(f" -o {k}={v}" for k, v in sorted(options.items()))
    if bots:
        extra += f" --bots {','.join(bots)}"
    return f"cove soak {game_id} -p {players} --first {index} --games 1{extra}"


def format_soak(result: dict[str, Any]) -> str:
    games = result["games"]
    who = f"bots {','.join(result['bots'])}" if result["bots"] else "random moves"
    lines = [f"soak {result['game']}, {result['players']} players, {games} games "
             f"({result['first']}..{result['first'] + games - 1}), {who}: "
             f"{result['moves']:,} moves, {result['checks']:,} checks, "
             f"{result['seconds']:.0f} s"]
    if result["failures"]:
        lines.append(f"{result['failed_games']} games failed a check:")
        for f in result["failures"]:
            first_line = f["message"].split("\n", 1)[0]
            lines += [f"  {f['check']} ({f['count']} games), first in game {f['game']}:",
                      f"    {first_line}", f"    again: {f['replay']}"]
    else:
        lines.append("No check failed.")
    ended = ", ".join(f"{e} {n}" for e, n in sorted(result["ends"].items(),
                                                     key=lambda kv: -kv[1]))
    share = result["cut_offs"] / max(1, games - result["failed_games"])
    lines.append(f"Ends: {ended or 'none'}; cut off at a safety end: {result['cut_offs']} "
                 f"({share:.1%})")
    return "\n".join(lines)
