"""The deployment of docs/DEPLOY.md, run for real: Debian's nginx with the page's own site
configuration (local ports and a self-signed certificate in place of the real ones) in
front of two ``cove serve`` processes on one PostgreSQL database, and a game played
through it over HTTPS and a websocket.

nginx is not installed by the test: ``.ci/run`` installs Debian's package when it is
missing and names the binary in ``COVE_TEST_NGINX``; elsewhere the test is skipped when
there is no nginx, and says so."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.sync.client import connect

import cove
from cove.core.rng import Rng
from tests.serve.conftest import postgres
from tests.serve.helpers import turn_based_game
from tests.serve.test_integrity import serving
from tests.serve.test_process import ROOT, free_port, stop

NGINX_ENV = "COVE_TEST_NGINX"
DEPLOY = ROOT / "docs" / "DEPLOY.md"
SPOOFED = "203.0.113.77"
"""An address a client claims in its own X-Forwarded-For: it must never reach a server."""


def nginx_binary() -> str:
    """Debian's nginx: the one .ci/run names, else the one on this machine; skipped (or,
    in CI, failed) without one."""
    named = os.environ.get(NGINX_ENV)
    if named:
        if not os.access(named, os.X_OK):
            pytest.fail(f"{NGINX_ENV}={named} is not an executable nginx")
        return named
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK)
                                      else None)
    if found is None:
        pytest.skip("nginx is not installed (.ci/run installs Debian's package: "
                    "apt-get install nginx)")
    return found


def site_config() -> str:
    """The nginx site of docs/DEPLOY.md, exactly as the page gives it."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/DEPLOY.md should hold one nginx block"
    return blocks[0]


def localised(site: str, ports: dict[str, int], cert: Path, key: Path) -> str:
    """The site on local ports and a test certificate; each change must apply exactly once,
    so the test keeps to what the page says."""
    changes = [
        ("    listen 80;\n", f"    listen 127.0.0.1:{ports['http']};\n"),
        ("    listen [::]:80;\n", ""),
        ("    listen 443 ssl;\n", f"    listen 127.0.0.1:{ports['https']} ssl;\n"),
        ("    listen [::]:443 ssl;\n", ""),
        ("server 127.0.0.1:8001 ", f"server 127.0.0.1:{ports['a']} "),
        ("server 127.0.0.1:8002 ", f"server 127.0.0.1:{ports['b']} "),
        ("/etc/letsencrypt/live/cove.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/cove.example.org/privkey.pem", str(key)),
    ]
    for old, new in changes:
        assert site.count(old) == 1, f"docs/DEPLOY.md's nginx block no longer has {old!r}"
        site = site.replace(old, new)
    return site


def certificate(where: Path) -> tuple[Path, Path]:
    openssl = shutil.which("openssl")
    if openssl is None:
        if os.environ.get(NGINX_ENV):
            pytest.fail("openssl is missing (.ci/nginx.sh installs it)")
        pytest.skip("openssl is not installed: no certificate for the test's TLS")
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj",
                    "/CN=cove.example.org", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


@contextmanager
def nginx(binary: str, site: str, where: Path) -> Iterator[Path]:
    """nginx in the foreground with its own prefix, pid file and logs (never the system's),
    serving ``site`` inside a minimal main configuration; yields its error log."""
    for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (where / d).mkdir()
    user = "user root root;\n" if os.geteuid() == 0 else ""  # its workers read this dir
    conf = where / "nginx.conf"
    conf.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {where}/nginx.pid;\n"
        f"error_log {where}/error.log info;\nevents {{ worker_connections 512; }}\n"
        f"http {{\n  access_log {where}/access.log;\n"
        + "".join(f"  {d}_temp_path {where}/{d};\n" if d != "body" else
                  f"  client_body_temp_path {where}/body;\n"
                  for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"))
        + site + "\n}\n", encoding="utf-8")
    log = where / "error.log"
    check = subprocess.run([binary, "-t", "-p", str(where), "-c", str(conf), "-e", str(log)],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([binary, "-p", str(where), "-c", str(conf), "-e", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        yield log
    finally:
        stop(proc)


def wait_for(url: str, **kw: Any) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx2.get(url, timeout=2, **kw)
            return
        except httpx2.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def serve_flags() -> list[str]:
    """The flags docs/DEPLOY.md gives each process that this checkout's ``cove serve``
    has (``--forwarded-allow-ips`` trusts nginx's X-Forwarded-For)."""
    from cove.cli import build_parser

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    return ["--forwarded-allow-ips", "127.0.0.1"] if "--forwarded-allow-ips" in (
        out.getvalue()) else []


def test_two_servers_on_postgres_behind_nginx_play_a_game(tmp_path: Path) -> None:
    binary = nginx_binary()
    url = postgres()
    cert, key = certificate(tmp_path)
    with ExitStack() as stack:
        a, _, a_out = stack.enter_context(serving(url, *serve_flags()))
        b, _, b_out = stack.enter_context(serving(url, *serve_flags()))
        ports = {"http": free_port(), "https": free_port(),
                 "a": int(a.rsplit(":", 1)[1]), "b": int(b.rsplit(":", 1)[1])}
        site = localised(site_config(), ports, cert, key)
        error_log = stack.enter_context(nginx(binary, site, tmp_path))
        base = f"https://127.0.0.1:{ports['https']}"
        wait_for(base + "/api/games", verify=False)
        http = stack.enter_context(httpx2.Client(base_url=base, verify=False, timeout=10,
                                                 headers={"X-Forwarded-For": SPOOFED}))

        plain = httpx2.get(f"http://127.0.0.1:{ports['http']}/web/", timeout=10)
        assert plain.status_code == 301
        assert plain.headers["location"] == "https://127.0.0.1/web/"
        r = http.get("/api/games")
        assert r.status_code == 200 and r.headers["strict-transport-security"]
        game = turn_based_game(2)
        assert game.id in {g["id"] for g in r.json()}

        # a two-seat game, one seat at a time: seat 0 plays over a websocket, 1 over HTTP
        body = {"game": game.id, "players": 2, "seats": ["human", "human"]}
        t = http.post("/api/tables", json=body)
        assert t.status_code == 201, t.text
        table = t.json()
        final = play(http, base, table)
        record = http.get(f"/api/tables/{table['id']}/record").json()
        assert cove.replay(record).scores() == final["scores"]
        assert record["deal"]["commitment"] == table["deal"]["commitment"]

        # requests about no table go to either process (a table's requests to its own)
        for _ in range(30):
            assert http.get("/api/tables", params={"limit": 3}).status_code == 200
        nginx_errors = error_log.read_text()
        outputs = {"a": "".join(a_out), "b": "".join(b_out)}
    for name, text in outputs.items():  # both served, and no client chose its address
        assert "GET /api/tables?limit=3 HTTP/1.1\" 200" in text, f"server {name} idled"
        assert SPOOFED not in text
    assert "[emerg]" not in nginx_errors and "[crit]" not in nginx_errors


def play(http: httpx2.Client, base: str, table: dict[str, Any]) -> dict[str, Any]:
    """Play the table to its end: seat 0's moves go over its websocket (through nginx),
    seat 1's over HTTP; returns the last state seat 0 was sent."""
    tid = table["id"]
    tokens = [s["token"] for s in table["seats"]]
    rng = Rng(3)
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    ws_url = base.replace("https", "wss") + f"/ws/tables/{tid}?token={tokens[0]}"
    updates = 0
    with connect(ws_url, ssl=ctx, open_timeout=10) as ws:
        state = json.loads(ws.recv(timeout=10))
        assert state["type"] == "state" and state["seat"] == 0
        deadline = time.monotonic() + 50
        while not state["over"]:
            assert time.monotonic() < deadline, "the game did not end through the proxy"
            if state["legal"]:
                pick = state["legal"][rng.below(len(state["legal"]))]
                ws.send(json.dumps({"type": "action", "action": pick["text"],
                                    "expect": state["moves"]}))
            else:
                mine = http.get(f"/api/tables/{tid}", params={"token": tokens[1]}).json()
                pick = mine["legal"][rng.below(len(mine["legal"]))]
                r = http.post(f"/api/tables/{tid}/actions", json={
                    "token": tokens[1], "action": pick["text"], "expect": mine["moves"]})
                if r.status_code == 429:  # the server's move limit: wait, as clients do
                    time.sleep(0.2)
                    continue
                assert r.status_code == 200, r.text
            msg = json.loads(ws.recv(timeout=10))  # the move's update, pushed to seat 0
            if msg["type"] == "error":
                assert msg["status"] == 429, msg
                time.sleep(0.2)
                continue
            assert msg["type"] == "update", msg
            updates += 1
            state = msg
    assert updates == state["moves"]
    return state
