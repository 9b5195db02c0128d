"""Stepping back at a live table (``GET /web/tables/{id}/replay`` before the end): each
step is the board as the token's own seat saw it then, never another seat's hidden hand,
and a live game's view of another seat is refused."""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient

import cove
from cove.core.rng import Rng
from cove.web import fragments
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of

FAST = {"rate": 1e6, "burst": 10**6, "bot_processes": False}
TITLE = re.compile(r"<title>([^<]+)</title>")


def secretive() -> str:
    """The turn-based game for three whose seats' boards differ most at the start (hands
    of cards each seat keeps hidden)."""
    def differ(g: cove.Game) -> int:
        st = g.start(3, 5)
        boards = [set(TITLE.findall(fragments.board(g, st.view(p), [], p)[0]))
                  for p in range(3)]
        return len(boards[1] - boards[0]) + len(boards[2] - boards[0])

    fits = [g for g in cove.all_games() if not g.simultaneous and g.board is not None
            and g.min_players <= 3 <= g.max_players]
    return max(fits, key=differ).id


GAME = secretive()


def play(client: TestClient, t: dict[str, Any], moves: int, rng: Rng) -> None:
    """``moves`` random moves by the table's two human seats (the bot plays its own)."""
    url = f"/api/tables/{t['id']}"
    made = 0
    while made < moves:
        for seat in (0, 1):
            g = client.get(url, params={"token": token_of(t, seat)}).json()
            assert not g["over"]
            if g["legal"]:
                pick = g["legal"][rng.below(len(g["legal"]))]["text"]
                r = client.post(url + "/actions", json={"token": token_of(t, seat),
                                                        "action": pick, "expect": g["moves"]})
                made += r.status_code == 200


def step(client: TestClient, t: dict[str, Any], k: int | None, seat: int | None,
         **extra: Any) -> Any:
    params: dict[str, Any] = dict(extra)
    if k is not None:
        params["step"] = k
    if seat is not None:
        params["token"] = token_of(t, seat)
    return client.get(f"/web/tables/{t['id']}/replay", params=params)


def test_each_step_shows_the_own_seats_view_and_no_other_hand(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, GAME, 3, ["human", "human", "random"], seed=5)
        play(client, t, 6, Rng(3))
        hub = client.app.state.hub  # type: ignore[attr-defined]
        st = hub.tables[t["id"]].state
        total = st.decisions
        game = cove.load(GAME)
        state = game.start(3, 5)
        checked = 0
        first = state
        for k in range(total + 1):
            if k:
                p, act = st.history[k - 1]
                state.apply(p, act)
            got = step(client, t, k, 0)
            assert got.status_code == 200, got.text
            body = got.json()
            assert (body["step"], body["total"], body["live"], body["seat"]) == (k, total,
                                                                                  True, 0)
            mine = fragments.board(game, state.view(0), [], 0)[0]
            assert body["board"] == mine  # P1's view of move k, drawn without moves
            for q in (1, 2):  # what only seat q's own board shows (its hand, its card)
                theirs = fragments.board(game, state.view(q), [], q)[0]
                for secret in {s for s in TITLE.findall(theirs) if s not in mine}:
                    checked += 1  # (so drawing seat q's view instead would fail here)
                    assert secret not in body["board"] + body["move"] + body["prompt"]
            if k == 1:
                first = state.clone()
        assert checked > 0, "no seat ever saw something P1 did not: nothing was checked"
        spectator = step(client, t, 1, None).json()
        assert spectator["seat"] is None
        assert spectator["board"] == fragments.board(game, first.view(None), [], None)[0]


def test_another_seats_view_of_a_live_game_is_refused(sqlite_url: str) -> None:
    with make_client(sqlite_url, **FAST) as client:
        t = new_table(client, GAME, 3, ["human", "human", "random"], seed=5)
        play(client, t, 2, Rng(1))
        for seat, other in ((0, "1"), (None, "0"), (1, "2")):
            r = step(client, t, 1, seat, **{"as": other})
            assert r.status_code == 403 and r.json()["error"] == "not_yours", r.text
            assert "board" not in r.json()
        assert step(client, t, 1, 1, **{"as": "1"}).json()["seat"] == 1  # one's own: fine
        r = step(client, t, 999, 0)
        assert r.status_code == 400 and "from 0 to" in r.json()["reason"]
        r = client.get(f"/web/tables/{t['id']}/replay", params={"step": 1, "token": "bad"})
        assert r.status_code == 403
        latest = step(client, t, None, 1).json()  # no step: the position now
        assert latest["step"] == latest["total"] == client.get(
            f"/api/tables/{t['id']}").json()["moves"]
