"""The one RULES.md layout, and its checker.

Every game's ``RULES.md`` numbers each rule in tables of the form::

    | Rule | Text | Tag | Test |
    |---|---|---|---|
    | R3.2 | A ship may stop on any open-sea card. | SEED | test_r3_2_stop_at_sea |

- ``Rule``: an id such as ``R3.2``, ``F9`` or ``D4`` (letters, then numbers and dots);
- ``Tag``: SEED, SOURCED, INFERRED or DESIGN (the rule's source; see the rule notes);
- ``Test``: one or more test function names (``test_x`` or ``file.py::test_x``), comma
  separated, each defined under ``tests/games/<pkg>/`` or in the shared game tests.

The file also has a ``## Readings`` section (where the seed was garbled or ambiguous, the
reading chosen and the option giving the other) and a ``## Versions`` section (what each
game version changed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

TAGS = ("SEED", "SOURCED", "INFERRED", "DESIGN")
RULE_ID = re.compile(r"^[A-Z][A-Za-z]*\d+(\.\d+)*[a-z]?$")
TEST_NAME = re.compile(r"(?:[\w/]+\.py::)?(test_\w+)")
REQUIRED_SECTIONS = ("## Readings", "## Versions")


@dataclass(frozen=True)
class RuleRow:
    rule: str
    text: str
    tag: str
    tests: tuple[str, ...]
    line: int


def parse(text: str) -> tuple[list[RuleRow], list[str]]:
    """The rule rows of a RULES.md and the problems found in its layout."""
    rows: list[RuleRow] = []
    problems: list[str] = []
    header: list[str] | None = None
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        if header[:1] != ["rule"] or "tag" not in header or "test" not in header:
            continue
        rule = cells[0].strip("`* ")
        if not RULE_ID.match(rule):
            problems.append(f"line {no}: {rule!r} is not a rule id (like R3.2)")
            continue
        try:
            tag = cells[header.index("tag")].strip("`* ").split()[0].upper()
            test_cell = cells[header.index("test")]
        except (IndexError, ValueError):
            problems.append(f"line {no}: rule {rule} lacks a tag or test cell")
            continue
        text_cell = cells[1] if len(cells) > 1 else ""
        tests = tuple(TEST_NAME.findall(test_cell))
        if tag not in TAGS:
            problems.append(f"line {no}: rule {rule} has tag {tag!r}; tags: {', '.join(TAGS)}")
        if not tests:
            problems.append(f"line {no}: rule {rule} names no test")
        rows.append(RuleRow(rule, text_cell, tag, tests, no))
    for section in REQUIRED_SECTIONS:
        if not any(ln.strip().startswith(section) for ln in text.splitlines()):
            problems.append(f"no '{section}' section")
    if not rows:
        problems.append("no rule table with columns Rule | Text | Tag | Test")
    return rows, problems


def defined_tests(test_dirs: list[Path]) -> set[str]:
    names: set[str] = set()
    for d in test_dirs:
        for f in d.glob("*.py") if d.is_dir() else [d]:
            names.update(re.findall(r"^\s*def (test_\w+)", f.read_text(encoding="utf-8"),
                                    re.MULTILINE))
    return names


def check(rules_md: Path, test_dirs: list[Path]) -> list[str]:
    """Every problem with a RULES.md: layout, tags, and tests that do not exist."""
    rows, problems = parse(rules_md.read_text(encoding="utf-8"))
    known = defined_tests(test_dirs)
    ids: set[str] = set()
    for r in rows:
        if r.rule in ids:
            problems.append(f"line {r.line}: rule {r.rule} is numbered twice")
        ids.add(r.rule)
        for t in r.tests:
            if t not in known:
                problems.append(f"line {r.line}: rule {r.rule} names {t}, which no test defines")
    return problems
