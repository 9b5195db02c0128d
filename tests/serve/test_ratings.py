"""Ratings: a rated game's end updates its players' and bots' ratings once, exactly as
openskill's Plackett-Luce model does for the ranks of the final scores (ties as ties);
nothing else changes them, and neither a restart nor a second process counts a game twice."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

pytest.importorskip("openskill", reason="the web extra is not installed")

from openskill.models import PlackettLuce

from cove.serve.hub import token_hash
from cove.serve.player_data import Rating
from cove.serve.ratings import Ratings, ranks_from_scores, rate, updater
from cove.serve.store import open_store
from tests.serve.conftest import make_client
from tests.serve.helpers import new_table, token_of
from tests.serve.test_my_games import FAST, play_out, player, sit

SETTINGS: dict[str, Any] = {**FAST, "bot_processes": False}
QUICK = {"plays": 3}


@pytest.fixture(autouse=True)
def toy(toy_registered: str) -> str:
    return toy_registered


def board(client: TestClient) -> dict[str, Rating]:
    """The toy's pool by name (bots by spec), as stored."""
    return {r.name: r for r in client.app.state.hub.store.ratings("toy")}  # type: ignore[attr-defined]


def counted(client: TestClient, games: int, names: int) -> dict[str, Rating]:
    """The pool once ``names`` entries have played ``games`` games (counting is a
    background task after the last move)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        have = board(client)
        if len(have) == names and all(r.games == games for r in have.values()):
            return have
        time.sleep(0.02)
    raise AssertionError(f"not counted: {board(client)}")


def rated_game(client: TestClient, keys: list[str], bots: list[str]) -> list[float]:
    """A rated toy game of the named players (seats 0, 1, ...) and bots, played to its end:
    its final scores."""
    t = new_table(client, "toy", len(keys) + len(bots), ["human"] * len(keys) + bots,
                  seed=None, rated=True, options=QUICK)
    assert t["rated"] is True
    for i, key in enumerate(keys):
        sit(client, t, i, key)
    play_out(client, t, [token_of(t, i) for i in range(len(keys))] + [""] * len(bots))
    scores: list[float] = client.get(f"/api/tables/{t['id']}").json()["scores"]
    return scores


def expected(priors: list[tuple[float, float]], scores: list[float]) -> list[tuple[float, float]]:
    """openskill itself, for the same game: each seat a team, ranked by score (higher is
    better; equal scores tie)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    ranks = [sorted(scores, reverse=True).index(s) + 1 for s in scores]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def test_a_rated_game_updates_the_ratings_as_openskill_does(db_url: str) -> None:
    with make_client(db_url, **SETTINGS) as client:
        ada, bea = player(client, "Ada"), player(client, "Bea")
        fresh = (PlackettLuce().rating().mu, PlackettLuce().rating().sigma)
        scores = rated_game(client, [ada, bea], ["random"])
        pool = counted(client, 1, 3)
        for name, want in zip(["Ada", "Bea", "random"], expected([fresh] * 3, scores),
                              strict=True):
            assert (pool[name].mu, pool[name].sigma) == pytest.approx(want, abs=1e-9)
        assert pool["random"].bot and not pool["Ada"].bot
        # a second game starts from the first one's ratings
        before = [(pool[n].mu, pool[n].sigma) for n in ("Ada", "Bea", "random")]
        scores2 = rated_game(client, [ada, bea], ["random"])
        pool = counted(client, 2, 3)
        for name, want in zip(["Ada", "Bea", "random"], expected(before, scores2),
                              strict=True):
            assert (pool[name].mu, pool[name].sigma) == pytest.approx(want, abs=1e-9)
        # the leaderboard: best ordinal first, no key hashes, "you" for the asker's own row
        r = client.get("/api/games/toy/leaderboard", headers={"Authorization": f"Bearer {ada}"})
        assert r.status_code == 200
        entries = r.json()["entries"]
        assert [e["ordinal"] for e in entries] == sorted((e["ordinal"] for e in entries),
                                                         reverse=True)
        by_name = {e["name"]: e for e in entries}
        assert by_name["Ada"]["you"] is True and "you" not in by_name["Bea"]
        assert by_name["random"]["bot"] is True and by_name["Ada"]["bot"] is False
        assert by_name["Ada"]["ordinal"] == pytest.approx(
            pool["Ada"].mu - 3 * pool["Ada"].sigma, abs=1e-3)
        assert by_name["Ada"]["games"] == 2
        assert token_hash(ada) not in r.text
        r = client.get("/api/games/nope/leaderboard")
        assert r.status_code == 404 and "the games: " in r.json()["reason"]
        page = client.get("/web/leaderboard/nope")
        assert page.status_code == 404 and "no game" in page.text
        page = client.get("/web/leaderboard/toy")
        assert page.status_code == 200 and "Ada" in page.text
        assert token_hash(ada) not in page.text and token_hash(ada) not in r.text


def test_equal_scores_tie() -> None:
    fresh = (25.0, 25.0 / 3)
    scores = [7.0, 7.0, 3.0]
    assert ranks_from_scores(scores) == [1, 1, 3]
    got = rate([fresh] * 3, scores)
    model = PlackettLuce()
    direct = model.rate([[model.rating()] for _ in scores], ranks=[1, 1, 2])  # a tie, told
    assert [x for r in got for x in r] == pytest.approx(
        [x for t in direct for x in (t[0].mu, t[0].sigma)], abs=1e-12)
    assert got[0] == got[1] and got[0][0] > got[2][0]  # tied: the same, above the last
    # a bot spec at two seats gets the mean of its seats' new ratings
    new = updater(["p:a", "bot:random", "bot:random"], [1.0, 5.0, 3.0])({})
    seats = rate([fresh] * 3, [1.0, 5.0, 3.0])
    assert new["bot:random"] == pytest.approx([(seats[1][0] + seats[2][0]) / 2,
                                               (seats[1][1] + seats[2][1]) / 2])


def test_unrated_tables_change_nothing(client: TestClient) -> None:
    ada, bea = player(client, "Ada"), player(client, "Bea")
    t = new_table(client, "toy", 2, ["human", "human"], options=QUICK)
    assert "rated" not in t
    sit(client, t, 0, ada)
    sit(client, t, 1, bea)
    play_out(client, t, [token_of(t, 0), token_of(t, 1)])
    time.sleep(0.2)
    assert board(client) == {}
    assert client.get("/api/games/toy/leaderboard").json()["entries"] == []


def test_a_restart_never_counts_a_game_twice(sqlite_url: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(sqlite_url, **SETTINGS) as client:
        ada, bea = player(client, "Ada"), player(client, "Bea")
        rated_game(client, [ada, bea], [])
        first = counted(client, 1, 2)
    with make_client(sqlite_url, **SETTINGS) as client:  # started again: nothing new
        time.sleep(0.3)
        assert board(client) == first
    # a server stopped between a game's last move and its count counts it when it starts
    with monkeypatch.context() as m:
        m.setattr(Ratings, "after_move", lambda self, table: None)
        with make_client(sqlite_url, **SETTINGS) as client:
            rated_game(client, [ada, bea], ["random"])
            time.sleep(0.2)
            assert board(client) == first
    with make_client(sqlite_url, **SETTINGS) as client:
        deadline = time.monotonic() + 10
        while board(client).get("Ada", first["Ada"]).games != 2:
            assert time.monotonic() < deadline, board(client)
            time.sleep(0.02)
        after = board(client)
        assert after["Ada"].games == after["Bea"].games == 2 and after["random"].games == 1
    with make_client(sqlite_url, **SETTINGS) as client:
        time.sleep(0.3)
        assert board(client) == after


def test_two_processes_count_a_game_once(db_url: str) -> None:
    """Two stores (as two server processes have) on one database, counting the same
    finished tables at the same moment: each table once."""
    one, two = open_store(db_url), open_store(db_url)
    try:
        ids = [f"t{i}" for i in range(20)]
        for table_id in ids:
            one.mark_rated(table_id)
        calls: list[str] = []

        def update(have: dict[str, Rating]) -> dict[str, tuple[float, float]]:
            calls.append("x")
            mu = have["p:a"].mu + 1 if "p:a" in have else 25.0
            return {"p:a": (mu, 7.0)}

        won: dict[str, list[bool]] = {"one": [], "two": []}

        def count(name: str, store: Any) -> None:
            for table_id in ids:
                won[name].append(store.settle(table_id, "toy", ["p:a"], update, "counted"))

        threads = [threading.Thread(target=count, args=(n, s))
                   for n, s in (("one", one), ("two", two))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert [a + b for a, b in zip(won["one"], won["two"], strict=True)] == [1] * len(ids)
        assert len(calls) == len(ids)
        # every count read the one before it: none was lost to a race
        assert [(r.who, r.mu, r.games) for r in two.ratings("toy")] == [
            ("p:a", 25.0 + len(ids) - 1, len(ids))]
        assert one.settle("t0", "toy", ["p:a"], update, "counted") is False
    finally:
        one.close()
        two.close()


def test_what_a_rated_table_needs_is_said(client: TestClient) -> None:
    def refused(**body: Any) -> Any:
        r = client.post("/api/tables", json={"game": "toy", **body})
        assert r.status_code in (400, 422), r.text
        return r.json()

    assert "at least one human seat" in refused(seats=["random", "random"], rated=True)["reason"]
    assert "leave out" in refused(seats=["human", "random"], rated=True, seed=3)["reason"]
    assert "rated is true" in refused(seats=["human", "random"], rated="yes")["reason"]
    ada = player(client, "Ada")
    t = new_table(client, "toy", 2, ["human", "human"], seed=None, rated=True)
    # an unnamed seat does not move at a rated table
    g = client.get(f"/api/tables/{t['id']}", params={"token": token_of(t, 1)}).json()
    r = client.post(f"/api/tables/{t['id']}/actions",
                    json={"token": token_of(t, 1), "action": g["legal"][0]["text"]})
    assert r.status_code == 403 and r.json()["error"] == "not_named"
    assert "take P2 by name" in r.json()["reason"]
    # one player, one seat
    sit(client, t, 0, ada)
    r = client.post(f"/api/tables/{t['id']}/sit", json={"token": token_of(t, 1),
                                                        "player": ada})
    assert r.status_code == 409 and "one seat per person" in r.json()["reason"]
