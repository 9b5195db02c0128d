""""Your turn" webhooks: a named player registers a URL, and when it becomes their turn at a
table the server POSTs there once, in the background.

The body suits Discord (``content``) and Slack (``text``) incoming webhooks alike, and
carries the details for other receivers: ``{"content", "text", "game", "table", "link",
"asked", "seat"}``. What is asked is the decision as a spectator reads it ("placing a
ship"), never the player's hidden cards: a webhook often posts to a shared channel.

A turn is the moment a seat becomes one to move after someone else decided (or the game
began): several decisions in a row by one seat are one turn, and at a simultaneous decision
each seat's turn is told once however the others decide. It is keyed by the table, the seat
and how many decisions the seat had made, claimed in the store before the call
(:meth:`cove.serve.player_data.PlayerData.claim_turn`), so no process, restart or undo calls
twice for one turn. Each player has a rate limit (``webhook_rate`` a second, ``webhook_burst``
at once; a call past it is dropped, and logged). A call that fails (no answer within
``webhook_timeout``, a 5xx or 429) is tried again after ``webhook_backoff`` seconds, twice
as long each time, ``webhook_tries`` times in all; a 4xx other than 429 is not tried again.
Calls run as background tasks, at most :data:`CONCURRENT` at once: a move never waits for
one.

Which URLs are allowed (``Settings.webhook_hosts``): ``*`` (the default) any http or https
URL whose host is not a private, loopback, link-local or reserved address (unless
``webhook_private``); a comma-separated list of host names (``discord.com,hooks.slack.com``;
a leading dot allows every subdomain: ``.example.org``); ``none`` turns webhooks off.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections import OrderedDict
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cove.core.errors import CoveError
from cove.serve.errors import ApiError
from cove.serve.limits import Buckets

if TYPE_CHECKING:
    from cove.serve.hub import Hub, Table

log = logging.getLogger(__name__)

URL_MAX = 500
"""The longest webhook URL accepted, in characters (Discord's and Slack's are about 120)."""
CONCURRENT = 16
"""Webhook calls in flight at once, in all (the others wait their turn)."""


def allowed_hosts(setting: str) -> list[str] | None:
    """``webhook_hosts`` as a list of host patterns; [] for any host; None: off."""
    text = setting.strip().lower()
    if text in ("", "none", "off"):
        return None
    if text == "*":
        return []
    return [h.strip() for h in text.split(",") if h.strip()]


def host_allowed(host: str, patterns: list[str]) -> bool:
    if not patterns:
        return True
    host = host.lower().rstrip(".")
    return any(host == p or (p.startswith(".") and (host.endswith(p) or host == p[1:]))
               for p in patterns)


def check_url(url: Any, setting: str, private: bool) -> str | None:
    """The webhook URL to keep (None: remove it); 422 ``bad_webhook`` saying what a
    webhook URL may be otherwise (an address the server may not call included, when the
    host is written as one)."""

    patterns = allowed_hosts(setting)
    if patterns is None:
        raise ApiError(422, "webhooks_off", "this server sends no webhooks (its deployer "
                       "turned them off: --webhook-hosts none)")
    if url is None:
        return None
    rule = (f"a webhook is an http:// or https:// URL of at most {URL_MAX} characters"
            + (f" on one of these hosts: {', '.join(patterns)}" if patterns else ""))
    if not isinstance(url, str):
        raise ApiError(422, "bad_webhook", f"give the URL as text, or null to remove it: {rule}")
    text = url.strip()
    if len(text) > URL_MAX:
        raise ApiError(422, "bad_webhook", f"the URL has {len(text)} characters: {rule}")
    try:
        parts = urlsplit(text)
        host = parts.hostname or ""
        parts.port  # noqa: B018  # (a bad port raises)
    except ValueError as e:
        raise ApiError(422, "bad_webhook", f"not a URL ({e}): {rule}") from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise ApiError(422, "bad_webhook", f"{text[:60]!r} is not an http or https URL with "
                       f"a host: {rule}")
    if not text.isprintable() or any(c.isspace() for c in text):
        raise ApiError(422, "bad_webhook", f"the URL holds spaces or control characters: {rule}")
    if not host_allowed(host, patterns):
        raise ApiError(422, "bad_webhook", f"this server calls no webhook on {host!r}: {rule}")
    if not private and not public_address(host):
        raise ApiError(422, "bad_webhook", f"{host!r} is a private, loopback or reserved "
                       "address, which this server does not call")
    return text


def public_address(host: str) -> bool:
    """False for a host written as a private, loopback, link-local, multicast or reserved
    address (or ``localhost``); True for a public address or any other name."""
    if host.lower().rstrip(".") in ("localhost", "localhost.localdomain") or host.lower(
            ).endswith(".localhost"):
        return False
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True
    return ip.is_global and not ip.is_multicast


async def resolves_public(host: str) -> bool:
    """Whether every address ``host`` resolves to is public (checked before each call, so
    a name that points inside the network is not called)."""
    if not public_address(host):
        return False
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, None,
                                                             type=socket.SOCK_STREAM)
    except OSError:
        return True  # the call fails by itself, and is tried again later
    return all(public_address(str(info[4][0])) for info in infos)


def body(game: str, table_id: str, link: str, asked: str, seat: int) -> dict[str, Any]:
    text = f"Your turn in {game}" + (f" ({asked})" if asked else "") + f": {link}"
    return {"content": text, "text": text, "game": game, "table": table_id, "link": link,
            "asked": asked, "seat": seat}


def asked(table: Table) -> str:
    """The decision as everyone may read it ("placing a ship"), without hidden cards."""
    decision = table.state.decision(None)
    prompt = str(decision.get("prompt", ""))
    if ": " in prompt:
        return prompt.partition(": ")[2]
    return str(decision.get("kind", "")).replace("_", " ")


class Webhooks:
    """The hub's side: after each move, a call for each named seat whose turn began."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        s = hub.settings
        self.patterns = allowed_hosts(s.webhook_hosts)
        self._buckets = Buckets()
        self._told: OrderedDict[tuple[str, int, int], None] = OrderedDict()
        self._slots: asyncio.Semaphore | None = None
        self.calls = 0
        """Calls made (attempts included), for tests."""

    def after_move(self, table: Table) -> None:
        st = table.state
        if self.patterns is None or st.is_over or table.closed:
            return
        movers = [p for p in st.to_move()
                  if table.seats[p]["kind"] == "human" and "player" in table.seats[p]]
        if not movers:
            return
        history = st.history
        last = history[-1][0] if history else None
        for p in movers:
            if p == last:
                continue  # the same seat decides again: the same turn
            turn = sum(1 for q, _ in history if q == p)
            key = (table.id, p, turn)
            if key in self._told:
                continue
            self._told[key] = None
            while len(self._told) > 20000:
                self._told.popitem(last=False)
            self.hub._spawn(self._call(table.id, table.game.name, p, turn,
                                       table.seats[p]["player"], asked(table)))

    async def _call(self, table_id: str, game: str, seat: int, turn: int, player: str,
                    what: str) -> None:
        hub = self.hub
        s = hub.settings
        try:
            hook = await hub._db(hub.store.webhook, player)
            if hook is None:
                return
            url, base = hook
            host = urlsplit(url).hostname or ""
            if self.patterns is None or not host_allowed(host, self.patterns):
                return
            if not s.webhook_private and not await resolves_public(host):
                log.warning("webhook of table %s seat %d not called: its host resolves to a "
                            "private address", table_id, seat)
                return
            if not await hub._db(hub.store.claim_turn, table_id, seat, turn):
                return  # told already (another process, or before a restart)
        except CoveError as e:
            log.warning("webhook of table %s seat %d not called: %s", table_id, seat, e)
            return
        if not self._buckets.get(player, s.webhook_rate, s.webhook_burst).take(1.0):
            log.info("webhook of table %s seat %d dropped: its player's calls are over "
                     "%g a second", table_id, seat, s.webhook_rate)
            return
        link = f"{base.rstrip('/')}/web/tables/{table_id}?me=1"
        await self.post(url, body(game, table_id, link, what, seat))

    async def post(self, url: str, message: dict[str, Any]) -> bool:
        """POST ``message`` to ``url``, tried again on failure as the module says: True
        once a receiver took it."""
        import httpx2

        s = self.hub.settings
        if self._slots is None:
            self._slots = asyncio.Semaphore(CONCURRENT)
        delay = s.webhook_backoff
        why = ""
        async with self._slots, httpx2.AsyncClient(timeout=s.webhook_timeout,
                                                   follow_redirects=False) as client:
            for attempt in range(max(1, s.webhook_tries)):
                if attempt:
                    await asyncio.sleep(delay)
                    delay *= 2
                self.calls += 1
                try:
                    r = await client.post(url, json=message,
                                          headers={"User-Agent": "cove-webhook"})
                except httpx2.HTTPError as e:
                    why = f"{type(e).__name__}: {str(e)[:100]}"
                    continue
                if r.status_code < 300:
                    return True
                why = f"status {r.status_code}"
                if r.status_code < 500 and r.status_code != 429:
                    break  # the URL is wrong or gone: trying again does not mend it
        log.warning("webhook to %s failed: %s", urlsplit(url).hostname, why)
        return False
