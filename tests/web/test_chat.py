"""The table's chat through the pages: two seats chat by typing and pressing Enter, a
spectator's page sees it (and cannot write unless the creator allowed it), the texts are
shown as text (never as markup), new messages are said in the live region, and a reload
shows them again."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="the web extra is not installed")
pytest.importorskip("starlette", reason="the web extra is not installed")

from playwright.sync_api import Page

from tests.web.conftest import Server
from tests.web.keys import tab_to
from tests.web.test_undo_hint import TWO, two_people

SCRIPT = "<script>window.pwned = 1</script>"
IMAGE = '<img src=x onerror="window.pwned = 2">'


def write(page: Page, text: str) -> None:
    """Reach the chat's box with Tab, type, press Enter."""
    tab_to(page, "#chat-text")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


def lines(page: Page) -> list[str]:
    out: list[str] = page.eval_on_selector_all("#chat li", "ls => ls.map(l => l.textContent)")
    return out


def wait_lines(page: Page, n: int) -> list[str]:
    page.wait_for_function("n => document.querySelectorAll('#chat li').length >= n", arg=n)
    return lines(page)


def test_two_seats_chat_a_spectator_reads_and_a_reload_keeps_it(
        server: Server, new_page: Any) -> None:
    ada: Page = new_page()
    bea, table_id = two_people(ada, new_page, server, TWO[0])
    watcher: Page = new_page()
    watcher.goto(f"{server.url}/web/tables/{table_id}/watch")
    watcher.wait_for_function("() => document.body.dataset.version !== undefined")
    assert watcher.locator("#chat-form").is_hidden()  # the creator did not let them write
    watcher.wait_for_function("() => document.querySelector('#chat-note').textContent"
                              ".includes('Spectators read the chat')")
    assert ada.locator("#chat-text").get_attribute("maxlength") == "500"
    write(ada, "good luck!")
    assert wait_lines(bea, 1) == ["P1: good luck!"]
    assert ada.locator("#chat-text").input_value() == ""  # sent, the box is empty again
    assert wait_lines(ada, 1) == ["P1 (you): good luck!"]
    bea.wait_for_function("() => document.querySelector('#announce').textContent"
                          ".includes('P1 says: good luck!')")
    write(bea, SCRIPT)
    write(bea, IMAGE)
    for page in (ada, bea, watcher):
        got = wait_lines(page, 3)
        assert got[0] == "P1: good luck!" or page is ada
        assert got[1].endswith(": " + SCRIPT) and got[2].endswith(": " + IMAGE), got
        assert page.evaluate("() => document.querySelectorAll('#chat img, #chat script')"
                             ".length") == 0
        assert page.evaluate("() => window.pwned") is None
    assert "P2 says: " + IMAGE in ada.inner_text("#announce")
    bea.reload()
    bea.wait_for_function("() => document.body.dataset.version !== undefined")
    assert wait_lines(bea, 3) == ["P1: good luck!", "P2 (you): " + SCRIPT,
                                  "P2 (you): " + IMAGE]
    assert bea.evaluate("() => window.pwned") is None
    watcher.reload()
    assert wait_lines(watcher, 3)[0] == "P1: good luck!"


def test_a_refused_message_says_why(server: Server, new_page: Any) -> None:
    ada: Page = new_page()
    two_people(ada, new_page, server, TWO[0])
    ada.locator("#chat-text").wait_for()
    ada.evaluate("() => document.querySelector('#chat-text').removeAttribute('maxlength')")
    write(ada, "x" * 501)
    alert = ada.locator("#chat-error")
    alert.wait_for()
    assert "at most 500" in alert.inner_text()
    assert lines(ada) == []


def test_spectators_write_where_the_creator_allowed_it(server: Server, new_page: Any) -> None:
    page: Page = new_page()
    page.goto(server.url + "/web/")
    page.locator("#spectator-chat").check()
    page.locator("#create button[type=submit]").click()
    page.locator("#created a[href$='/watch']").wait_for()
    watch = page.locator("#created a[href$='/watch']").get_attribute("href")
    assert watch is not None
    watcher: Page = new_page()
    watcher.goto(watch)
    watcher.locator("#chat-form").wait_for()
    write(watcher, "hello from the rail")
    assert wait_lines(watcher, 1) == ["A spectator: hello from the rail"]
