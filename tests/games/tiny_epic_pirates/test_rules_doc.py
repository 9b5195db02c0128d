"""RULES.md names a test for every rule, and every named test exists."""

from __future__ import annotations

import re
from pathlib import Path

from cove.games.tiny_epic_pirates import data as D

HERE = Path(__file__).parent


def test_every_rule_names_existing_tests() -> None:
    doc = (Path(D.HERE) / "RULES.md").read_text()
    source = "".join(p.read_text() for p in HERE.glob("test_*.py"))
    defined = set(re.findall(r"def (test_\w+)", source))
    rules = re.findall(r"^- \*\*(R\d+\.\d+)\*\*(.*?)(?=^- \*\*R|^## |\Z)", doc, re.M | re.S)
    assert len(rules) >= 50
    for rule, body in rules:
        names = re.findall(r"`(?:test_\w+\.py::)?(test_\w+)`", body)
        assert names, f"{rule} names no test"
        for n in names:
            assert n in defined, f"{rule} names {n}, which does not exist"
        tag = re.search(r"SEED|SOURCED|INFERRED|DESIGN", body) or re.search(
            r"\((SEED|SOURCED|INFERRED|DESIGN)\)", doc)
        assert tag, f"{rule} has no tag"
