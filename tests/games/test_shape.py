"""Every game folder and its tests keep to the one shape (``cove.testing.shape``,
CONTRIBUTING.md): the same files, named for what they hold, every surface declared or
declined, the tie-break stated in RULES.md."""

from __future__ import annotations

from pathlib import Path

import pytest

import cove
from cove.testing import shape

HERE = Path(__file__).parent


@pytest.mark.parametrize("gid", cove.ids())
def test_the_game_folder_and_its_tests_keep_to_the_one_shape(gid: str) -> None:
    game = cove.load(gid)
    found = shape.problems(game, HERE / game.package.rpartition(".")[2])
    assert not found, "\n".join(found)


def test_contributing_describes_exactly_the_skeleton() -> None:
    text = (HERE.parents[1] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for name in [*shape.SKELETON, *shape.TESTS]:
        assert f"`{name}`" in text, f"CONTRIBUTING.md does not describe {name}"


def test_the_shape_check_names_what_is_missing(tmp_path: Path) -> None:
    game = cove.load(cove.ids()[0])
    found = shape.problems(game, tmp_path / "nowhere")
    assert any("no tests folder" in p for p in found)
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "test_misc.py").write_text("")
    found = shape.problems(game, tmp_path / "t")
    assert any("test_misc.py is not one of the fixed names" in p for p in found)
    assert any("tests lack test_rules.py" in p for p in found)


def test_the_tutorial_game_has_the_one_shape() -> None:
    from cove.example_game import GAME

    found = shape.problems(GAME, HERE.parent / "example_game")
    assert not found, "\n".join(found)
