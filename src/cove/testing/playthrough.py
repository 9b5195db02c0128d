"""One playthrough format for every game, and the golden files made from it.

A playthrough is a seeded game played by a seeded random policy, written down step by
step: who is to move, what they may do, the move, what each seat sees and the events each
seat is told. Golden files are playthroughs stored in ``tests/games/<pkg>/golden/`` with the
game's version; the golden test replays each one and fails on any difference, so a rule,
data, RNG or action-text change cannot slip through unnoticed.

To keep files readable and small, full views are written for the first ``FULL_STEPS`` steps
and the last one; every step keeps a digest of every seat's view, so the whole game is
still checked.

Regenerate on purpose (never from a test) with::

    python -m cove.testing.playthrough --regen [FILE ...]

which refuses to rewrite a golden file whose play changed while the game's version did
not: a game that plays differently must bump ``Game.version`` (records from the old
version are then refused instead of replaying into another game).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from cove.core.registry import load
from cove.core.rng import Rng

FULL_STEPS = 25
FORMAT = "cove-playthrough/1"


def _digest(v: Any) -> str:
    doc = json.dumps(v, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(doc.encode(), digest_size=8).hexdigest()


def playthrough(game_id: str, players: int, seed: int, options: dict[str, Any] | None = None,
                policy_seed: int | None = None, max_steps: int = 100_000) -> dict[str, Any]:
    """The playthrough document of one seeded game under a seeded random policy."""
    game = load(game_id)
    options = dict(options or {})
    state = game.new(players, seed, **options)
    rng = Rng(seed * 7 + 3 if policy_seed is None else policy_seed)
    seats: list[int | None] = [None, *range(players)]
    seen = {s: 0 for s in seats}
    steps: list[dict[str, Any]] = []

    def snapshot(full: bool) -> dict[str, Any]:
        views = {("spectator" if s is None else f"p{s}"): state.view(s) for s in seats}
        out: dict[str, Any] = {"view_digests": {k: _digest(v) for k, v in views.items()}}
        if full:
            out["views"] = views
        events: dict[str, list[str]] = {}
        for s in seats:
            new = state.events(s, seen[s])
            seen[s] += len(new)
            if new:
                events["spectator" if s is None else f"p{s}"] = [
                    f"[{e.kind}] {e.text}" for e in new]
        out["events"] = events
        return out

    first = snapshot(True)
    while not state.is_over and len(steps) < max_steps:
        movers = list(state.to_move())
        p = movers[rng.below(len(movers))]
        legal = state.legal_actions(p)
        a = legal[rng.below(len(legal))]
        step: dict[str, Any] = {
            "to_move": movers,
            "decision": state.decision(p)["prompt"],
            "legal": [str(x) for x in legal],
            "move": [p, str(a)],
        }
        state.apply(p, a)
        step.update(snapshot(len(steps) < FULL_STEPS))
        steps.append(step)
    if steps and "views" not in steps[-1]:
        steps[-1]["views"] = {("spectator" if s is None else f"p{s}"): state.view(s)
                              for s in seats}
    return {
        "format": FORMAT,
        "game": game.id,
        "version": game.version,
        "players": players,
        "seed": seed,
        "options": options,
        "policy_seed": policy_seed,
        "start": first,
        "steps": steps,
        "over": state.is_over,
        "scores": state.scores(),
        "winners": list(state.winners()),
    }


def regenerate(doc: dict[str, Any]) -> dict[str, Any]:
    return playthrough(doc["game"], doc["players"], doc["seed"], doc.get("options") or {},
                       doc.get("policy_seed"))


def first_difference(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Where two playthroughs part ways, in words (empty when they are equal)."""
    for key in ("game", "players", "seed", "options", "start"):
        if old.get(key) != new.get(key):
            return f"{key} differs"
    for i, (a, b) in enumerate(zip(old["steps"], new["steps"], strict=False)):
        if a != b:
            for k in a.keys() | b.keys():
                if a.get(k) != b.get(k):
                    return (f"step {i + 1} ({a.get('move')}): {k} differs: "
                            f"{json.dumps(a.get(k))[:160]} != {json.dumps(b.get(k))[:160]}")
    if len(old["steps"]) != len(new["steps"]):
        return f"the game has {len(new['steps'])} steps, the file {len(old['steps'])}"
    for key in ("over", "scores", "winners"):
        if old.get(key) != new.get(key):
            return f"{key} differs: {old.get(key)} != {new.get(key)}"
    return ""


def write(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cove.testing.playthrough",
                                 description="Check or regenerate golden playthrough files.")
    ap.add_argument("files", nargs="*", type=Path,
                    help="golden files (default: every tests/games/*/golden/*.json)")
    ap.add_argument("--regen", action="store_true",
                    help="rewrite files whose play changed (only after a version bump)")
    ap.add_argument("--new", nargs=4, metavar=("GAME", "PLAYERS", "SEED", "FILE"),
                    help="write a new golden file for GAME with PLAYERS and SEED")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    if args.new:
        gid, players, seed, file = args.new
        opts = dict(kv.split("=", 1) for kv in args.option)
        path = Path(file)
        if path.exists():
            sys.stderr.write(f"{path} exists; use --regen to rewrite it\n")
            return 2
        write(path, playthrough(gid, int(players), int(seed), opts))
        sys.stderr.write(f"wrote {path}\n")
        return 0
    files = args.files or sorted(Path("tests/games").glob("*/golden/*.json"))
    bad = 0
    for path in files:
        old = json.loads(path.read_text(encoding="utf-8"))
        new = regenerate(old)
        diff = first_difference(old, new)
        if not diff and old.get("version") == new["version"]:
            continue
        if diff and old.get("version") == new["version"]:
            sys.stderr.write(f"{path}: the game plays differently ({diff}) but "
                             f"{new['game']} is still version {new['version']!r}: bump "
                             "Game.version first\n")
            bad += 1
            continue
        if args.regen:
            write(path, new)
            sys.stderr.write(f"{path}: rewritten for version {new['version']}\n")
        else:
            sys.stderr.write(f"{path}: out of date ({diff or 'version'}); run with --regen\n")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
