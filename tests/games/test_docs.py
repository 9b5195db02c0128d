"""Every game's RULES.md in the one layout (every rule names tests that exist) and its
SPEC.md documenting every view key with the right type."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.core.registry import REGISTRY
from cove.core.rng import Rng
from cove.testing import rules_doc, spec

HERE = Path(__file__).parent
SRC = Path(cove.__file__).parent / "games"


def _pkg(gid: str) -> str:
    return REGISTRY[gid].rpartition(".")[2]


@pytest.mark.parametrize("gid", cove.ids())
def test_rules_md_layout_and_tests_exist(gid: str) -> None:
    pkg = _pkg(gid)
    problems = rules_doc.check(SRC / pkg / "RULES.md", [HERE / pkg, HERE])
    assert not problems, f"{pkg}/RULES.md:\n  " + "\n  ".join(problems[:30])


@pytest.mark.parametrize("gid", cove.ids())
def test_views_keep_to_spec_md(gid: str) -> None:
    game = cove.load(gid)
    path = SRC / _pkg(gid) / "SPEC.md"
    assert path.exists(), f"{gid} has no SPEC.md"
    keys, problems = spec.view_types(path.read_text(encoding="utf-8"))
    assert not problems, problems
    for n in sorted({game.min_players, game.max_players}):
        s = game.new(n, seed=3)
        rng = Rng(4)
        while True:
            for p in [None, *range(n)]:
                bad = spec.check_view(s.view(p), keys)
                assert not bad, f"{gid} {n}p after {s.decisions} moves: {bad}"
            if s.is_over or s.decisions > 400:
                break
            p = s.to_move()[0]
            legal = s.legal_actions(p)
            s.apply(p, legal[rng.below(len(legal))])
