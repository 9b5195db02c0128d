"""dev.py's set-up: a command is not installed again when an earlier set-up of the same
pyproject.toml already holds every extra it needs (``dev.py test`` installs them all, so a
``dev.py serve`` after it starts at once)."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


Dev = tuple[ModuleType, list[tuple[str, ...]]]


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dev:
    """dev.py with pip recorded instead of run, and a made-up .venv in ``tmp_path``."""
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)   # its dataclass needs it there
    spec.loader.exec_module(module)
    calls: list[tuple[str, ...]] = []
    monkeypatch.setattr(module, "pip", lambda env, *args, **kw: calls.append(args))
    env = module.Env(tmp_path / ".venv", compiled=False)
    env.bin.mkdir(parents=True)
    env.py.write_text("")                 # "exists": no venv is created
    monkeypatch.setattr(module, "PURE", env)
    return module, calls


def stamp(dev: ModuleType, extras: str, text: str | None = None) -> None:
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    (dev.PURE.venv / f".installed-{extras}").write_text(want if text is None else text)


def test_serve_after_test_installs_nothing(dev: Dev) -> None:
    module, calls = dev
    stamp(module, "dev,lab,rl,openspiel,web")            # what `dev.py test` leaves
    assert module.setup("web", module.PURE) == module.PURE
    assert module.setup("", module.PURE) == module.PURE  # `dev.py play`: the core only
    assert calls == []


def test_a_smaller_or_older_setup_is_completed(dev: Dev) -> None:
    module, calls = dev
    stamp(module, "web")
    module.setup("dev,lab", module.PURE)                 # more than was installed
    assert calls == [("-e", ".[dev,lab]")]
    stamp(module, "dev,lab,rl,openspiel,web", text="an older pyproject.toml")
    module.setup("web", module.PURE)                     # web alone is still installed
    assert calls == [("-e", ".[dev,lab]")]
    for marker in module.PURE.venv.glob(".installed-*"):
        marker.write_text("an older pyproject.toml")
    module.setup("web", module.PURE)                     # pyproject changed: again
    assert calls[-1] == ("-e", ".[web]")

