"""The ``cove`` command: list games, play in the terminal, simulate, replay, arena.

Every subcommand talks to games only through the public contract. Bad input (unknown
game, option, player count, bot spec, unreadable record) ends with one line on stderr
naming what was wrong and what is valid, and exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import json
import os
import re
import secrets
import shlex
import shutil
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

import cove
from cove.bots.spec import split_specs
from cove.core.data import ENV_DIR
from cove.core.errors import CoveError, PlayerCountError
from cove.core.game import Game
from cove.core.history import Event
from cove.core.options import describe_options
from cove.core.record import RESERVED, load_record, replay
from cove.core.state import State
from cove.core.text import seat_name
from cove.core.undo import why_not
from cove.lab.progress import progress_bar
from cove.lab.runner import BACKENDS
from cove.terminal import Table, check_save_path, last_game_path, resume
from cove.tui.layout import wrap
from cove.tui.play import EOF_, QUIT, UNDO, Display, Seat, ask
from cove.tui.summary import final_summary

EXIT_USAGE = 2
EXIT_UNFINISHED = 1
ECHO = 80  # typed or given text is echoed back at most this long
MAX_MESSAGE = 2000
LADDER_MINUTES = 25.0
"""``cove ladder``'s time budget when no --games is given (cove.lab.ladder.DEFAULT_MINUTES)."""


class CliError(CoveError):
    """A command-line mistake (bad argument value)."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad argument as one CliError line (exit code 2 from main)."""

    def error(self, message: str) -> NoReturn:
        # "cove: error: " comes first (main); a subcommand's name follows it
        command = self.prog.partition(" ")[2]
        where = f"{command}: " if command else ""
        raise CliError(f"{where}{cut(message, 300)}; see '{self.prog} --help'")


def cut(text: str, limit: int = ECHO) -> str:
    """``text`` shortened to ``limit`` characters with '...' (for echoing input)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def one_line(text: str) -> str:
    """An error message as one line (some messages list choices on several lines)."""
    return cut("; ".join(part.strip() for part in text.splitlines() if part.strip()),
               MAX_MESSAGE)


def small_number(text: str, digits: int = 9) -> int | None:
    """``text`` as a non-negative int if it is a few ASCII digits, else None ("²" or
    "٣" pass ``str.isdigit`` but are not numbers a player means)."""
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def count_arg(name: str, value: int | None, minimum: int = 1) -> int | None:
    """Check a count-like option, e.g. ``--games``; None stays None (the default)."""
    if value is not None and value < minimum:
        raise CliError(f"{name} must be at least {minimum}, got {value}")
    return value


def players_arg(game: Game, value: int | None, default: int) -> int:
    """``--players``: None means the default; anything outside the game's range is an error
    (0 used to fall back to the default silently)."""
    if value is None:
        return default
    if not game.min_players <= value <= game.max_players:
        raise PlayerCountError(f"--players: {game.id} is for {game.min_players} to "
                               f"{game.max_players} players, not {value}")
    return value


def bot_specs(text: str | None) -> list[str] | None:
    """``--bots``: None means the default; given, it must name at least one bot."""
    if text is None:
        return None
    specs = split_specs(text)
    if not specs:
        raise CliError(f"--bots {cut(text)!r} names no bot; give comma-separated bot specs, "
                       "e.g. --bots random or --bots mcts,greedy (see 'cove games' for games)")
    return specs


def game_options(game: Game, pairs: Sequence[str] | None) -> dict[str, Any]:
    """``-o KEY=VALUE`` pairs; names that are keywords of ``Game.new`` are unknown options."""
    opts = parse_kv(pairs)
    for name in opts:
        if name in RESERVED:
            valid = ", ".join(o["name"] for o in describe_options(game.options_cls))
            raise CliError(f"unknown option {cut(name)!r}; valid options: {valid or '(none)'}")
    return opts


# -- helpers ---------------------------------------------------------------------------------
def parse_kv(pairs: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in pairs or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CliError(f"option {cut(item)!r} must be KEY=VALUE, e.g. -o events=true")
        out[key.strip()] = value.strip()
    return out


def use_color(flag: bool, stream: IO[str]) -> bool:
    return flag and stream.isatty() and "NO_COLOR" not in os.environ


def player_name(p: int) -> str:
    return seat_name(p)


def screen_width() -> int:
    """The terminal's width in columns (``COLUMNS`` when set; 100 when not a terminal)."""
    import shutil

    return max(40, shutil.get_terminal_size((100, 40)).columns)


def prose(line: str) -> None:
    """Print a sentence-like line, wrapped at words to the terminal's width on a terminal
    (a pipe gets it whole, one line per figure)."""
    if sys.stdout.isatty():
        line = "\n".join(wrap(line, screen_width() - 1))
    print(line)


def render(game: Game, state: State, seat: int | None, color: bool) -> str:
    view = state.view(seat)
    if game.render is not None:
        return game.render(view, color, width=screen_width())
    return json.dumps(view, indent=1)


# -- cove games ------------------------------------------------------------------------------
def cmd_bots(args: argparse.Namespace) -> int:
    """Every bot a spec may name, with its parameters, and the levels."""
    from cove.bots import describe_bots

    print("A bot spec is a bot or a level, e.g. random, hard or "
          "mcts:iterations=500,rollout=heuristic.")
    print(describe_bots())
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    infos = [g.describe() for g in cove.all_games()]
    if args.json:
        print(json.dumps(infos, indent=1))
        return 0
    for info in infos:
        props = [k for k in ("chance", "hidden_information", "simultaneous") if info[k]]
        print(f"{info['id']}  {info['name']}  ({info['min_players']}-{info['max_players']} players"
              f"{'; ' + ', '.join(p.replace('_', ' ') for p in props) if props else ''})")
        print(f"    {info['summary']}")
        for opt in info["options"]:
            default = opt["default"]
            if isinstance(default, list):
                default = ",".join(default) or "(none)"
            elif isinstance(default, bool):
                default = str(default).lower()
            print(f"    -o {opt['name']}={default}    {opt['allowed']}")
            if opt["help"]:
                print(f"         {opt['help']}")
        print()
    return 0


# -- cove play -------------------------------------------------------------------------------
def _seat_arg(seat: int, players: int) -> int:
    if not 1 <= seat <= players:
        raise CliError(f"--seat must be from 1 to {players}, got {seat}")
    return seat - 1


def _opponents(spec: str | None, players: int, humans: Sequence[int]) -> list[str]:
    from cove import bots

    default = getattr(bots, "DEFAULT_PLAY_BOT", "random")
    others = players - len(humans)
    if not others:
        if spec:
            raise CliError("--bots was given but every seat is a human (--seat)")
        return ["human"] * players
    specs = bot_specs(spec) or [default]
    if len(specs) == 1:
        specs = specs * others
    if len(specs) != others:
        if others == 1:
            raise CliError(f"--bots {spec} names {len(specs)} bots, but the table has one "
                           f"bot seat ({players} players, {len(humans)} human): give one "
                           f"spec, or -p {len(humans) + len(specs)} for {len(specs)} bots")
        raise CliError(f"--bots needs 1 spec or {others} specs (one per bot seat), got "
                       f"{len(specs)}: {spec}")
    out: list[str] = []
    it = iter(specs)
    for p in range(players):
        out.append("human" if p in humans else next(it))
    return out


def _input(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _seats_arg(text: str | None, players: int) -> list[int]:
    """--seat '1' or '1,2' (hot-seat): human seats, 0-based."""
    parts = [t.strip() for t in (text or "1").split(",") if t.strip()]
    seats = []
    for t in parts:
        k = small_number(t)
        if k is None:
            raise CliError(f"--seat takes seat numbers from 1 to {players}, e.g. 1 or 1,2; "
                           f"got {cut(t, 20)!r}")
        seats.append(_seat_arg(k, players))
    if len(set(seats)) != len(seats):
        raise CliError(f"--seat lists a seat twice: {cut(text or '', 40)}")
    return seats


LAST = "\0last"
"""``--resume`` given without a file: the last game."""


def _table(args: argparse.Namespace) -> Table:
    if args.save:
        save_path: Path | None = check_save_path(args.save)
    elif args.no_save:
        save_path = None
    else:  # the last game is always kept, so a closed terminal or Ctrl-C loses nothing
        last = last_game_path()
        try:
            last.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CliError(f"cannot keep the game in {last.parent}: {e.strerror or e}; give "
                           "--save FILE or --no-save") from None
        save_path = check_save_path(str(last))
    if args.resume == LAST:
        if not last_game_path().is_file():
            raise CliError(f"no last game to resume ({last_game_path()} does not exist); "
                           "give --resume FILE")
        args.resume = str(last_game_path())
    if args.resume:
        table = resume(args.resume)
        if args.save is None:
            save_path = Path(args.resume)
        table.save_path = save_path
        return table
    game = cove.load(args.game)
    players = players_arg(game, args.players,
                          max(game.min_players, 2 if game.max_players >= 2 else 1))
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 31)
    state = game.new(players, seed, **game_options(game, args.option))
    humans = _seats_arg(args.seat, players)
    specs = _opponents(args.bots, players, humans)
    return Table(game, state, specs, save_path)


def screen_mode(flag: str, stdout: IO[str], stdin: IO[str]) -> bool:
    """Whether to redraw one screen in place: ``--screen redraw|plain``, or by default
    only when both ends are a terminal that can take cursor codes (pipes, files, screen
    readers and TERM=dumb get the plain scrolling text)."""
    if flag != "auto":
        return flag == "redraw"
    return (stdout.isatty() and stdin.isatty()
            and os.environ.get("TERM", "") not in ("", "dumb"))


def choose_game(args: argparse.Namespace) -> None:
    """``cove play`` with no game on a terminal: list the games and ask which (and for how
    many players, unless given); elsewhere, an error naming what to give."""
    games = cove.all_games()
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("play needs a game id (" + ", ".join(g.id for g in games)
                       + ") or --resume FILE")
    width = min(100, shutil.get_terminal_size().columns)
    print("Which game?")
    for i, g in enumerate(games, 1):
        first = g.summary.split(". ")[0].split(" (")[0].rstrip(".")
        print(textwrap.fill(f"{i}. {g.name} ({g.min_players}-{g.max_players} players): "
                            f"{first}.", width - 1, initial_indent="  ",
                            subsequent_indent="     "))
    while True:
        answer = _input(f"Number or id [1-{len(games)}]: ")
        if answer is None:
            raise CliError("no game chosen")
        text = answer.strip().lower()
        found = [g for i, g in enumerate(games, 1) if text in (str(i), g.id, g.name.lower())]
        if found:
            game = found[0]
            break
        print(f"  {answer.strip()!r} is not one of them; type 1 to {len(games)} or an id.")
    args.game = game.id
    if args.players is None and game.max_players > game.min_players:
        default = max(game.min_players, min(3, game.max_players))
        while True:
            answer = _input(f"How many players ({game.min_players}-{game.max_players}) "
                            f"[{default}]: ")
            if answer is None or not answer.strip():
                args.players = default
                return
            if answer.strip().isdigit() and (game.min_players <= int(answer)
                                             <= game.max_players):
                args.players = int(answer)
                return
            print(f"  {game.name} is for {game.min_players} to {game.max_players} players.")


def cmd_play(args: argparse.Namespace) -> int:
    if not args.game and not args.resume:
        choose_game(args)
    table = _table(args)
    game = table.game
    color = use_color(not args.no_color, sys.stdout)
    display = Display(sys.stdout, screen_mode(args.screen, sys.stdout, sys.stdin), color)
    humans = table.humans
    names = ", ".join(f"{player_name(p)}={spec}" for p, spec in enumerate(table.seats)
                      if spec != "human")
    you = ", ".join(player_name(p) for p in humans)
    intro = [f"{game.name}: {table.state.n} players, seed {table.state.seed} "
             f"(play it again with --seed {table.state.seed}). "
             f"You {'are' if len(humans) == 1 else 'share the screen as'} {you}"
             + (f"; {names}" if names else "") + ". Type 'help' for help."]
    if table.save_path is not None:
        intro.append(f"Saving after every move to {table.save_path} "
                     f"(continue later with: cove play --resume {table.save_path}).")
    for line in intro:
        display.say(line)
    table.save()
    # the redraw clears the screen: the first turn's screen repeats the introduction
    seen: dict[int, Seat] = {p: Seat(notes=list(intro) if display.redraw else [])
                             for p in humans}
    shown: int | None = None
    left: object = None
    from cove.lab.runner import advance  # bots move through Cove's one game loop
    while True:
        advance(table.state, lambda s, p: table.bots[p].act(s, p), seats=table.bots,
                after=lambda _p, _a: table.save())
        state = table.state
        seat = table.human_to_move()
        if state.is_over or seat is None:
            break
        if len(humans) > 1 and seat != shown:
            if display.redraw:
                display.show([])
            display.say("\n" * 3 + f"Pass the screen to {player_name(seat)}, then press Enter.")
            if _input("") is None:
                left = EOF_
                break
        shown = seat
        action = ask(display, table, seat, seen[seat], _input)
        if action == UNDO:
            done = table.undo(seat)
            if done:
                seen[seat] = Seat(notes=[f"Undone for {player_name(seat)}: {done}."])
            else:
                seen[seat].notes.append(f"Nothing to undo: {why_not(table.state, seat)}.")
            continue
        if action in (QUIT, EOF_):
            left = action
            break
        assert not isinstance(action, str)
        table.apply(seat, action)
        seen[seat].seen_moves = len(table.state.history_for(seat))
    state = table.state
    saved = f" Saved to {table.save_path}." if table.save_path else ""
    if left == EOF_:
        moves = f"{state.decisions} move{'' if state.decisions == 1 else 's'}"
        print(f"cove: the input ended after {moves}: the game is left "
              f"unfinished.{saved}", file=sys.stderr)
        return EXIT_UNFINISHED
    if left == QUIT:
        display.say("Game left unfinished." + saved
                    + (f" Continue with: cove play --resume {table.save_path}" if saved else ""))
        return 0
    viewer = humans[0] if len(humans) == 1 else None
    width = display.dims()[0]
    board = game.render(state.view(viewer), color, width=width) if game.render else ""
    last = seen[humans[0]] if viewer is not None else Seat()
    log = _log_lines(state.events(viewer, last.seen_log))
    display.show([*board.splitlines(), *(["Log:"] if log else []),
                  *(y for x in log for y in wrap(x, width, indent="      ", first="  "))])
    display.say("\n" + final_lines(state, humans), indent="      ")
    if table.save_path:
        display.say(f"Saved the game record to {table.save_path}; replay it with: "
                    f"cove replay {table.save_path}")
    return 0


def final_lines(state: State, humans: Sequence[int]) -> str:
    """Final scores with each player's parts and tie-break figures, the winner and what
    decided it."""
    return "\n".join(final_summary(state.game, state, humans))


# -- cove replay -----------------------------------------------------------------------------
def replay_steps(record: dict[str, Any], seat: int | None
                 ) -> tuple[list[State], list[list[Event]]]:
    """Every position of a (validated) record, and per step the log lines ``seat`` first
    sees at that step. One pass: each step asks only for the events since the running
    count, never walks the whole log again (that made ``replay --all`` quadratic)."""
    state = replay(record, upto=0)
    states = [state.clone()]
    new: list[list[Event]] = [state.events(seat)]
    seen = len(new[0])
    for p, text in record["actions"]:
        state.apply(p, text)
        states.append(state.clone())
        fresh = state.events(seat, seen)
        seen += len(fresh)
        new.append(fresh)
    return states, new


def _log_lines(events: Sequence[Event], limit: int = 14) -> list[str]:
    lines = [e.text for e in events]
    if len(lines) > limit:
        lines = [f"... ({len(lines) - limit} earlier lines; type 'log' for all)", *lines[-limit:]]
    return lines


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    final = replay(record, log=False)  # validates the whole record before showing anything
    game = final.game
    seat = None if args.seat is None else _seat_arg(args.seat, final.n)
    actions = record["actions"]
    total = len(actions)
    states, new_events = replay_steps(record, seat)
    color = use_color(not args.no_color, sys.stdout)
    who = "a spectator" if seat is None else player_name(seat)
    print("\n".join(wrap(f"Replay of {game.name}, {final.n} players, seed {record['seed']}, "
                         f"{total} moves, seen by {who}. Enter: next, b: back, g N: go to "
                         "move N, e: end, q: quit.", screen_width())))
    step = 0
    while True:
        now = states[step]
        print("\n" + "=" * 72)
        if step:
            p, text = actions[step - 1]
            print(f"Move {step}/{total}: {player_name(p)} -> {text}")
        else:
            print(f"Start (0/{total} moves)")
        width = screen_width()
        parts = [render(game, now, seat, color)]
        log = _log_lines(new_events[step])
        if log:
            parts.append("Log:\n" + "\n".join(
                y for line in log for y in wrap(line, width, indent="      ", first="  ")))
        print("\n".join(parts))
        if step == total and now.is_over:
            print("\n".join(y for x in final_summary(game, now, [])
                            for y in wrap(x, width, indent="      ")))
        if args.all:
            if step == total:
                return 0
            step += 1
            continue
        line = _input("[Enter/b/g N/e/q] > ")
        if line is None:
            return 0
        cmd = line.strip().lower()
        if cmd in ("q", "quit"):
            return 0
        if cmd in ("", "n", "next"):
            if step == total:
                print("That was the last move.")
                return 0
            step += 1
        elif cmd in ("b", "back"):
            step = max(0, step - 1)
        elif cmd in ("e", "end"):
            step = total
        elif cmd.startswith("g"):
            arg = cmd[1:].strip()
            k = small_number(arg)
            if k is None or k > total:
                print(f"Go to which move? Give a number from 0 to {total}, e.g. 'g 10' "
                      f"(not {cut(arg, 20)!r}).")
                continue
            step = k
        else:
            print(f"Unknown command {cut(cmd, 20)!r}: Enter for next, b for back, g N to go to "
                  "move N, e for the end, q to quit.")


# -- cove simulate ---------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    from cove.lab.simulate import drama_lines, simulate

    game = cove.load(args.game)
    players = players_arg(game, args.players, game.min_players)
    bots = bot_specs(args.bots)
    count_arg("--games", args.games)
    count_arg("--jobs", args.jobs)
    options = game_options(game, args.option)
    with progress_bar(f"{game.id} x{args.games}", not (args.json or args.quiet)) as bar:
        sim = simulate(game.id, players, args.games, args.seed, bots, options, progress=bar,
                       jobs=args.jobs, backend=args.backend, address=args.address,
                       out=args.out)
    out = sim.to_json()
    if args.json:
        print(json.dumps(out, indent=1))
        return 130 if sim.interrupted else 0
    if sim.interrupted:
        prose(f"Interrupted: the figures below are from the {len(sim.results)} of "
              f"{args.games} games played" + (f"; run the same command to resume from {args.out}"
                                              if args.out else ""))
    print(f"{game.name}: {players} players, {out['games']} games, seed {args.seed}, "
          f"bots {','.join(out['bots'])}")
    given = parse_kv(args.option)
    if given:
        print("options: " + ", ".join(f"{k}={out['options'][k.replace('-', '_')]}" for k in given))
    print(f"{'seat':<5}{'bot':<12}{'wins':>8}{'win %':>8}{'95% CI':>13}{'vs fair':>9}"
          f"{'mean':>8}{'min':>6}{'max':>6}")
    for s in out["seats"]:
        lo, hi = s["win_ci"]
        print(f"P{s['seat']:<4}{s['bot'][:11]:<12}{s['wins']:>8.1f}{100 * s['win_rate']:>7.1f}%"
              f"{f'{100 * lo:.1f}-{100 * hi:.1f}%':>13}{100 * s['advantage']:>+8.1f}%"
              f"{s['mean_score']:>8.2f}{s['min_score']:>6g}{s['max_score']:>6g}")
    print(f"ties: {out['ties']} games; mean decisions per game: {out['mean_decisions']:.1f}"
          + (f"; mean winning margin: {out['mean_margin']:.2f}"
             if out["mean_margin"] is not None else ""))
    for line in format_stats(out["stats"], out["games"]) + drama_lines(out):
        prose(line)
    if out["length"]:
        ln, mg = out["length"], out["margin"]
        prose(f"length: median {ln['median']:g} decisions (5%-95%: {ln['p5']:g}-{ln['p95']:g})"
              + (f"; winning margin median {mg['median']:g} (5%-95%: {mg['p5']:g}-{mg['p95']:g})"
                 if mg else ""))
    if out["branching"] is not None:
        kinds = ", ".join(f"{k} {100 * v:.0f}%" for k, v in list(out["action_kinds"].items())[:6])
        prose(f"branching: {out['branching']:.1f} legal moves per choice; moves chosen: {kinds}")
    for w in out["warnings"]:
        prose(f"warning: {w}")
    gps = out["games_per_second"]
    print(f"{out['seconds']:.2f} s, {gps:.1f} games/s ({sim.backend}, {sim.workers} "
          f"worker{'s' if sim.workers > 1 else ''})" if gps else f"{out['seconds']:.2f} s")
    return 130 if sim.interrupted else 0


def format_stats(stats: dict[str, dict[str, Any]], games: int) -> list[str]:
    lines = []
    for key, st in stats.items():
        if "counts" in st:
            parts = [f"{v} {100 * n / max(1, games):.1f}%" for v, n in st["counts"].items()]
            lines.append(f"{key}: " + ", ".join(parts))
        else:
            lo, hi = st["ci"]
            lines.append(f"{key}: mean {st['mean']:.2f} (95% CI {lo:.2f}-{hi:.2f}), "
                         f"min {st['min']:g}, max {st['max']:g}")
    return lines


# -- cove compare ----------------------------------------------------------------------------
def cmd_compare(args: argparse.Namespace) -> int:
    from cove.lab.compare import compare, format_compare

    game = cove.load(args.game)
    players = players_arg(game, args.players, game.min_players)
    count_arg("--games", args.games)
    count_arg("--jobs", args.jobs)
    base = game_options(game, args.option)  # -o applies to every variant; a variant overrides
    variants = [{**base, **game_options(game, v.split())} for v in args.variant]
    if len(variants) < 2:
        raise CliError("compare needs at least two --variant (use --variant '' for the "
                       "defaults), e.g. --variant '' --variant 'events=true'")
    bots = bot_specs(args.bots)
    with progress_bar(f"compare {game.id}", not (args.json or args.quiet)) as bar:
        result = compare(game.id, players, args.games, variants, args.seed, bots,
                         progress=bar, jobs=args.jobs, backend=args.backend,
                         address=args.address)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for line in format_compare(result).splitlines():
            (prose if line.startswith(("warning:", "Interrupted:")) else print)(line)
    return 130 if result["interrupted"] else 0


# -- cove report ----------------------------------------------------------------------------
def cmd_report(args: argparse.Namespace) -> int:
    from cove.bots import make_bot
    from cove.lab.compare import compare, label
    from cove.lab.evaluation import MeasureError, make_judge
    from cove.lab.measures import balance_report, luck_skill
    from cove.lab.report import report
    from cove.lab.scan import run_scan
    from cove.lab.simulate import SimResult

    game = cove.load(args.game)
    players = players_arg(game, args.players, game.min_players)
    count_arg("--games", args.games)
    count_arg("--jobs", args.jobs)
    # -o FILE.html names the report (a game option is always KEY=VALUE)
    files = [o for o in args.option or [] if "=" not in o and o.lower().endswith(".html")]
    if len(files) + bool(args.html) > 1:
        raise CliError("name the report once: --html FILE or -o FILE.html")
    base = game_options(game, [o for o in args.option or [] if o not in files])
    variants = [{**base, **game_options(game, v.split())} for v in args.variant] or [base]
    path = Path(args.html or (files[0] if files else f"report-{game.id}.html"))
    if path.is_dir() or not path.parent.is_dir():
        flag = "--html" if args.html else "-o"
        raise CliError(f"{flag} {path}: not a file in an existing folder")
    count_arg("--luck-games", args.luck_games, minimum=0)
    count_arg("--scan-games", args.scan_games, minimum=0)
    luck_bots = [b.strip() for b in args.luck.split(",")]
    if len(luck_bots) != 2 or not all(luck_bots):
        raise CliError(f"--luck {args.luck!r}: name two bots, the weaker first, e.g. "
                       "random,greedy")
    for spec in luck_bots:
        make_bot(spec)
    depth = ladder_depth(args.ladder, game.id) if args.ladder else None
    try:
        make_judge(args.evaluator)
    except MeasureError as e:
        raise CliError(f"--evaluator: {e}") from e
    sims: list[SimResult] = []
    with progress_bar(f"report {game.id}", not args.quiet) as bar:
        result = compare(game.id, players, args.games, variants, args.seed,
                         bot_specs(args.bots), progress=bar, jobs=args.jobs,
                         backend=args.backend, address=args.address, sims=sims,
                         measure=args.evaluator)
    if not sims or not sims[0].results:
        raise KeyboardInterrupt  # stopped before any game finished: nothing to write
    labels = [label(v) for v in variants][: len(sims)]
    paired = [r.get("paired", []) for r in result["variants"]]
    extras = []
    for sim, options in zip(sims, variants, strict=False):
        luck = luck_skill(game.id, players, args.luck_games, luck_bots[0], luck_bots[1],
                          args.seed, options, args.backend, args.jobs, args.address) \
            if args.luck_games else None
        scan = run_scan(game.id, players, base=(bot_specs(args.bots) or ["random"])[0],
                        games=args.scan_games, seed=args.seed, options=options, by="action",
                        top=6) \
            if args.scan_games else None
        extras.append(balance_report(sim, luck=luck, scan=scan, top=args.components,
                                     depth=depth))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(report(sims, labels, paired, extras), encoding="utf-8")
    tmp.replace(path)
    for w in result["warnings"]:
        prose(f"warning: {w}")
    print(("Interrupted: " if result["interrupted"] else "")
          + f"wrote {path} ({len(sims)} variant{'s' if len(sims) > 1 else ''}, "
          f"{sum(len(s.results) for s in sims)} games)")
    return 130 if result["interrupted"] else 0


def ladder_depth(path: str, game_id: str) -> dict[str, Any]:
    """The skill-depth curve of a ``cove ladder --json`` file for ``game_id``; CliError
    saying what is wrong with the file otherwise."""
    try:
        result = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CliError(f"--ladder {path}: not a readable JSON file ({e})") from None
    if not isinstance(result, dict) or not isinstance(result.get("depth"), dict):
        raise CliError(f"--ladder {path}: not a 'cove ladder --json' result (no 'depth')")
    if result.get("game") != game_id:
        raise CliError(f"--ladder {path}: a ladder of {result.get('game')!r}, not {game_id}")
    depth = dict(result["depth"])
    if "slope" not in depth:
        raise CliError(f"--ladder {path}: its pool has no mcts budgets beside the default, "
                       "so it has no skill-depth slope")
    depth["source"] = Path(path).name
    return depth


# -- cove tune ------------------------------------------------------------------------------
def cmd_tune(args: argparse.Namespace) -> int:
    from cove.lab.tune import (
        TuneResult,
        is_data_field,
        parse_range,
        parse_target,
        tune,
        tune_pair,
    )

    game = cove.load(args.game)
    players = players_arg(game, args.players, game.min_players)
    count_arg("--jobs", args.jobs)
    count_arg("--points", args.points, minimum=2)
    ranges = [parse_range(p) for p in args.param]
    if len({r[0] for r in ranges}) < len(ranges):
        raise CliError("--param: give each parameter once, e.g. --param "
                       "goal=10:30 --param max_rounds=12:24")
    if args.method == "auto":
        plain = len(args.target) == 1 and re.search(r"<=|>=|~", args.target[0]) is None
        args.method = "grid" if plain and len(ranges) <= 2 else "ntbea"
    if args.games is None:
        args.games = 100 if args.method == "grid" else 20
    count_arg("--games", args.games)
    if args.method == "grid" and (len(ranges) > 2 or len(args.target) > 1):
        raise CliError("--method grid searches one or two parameters toward one target; "
                       "several targets, or more parameters, need --method ntbea")
    known = {o["name"] for o in game.describe()["options"]}
    for name, low, high in ranges:
        if is_data_field(name):
            continue  # a field of the data file: checked when its first variant is written
        if name not in known:
            raise CliError(f"--param {name}: {game.id} has no such option; its options are "
                           f"{', '.join(sorted(known))} (or a field of its data file, such "
                           "as setup.gold, where the game takes a data_file option)")
        game_options(game, [f"{name}={low}"])  # the range's ends are valid values
        game_options(game, [f"{name}={high}"])
    base = game_options(game, args.option)
    name = ranges[0][0]
    backend = {"jobs": args.jobs, "backend": args.backend, "address": args.address}
    if args.method == "ntbea":
        return tune_ntbea(args, game, players, ranges, base, backend)
    target = parse_target(args.target[0])
    with progress_bar(f"tune {game.id} {name}", not (args.json or args.quiet)) as bar:
        if len(ranges) == 1:
            one = tune(game.id, players, *ranges[0], target, args.games, args.seed,
                       bot_specs(args.bots), base, points=args.points, progress=bar,
                       **backend)
            searches, stopped = [one], one.interrupted
        else:
            searches, stopped = tune_pair(game.id, players, ranges[0], ranges[1], target,
                                          args.games, args.seed, bot_specs(args.bots), base,
                                          points=args.points, progress=bar, **backend)
    second = ranges[1][0] if len(ranges) > 1 else None

    def where(r: TuneResult) -> str:  # the second parameter's value of a search
        return f"{second}={r.manifest['options'][second]}" if second else ""

    best = min(searches, key=lambda r: abs(r.curve[r.best] - target.value))
    if args.html:
        from cove.lab.report import CSS, bars

        charts = "".join(
            bars([str(v) for v in sorted(r.curve)], [r.curve[v] for v in sorted(r.curve)],
                 f"{target.stat} {target.figure} by {name} {where(r)} (dashed: the target)",
                 line=target.value) for r in searches)
        Path(args.html).write_text(
            f"<!doctype html><html lang=en><head><meta charset=utf-8><style>{CSS}</style>"
            f"</head><body><h1>{game.id}: {name} for {target}</h1>{charts}"
            f"<p>best: {name}={best.best} {where(best)} gives "
            f"{best.curve[best.best]:.3g}</p></body></html>\n", encoding="utf-8")
    if args.json:
        out = searches[0].to_json() if second is None else {
            "game": game.id, "params": [name, second], "target": str(target),
            "best": {name: best.best, second: best.manifest["options"][second],
                     "value": best.curve[best.best]},
            "searches": [r.to_json() for r in searches], "interrupted": stopped}
        print(json.dumps(out, indent=1))
        return 130 if stopped else 0
    if stopped:
        print("Interrupted: the search stopped; the values below were measured in full")
    print(f"{game.id}, {players} players, {args.games} games per value (the same seeds), "
          f"target {target}:")
    for r in searches:
        if second:
            print(f"{where(r)}:")
        for v in sorted(r.curve):
            mark = "  <- closest" if v == r.best else ""
            print(f"  {name}={v:<6} {target.stat} {target.figure} = {r.curve[v]:.3g}{mark}")
    print(f"best: {name}={best.best}" + (f" with {where(best)}" if second else "")
          + (" of those tried" if stopped else ""))
    return 130 if stopped else 0


def tune_ntbea(args: argparse.Namespace, game: Game, players: int,
               ranges: list[tuple[str, int, int]], base: dict[str, Any],
               backend: dict[str, Any]) -> int:
    """``cove tune --method ntbea``: several parameters toward several targets."""
    from cove.lab.ntbea import parse_goal, tune_goals

    goals = [parse_goal(t) for t in args.target]
    count_arg("--evaluations", args.evaluations)
    count_arg("--runs", args.runs)
    if args.runs > args.evaluations:
        raise CliError(f"--runs {args.runs}: at most --evaluations ({args.evaluations}), "
                       "each run needs one evaluation or more")
    if args.confirm is not None:
        count_arg("--confirm", args.confirm)
    names = ", ".join(r[0] for r in ranges)
    with progress_bar(f"tune {game.id} {names}", not (args.json or args.quiet)) as bar:
        result = tune_goals(game.id, players, ranges, goals, args.games, args.seed,
                            bot_specs(args.bots), base, points=args.points,
                            evaluations=args.evaluations, runs=args.runs,
                            confirm=args.confirm or 0, explore=args.explore, progress=bar,
                            **backend)
    stopped = 130 if result.interrupted else 0
    if args.html:
        from cove.lab.report import CSS

        head = "".join(f"<th>{html.escape(n)}</th>" for n, _ in result.params)
        head += "<th>loss</th>" + "".join(f"<th>{html.escape(str(g))}</th>"
                                          for g in result.goals)
        rows = "".join(
            "<tr>" + "".join(f"<td>{c.setting[n]}</td>" for n, _ in result.params)
            + f"<td>{c.loss:.3g}</td>"
            + "".join(f"<td>{c.figures[str(g)]:.3g}</td>" for g in result.goals) + "</tr>"
            for c in result.candidates)
        Path(args.html).write_text(
            "<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
            f"content='width=device-width, initial-scale=1'><style>{CSS}</style></head>"
            f"<body><h1>{game.id}: {html.escape(names)}</h1><p>NTBEA, "
            f"{args.evaluations} evaluations of {args.games} games in {args.runs} runs; "
            f"candidates confirmed on the same seeds, lowest loss first.</p>"
            f"<div class=scroll><table><tr>{head}</tr>{rows}</table></div></body></html>\n",
            encoding="utf-8")
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return stopped
    if result.interrupted:
        print("Interrupted: the runs finished so far were confirmed")
    confirm = args.confirm or 10 * args.games
    print(f"{game.id}, {players} players: NTBEA over {names}, {len(result.evaluations)} "
          f"evaluations of {args.games} games in {args.runs} runs; each run's picks "
          f"confirmed on {confirm} games (the same seeds). Targets: "
          + "; ".join(str(g) for g in result.goals))
    for k, c in enumerate(result.candidates):
        setting = " ".join(f"{n}={v}" for n, v in c.setting.items())
        figures = ", ".join(f"{g.target.figure} {c.figures[str(g)]:.3g}"
                            for g in result.goals)
        picks = f" (picked by {c.runs} runs)" if c.runs > 1 else ""
        print(f"{'best' if k == 0 else '    '} {setting}: loss {c.loss:.3g}; "
              f"{figures}{picks}")
    return stopped


# -- cove arena ------------------------------------------------------------------------------
def cmd_arena(args: argparse.Namespace) -> int:
    from cove.lab import arena

    game = cove.load(args.game)
    players = players_arg(game, args.players, max(2, game.min_players))
    count_arg("--games", args.games)
    bots = bot_specs(args.bots) or []
    count_arg("--jobs", args.jobs)
    options = game_options(game, args.option)
    with progress_bar(f"arena {game.id}", not (args.json or args.quiet)) as bar:
        result = arena.run_arena(game.id, players, bots, args.games, args.seed, options,
                                 progress=bar, jobs=args.jobs, backend=args.backend,
                                 address=args.address)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(arena.format_arena(result))
    return 130 if result["interrupted"] else 0


def cmd_scan(args: argparse.Namespace) -> int:
    from cove.lab import scan

    game = cove.load(args.game)
    players = players_arg(game, args.players, max(2, game.min_players))
    count_arg("--games", args.games)
    options = game_options(game, args.option)
    with progress_bar(f"scan {game.id}", not (args.json or args.quiet)) as bar:
        result = scan.run_scan(game.id, players, args.bot, args.games, args.seed, options,
                               by=args.by, top=args.top, progress=bar)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(scan.format_scan(result))
    return 0


def cmd_soak(args: argparse.Namespace) -> int:
    from cove.lab import soak

    game = cove.load(args.game)
    players = players_arg(game, args.players, max(2, game.min_players))
    count_arg("--games", args.games)
    count_arg("--jobs", args.jobs)
    options = game_options(game, args.option)
    bots = bot_specs(args.bots) if args.bots else None
    with progress_bar(f"soak {game.id}", not (args.json or args.quiet)) as bar:
        result = soak.run_soak(game.id, players, args.games, args.first, options, bots,
                               jobs=args.jobs, backend=args.backend, address=args.address,
                               progress=bar)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(soak.format_soak(result))
    return 1 if result["failures"] else 0


# -- cove ladder -----------------------------------------------------------------------------
def out_file(flag: str, name: str | None) -> Path | None:
    """``--json FILE`` / ``--html FILE`` checked before a long run (None: not asked for;
    ``-``: standard output)."""
    if name is None or name == "-":
        return None
    path = Path(name)
    if path.is_dir() or not (path.parent if str(path.parent) else Path(".")).is_dir():
        raise CliError(f"{flag} {cut(name)}: not a file in an existing folder")
    return path


def ladder_command(args: argparse.Namespace, game: Game, players: int) -> str:
    """The command that plays the same ladder again (``--games`` of the games played)."""
    parts = ["cove", "ladder", game.id, "--players", str(players), "--seed", str(args.seed)]
    for opt in args.option or []:
        parts += ["-o", opt]
    if args.pool is not None:
        parts += ["--pool", args.pool]
    if args.budgets is not None:
        parts += ["--budgets", args.budgets]
    return " ".join(shlex.quote(p) for p in parts)


def cmd_ladder(args: argparse.Namespace) -> int:
    from cove.lab import ladder
    from cove.terminal import write_atomically

    game = cove.load(args.game)
    players = players_arg(game, args.players, max(2, game.min_players))
    count_arg("--games", args.games)
    jobs = count_arg("--jobs", args.jobs) or os.cpu_count() or 1
    budgets = ladder.parse_budgets(args.budgets) if args.budgets is not None else None
    pool = bot_specs(args.pool) if args.pool is not None else None
    options = game_options(game, args.option)
    json_path = out_file("--json", args.json)
    html_path = out_file("--html", args.html)
    timed = args.games is None
    unit = "s" if timed else "games"
    quiet = args.quiet or args.json == "-"
    with progress_bar(f"ladder {game.id}", not quiet, unit=unit) as bar:
        result = ladder.run_ladder(
            game.id, players, pool, budgets, args.games, args.minutes, args.precision,
            args.seed, options, args.bootstrap, jobs=jobs, backend=args.backend,
            address=args.address, progress=bar)
    command = ladder_command(args, game, players)
    if result.get("fitted"):  # the pool the fit kept, named: --games alone would not fit it
        command += " --pool " + shlex.quote(",".join(e["spec"] for e in result["entries"]))
    result["command"] = command + f" --games {result['games']}"
    if html_path is not None:
        write_atomically(html_path, ladder.ladder_html(result), shared=True)
    if json_path is not None:
        write_atomically(json_path, json.dumps(result, indent=1) + "\n", shared=True)
    if args.json == "-":
        print(json.dumps(result, indent=1))
    else:
        print(ladder.format_ladder(result))
        print(f"the same games again: {result['command']}")
        for path in (html_path, json_path):
            if path is not None:
                print(f"wrote {path}")
    return 130 if result["stop"]["reason"] == "interrupted" else 0


# -- cove serve ------------------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    try:  # imported here: the web extra is optional and `import cove` stays light
        from cove.serve import Settings, run
    except ImportError as e:
        raise CliError(f"cove serve needs the web extra ({e.name} is missing): "
                       "pip install 'cove[web]', or run python3 dev.py serve") from None
    if not 0 < args.port < 65536:
        raise CliError(f"--port must be 1..65535, got {args.port}")
    import dataclasses  # every flag whose name is a Settings field sets that field

    fields = {f.name for f in dataclasses.fields(Settings)}
    given = {k: v for k, v in vars(args).items() if k in fields and not k.startswith("bot_")}
    settings = Settings(**given, **bot_settings(args))  # the bot flags checked together
    try:
        return run(args.host, args.port, settings)
    except ValueError as e:  # a bad --forwarded-allow-ips
        raise CliError(str(e)) from None


def bot_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The bot flags of ``cove serve`` given, checked, as ``Settings`` fields (a budget
    above the default also raises the default timeout, which must stay above it)."""
    out: dict[str, Any] = {}
    for name, low, strict in (("bot_budget", 0.0, True), ("bot_timeout", 0.0, True),
                              ("bot_workers", 1, False), ("bot_share", 0, False),
                              ("bot_pace", 0.0, False), ("bot_idle", 0.0, False),
                              ("bot_lease", 0.0, True)):
        value = getattr(args, name)
        if value is None:
            continue
        if not (value > low if strict else value >= low):  # (NaN too)
            flag = "--" + name.replace("_", "-")
            raise CliError(f"{flag} must be {'above' if strict else 'at least'} {low:g}, "
                           f"got {value:g}")
        out[name] = value
    budget = out.get("bot_budget")
    if budget is not None and "bot_timeout" not in out:
        out["bot_timeout"] = max(10.0, 3 * budget + 2)
    if "bot_timeout" in out and budget is not None and out["bot_timeout"] <= budget:
        raise CliError(f"--bot-timeout ({out['bot_timeout']:g} s) must be above --bot-budget "
                       f"({budget:g} s): bots stop at the budget, the timeout kills them")
    return out


def cmd_new_game(args: argparse.Namespace) -> int:
    from cove.scaffold import new_game

    made = new_game(args.name)
    root = made.source.parents[3]
    print(f"Wrote {made.source.relative_to(root)}/ and {made.tests.relative_to(root)}/: the "
          f"tutorial game under the id {made.id!r}, registered by its folder.\n"
          f"Try it: cove play {made.id}; check it: python3 dev.py test. Then write its "
          "rules in RULES.md and replace the tutorial's, module by module (CONTRIBUTING.md).")
    return 0


# -- the parser ------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    ap = ArgumentParser(prog="cove", description="Cove: play, simulate and study "
                                 "tabletop games. 'cove games' lists the games and options.")
    ap.add_argument("--version", action="version",
                    version=f"cove {cove.__version__} ({cove.BUILD} build)")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    sub.required = True

    g = sub.add_parser("games", help="list the games, player counts and options")
    g.add_argument("--json", action="store_true", help="print JSON")
    g.set_defaults(func=cmd_games)
    b = sub.add_parser("bots", help="list the bots, their parameters and the levels")
    b.set_defaults(func=cmd_bots)

    def game_args(p: argparse.ArgumentParser, optional_game: bool = False,
                  seed_default: int | None = 1) -> None:
        if optional_game:
            p.add_argument("game", nargs="?", help="game id (see 'cove games')")
        else:
            p.add_argument("game", help="game id (see 'cove games')")
        p.add_argument("--players", "-p", type=int, help="number of players")
        p.add_argument("--seed", type=int, default=seed_default,
                       help="random seed (default " + ("random, printed)" if seed_default is None
                                                      else f"{seed_default})"))
        p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                       help="a game option (repeatable; see 'cove games')")
        data_dir_arg(p)

    def data_dir_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--data-dir", metavar="DIR", action="append",
                       help=f"a directory data files (-o data_file=...) may be read from, "
                       f"besides the built-in ones and ${ENV_DIR} (repeatable)")

    p = sub.add_parser("play", help="play in the terminal against bots")
    game_args(p, optional_game=True, seed_default=None)
    p.add_argument("--seat", default="1", help="your seat, 1..players (default 1); several "
                   "seats for players sharing the screen, e.g. 1,2")
    p.add_argument("--resume", metavar="FILE", nargs="?", const=LAST,
                   help="continue a game saved by 'cove play' (no FILE: the last game)")
    p.add_argument("--bots", help="bot specs for the other seats, comma-separated "
                   "(one spec for all, or one per seat)")
    p.add_argument("--save", metavar="FILE", help="save the game (its record, as JSON) "
                   "after every move (default: the last game's file, see --resume)")
    p.add_argument("--no-save", action="store_true", help="keep no save of this game")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    p.add_argument("--screen", choices=("auto", "redraw", "plain"), default="auto",
                   help="redraw: one screen updated in place; plain: scrolling text for "
                   "pipes and screen readers (default auto: redraw on a terminal)")
    p.set_defaults(func=cmd_play)

    def run_args(p: argparse.ArgumentParser, jobs_default: int | None = 1) -> None:
        p.add_argument("--jobs", "-j", type=int, default=jobs_default,
                       help="workers: local processes, or Ray CPUs (default "
                       f"{jobs_default or 'one per CPU'})")
        p.add_argument("--backend", choices=BACKENDS, default="serial",
                       help="where games run: serial, processes (--jobs of them) or ray "
                       "(a local Ray instance, or --address); results are identical")
        p.add_argument("--address", metavar="HOST:PORT",
                       help="join this Ray cluster (with --backend ray)")
        p.add_argument("--quiet", "-q", action="store_true",
                       help="no progress bar (it is drawn on stderr, only on a terminal)")

    s = sub.add_parser("simulate", help="bots play many games; per-seat statistics")
    game_args(s)
    s.add_argument("--games", "-n", type=int, default=100, help="games to play (default 100)")
    s.add_argument("--bots", help="bot specs per seat, comma-separated (default random)")
    run_args(s)
    s.add_argument("--out", metavar="FILE.jsonl", help="stream one JSON line per game "
                   "(after a manifest line); the same command again resumes the run")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(func=cmd_simulate)

    c = sub.add_parser("compare", help="rule variants side by side on the same seeded games")
    game_args(c)
    c.add_argument("--variant", "-V", action="append", default=[], metavar="'K=V K2=V2'",
                   help="one variant's options, space-separated (repeat; '' = defaults)")
    c.add_argument("--games", "-n", type=int, default=200, help="games per variant")
    c.add_argument("--bots", help="bot specs per seat, comma-separated (default random)")
    run_args(c)
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=cmd_compare)

    rp = sub.add_parser("report", help="one HTML file with a run's figures and plots")
    game_args(rp)
    rp.add_argument("--variant", "-V", action="append", default=[], metavar="'K=V K2=V2'",
                    help="compare variants side by side (repeat; '' = defaults)")
    rp.add_argument("--games", "-n", type=int, default=200, help="games (per variant)")
    rp.add_argument("--bots", help="bot specs per seat, comma-separated (default random)")
    run_args(rp)
    rp.add_argument("--html", metavar="FILE", help="where to write (default report-GAME.html; "
                    "-o FILE.html says the same)")
    rp.add_argument("--evaluator", default="heuristic", metavar="heuristic|mcts:...",
                    help="who is ahead, for lead change, drama, clarity, decisiveness and "
                    "kingmaking: the game's heuristic (default) or the search bot's "
                    "playouts, e.g. mcts:iterations=16 (docs/METRICS.md)")
    rp.add_argument("--luck", default="random,greedy", metavar="WEAK,STRONG",
                    help="luck and skill: the weaker bot in one seat against the stronger "
                    "in the others (default random,greedy)")
    rp.add_argument("--luck-games", type=int, default=100,
                    help="games for luck and skill per variant (default 100; 0: none)")
    rp.add_argument("--scan-games", type=int, default=0,
                    help="also scan for dominant options, with this many games per "
                    "restriction (default 0: no scan; cove scan says more)")
    rp.add_argument("--ladder", metavar="FILE.json",
                    help="show the skill-depth slope of this 'cove ladder --json' result "
                    "of the same game beside luck and skill")
    rp.add_argument("--components", type=int, default=12,
                    help="components listed per variant, those that stand out first "
                    "(default 12; 0: all)")
    rp.set_defaults(func=cmd_report)

    tp = sub.add_parser("tune", help="search DESIGN options for the values that hit targets")
    game_args(tp)
    tp.add_argument("--param", required=True, action="append", metavar="NAME=LOW:HIGH",
                    help="an option (or data-file field) to search and its range, e.g. "
                    "goal=10:30 (repeat); with grid, a second --param searches the first "
                    "for each of its values")
    tp.add_argument("--target", required=True, action="append",
                    metavar="'[STAT] FIGURE=VALUE'",
                    help="e.g. 'median rounds=14' (STAT: mean, median, p5, p95; FIGURE: "
                    "decisions, margin, safety, balance or a game figure; also <=, >= and "
                    "~SCALE, as 'balance<=3'); repeat for several targets")
    tp.add_argument("--method", choices=("auto", "grid", "ntbea"), default="auto",
                    help="grid: one target, one or two parameters, every value near the "
                    "best; ntbea: several targets or parameters (N-tuple bandit, "
                    "docs/LAB.md); auto (default): grid when it can")
    tp.add_argument("--games", "-n", type=int, default=None,
                    help="games per value tried (grid, default 100) or per evaluation "
                    "(ntbea, default 20)")
    tp.add_argument("--points", type=int, default=7,
                    help="values in the first pass (grid) or per parameter (ntbea)")
    tp.add_argument("--evaluations", type=int, default=60,
                    help="ntbea: evaluations in all, split over the runs (default 60)")
    tp.add_argument("--runs", type=int, default=3,
                    help="ntbea: short runs from random starts (default 3)")
    tp.add_argument("--confirm", type=int, default=None,
                    help="ntbea: games each run's picks play to confirm them (default 10 x "
                    "--games)")
    tp.add_argument("--explore", type=float, default=1.0,
                    help="ntbea: weight of the exploration bonus, in standard deviations "
                    "of the losses seen (default 1)")
    tp.add_argument("--bots", help="bot specs per seat, comma-separated (default random)")
    run_args(tp)
    tp.add_argument("--html", metavar="FILE", help="also write the curve as an HTML plot")
    tp.add_argument("--json", action="store_true", help="print one JSON object")
    tp.set_defaults(func=cmd_tune)

    r = sub.add_parser("replay", help="step through a saved game")
    r.add_argument("file", help="a record written by 'cove play --save'")
    r.add_argument("--seat", type=int, help="see the game as this seat (default: spectator)")
    r.add_argument("--all", action="store_true", help="print every step without waiting")
    r.add_argument("--no-color", action="store_true", help="plain text, no colours")
    data_dir_arg(r)
    r.set_defaults(func=cmd_replay)

    a = sub.add_parser("arena", help="bots against bots, seats rotated, with ratings")
    game_args(a)
    a.add_argument("--bots", required=True, help="bot specs, comma-separated, e.g. mcts,random")
    a.add_argument("--games", "-n", type=int, default=100, help="games to play (default 100)")
    run_args(a)
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.set_defaults(func=cmd_arena)

    sc = sub.add_parser("scan", help="restricted players look for dominant and useless "
                        "options (never / always an action kind or action)")
    game_args(sc)
    sc.add_argument("--bot", default="greedy",
                    help="the base bot every seat plays (default greedy)")
    sc.add_argument("--games", "-n", type=int, default=200,
                    help="paired games per restriction (default 200)")
    sc.add_argument("--by", choices=("kind", "action"), default="kind",
                    help="an option is an action kind (default) or one action")
    sc.add_argument("--top", type=int, default=12,
                    help="scan the options chosen most often in sample games (default 12; "
                    "0: all)")
    sc.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sc.add_argument("--json", action="store_true", help="print one JSON object")
    sc.set_defaults(func=cmd_scan)

    so = sub.add_parser("soak", help="many games with every conformance check on; any "
                        "failure with the command that replays it")
    game_args(so)
    so.add_argument("--games", "-n", type=int, default=1000,
                    help="games to play (default 1000)")
    so.add_argument("--first", type=int, default=0,
                    help="the first game's number (game g is the harness's seed g)")
    so.add_argument("--bots", help="bot specs per seat choose the moves (default random)")
    run_args(so)
    so.add_argument("--json", action="store_true", help="print one JSON object")
    so.set_defaults(func=cmd_soak)

    ld = sub.add_parser(
        "ladder", help="rate a pool of bots: mirrored deals, Bradley-Terry ratings with "
        "bootstrap intervals, the mcts skill-depth curve (HTML and JSON)",
        description="Rate a pool of bots on one game (docs/RESEARCH.md, 'The bot ladder'). "
        "Every deal is played once per rotation of its table's seats, so the luck of the "
        "deal cancels; the ratings are Bradley-Terry (Elo scale) with bootstrap 95% "
        "intervals over deals. The ladder stops once every interval is within "
        "+-PRECISION win-% points or a budget ends. Default size: the default pool for "
        f"{LADDER_MINUTES:g} minutes (fewer games in the slower games), which ends within "
        "30 minutes; give --games for a fixed number of games, --budgets or --pool for a "
        "smaller pool.")
    game_args(ld)
    ld.add_argument("--pool", metavar="SPECS", help="the entries, comma-separated bot specs "
                    "(any 'cove bots' spec, a level, or ismcts[:simulations=N,c=X,"
                    "rollouts=N]); default: random, greedy, mcts at each --budgets, the "
                    "levels that are bots of their own, and ismcts:simulations=50")
    ld.add_argument("--budgets", metavar="LIST", help="the default pool's mcts budgets, in "
                    "multiples of the default budget (default 1/8,1/4,1/2,1,2,4,8; 1 is "
                    "always in)")
    ld.add_argument("--games", "-n", type=int, help="play at most this many games (whole "
                    "deals); no time budget unless --minutes is given too")
    ld.add_argument("--minutes", type=float, help="stop after this many minutes (checked "
                    f"after each deal; default {LADDER_MINUTES:g} when --games is not given)")
    ld.add_argument("--precision", type=float, default=2.0, help="stop once every rating's "
                    "95%% interval is within this many win-%% points (default 2)")
    ld.add_argument("--bootstrap", type=int, default=200, metavar="N",
                    help="bootstrap refits per interval (default 200)")
    run_args(ld, jobs_default=None)
    ld.add_argument("--json", nargs="?", const="-", metavar="FILE",
                    help="write the JSON result to FILE (no FILE: print it instead of "
                    "the table)")
    ld.add_argument("--html", metavar="FILE", help="write one self-contained HTML page")
    ld.set_defaults(func=cmd_ladder)

    ng = sub.add_parser("new-game", help="start a new game: its folder and tests, from the "
                        "tutorial game (CONTRIBUTING.md)")
    ng.add_argument("name", help="the new game's id: lower-case words joined by '-'")
    ng.set_defaults(func=cmd_new_game)

    v = sub.add_parser("serve", help="online tables for friends and bots (docs/API.md)")
    v.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1)")
    v.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    v.add_argument("--db", default="sqlite:///cove.db", help="sqlite:///path (default "
                   "cove.db here) or postgresql://user@host/dbname")
    # -- edge: connections and requests (docs/API.md, Limits; defaults: Settings)
    def above_0(kind: type[int] | type[float]) -> Any:
        def parse(text: str) -> int | float:
            try:
                value = kind(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number") from None
            if not 0 < value < float("inf"):
                raise argparse.ArgumentTypeError(f"{text[:20]!r}: must be above 0")
            return value
        return parse

    for flag, kind, text in [
        ("--max-connections", above_0(int), "open connections in all (default 1000); past "
         "it 503 with Retry-After"),
        ("--client-connections", above_0(int), "open connections per client address "
         "(default 32); past it 429"),
        ("--max-websockets", above_0(int), "open websockets in all (default 500)"),
        ("--client-websockets", above_0(int), "open websockets per client address "
         "(default 16)"),
        ("--header-timeout", above_0(float), "seconds for a request's headers (default 5)"),
        ("--body-timeout", above_0(float), "seconds for a request's body (default 10)"),
        ("--idle-timeout", above_0(float), "seconds a kept-alive connection may idle "
         "(default 5)"),
        ("--rate", above_0(float), "moves a second per seat (default 10)"),
        ("--burst", above_0(int), "moves at once per seat (default 30)"),
        ("--read-rate", above_0(float), "reads a second per client address (default: "
         "twice --rate)"),
        ("--read-burst", above_0(int), "reads at once per client address (default: "
         "twice --burst)"),
        ("--create-rate", above_0(float), "tables created a second per client address "
         "(default 0.2)"),
        ("--create-burst", above_0(int), "tables created at once per client address "
         "(default 10)"),
        ("--chat-rate", above_0(float), "chat messages a second per sender: a seat, or a "
         "spectator's address (default 0.5)"),
        ("--chat-burst", above_0(int), "chat messages at once per sender (default 5)"),
        ("--max-tables", above_0(int), "live tables in all (default 500)"),
        ("--max-bots", above_0(int), "bot seats of live tables in all (default 200)"),
        ("--client-tables", above_0(int), "live tables per client address (default: "
         "twice --create-burst)"),
        ("--open-idle", above_0(float), "seconds without a move after which an unfinished "
         "table leaves the lobby's open tables (default 86400, a day)"),
        ("--forwarded-allow-ips", str, "proxies whose X-Forwarded-For gives the client's "
         "address: addresses or networks, comma-separated, or * (default none)"),
        ("--webhook-hosts", str, "hosts a player's \"your turn\" webhook may call: * any "
         "public host (the default), a comma-separated list (discord.com,hooks.slack.com; "
         ".example.org: its subdomains too), or none: no webhooks"),
    ]:
        v.add_argument(flag, type=kind, default=argparse.SUPPRESS, help=text)
    v.add_argument("--webhook-private", action="store_true", default=argparse.SUPPRESS,
                   help="let webhooks call private, loopback and reserved addresses too "
                   "(a closed network; never on a public server)")
    # -- bots: budgets, fair workers, pacing, idle tables and leases
    v.add_argument("--bot-budget", type=float, metavar="SECONDS", help="think time of one "
                   "bot move (default 2): searches stop at it, and seats asking for more "
                   "work (iterations, steps, time, scale, samples) are refused")
    v.add_argument("--bot-timeout", type=float, metavar="SECONDS", help="a bot that has not "
                   "answered by then gets a random move and its worker is killed (default "
                   "10, or 3 x the budget + 2 s for a larger budget)")
    v.add_argument("--bot-workers", type=int, metavar="N", help="worker processes bots "
                   "think in (default 2)")
    v.add_argument("--bot-share", type=int, metavar="N", help="most workers one table's "
                   "bots may hold at once (default 0: half the workers, at least 1)")
    v.add_argument("--bot-pace", type=float, metavar="MOVES", help="moves per second a "
                   "table of bots only plays at most (default 2; 0: no pacing)")
    v.add_argument("--bot-idle", type=float, metavar="SECONDS", help="a table of bots only "
                   "that nobody watches this long is archived until asked for (default "
                   "120; 0: never)")
    v.add_argument("--bot-lease", type=float, metavar="SECONDS", help="with several "
                   "processes on PostgreSQL: how long one's claim on a table's bots lasts "
                   "unrenewed (default 15)")
    v.set_defaults(func=cmd_serve)
    return ap


def allow_data_dirs(dirs: Sequence[str] | None) -> dict[str, str | None]:
    """Add ``--data-dir`` directories to ``COVE_DATA_DIR`` (where worker processes see them
    too); returns what to restore."""
    before = {ENV_DIR: os.environ.get(ENV_DIR)}
    if not dirs:
        return before
    paths = []
    for d in dirs:
        if not os.path.isdir(d):
            raise CliError(f"--data-dir {cut(d)!r} is not a directory; give a directory "
                           "holding the data files")
        paths.append(os.path.abspath(d))
    if before[ENV_DIR]:
        paths.append(str(before[ENV_DIR]))
    os.environ[ENV_DIR] = os.pathsep.join(paths)
    return before


def restore_env(saved: dict[str, str | None]) -> None:
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def safe_streams() -> None:
    """Characters the terminal's encoding lacks become '?' rather than a UnicodeEncodeError
    (PYTHONIOENCODING=ascii, an old Windows console)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # detached or closed: leave it
                reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    safe_streams()
    saved: dict[str, str | None] = {}
    try:
        args = build_parser().parse_args(argv)
        saved = allow_data_dirs(getattr(args, "data_dir", None))
        rc: int = args.func(args)
        return rc
    except CoveError as e:
        print(f"cove: error: {one_line(str(e))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        restore_env(saved)


if __name__ == "__main__":
    sys.exit(main())
