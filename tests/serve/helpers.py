"""Driving a table through the API the way a client would, and checking what it was sent."""

from __future__ import annotations

from typing import Any

import cove
from cove.core.rng import Rng
from cove.core.state import State
from cove.testing.harness import _contains as contains
from cove.testing.harness import _trivial as trivial


def new_table(client: Any, game: str, players: int, seats: list[str],
              seed: int | None = 1, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": players, "seats": seats, "seed": seed}
    body.update(extra)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def token_of(table: dict[str, Any], seat: int) -> str:
    token: str = table["seats"][seat]["token"]
    return token


def play_human(client: Any, table_id: str, token: str, ws: Any, rng: Rng,
               sent: list[dict[str, Any]], limit: int = 5000) -> dict[str, Any]:
    """Play one human seat to the end: wait for websocket updates, then move with a random
    legal action (alternating its text and JSON forms). Every message the seat receives
    (HTTP and websocket) goes to ``sent``. Returns the last payload."""
    url = f"/api/tables/{table_id}"
    since = 0
    for _ in range(limit):
        got = client.get(url, params={"token": token, "since": since})
        assert got.status_code == 200, got.text
        g = got.json()
        sent.append(g)
        since = g["next_event"]
        if g["over"]:
            return dict(g)
        if not g["legal"]:
            msg = ws.receive_json()
            sent.append(msg)
            continue
        pick = g["legal"][rng.below(len(g["legal"]))]
        action = pick["json"] if rng.below(2) else pick["text"]
        r = client.post(url + "/actions",
                        json={"token": token, "action": action, "expect": g["moves"]})
        if r.status_code == 409:  # a bot of a simultaneous step moved first: look again
            continue
        assert r.status_code == 200, r.text
        sent.append(r.json())
    raise AssertionError("the game did not end")


def states_by_move(record: dict[str, Any]) -> list[State]:
    """The states after 0, 1, 2, ... moves of a full record (for secrecy checks)."""
    game = cove.load(record["game"])
    state = game.start(record["players"], record["seed"], options=record["options"])
    out = [state.clone()]
    for p, text in record["actions"]:
        act = state.find_action(p, text)
        assert act is not None, (p, text)
        state.apply(p, act)
        out.append(state.clone())
    return out


def leaks(messages: list[dict[str, Any]], states: list[State], seat: int | None) -> list[str]:
    """Other seats' private items found in the messages sent to ``seat`` (None:
    spectator), each message checked against the state at its own move count."""
    found = []
    checked = 0
    for msg in messages:
        n = msg.get("moves")
        if n is None:
            continue
        state = states[n]
        for q in range(state.n):
            if q == seat:
                continue
            for name, value in state.private_items(q).items():
                if trivial(value):
                    continue
                checked += 1
                if contains(msg, value):
                    found.append(f"move {n}: P{q + 1}'s {name} {value!r}")
    return found


def game_length(game: cove.Game, players: int, seed: int = 4) -> int:
    """The decisions of one seeded random game (a quick measure of how long it runs)."""
    from cove.lab.runner import RandomChooser, play_out

    return play_out(game.new(players, seed, log=False), RandomChooser(Rng(seed))).decisions


def long_turn_based_game(players: int = 2) -> cove.Game:
    """The registered game, one seat deciding at a time and P1 first, whose random games
    of ``players`` run longest (hundreds of moves for the built-in games)."""
    fits = [g for g in cove.all_games() if not g.simultaneous
            and g.min_players <= players <= g.max_players
            and g.new(players, 4, log=False).to_move() == (0,)]
    assert fits, f"no turn-based game for {players} players with P1 first"
    return max(fits, key=lambda g: game_length(g, players))


def game_of_length(players: int, at_least: int) -> cove.Game:
    """The registered game for ``players`` whose seeded random game is the shortest of
    those running ``at_least`` decisions (long enough to step through, quick to play)."""
    fits = [(n, g.id, g) for g in cove.all_games() if g.min_players <= players <= g.max_players
            for n in [game_length(g, players)] if n >= at_least]
    assert fits, f"no game for {players} players runs {at_least} decisions"
    return min(fits, key=lambda fit: fit[:2])[2]


def turn_based_game(players: int = 2) -> cove.Game:
    """The first registered game where one seat decides at a time, for ``players``."""
    return next(g for g in cove.all_games() if not g.simultaneous
                and g.min_players <= players <= g.max_players)
