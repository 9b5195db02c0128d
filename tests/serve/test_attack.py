"""The security test's findings (6 December 2026), reproduced against a real ``cove serve``
process: the bounded attacks of ``benchmarks/attack.py``, what the server answers each, and
that a person's table plays on meanwhile, refused nothing. How fast the person's moves stay
is the benchmark's to measure (not timed here: a shared machine is noisy).

Where each finding is held, here and in the tests that go deeper:

- H1 bots past any budget: here (422, and the costliest allowed tables taken);
  ``test_bots_bounded``: a bot held to the budget whatever its spec, a move over its CPU
  time stopped, a stored attack spec held to the budget after a restart, workers dying
  with the server after ``kill -9``;
- H2 idle, half-sent connections and websockets: here; ``test_limits``: the caps and
  timeouts one by one;
- M1 greedy bots in the server's threads: here (the greediest allowed, out of the server
  process); ``test_bots_bounded``: every bot thinks in a worker process;
- M2 a bot move whose write failed: ``test_bots_bounded`` (bots resume once the disk takes
  writes) and ``test_integrity`` (a real server whose files may not grow: 503, nothing lost);
- M3 per-connection move limits, per-address creation, no global cap: here;
- M4 unlimited reads: here (boards, tables, websocket ``state``); ``test_limits``: a board
  drawn once per move and seat;
- M5 a damaged row stops the start: here; ``test_integrity``: every kind of damage;
- M6 bot specs stored whole: here;
- M7 two processes both playing a table's bots: ``test_bots_bounded`` (two servers on
  PostgreSQL, one lease).
"""

from __future__ import annotations

import importlib.util
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("starlette", reason="cove[web] is not installed")

from cove.bots.budget import Budget
from cove.serve.hub import Settings

SECONDS = 3.0
"""Each attack's phase: long enough for the short timeouts below to let go of every idle
connection, short enough for CI."""
TIMEOUTS = ["--header-timeout", "1", "--body-timeout", "1", "--idle-timeout", "1"]


def _load_attack() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "attack.py"
    spec = importlib.util.spec_from_file_location("cove_attack", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cove_attack"] = module
    spec.loader.exec_module(module)
    return module


attack = _load_attack()


@pytest.fixture
def base() -> Iterator[str]:
    """A fresh real server per attack (one attack's tables and buckets never the next's)."""
    with attack.serve(TIMEOUTS) as url:
        yield url


def under(name: str, base: str) -> dict[str, Any]:
    """Run attack ``name`` while the victim plays; the victim must have played on."""
    row: dict[str, Any] = attack.phase(base, SECONDS, attack.ATTACKS[name])
    assert row["moves"] >= 5 and not row["victim_errors"], row
    return row


def test_bots_over_the_budget_are_refused_and_the_most_allowed_are_taken(base: str) -> None:
    answered = under("budget", base)["answered"]
    assert answered == {"over budget: 422": 4, "hard bots-only table: 201": 4}


def test_idle_and_half_sent_connections_are_let_go(base: str) -> None:
    # 30 connections from each of 30 addresses: within both caps, so every one is taken
    assert Settings.client_connections >= 30 and Settings.max_connections >= 900
    answered = under("idle", base)["answered"]
    assert answered == {"opened": 900, "let go by the server": 900}


def test_one_client_holds_only_its_share_of_websockets(base: str) -> None:
    answered = under("sockets", base)["answered"]
    cap = Settings.client_websockets
    assert answered == {"state": cap, "error 429": 400 - cap}


def test_the_greediest_bots_allowed_are_taken_and_greedier_refused(base: str) -> None:
    most = Budget.for_seconds(Settings.bot_budget).samples
    answered = under("greedy", base)["answered"]
    assert answered == {"greedy:samples=256 table: 422": 1,
                        f"greedy:samples={most} table: 201": 2}


def test_moves_sent_as_fast_as_possible_are_limited_and_never_applied(base: str) -> None:
    answered = under("ws-moves", base)["answered"]
    assert answered["state"] == 8  # every socket's first message
    assert answered["error 429"] > answered.get("error 409", 0) > 0
    assert set(answered) == {"state", "error 409", "error 429"}  # a stale move: never applied


def test_tables_created_as_fast_as_possible_stop_at_the_limits(base: str) -> None:
    answered = under("create", base)["answered"]
    assert 0 < answered["201"] <= Settings.max_bots  # one bot seat a table
    assert answered["429"] > answered["201"]
    assert set(answered) <= {"201", "429", "503"}


def test_reads_as_fast_as_possible_are_limited(base: str) -> None:
    answered = under("reads", base)["answered"]
    assert answered["200"] > 0 and answered["429"] > answered["200"]
    assert answered["ws state"] > 0 and answered["ws error 429"] > answered["ws state"]
    assert set(answered) <= {"200", "429", "ws state", "ws error 429", "ws update"}


def test_tables_of_bots_only_are_taken_and_the_victim_plays_on(base: str) -> None:
    answered = under("bots-only", base)["answered"]
    assert answered == {"bots-only table: 201": 3}


def test_a_damaged_table_is_quarantined_and_the_server_starts(tmp_path: Path) -> None:
    """M5: one table's row no server can read (its seats garbled), among tables a bot is
    to move at (restored as the server starts): the server starts and serves the rest."""
    game = attack.victim_game()
    body = {"game": game.id, "players": 2, "seats": ["human", "human"]}
    with attack.serve(home=tmp_path) as base, attack.client(base) as http:
        healthy, damaged = (http.post("/api/tables", json=body).json() for _ in range(2))
        before = http.get(f"/api/tables/{healthy['id']}").json()
    with sqlite3.connect(tmp_path / "cove.db") as db:
        db.execute("UPDATE cove_tables SET bot_turn = 1")
        db.execute("UPDATE cove_tables SET seats = '5' WHERE id = ?", (damaged["id"],))
    with attack.serve(home=tmp_path) as base, attack.client(base) as http:
        assert http.get(f"/api/tables/{healthy['id']}").json() == before
        r = http.get(f"/api/tables/{damaged['id']}")
        assert r.status_code == 500 and r.json()["error"] == "quarantined"
        assert http.post("/api/tables", json=body).status_code == 201
    assert f"table {damaged['id']} is quarantined" in (tmp_path / "serve.log").read_text()


def test_a_bot_spec_past_its_length_is_refused_and_never_stored(tmp_path: Path) -> None:
    """M6: a 30 KB spec that starts with a valid one is refused, and neither the database
    nor the log holds it."""
    game = attack.victim_game()
    spec = "random" + " " * 194 + "Z" * 30000
    with attack.serve(home=tmp_path) as base, attack.client(base) as http:
        r = http.post("/api/tables", json={"game": game.id, "players": 2,
                                           "seats": ["human", spec]})
        assert r.status_code == 422 and "at most 200 characters" in r.json()["reason"]
        assert len(r.text) < 1000
    with sqlite3.connect(tmp_path / "cove.db") as db:
        assert db.execute("SELECT count(*) FROM cove_tables").fetchone() == (0,)
    assert "Z" * 100 not in (tmp_path / "serve.log").read_text()
