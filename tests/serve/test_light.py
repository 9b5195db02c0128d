"""The core stays free of the web extra, and `cove serve` reports bad arguments as one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cove.cli import main

WEB = ("starlette", "uvicorn", "websockets", "psycopg", "httpx", "httpx2", "anyio",
       "cove.serve")


def test_import_cove_imports_no_web_package() -> None:
    code = ("import sys, cove, cove.cli, cove.bots, cove.lab\n"
            "game = cove.load(cove.ids()[0])\n"
            "game.new(players=game.min_players, seed=1)\n"
            f"print(','.join(m for m in {WEB!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(("argv", "words"), [
    (["serve", "--db", "mysql://x/y"], "sqlite:///"),
    (["serve", "--db", "sqlite:///no/such/dir/cove.db"], "not a directory"),
    (["serve", "--port", "70000"], "1..65535"),
    (["serve", "--db", "postgresql://nobody@127.0.0.1:1/none"], "cannot connect"),
])
def test_bad_serve_arguments(argv: list[str], words: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cove: error: ") and words in err and err.count("\n") == 1
