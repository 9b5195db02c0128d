"""RULES.md and the tests agree: every numbered rule names a test that exists."""

from __future__ import annotations

import re
from pathlib import Path

import cove.games.trails_of_tucana as pkg

RULES = Path(pkg.__file__).with_name("RULES.md").read_text(encoding="utf-8")
HERE = Path(__file__).parent


def test_every_rule_names_an_existing_test() -> None:
    rules = re.findall(r"^- \*\*(R\d+\.\d+)\*\*(.*?)(?=^- \*\*R|^## |\Z)", RULES, re.M | re.S)
    assert len(rules) >= 40
    sources = {p.name: p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py")}
    for rid, body in rules:
        assert re.search(r"\[(SEED|SOURCED|INFERRED|DESIGN)", body), f"{rid} has no tag"
        names = re.findall(r"`(?:(test_\w+\.py)::)?(test_\w+)`", body)
        assert names, f"{rid} names no test"
        for file, name in names:
            where = [sources[file]] if file else list(sources.values())
            assert any(f"def {name}(" in src for src in where), f"{rid}: no test {name}"
        if not any(f for f, _ in names):
            num = rid[1:].replace(".", "_")
            assert any(n.startswith(f"test_r{num}_") for _, n in names), rid
