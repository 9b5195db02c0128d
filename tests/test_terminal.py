"""Terminal play: random printed seeds, a save after every move, resume, undo,
hints, hot-seat, short forms, compact move lists, and end screens that say who won and why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import cove
from cove.cli import final_lines, main
from cove.lab.runner import play_out
from cove.terminal import resolve, write_atomically
from cove.tui.layout import compact_moves

ARGS = ("--bots", "random", "--no-color", "-o", "bidding=false")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def typing(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    it: Iterator[str] = iter(lines)

    def fake(prompt: str = "") -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake)


def test_the_default_seed_is_random_and_printed(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                toy_registered: str) -> None:
    seeds = set()
    for _ in range(3):
        typing(monkeypatch, ["quit"])
        rc, out, _ = run(capsys, "play", "toy", *ARGS)
        assert rc == 0
        seed = out.split("seed ", 1)[1].split(" ", 1)[0]
        assert f"--seed {seed}" in out
        seeds.add(seed)
    assert len(seeds) > 1


def test_the_game_is_saved_after_every_move_and_resumes(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        toy_registered: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    typing(monkeypatch, ["1"])  # one move, then the input ends (a closed terminal)
    rc, _, err = run(capsys, "play", "toy", "--seed", "4", "--save", str(path), *ARGS)
    assert rc == 1 and "unfinished" in err
    doc = json.loads(path.read_text())
    assert doc["table"]["seats"] == ["human", "random"]
    assert any(p == 0 for p, _ in doc["actions"])  # the human's move is in the save
    moves = len(doc["actions"])
    typing(monkeypatch, ["1"] * 20)
    rc, out, _ = run(capsys, "play", "--resume", str(path), "--no-color")
    assert rc == 0 and "Winner" in out
    done = json.loads(path.read_text())
    assert done["actions"][:moves] == doc["actions"]
    assert cove.replay(done).is_over


def test_saves_are_private_and_shared_pages_are_readable(tmp_path: Path) -> None:
    save, page = tmp_path / "game.json", tmp_path / "ladder.html"
    write_atomically(save, "{}")
    write_atomically(page, "<p>ladder</p>", shared=True)
    assert (save.stat().st_mode & 0o777, page.stat().st_mode & 0o777) == (0o600, 0o644)
    assert page.read_text() == "<p>ladder</p>" and sorted(tmp_path.iterdir()) == [save, page]


def test_a_bad_save_path_is_refused_before_the_game_starts(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        toy_registered: str, tmp_path: Path) -> None:
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt="": asked.append(prompt) or "quit")
    rc, _, err = run(capsys, "play", "toy", "--save", str(tmp_path / "no" / "g.json"), *ARGS)
    assert rc == 2 and not asked
    assert "does not exist" in err and len(err.strip().splitlines()) == 1


def test_undo_goes_back_to_your_previous_decision(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        toy_registered: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    typing(monkeypatch, ["1", "undo", "quit"])
    rc, out, _ = run(capsys, "play", "toy", "--seed", "2", "--save", str(path), *ARGS)
    assert rc == 0 and "Undone" in out
    doc = json.loads(path.read_text())
    assert doc["table"]["undos"] == 1
    assert not any(p == 0 for p, _ in doc["actions"])  # the human's move was taken back


def test_undo_before_any_move_says_so(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch,
                                      toy_registered: str) -> None:
    typing(monkeypatch, ["undo", "quit"])
    _, out, _ = run(capsys, "play", "toy", "--seed", "2", *ARGS)
    assert "Nothing to undo" in out


def test_hint_shows_the_search_bots_best_moves(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch,
                                               toy_registered: str) -> None:
    typing(monkeypatch, ["hint", "quit"])
    _, out, _ = run(capsys, "play", "toy", "--seed", "3", *ARGS)
    hints = [line for line in out.splitlines() if "search visits" in line]
    assert 1 <= len(hints) <= 3 and "estimated win share" in hints[0]


def test_hot_seat_passes_the_screen(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch,
                                    toy_registered: str) -> None:
    typing(monkeypatch, ["", "1", "", "1", "", "quit"])
    rc, out, _ = run(capsys, "play", "toy", "--seat", "1,2", "--seed", "1", "--no-color",
                     "-o", "bidding=false")
    assert rc == 0
    assert "Pass the screen to P1" in out and "Pass the screen to P2" in out


def test_the_prompt_says_what_you_decide(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch,
                                         toy_registered: str) -> None:
    typing(monkeypatch, ["quit"])
    _, out, _ = run(capsys, "play", "toy", "--seed", "1", *ARGS)
    assert "P1: Play a card: it scores its value and you draw another" in out


def test_short_forms_and_ambiguous_entries(toy_registered: str) -> None:
    s = cove.load(toy_registered).new(2, seed=1, bidding=True)
    assert resolve(s, 0, "bid 1")[0] == s.legal_actions(0)[1]
    action, why = resolve(s, 0, "bid")
    assert action is None and "could be" in why and "bid 0" in why and "bid 1" in why
    action, why = resolve(s, 0, "swim")
    assert action is None and "not a legal move" in why


def test_long_move_lists_are_compact() -> None:
    moves = [f"place friend at {c}{r}" for c in "abcdef" for r in range(1, 7)]
    lines = compact_moves(moves, 80)
    assert len(lines) < len(moves) / 2 and max(len(line) for line in lines) <= 80
    assert all(f"{i}." in "".join(lines) for i in range(1, len(moves) + 1))


def test_the_end_screen_says_who_won_and_why(toy_registered: str) -> None:
    s = cove.load(toy_registered).new(2, seed=1, bidding=False)
    play_out(s, lambda st, p: st.legal_actions(p)[0])
    text = final_lines(s, [0])
    scores = s.scores()
    assert "Final scores:\n  P1 (you): " in text and "None" not in text and "[" not in text
    if scores[0] == scores[1]:
        assert "Shared win" in text
    else:
        assert "Winner: " in text


def test_people_at_one_screen_undo_only_what_is_safe(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        toy_registered: str) -> None:
    """Two people, no bots: a decision is taken back only when State.can_undo allows it
    (not counted as a take-back); otherwise the screen says why not."""
    from cove.core.rng import Rng
    from cove.terminal import Table

    undone = 0
    for game in cove.all_games():  # a game where one person decides twice in a row
        players = max(2, game.min_players)
        table = Table(game, game.new(players, 5, log=False), ["human"] * players, None, 0)
        rng, here = Rng(5), 0
        while table.state.decisions < 120 and not table.state.is_over:
            state = table.state
            p = state.to_move()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
            if here < 2 and state.to_move() and state.to_move()[0] == p and state.can_undo(p):
                here += 1
                before = state.history[:-1]
                assert table.undo(p) == "your last decision is taken back"
                assert table.state.history == before
                undone += 1
        assert table.undos == 0
    assert undone >= 3
    toy = cove.load(toy_registered)
    table = Table(toy, toy.new(2, 2, log=False, bidding=False), ["human", "human"], None, 0)
    table.apply(0, table.state.legal_actions(0)[0])  # P1 plays a card and draws the next
    assert table.undo(0) == ""  # it showed P1 a card; people only: no take-back either
    assert len(table.state.history) == 1
    typing(monkeypatch, ["", "undo", "quit"])
    _, out, _ = run(capsys, "play", "toy", "--seed", "2", "--seat", "1,2", "--players", "2",
                    "--no-color", "--no-save")
    assert "no undo now: nobody has decided yet" in out
