"""The ``cove`` command: list games, play in the terminal, simulate, replay, arena.

Every subcommand talks to games only through the public contract. Bad input (unknown
game, option, player count, bot spec, unreadable record) ends with one line on stderr
naming what was wrong and what is valid, and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

import cove
from cove.bots.spec import split_specs
from cove.core.errors import CoveError
from cove.core.game import Game
from cove.core.record import load_record, replay, save
from cove.core.state import State

EXIT_USAGE = 2


class CliError(CoveError):
    """A command-line mistake (bad argument value)."""


# -- helpers ---------------------------------------------------------------------------------
def parse_kv(pairs: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in pairs or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CliError(f"option {item!r} must be KEY=VALUE, e.g. -o events=true")
        out[key.strip()] = value.strip()
    return out


def use_color(flag: bool, stream: IO[str]) -> bool:
    return flag and stream.isatty() and "NO_COLOR" not in os.environ


def player_name(p: int) -> str:
    return f"P{p + 1}"


def render(game: Game, state: State, seat: int | None, color: bool) -> str:
    view = state.view(seat)
    if game.render is not None:
        return game.render(view, color)
    return json.dumps(view, indent=1)


class Progress:
    """A one-line progress bar on stderr (only when stderr is a terminal)."""

    def __init__(self, label: str, enabled: bool) -> None:
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        pct = int(100 * done / max(1, total))
        if pct == self.last and done != total:
            return
        self.last = pct
        width = 30
        fill = width * done // max(1, total)
        bar = "#" * fill + "-" * (width - fill)
        sys.stderr.write(f"\r{self.label} [{bar}] {done}/{total} ({pct}%)")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


# -- cove games ------------------------------------------------------------------------------
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


def _opponents(spec: str | None, players: int, human: int | None) -> list[str]:
    from cove import bots

    default = getattr(bots, "DEFAULT_PLAY_BOT", "random")
    others = players - (0 if human is None else 1)
    specs = split_specs(spec) if spec else [default]
    if len(specs) == 1:
        specs = specs * others
    if len(specs) != others:
        raise CliError(
            f"--bots needs 1 spec or {others} specs (one per bot seat), got {len(specs)}: {spec}"
        )
    out: list[str] = []
    it = iter(specs)
    for p in range(players):
        out.append("human" if p == human else next(it))
    return out


def _recent_log(state: State, seat: int | None, since: int, limit: int = 14) -> list[str]:
    evs = state.events(seat, since)
    lines = [e.text for e in evs]
    if len(lines) > limit:
        lines = [f"... ({len(lines) - limit} earlier lines; type 'log' for all)", *lines[-limit:]]
    return lines


def _screen(game: Game, state: State, seat: int | None, color: bool, since: int) -> str:
    parts = [render(game, state, seat, color)]
    log = _recent_log(state, seat, since)
    if log:
        parts.append("Log:\n" + "\n".join(f"  {line}" for line in log))
    return "\n".join(parts)


def _ask(state: State, seat: int, read: Callable[[str], str | None]) -> Any | None:
    """Ask the human for a move until a legal one is given; None on quit/EOF."""
    legal = list(state.legal_actions(seat))
    print(f"\nYour move, {player_name(seat)}:")
    for i, a in enumerate(legal, 1):
        print(f"  {i:>2}. {a}")
    while True:
        line = read("> ")
        if line is None:
            return None
        text = line.strip()
        if not text:
            continue
        low = text.lower()
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "help"):
            print("Type a move's number or its text; 'log' shows the whole log; 'quit' leaves.")
            continue
        if low == "log":
            for e in state.events(seat):
                print(f"  {e.text}")
            continue
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            print(f"No move {k}: choose 1 to {len(legal)}, or type a move's text.")
            continue
        found = state.find_action(seat, text)
        if found is None:
            why = state.explain_illegal(seat, text)
            if why:
                print(f"{why}.")
            print(f"{text!r} is not a legal move now. Choose 1 to {len(legal)} or type one of: "
                  + "; ".join(str(a) for a in legal[:8]) + (" ..." if len(legal) > 8 else ""))
            continue
        return found


def _input(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def cmd_play(args: argparse.Namespace) -> int:
    from cove.bots import make_bot

    game = cove.load(args.game)
    players = args.players or max(game.min_players, 2 if game.max_players >= 2 else 1)
    state = game.new(players, args.seed, **parse_kv(args.option))
    human = _seat_arg(args.seat, players)
    specs = _opponents(args.bots, players, human)
    bots = {p: make_bot(specs[p], seed=args.seed * 31 + p) for p in range(players) if p != human}
    color = use_color(not args.no_color, sys.stdout)
    print(f"{game.name}: {players} players, seed {args.seed}. You are {player_name(human)}. "
          + ", ".join(f"{player_name(p)}={specs[p]}" for p in bots))
    seen = 0
    quit_early = False
    while not state.is_over:
        movers = state.to_move()
        for p in movers:  # bots commit first; simultaneous choices stay hidden from the human
            if p != human and p in state.to_move():
                state.apply(p, bots[p].choose(state, p))
        if state.is_over or human not in state.to_move():
            continue
        print("\n" + "=" * 72)
        print(_screen(game, state, human, color, seen))
        seen = state.log_count(human)
        action = _ask(state, human, _input)
        if action is None:
            quit_early = True
            break
        state.apply(human, action)
    if args.save:
        save(state, args.save)
    if quit_early:
        print("Game left unfinished." + (f" Saved to {args.save}." if args.save else ""))
        return 0
    print("\n" + "=" * 72)
    print(_screen(game, state, human, color, seen))
    scores = state.scores()
    print("\nFinal scores: " + ", ".join(
        f"{player_name(p)}{' (you)' if p == human else ''} {scores[p]:g}" for p in range(players)))
    winners = state.winners()
    print("Winner" + ("s: " if len(winners) > 1 else ": ")
          + ", ".join(player_name(p) for p in winners)
          + (" -- you win!" if human in winners else ""))
    if args.save:
        print(f"Saved the game record to {args.save}; replay it with: cove replay {args.save}")
    return 0


# -- cove replay -----------------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record(args.file)
    final = replay(record)  # validates the whole record before showing anything
    game = final.game
    seat = None if args.seat is None else _seat_arg(args.seat, final.n)
    actions = record["actions"]
    total = len(actions)
    # one pass through the game, keeping a (cheap) clone of every position
    state = replay(record, upto=0)
    states = [state.clone()]
    for p, text in actions:
        state.apply(p, text)
        states.append(state.clone())
    color = use_color(not args.no_color, sys.stdout)
    who = "a spectator" if seat is None else player_name(seat)
    print(f"Replay of {game.name}, {final.n} players, seed {record['seed']}, {total} moves, "
          f"seen by {who}. Enter: next, b: back, g N: go to move N, e: end, q: quit.")
    step = 0
    while True:
        now = states[step]
        print("\n" + "=" * 72)
        if step:
            p, text = actions[step - 1]
            print(f"Move {step}/{total}: {player_name(p)} -> {text}")
        else:
            print(f"Start (0/{total} moves)")
        prev = states[step - 1].log_count(seat) if step else 0
        print(_screen(game, now, seat, color, prev))
        if step == total and now.is_over:
            scores = now.scores()
            print("Final scores: " + ", ".join(
                f"{player_name(p)} {scores[p]:g}" for p in range(final.n)))
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
            if not arg.isdigit() or int(arg) > total:
                print(f"Go to which move? Give a number from 0 to {total}, e.g. 'g 10'.")
                continue
            step = int(arg)
        else:
            print("Unknown command: Enter for next, b for back, g N to go to move N, "
                  "e for the end, q to quit.")


# -- cove simulate ---------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    from cove.lab.simulate import simulate

    game = cove.load(args.game)
    players = args.players or game.min_players
    bots = split_specs(args.bots) if args.bots else None
    if args.games < 1:
        raise CliError(f"--games must be at least 1, got {args.games}")
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    sim = simulate(game.id, players, args.games, args.seed, bots, parse_kv(args.option),
                   progress=Progress(f"{game.id} x{args.games}", not args.json), jobs=args.jobs)
    out = sim.to_json()
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{game.name}: {players} players, {out['games']} games, seed {args.seed}, "
          f"bots {','.join(out['bots'])}")
    given = parse_kv(args.option)
    if given:
        print("options: " + ", ".join(f"{k}={out['options'][k.replace('-', '_')]}" for k in given))
    print(f"{'seat':<5}{'bot':<14}{'wins':>8}{'win %':>8}{'95% CI':>16}"
          f"{'mean':>9}{'min':>7}{'max':>7}")
    for s in out["seats"]:
        lo, hi = s["win_ci"]
        print(f"P{s['seat']:<4}{s['bot'][:13]:<14}{s['wins']:>8.1f}{100 * s['win_rate']:>7.1f}%"
              f"{f'{100 * lo:.1f}-{100 * hi:.1f}%':>16}{s['mean_score']:>9.2f}"
              f"{s['min_score']:>7g}{s['max_score']:>7g}")
    print(f"ties: {out['ties']} games; mean decisions per game: {out['mean_decisions']:.1f}"
          + (f"; mean winning margin: {out['mean_margin']:.2f}"
             if out["mean_margin"] is not None else ""))
    for line in format_stats(out["stats"], out["games"]):
        print(line)
    gps = out["games_per_second"]
    print(f"{out['seconds']:.2f} s, {gps:.1f} games/s" if gps else f"{out['seconds']:.2f} s")
    return 0


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
    players = args.players or game.min_players
    if args.games < 1:
        raise CliError(f"--games must be at least 1, got {args.games}")
    variants = [parse_kv(v.split()) for v in args.variant]
    if len(variants) < 2:
        raise CliError("compare needs at least two --variant (use --variant '' for the "
                       "defaults), e.g. --variant '' --variant 'events=true'")
    bots = split_specs(args.bots) if args.bots else None
    result = compare(game.id, players, args.games, variants, args.seed, bots,
                     progress=Progress(f"compare {game.id}", not args.json), jobs=args.jobs)
    print(json.dumps(result, indent=1) if args.json else format_compare(result))
    return 0


# -- cove arena ------------------------------------------------------------------------------
def cmd_arena(args: argparse.Namespace) -> int:
    from cove.lab import arena

    game = cove.load(args.game)
    players = args.players or max(2, game.min_players)
    if args.games < 1:
        raise CliError(f"--games must be at least 1, got {args.games}")
    bots = split_specs(args.bots)
    result = arena.run_arena(game.id, players, bots, args.games, args.seed,
                             parse_kv(args.option),
                             progress=Progress(f"arena {game.id}", not args.json))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(arena.format_arena(result))
    return 0


# -- the parser ------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="cove", description="Cove: play, simulate and study "
                                 "tabletop games. 'cove games' lists the games and options.")
    ap.add_argument("--version", action="version", version=f"cove {cove.__version__}")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    g = sub.add_parser("games", help="list the games, player counts and options")
    g.add_argument("--json", action="store_true", help="print JSON")
    g.set_defaults(func=cmd_games)

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", help="game id (see 'cove games')")
        p.add_argument("--players", "-p", type=int, help="number of players")
        p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
        p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                       help="a game option (repeatable; see 'cove games')")

    p = sub.add_parser("play", help="play in the terminal against bots")
    game_args(p)
    p.add_argument("--seat", type=int, default=1, help="your seat, 1..players (default 1)")
    p.add_argument("--bots", help="bot specs for the other seats, comma-separated "
                   "(one spec for all, or one per seat)")
    p.add_argument("--save", metavar="FILE", help="write the game record as JSON")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    p.set_defaults(func=cmd_play)

    s = sub.add_parser("simulate", help="bots play many games; per-seat statistics")
    game_args(s)
    s.add_argument("--games", "-n", type=int, default=100, help="games to play (default 100)")
    s.add_argument("--bots", help="bot specs per seat, comma-separated (default random)")
    s.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(func=cmd_simulate)

    c = sub.add_parser("compare", help="rule variants side by side on the same seeded games")
    game_args(c)
    c.add_argument("--variant", "-V", action="append", default=[], metavar="'K=V K2=V2'",
                   help="one variant's options, space-separated (repeat; '' = defaults)")
    c.add_argument("--games", "-n", type=int, default=200, help="games per variant")
    c.add_argument("--bots", help="bot specs per seat, comma-separated (default random)")
    c.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(func=cmd_compare)

    r = sub.add_parser("replay", help="step through a saved game")
    r.add_argument("file", help="a record written by 'cove play --save'")
    r.add_argument("--seat", type=int, help="see the game as this seat (default: spectator)")
    r.add_argument("--all", action="store_true", help="print every step without waiting")
    r.add_argument("--no-color", action="store_true", help="plain text, no colours")
    r.set_defaults(func=cmd_replay)

    a = sub.add_parser("arena", help="bots against bots, seats rotated, with ratings")
    game_args(a)
    a.add_argument("--bots", required=True, help="bot specs, comma-separated, e.g. mcts,random")
    a.add_argument("--games", "-n", type=int, default=100, help="games to play (default 100)")
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.set_defaults(func=cmd_arena)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc: int = args.func(args)
        return rc
    except CoveError as e:
        print(f"cove: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
