"""The same games in both builds: a digest of seeded random games of every game, made by
the pure build and by the compiled one (docs/BUILD.md) and compared by
``tests/test_builds.py``.

A game is played by a random policy seeded from its seed. Hashed: at every step the seat
to move, the number of legal actions and the text of the move; at every 37th step and at
the end, every seat's view and observation and the spectator's view; at the end the
scores, the winners, the record and the state's fingerprint.

    python -m cove.testing.builds [--games 12]     # prints {"build": ..., "digests": ...}
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any

import cove
from cove.core.rng import Rng

EVERY = 37


def game_digest(game_id: str, players: int, seed: int) -> str:
    """The digest of one seeded random game of ``game_id`` for ``players``."""
    state = cove.load(game_id).new(players, seed)
    rng = Rng(seed * 31 + 7)
    h = hashlib.blake2b(digest_size=16)

    def put(value: Any) -> None:
        h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())

    def snapshot() -> None:
        put([state.view(None), *(state.view(p) for p in range(players))])
        put([state.observation(p) for p in range(players)])

    step = 0
    while not state.is_over:
        movers = state.to_move()
        p = movers[rng.below(len(movers))]
        legal = state.legal_actions(p)
        action = legal[rng.below(len(legal))]
        put([p, len(legal), str(action)])
        state.apply(p, action)
        step += 1
        if step % EVERY == 0:
            snapshot()
    snapshot()
    put([list(state.scores()), list(state.winners()), state.record(), state.fingerprint()])
    return h.hexdigest()


def digests(games: int = 12) -> dict[str, str]:
    """``games`` seeded games of every registered game at its smallest and its largest
    player count, each one's digest by ``"<game> <players>p #<seed>"``."""
    out: dict[str, str] = {}
    for game in cove.all_games():
        for players in sorted({game.min_players, game.max_players}):
            for seed in range(games):
                out[f"{game.id} {players}p #{seed}"] = game_digest(game.id, players, seed)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cove.testing.builds",
                                 description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=12, help="games per game and player count")
    args = ap.parse_args(argv)
    json.dump({"build": cove.BUILD, "digests": digests(args.games)}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
