"""The lobby, driven in Chromium as a person does: every registered game at every player
count, each option a user can set given each of its values at least once through the
form's own widgets; the server accepts every table and plays it with those options.

The form is built from each game's options schema, so these tests name no game: a game
added tomorrow is created here too."""

from __future__ import annotations

from typing import Any

import pytest

import cove
from cove.core.game import Game
from tests.web.conftest import Server

pytest.importorskip("playwright", reason="the web extra is not installed")


def values(p: dict[str, Any], players: int) -> list[Any]:
    """The values a test gives one option: every allowed one, or for a number its bounds
    and its default, for a list a few subsets or orders (never empty)."""
    if p["type"] == "boolean":
        return [not p["default"], p["default"]]
    if "enum" in p:
        return [v for v in p["enum"] if v != p["default"]] + [p["default"]]
    if p["type"] in ("integer", "number"):
        out = [p.get("minimum"), p.get("maximum"), p["default"]]
        return [v for v in dict.fromkeys(out) if v is not None]
    if p["type"] == "array" and p.get("x-cove-per-seat"):
        choices = p["items"]["enum"]
        reverse = list(reversed(choices))[:players]
        return [reverse, list(p["default"])]
    if p["type"] == "array":
        choices = p["items"]["enum"]
        return [choices[:1], choices[-2:], list(p["default"])]
    return [p["default"]]  # free text (a data file's name): the default, the one known value


def plan(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """One table per player count; table k gives each option its (k+1)-th value (cycling),
    with more tables at the largest count until every value was given once."""
    counts = list(range(game.min_players, game.max_players + 1))
    needed = max((len(values(p, game.max_players))
                  for p in game.options_schema(game.max_players)["properties"].values()),
                 default=1)
    tables = [*counts, *[game.max_players] * max(0, needed - len(counts))]
    out = []
    for k, players in enumerate(tables):
        props = game.options_schema(players)["properties"]
        chosen = {}
        for name, p in props.items():
            vs = values(p, players)
            chosen[name] = vs[k % len(vs)]
        out.append((players, chosen))
    return out


def fill_option(page: Any, name: str, p: dict[str, Any], value: Any, players: int) -> None:
    ident = f"#opt-{name}"
    if p["type"] == "boolean":
        page.set_checked(ident, bool(value))
    elif p["type"] == "array" and p.get("x-cove-per-seat"):
        for i in range(players):
            page.select_option(ident if i == 0 else f"{ident}-{i}", value[i])
    elif p["type"] == "array":
        for choice in p["items"]["enum"]:
            slug = "".join(c if c.isalnum() else "-" for c in choice)
            page.set_checked(f"{ident}-{slug}", choice in value)
    elif "enum" in p:
        page.select_option(ident, str(value))
    else:
        page.fill(ident, str(value))


@pytest.mark.parametrize("game_id", cove.ids())
def test_the_lobby_creates_every_player_count_with_every_option_value(
        server: Server, new_page: Any, game_id: str) -> None:
    game = cove.load(game_id)
    page = new_page()
    page.goto(server.url + "/web/")
    given: dict[str, set[str]] = {}
    for players, chosen in plan(game):
        page.goto(server.url + "/web/")
        page.select_option("#game", game_id)
        page.select_option("#players", str(players))
        for seat in range(1, players):
            page.select_option(f"#seat-{seat}", "random")
        page.locator("details#options summary").click()
        props = game.options_schema(players)["properties"]
        for name, value in chosen.items():
            fill_option(page, name, props[name], value, players)
            given.setdefault(name, set()).add(repr(value))
        page.locator("#create button[type=submit]").click()
        page.locator("#created input[readonly], #create #error:not([hidden])").first.wait_for()
        assert page.locator("#create #error").is_hidden(), (
            f"{game_id} {players}p refused {chosen}: {page.locator('#create #error').inner_text()}")
        href = page.locator("#open-mine").get_attribute("href") or ""
        table_id = href.split("/web/tables/")[1].split("/")[0].split("?")[0]
        made = server.state(table_id)
        assert made.game.id == game_id and made.n == players
        stored = made.options.to_dict()
        for name, value in chosen.items():
            want = value[:players] if props[name].get("x-cove-per-seat") else value
            got = stored[name][:players] if props[name].get("x-cove-per-seat") else stored[name]
            assert got == want, f"{game_id} {players}p option {name}: sent {value!r}, got {got!r}"
    props = game.options_schema(game.max_players)["properties"]
    for name, p in props.items():
        assert len(given[name]) >= len(values(p, game.max_players)), (name, given[name])


def test_the_options_form_shows_each_default_and_a_widget_per_kind(
        server: Server, new_page: Any) -> None:
    page = new_page()
    page.goto(server.url + "/web/")
    page.locator("details#options summary").click()
    for game in cove.all_games():
        page.select_option("#game", game.id)
        page.select_option("#players", str(game.max_players))
        props = game.options_schema(game.max_players)["properties"]
        fields = page.locator("#option-fields .option")
        assert fields.count() == len(props)
        for name, p in props.items():
            field = page.locator(f"#option-fields .option[data-option='{name}']")
            assert "(default: " in field.inner_text()
            if p["type"] == "array" and not p.get("x-cove-per-seat"):
                assert field.locator("input[type=checkbox]").count() == len(p["items"]["enum"])
            elif p["type"] == "array":
                assert field.locator("select").count() == game.max_players


@pytest.mark.parametrize("game_id", cove.ids())
def test_every_board_highlights_what_the_seat_can_click(
        server: Server, new_page: Any, game_id: str) -> None:
    game = cove.load(game_id)
    players = max(game.min_players, 2)
    page = new_page()
    page.goto(server.url + "/web/")
    page.select_option("#game", game_id)
    page.select_option("#players", str(players))
    for seat in range(1, players):
        page.select_option(f"#seat-{seat}", "random")
    page.locator("#create button[type=submit]").click()
    page.locator("#open-mine").click()
    page.locator("#board .target").first.wait_for(timeout=30000)  # my first decision
    glows = page.eval_on_selector_all(
        "#board .target", "ts => ts.map(t => getComputedStyle(t).filter)")
    assert glows and all("drop-shadow" in g for g in glows), glows
    plain = page.eval_on_selector_all(
        "#board svg g:not(.target)", "gs => gs.map(g => getComputedStyle(g).filter)")
    assert all("drop-shadow" not in g for g in plain)  # only the targets glow
