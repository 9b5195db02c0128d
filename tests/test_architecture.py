"""docs/ARCHITECTURE.md's package list names every package and top-level module of
src/cove, and nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "cove"


def listed() -> set[str]:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    block = text.split("```", 2)[1]  # the first code block: the package list
    return set(re.findall(r"\bcove\.([a-z_]+)", block))


def present() -> set[str]:
    out = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    out |= {p.stem for p in SRC.glob("*.py") if p.stem not in ("__init__", "__main__")}
    return out


def test_the_package_list_matches_the_source_tree() -> None:
    assert listed() == present(), (f"listed but missing: {sorted(listed() - present())}; "
                                   f"present but not listed: {sorted(present() - listed())}")


def test_the_version_is_one_and_the_changelog_names_it() -> None:
    import cove

    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'\nversion = "{cove.__version__}"\n' in project
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+)", changelog, re.M)
    assert first is not None and first.group(1) == cove.__version__
