#!/usr/bin/env python3
"""Set up Cove in a local virtual environment and run it. Needs only Python 3.11+.

    python3 dev.py play [ARGS]   set up, then play against bots: asks which game
                                 (ARGS go to `cove play`, e.g. a game id)
    python3 dev.py test          set up, then run the whole check: ruff, mypy, pytest
    python3 dev.py cove ARGS     set up, then run any `cove` command
    python3 dev.py serve [ARGS]  set up (with the web extra), then run `cove serve`
                                 (http://127.0.0.1:8000, tables stored in ./cove.db)
    python3 dev.py bench         set up (with the benchmark extra), then run benchmarks/
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*cmd: str | Path) -> int:
    """Run a command; Ctrl-C goes to it (it says what it did) and ends this quietly."""
    with subprocess.Popen([str(c) for c in cmd], cwd=ROOT) as proc:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            return proc.wait()


def setup(extras: str = "dev") -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - a friendly message on an old Python
        sys.exit(f"Cove needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        sys.stderr.write("Creating .venv ...\n")
        venv.create(VENV, with_pip=True)
    stamp = VENV / f".installed-{extras or 'core'}"
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    needed = set(filter(None, extras.split(",")))
    for done in VENV.glob(".installed-*"):  # a set-up with these extras and more will do
        have = set(done.name.removeprefix(".installed-").split(",")) - {"core"}
        if needed <= have and done.read_text() == want:
            return
    target = f".[{extras}]" if extras else "."
    sys.stderr.write(f"Installing cove{target[1:]} into .venv ...\n")
    rc = run(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "-e", target)
    if rc:
        sys.exit(f"pip install failed (exit {rc})")
    stamp.write_text(want)


def main() -> int:
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help", "help"):
        sys.stdout.write(__doc__ or "")
        return 0
    cmd, rest = args[0], args[1:]
    if cmd == "play":
        setup("")  # playing needs the core only: no pytest, mypy or ruff
        return run(BIN / "cove", "play", *rest)
    if cmd == "cove":
        setup("")
        return run(BIN / "cove", *rest)
    if cmd == "test":
        setup("dev,lab,rl,openspiel,web")  # every extra, so CI runs every surface's tests
        for step in (
            [BIN / "ruff", "check", "src", "tests", "benchmarks", "examples", "dev.py"],
            [BIN / "mypy"],
            [PY, "-m", "pytest", *rest],
        ):
            sys.stderr.write("$ " + " ".join(str(s).replace(str(ROOT) + "/", "") for s in step)
                             + "\n")
            rc = run(*step)
            if rc:
                return rc
        return 0
    if cmd == "serve":
        setup("web")  # Starlette, uvicorn, websockets, psycopg; the core needs none of them
        return run(BIN / "cove", "serve", *rest)
    if cmd == "bench":
        setup("dev,bench,lab")
        rc = 0
        for script in sorted((ROOT / "benchmarks").glob("*.py")):
            rc |= run(PY, script, *rest)
        return rc
    sys.stderr.write(f"unknown command {cmd!r}; commands: play, test, cove, serve, bench\n")
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # during a set-up: no traceback
        sys.exit(130)
