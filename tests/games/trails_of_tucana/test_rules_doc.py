"""RULES.md numbers every rule; each rule names a test called after it (the shared
tests/games/test_docs.py checks the layout and that every named test exists)."""

from __future__ import annotations

from pathlib import Path

import cove.games.trails_of_tucana as pkg
from cove.testing import rules_doc

RULES = Path(pkg.__file__).with_name("RULES.md").read_text(encoding="utf-8")


def test_every_rule_names_a_test_called_after_it() -> None:
    rows, problems = rules_doc.parse(RULES)
    assert not problems
    assert len(rows) >= 40
    for r in rows:
        prefix = "test_" + r.rule.lower().replace(".", "_") + "_"
        named = [t for t in r.tests if t.startswith("test_r")]
        assert r.rule == "R1.6" or any(t.startswith(prefix) for t in named), r.rule
