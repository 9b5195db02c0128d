"""Fixtures for the server tests: a database URL per backend and a running app."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from starlette.testclient import TestClient

from cove.serve import Settings, create_app
from cove.serve.player_data import PLAYER_TABLES

PG_ENV = "COVE_TEST_POSTGRES"


def reset_postgres(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS cove_moves, cove_seat_log, cove_clocks, cove_tables, "
                     "cove_players, cove_chat, cove_chat_open, cove_again, "
                     + ", ".join(PLAYER_TABLES))


def postgres() -> str:
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"{PG_ENV} is not set: no PostgreSQL server for this run "
                    "(.ci/run starts one)")
    reset_postgres(url)
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'cove.db'}"
    return postgres()


@pytest.fixture
def postgres_url() -> str:
    return postgres()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cove.db'}"


def make_client(url: str, **limits: object) -> TestClient:
    return TestClient(create_app(Settings(db=url, **limits)))  # type: ignore[arg-type]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c
