#!/usr/bin/env python3
"""Set up Cove in a local virtual environment and run it. Needs only Python 3.11+.

    python3 dev.py play [ARGS]   set up, then play against bots: asks which game
                                 (ARGS go to `cove play`, e.g. a game id)
    python3 dev.py test          set up, then run the whole check: ruff, mypy, pytest
    python3 dev.py cove ARGS     set up, then run any `cove` command
    python3 dev.py serve [ARGS]  set up (with the web extra), then run `cove serve`
                                 (http://127.0.0.1:8000, tables stored in ./cove.db)
    python3 dev.py bench         set up (with the benchmark extra), then run benchmarks/
    python3 dev.py fast COMMAND  the same, on the compiled build (docs/BUILD.md): made
                                 in .venv-fast with mypyc, rebuilt when a source changes;
                                 pure when COVE_PURE=1 or there is no C compiler
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
COMPILER_ENV = "COVE_COMPILE"


@dataclass(frozen=True)
class Env:
    """A virtual environment Cove is installed in: ``.venv`` holds the pure build, editable
    (an edited source runs at once); ``.venv-fast`` the compiled build, installed as a
    wheel (compiled modules beside the sources would shadow every edit) and rebuilt when a
    source changes."""

    venv: Path
    compiled: bool

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    @property
    def py(self) -> Path:
        return self.bin / "python"


PURE = Env(ROOT / ".venv", compiled=False)
FAST = Env(ROOT / ".venv-fast", compiled=True)
BUILD_TOOLS = ("mypy>=2.4", "setuptools>=68", "wheel")
"""What compiling needs besides a C compiler: mypyc comes with mypy."""


def run(*cmd: str | Path, env: dict[str, str] | None = None) -> int:
    """Run a command; Ctrl-C goes to it (it says what it did) and ends this quietly."""
    with subprocess.Popen([str(c) for c in cmd], cwd=ROOT,
                          env=None if env is None else {**os.environ, **env}) as proc:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            return proc.wait()


def pip(env: Env, *args: str, build_env: dict[str, str] | None = None) -> None:
    rc = run(env.py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args,
             env=build_env)
    if rc:
        sys.exit(f"pip install failed (exit {rc})")


def sources_digest() -> str:
    """What the compiled build is made from: the package's files, setup.py, pyproject."""
    h = hashlib.sha256()
    for path in sorted([ROOT / "setup.py", ROOT / "pyproject.toml",
                        *(ROOT / "src").rglob("*")]):
        if path.is_file() and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def can_compile() -> str | None:
    """Why the compiled build cannot be made here (None when it can)."""
    if os.environ.get("COVE_PURE") == "1":
        return "COVE_PURE=1"
    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")):
        return "no C compiler (cc, gcc or clang) on PATH"
    return None


def setup(extras: str = "dev", env: Env = PURE) -> Env:
    """Make ``env`` hold Cove with ``extras``; returns the environment to run in (the pure
    one when the compiled build cannot be made here)."""
    if sys.version_info < (3, 11):  # noqa: UP036 - a friendly message on an old Python
        sys.exit(f"Cove needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if env.compiled and (why := can_compile()) is not None:
        sys.stderr.write(f"Running the pure build ({why}).\n")
        env = PURE
    if not env.py.exists():
        sys.stderr.write(f"Creating {env.venv.name} ...\n")
        venv.create(env.venv, with_pip=True)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    needed = set(filter(None, extras.split(",")))
    installed = False
    for done in env.venv.glob(".installed-*"):  # a set-up with these extras and more will do
        have = set(done.name.removeprefix(".installed-").split(",")) - {"core"}
        if needed <= have and done.read_text() == want:
            installed = True
    target = f".[{extras}]" if extras else "."
    if not env.compiled:
        if not installed:
            sys.stderr.write(f"Installing cove{target[1:]} into .venv ...\n")
            pip(env, "-e", target)
            (env.venv / f".installed-{extras or 'core'}").write_text(want)
        return env
    built = env.venv / ".built"
    if installed and built.exists() and built.read_text() == sources_digest():
        return env
    sys.stderr.write(f"Compiling cove{target[1:]} into {env.venv.name} (a minute or two) ...\n")
    pip(env, *BUILD_TOOLS)
    shutil.rmtree(ROOT / "build", ignore_errors=True)  # setuptools reuses what it finds there
    if installed:  # the same extras: only Cove itself is built again
        pip(env, "--no-build-isolation", "--force-reinstall", "--no-deps", ".",
            build_env={COMPILER_ENV: "1"})
    else:
        pip(env, "--no-build-isolation", target, build_env={COMPILER_ENV: "1"})
        (env.venv / f".installed-{extras or 'core'}").write_text(want)
    built.write_text(sources_digest())
    return env


def main() -> int:
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help", "help"):
        sys.stdout.write(__doc__ or "")
        return 0
    env = PURE
    if args[0] == "fast":
        env, args = FAST, args[1:]
        if not args:
            sys.stderr.write("dev.py fast COMMAND: the compiled build; commands: play, test, "
                             "cove, serve, bench\n")
            return 2
    cmd, rest = args[0], args[1:]
    if cmd == "play":
        env = setup("", env)  # playing needs the core only: no pytest, mypy or ruff
        return run(env.bin / "cove", "play", *rest)
    if cmd == "cove":
        env = setup("", env)
        return run(env.bin / "cove", *rest)
    if cmd == "test":
        env = setup("dev,lab,rl,openspiel,web", env)  # every extra: every surface's tests
        steps: list[list[str | Path]] = [[env.py, "-m", "pytest", *rest]]
        if not env.compiled:  # the checks of the sources, once (they are the same sources)
            steps[:0] = [[env.bin / "ruff", "check", "src", "tests", "benchmarks", "examples",
                          "dev.py", "setup.py"], [env.bin / "mypy"]]
        for step in steps:
            sys.stderr.write("$ " + " ".join(str(s).replace(str(ROOT) + "/", "") for s in step)
                             + "\n")
            rc = run(*step)
            if rc:
                return rc
        return 0
    if cmd == "serve":
        env = setup("web", env)  # Starlette, uvicorn, websockets, psycopg
        return run(env.bin / "cove", "serve", *rest)
    if cmd == "bench":
        env = setup("dev,bench,lab,rl", env)
        rc = 0
        for script in sorted((ROOT / "benchmarks").glob("*.py")):
            rc |= run(env.py, script, *rest)
        return rc
    sys.stderr.write(f"unknown command {cmd!r}; commands: play, test, cove, serve, bench, "
                     "and fast COMMAND\n")
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # during a set-up: no traceback
        sys.exit(130)
