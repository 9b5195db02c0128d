"""Browser fixtures: `cove serve` in-process on a free port (uvicorn in a thread, a temp
SQLite db) and Debian's Chromium driven headless by Playwright (never downloaded)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# The web extra (Starlette, uvicorn, Playwright) is imported inside the fixtures, so tests in
# this folder that need no browser (the board drawings') run without it.

CHROMIUM = os.environ.get("COVE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@dataclass
class Server:
    url: str
    app: Any

    def hub(self) -> Any:
        return self.app.state.hub

    def create(self, game: str, seats: list[str], seed: int = 7,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
        body = json.dumps({"game": game, "seats": seats, "seed": seed,
                           "options": options or {}}).encode()
        req = urllib.request.Request(self.url + "/api/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req) as res:
            out: dict[str, Any] = json.loads(res.read())
        return out

    def state(self, table_id: str) -> Any:
        return self.hub().tables[table_id].state

    def seat_url(self, table: dict[str, Any], seat: int) -> str:
        return f"{self.url}/web/tables/{table['id']}?token={table['seats'][seat]['token']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    import uvicorn

    from cove.serve import Settings, create_app

    db = tmp_path_factory.mktemp("web") / "cove.db"
    # the tests click quickly from one address: lift the per-client creation limit
    app = create_app(Settings(db=f"sqlite:///{db}", create_burst=1000, create_rate=1000.0,
                              burst=1000, rate=1000.0))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws_per_message_deflate=False, lifespan="on")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield Server(f"http://127.0.0.1:{port}", app)
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    pytest.importorskip("playwright", reason="the web extra is not installed")
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(f"no Chromium at {CHROMIUM} (.ci/chromium.sh installs Debian's)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Any]:
    """Pages in fresh browser contexts (each one a separate player's browser); ``options``
    are the context's (a phone's screen: ``tests.web.test_phone.PHONE``)."""
    contexts = []

    def make(width: int = 1280, height: int = 900, **options: Any) -> Page:
        ctx = browser.new_context(**{"viewport": {"width": width, "height": height},
                                     **options})
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def shifted(server: Server) -> Iterator[Callable[[float], None]]:
    """Moves the server's clock (``Hub.now``) forward, and back after the test."""
    hub = server.hub()

    def shift(seconds: float) -> None:
        hub.now = lambda: time.time() + seconds

    yield shift
    hub.now = time.time


SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def shot(target: Any, name: str) -> None:
    """A screenshot of ``target`` (a page or a locator), written to docs/screenshots only
    when COVE_SCREENSHOTS is set (so a test run leaves the tree as it was)."""
    if os.environ.get("COVE_SCREENSHOTS"):
        target.screenshot(path=str(SHOTS / name))
    else:
        assert target.screenshot()
