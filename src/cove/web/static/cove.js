// Cove's browser table: the lobby form and the live table. Plain script, no build step,
// nothing loaded from the network; it speaks docs/API.md (REST + one websocket).
"use strict";

(function () {
  const { $, el, store } = window.coveDom;  // (dom.js)
  const seatName = (s) => "P" + (s + 1);
  const tokenKey = (id) => "cove.token." + id;
  const ownerKey = (id) => "cove.owner." + id;  // the key that closes a table this browser made

  // ---- a player's name: chosen on the first visit, kept with the key the server issues ----
  const me = { get key() { return store.get("cove.player.key"); },
               get name() { return store.get("cove.player.name"); } };
  async function postJSON(url, body) {  // {ok, data}; a server that did not answer: not ok
    try {
      const res = await fetch(url, { method: "POST", body: JSON.stringify(body),
                                     headers: { "Content-Type": "application/json" } });
      return { ok: res.ok, data: await res.json() };
    } catch (e) {
      return { ok: false, data: { reason: "The server did not answer: " + e } };
    }
  }
  function naming(named) {  // named(): called once this browser has a name
    // asked on every lobby visit until chosen; at a table, until "Not now"
    const box = $("#naming"), lobbyPage = document.body.dataset.page === "lobby";
    if (!box || me.key || (!lobbyPage && store.get("cove.player.later"))) return;
    box.hidden = false;
    $("#naming-later").addEventListener("click", () => {
      store.set("cove.player.later", "1");
      box.hidden = true;
    });
    $("#naming-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const error = $("#naming-error");
      error.hidden = true;
      const got = await postJSON("/api/players", { name: $("#player-name").value });
      if (!got.ok) {
        error.textContent = got.data.reason || "That name could not be kept.";
        error.hidden = false;
        return;
      }
      store.set("cove.player.key", got.data.key);
      store.set("cove.player.name", got.data.name);
      box.textContent = "";
      box.append(el("p", {}, "Hello " + got.data.name + ". Your personal key keeps your name "
                              + "in this browser; copy it to use the name on another device:"));
      const input = el("input", { type: "text", readonly: "", value: got.data.key,
                                  "aria-label": "Your personal key" });
      const copy = el("button", { type: "button" }, "Copy");
      copy.addEventListener("click", () => copyText(input, copy));
      const row = el("p", { class: "row" });
      row.append(input, copy);
      box.append(row);
      if (named) named();
    });
  }

  // ---- lobby ---------------------------------------------------------------------------
  function lobby() {
    const games = JSON.parse($("#games-data").textContent);
    const bots = JSON.parse($("#bots-data").textContent);
    const form = $("#create"), gameSel = $("#game"), playersSel = $("#players");
    const seatsBox = $("#seats"), error = $("#error");

    function seatChoice(i) {
      const row = el("div", { class: "row seat" });
      const id = "seat-" + i;
      row.append(el("label", { for: id }, seatName(i)));
      const sel = el("select", { id: id, "data-seat": String(i) });
      sel.append(el("option", { value: "human" }, i === 0 ? "human (you)" : "human (invite a friend)"));
      for (const b of bots) sel.append(el("option", { value: b.spec }, b.label));
      sel.append(el("option", { value: "custom" }, "bot: other spec…"));
      const custom = el("input", { type: "text", placeholder: "e.g. mcts:iterations=500",
                                   "aria-label": seatName(i) + " bot spec", hidden: "" });
      sel.addEventListener("change", () => { custom.hidden = sel.value !== "custom"; });
      sel.value = i < 2 ? "human" : "medium";
      row.append(sel, custom);
      return row;
    }
    function players() {
      const g = games[gameSel.value];
      const keep = Number(playersSel.value) || 3;
      playersSel.textContent = "";
      for (let n = g.min; n <= g.max; n++) playersSel.append(el("option", { value: n }, String(n)));
      playersSel.value = String(Math.min(g.max, Math.max(g.min, keep)));
      seats();
    }
    function seats() {
      const n = Number(playersSel.value);
      const old = [...seatsBox.querySelectorAll(".seat")];
      for (const row of old.slice(n)) row.remove();
      for (let i = old.length; i < n; i++) seatsBox.append(seatChoice(i));
      optionFields(games[gameSel.value], n);
    }
    function game() {
      $("#summary").textContent = games[gameSel.value].summary;
      players();
    }
    gameSel.addEventListener("change", game);
    playersSel.addEventListener("change", seats);
    game();

    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      error.hidden = true;
      const seatSpecs = [...seatsBox.querySelectorAll(".seat")].map((row) => {
        const sel = row.querySelector("select");
        return sel.value === "custom" ? row.querySelector("input").value.trim() : sel.value;
      });
      const options = optionValues();
      const body = { game: gameSel.value, players: Number(playersSel.value), seats: seatSpecs,
                     options: options, spectator_chat: $("#spectator-chat").checked };
      const clock = window.coveClock && window.coveClock.formValue();
      if (clock) body.clock = clock;
      if ($("#rated") && $("#rated").checked) body.rated = true;
      let res, data;
      try {
        res = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body),
                                           headers: { "Content-Type": "application/json" } });
        data = await res.json();
      } catch (e) {
        error.textContent = "The server did not answer: " + e;
        error.hidden = false;
        return;
      }
      if (!res.ok) {
        error.textContent = data.reason || "The table could not be made.";
        error.hidden = false;
        return;
      }
      created(data);
      refreshLists();  // the new table among the open ones at once
    });
    markMine();
    naming(null);
    setInterval(refreshLists, LOBBY_POLL_MS);
  }


  // ---- the lobby's options form, built from the game's JSON Schema for the player count ---
  // (Game.options_schema: the same declaration the server checks the options against)
  let optionSchema = null, optionGame = null;
  const kept = {};  // values chosen so far, by game and option: kept across player counts
  const shown = (v) => Array.isArray(v) ? v.join(", ") : String(v);
  function optionFields(g, n) {
    const box = $("#option-fields");
    if (!box) return;
    const gid = $("#game").value;
    if (optionGame === gid) Object.assign(kept[gid] || (kept[gid] = {}), optionValues(true));
    optionGame = gid;
    optionSchema = g.options[String(n)];
    box.textContent = "";
    $("#options-legend").textContent = $("#game").selectedOptions[0].textContent + " options";
    const props = Object.entries(optionSchema.properties);
    if (!props.length) box.append(el("p", { class: "muted" }, "This game has no options."));
    for (const [name, p] of props) box.append(optionField(name, p, (kept[gid] || {})[name], n));
  }
  function optionField(name, p, value, n) {
    const id = "opt-" + name, wrap = el("div", { class: "option", "data-option": name });
    const label = el("label", { for: id }, p.title || name);
    const help = el("small", { id: id + "-help" },
                    (p.description || "") + " (default: " + shown(p.default) + ")");
    const described = { "aria-describedby": id + "-help" };
    if (value === undefined) value = p.default;
    if (p.type === "boolean") {
      const box = el("input", { type: "checkbox", id: id, ...described });
      box.checked = Boolean(value);
      wrap.append(label, box, help);
    } else if (p.type === "array" && p["x-cove-per-seat"]) {  // one entry per seat, in order
      const row = el("div", { class: "per-seat", role: "group", "aria-labelledby": id + "-name" });
      label.removeAttribute("for");
      label.id = id + "-name";
      for (let i = 0; i < n; i++) {
        const sel = el("select", { id: i ? id + "-" + i : id, "aria-label": (p.title || name) + " of " + seatName(i), ...described });
        for (const c of p.items.enum) sel.append(el("option", { value: c }, c));
        sel.value = value[i] !== undefined ? value[i] : p.default[i];
        row.append(el("span", { class: "seat-name" }, seatName(i)), sel);
      }
      wrap.append(label, row, help);
    } else if (p.type === "array") {  // a set of the allowed entries: one box each
      const row = el("div", { class: "set", role: "group", "aria-labelledby": id + "-name" });
      label.removeAttribute("for");
      label.id = id + "-name";
      for (const c of p.items.enum || []) {
        const cid = id + "-" + c.replace(/[^a-z0-9]+/gi, "-");
        const box = el("input", { type: "checkbox", id: cid, value: c });
        box.checked = value.includes(c);
        const item = el("span", { class: "choice" });
        item.append(box, el("label", { for: cid }, c));
        row.append(item);
      }
      wrap.append(label, row, help);
    } else if (p.enum) {
      const sel = el("select", { id: id, ...described });
      for (const c of p.enum) sel.append(el("option", { value: c }, String(c)));
      sel.value = String(value);
      wrap.append(label, sel, help);
    } else {
      const numeric = p.type === "integer" || p.type === "number";
      const attrs = { id: id, type: numeric ? "number" : "text", ...described };
      if (numeric) attrs.step = p.type === "integer" ? "1" : "any";
      if (p.minimum !== undefined) attrs.min = String(p.minimum);
      if (p.maximum !== undefined) attrs.max = String(p.maximum);
      const input = el("input", attrs);
      input.value = String(value);
      wrap.append(label, input, help);
    }
    return wrap;
  }
  function optionValue(wrap, p) {
    if (p.type === "boolean") return wrap.querySelector("input").checked;
    if (p.type === "array" && p["x-cove-per-seat"]) return [...wrap.querySelectorAll("select")].map((s) => s.value);
    if (p.type === "array") return [...wrap.querySelectorAll("input:checked")].map((b) => b.value);
    const raw = wrap.querySelector("input, select").value;
    if (p.type === "integer" || p.type === "number") return raw.trim() === "" ? raw : Number(raw);
    return raw;
  }
  function optionValues(all) {  // the options that differ from their defaults (all: every one)
    const out = {};
    if (!optionSchema) return out;
    for (const wrap of document.querySelectorAll("#option-fields .option")) {
      const name = wrap.dataset.option, p = optionSchema.properties[name];
      const value = optionValue(wrap, p);
      if (all || JSON.stringify(value) !== JSON.stringify(p.default)) out[name] = value;
    }
    return out;
  }

  const LOBBY_POLL_MS = 3000;  // how often the lobby asks for its lists again
  let listsShown = "";
  async function refreshLists() {  // new tables and finished games, without a reload
    if (document.hidden) return;
    let data;
    try {
      const res = await fetch("/web/lobby/tables");
      if (!res.ok) return;
      data = await res.json();
    } catch (e) {
      return;  // the server is away: try again at the next tick
    }
    const now = data.open + data.finished;
    if (now === listsShown) return;
    listsShown = now;
    $("#open-tables").innerHTML = data.open;
    $("#finished-tables").innerHTML = data.finished;
    markMine();
  }

  function created(data) {
    const box = $("#created");
    box.textContent = "";
    store.set(ownerKey(data.id), data.owner);
    box.append(el("h2", {}, "Table ready"));
    box.append(el("p", {}, "Send each friend their own link: a link is a seat, so keep yours."));
    const list = el("ul", { class: "links" });
    let mine = null;
    for (const s of data.seats) {
      const li = el("li");
      if (s.kind === "human") {
        const url = location.origin + "/web/tables/" + data.id + "?token=" + encodeURIComponent(s.token);
        if (mine === null) { mine = url; store.set(tokenKey(data.id), s.token); }
        li.append(el("strong", {}, seatName(s.seat) + (url === mine ? " (you)" : "") + ": "));
        const input = el("input", { type: "text", readonly: "", value: url,
                                    "aria-label": seatName(s.seat) + " invite link" });
        const copy = el("button", { type: "button" }, "Copy");
        copy.addEventListener("click", () => copyText(input, copy));
        li.append(input, copy);
      } else {
        li.textContent = seatName(s.seat) + ": bot " + s.bot;
      }
      list.append(li);
    }
    const watch = location.origin + "/web/tables/" + data.id + "/watch";
    const wl = el("li");
    wl.append(el("strong", {}, "Spectators: "), el("a", { href: watch }, watch));
    list.append(wl);
    box.append(list);
    const go = mine ? el("a", { class: "button primary", href: mine, id: "open-mine" }, "Go to my seat") : null;
    if (go) box.append(go);
    box.hidden = false;
    box.scrollIntoView({ behavior: "smooth" });
    if (go) go.focus({ preventScroll: true });  // the next key press opens the seat
  }

  async function copyText(input, button) {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch (e) {
      input.select();
      document.execCommand("copy");
    }
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }

  function markMine() {  // tables this browser holds a seat at: a link back to the seat
    for (const li of document.querySelectorAll("li[data-table]")) {
      const token = store.get(tokenKey(li.dataset.table));
      if (token) {
        const a = el("a", { href: "/web/tables/" + li.dataset.table + "?token=" + encodeURIComponent(token) },
                     "my seat");
        li.querySelector(".resume").append(" · ", a);
      }
      const owner = store.get(ownerKey(li.dataset.table));
      if (owner && li.closest("#open-tables")) {  // this browser made it: it may close it
        const b = el("button", { type: "button", class: "close-table",
                                 "aria-label": "Close this table" }, "Close");
        b.addEventListener("click", () => closeTable(li.dataset.table, owner));
        li.querySelector(".resume").append(" ", b);
      }
    }
  }

  async function closeTable(id, owner) {
    const error = $("#lists-error");
    error.hidden = true;
    const { ok, data } = await postJSON("/api/tables/" + id + "/close", { token: owner });
    if (!ok) {
      error.textContent = data.reason || "The table could not be closed.";
      error.hidden = false;
      return;
    }
    listsShown = "";  // drawn again now, without it
    refreshLists();
  }

  // ---- table ---------------------------------------------------------------------------
  function table() {
    const body = document.body;
    const id = body.dataset.table;
    const watching = body.dataset.mode === "watch";
    let token = null;
    if (!watching) {
      const url = new URL(location.href);
      token = url.searchParams.get("token");
      if (token) {
        store.set(tokenKey(id), token);
      } else if (url.searchParams.has("me") && me.key) {  // "My games": the key opens my seat
        token = me.key;
      } else {
        token = store.get(tokenKey(id));
        if (token) { url.searchParams.set("token", token); history.replaceState(null, "", url); }
      }
    }
    const q = token ? "?token=" + encodeURIComponent(token) : "";
    // The board comes drawn in each websocket update (?board=web); a page opened with
    // board=fetch asks the board route after each update instead (benchmarks/web.py
    // compares the two), as the page also does when an update comes without a board.
    const pushed = new URL(location.href).searchParams.get("board") !== "fetch";
    let ws = null, last = null, retry = 0, boardAsked = 0, boardShown = -1, clickedAt = null, clickVersion = 0;
    window.coveTimings = [];  // click -> board redrawn, ms (benchmarks/web.py reads them)
    window.coveParts = [];    // its split: [update arrived, board fetched, parsed, swapped in, frame, server CPU to draw]
    let updateAt = 0;
    // Keyboard focus across redraws: a move replaces the board and the move list, and with
    // them the element that had the focus. When the keys were last used in one of them,
    // the focus goes back to its first target (or the region itself), not to the page's top.
    let lastInput = "pointer", keysZone = null, chooserFrom = null;
    document.addEventListener("keydown", () => { lastInput = "key"; }, true);
    document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);
    const zoneOf = (e) => !e || !e.closest ? null
      : e.closest("#board, #chooser") ? "board" : e.closest("#moves") ? "moves" : null;
    document.addEventListener("focusin", (ev) => { keysZone = zoneOf(ev.target); });
    function refocus() {
      const a = document.activeElement;
      if (!keysZone || lastInput !== "key" || (a && a !== document.body && a.isConnected && !a.hidden)) return;
      const box = keysZone === "board" ? $("#board") : $("#moves");
      if (!box) return;
      const first = box.querySelector(keysZone === "board" ? ".target" : "button.move");
      (first || box).focus();
    }

    function showError(text) {
      const e = $("#error");
      e.textContent = text;
      e.hidden = !text;
      if (text) refocus();  // a refused move from the chooser: the keys go on from the board
    }
    function connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const wants = pushed ? (q ? "&" : "?") + "board=web" : "";
      ws = new WebSocket(proto + "//" + location.host + "/ws/tables/" + id + q + wants);
      ws.onopen = () => { retry = 0; conn("connected", "ok"); };
      ws.onmessage = (ev) => { const at = performance.now(); message(JSON.parse(ev.data), at); };
      ws.onclose = (ev) => {
        if (ev.code >= 4000) return;  // a wrong token or table: the error says why
        conn("reconnecting…", "warn");
        setTimeout(connect, Math.min(5000, 500 * 2 ** retry++));
      };
    }
    function conn(text, kind) {
      const c = $("#conn");
      c.textContent = text;
      c.className = "badge " + kind;
    }
    function message(m, at) {
      if (m.type === "error") {
        if (m.status === 403 && !last) {
          conn("not seated", "bad");
          $("#prompt").textContent = m.reason;
          if (token) store.remove(tokenKey(id));
          return;
        }
        showError(m.reason + (m.status === 409 ? " (the table has been updated)" : ""));
        clickedAt = null;
        if (m.status === 409) ws.send(JSON.stringify({ type: "state" }));
        return;
      }
      if (window.coveClock) window.coveClock.message(m);  // clocks, away, takeovers (clock.js)
      if (m.type !== "state" && m.type !== "update") { dispatch(m); return; }
      if (m.type === "state") logged = [];
      if (m.type === "update") { showError(""); updateAt = at; }
      const prev = last;
      last = m;
      const renamed = learnNames(m.seats);
      body.dataset.seat = m.seat === null ? "" : String(m.seat);
      $("#who").textContent = m.seat === null ? "spectator" : "you are " + label(m.seat);
      sit();
      $("#prompt").textContent = m.over ? "The game is over."
        : m.closed ? "This table was closed by its creator; nothing more is played here."
        : m.decision.prompt;
      $("#status").hidden = m.over;  // the end screen says it
      $("#status").classList.toggle("yours", m.legal.length > 0);
      if ($("#undo")) $("#undo").hidden = !m.can_undo;
      if ($("#hint")) {
        $("#hint").hidden = !m.legal.length || m.over;
        if (!prev || prev.version !== m.version) showHint(null);
      }
      const mine = m.legal.length > 0 && !m.over, wasMine = Boolean(prev && prev.legal.length);
      turnMark(mine && (!wasMine || marked));
      moves(m.legal);
      log(m.events, renamed || m.type === "state");
      announce(m);
      if (m.board) {
        boardAsked++;  // a board fetch still under way is older: drop it
        showBoard(m.board, at);
      } else {
        drawBoard();
      }
      if (m.over) replayOpen(m);
      dispatch(m);
    }
    // The table's other scripts (chat.js, history.js, again.js) see every message through
    // window.coveTable.on(type, fn), after this script has shown it.
    const hooks = {};
    const dispatch = (m) => { for (const fn of hooks[m.type] || []) fn(m); };
    window.coveTable = {
      id: id, token: token, watching: watching, player: () => me.key, post: postJSON,
      on: (type, fn) => { (hooks[type] = hooks[type] || []).push(fn); },
      last: () => last, label: (s) => label(s),
      say: (text) => { $("#announce").append(el("p", {}, text)); },
    };
    // One polite live region (#announce, role=log) says each update once: the move that
    // made it, what the game logged, and whose turn it is now. Nothing else on the table
    // page is live, so a screen reader hears each update once.
    let announced = -1;
    const sentence = (t) => String(t).replace(/\s+/g, " ").trim().replace(/[.:;,\s]+$/, "");
    function turnText(m) {
      if (m.over) {
        const end = el("div");
        end.innerHTML = (m.board && m.board.end) || "";
        return end.textContent.trim() || "The game is over";
      }
      if (m.closed) return "This table was closed by its creator";
      const prompt = (m.decision && m.decision.prompt) || "";
      if (m.legal.length) return "Your turn: " + prompt;
      if (/^waiting for/i.test(prompt)) return prompt;
      const who = (m.to_move || []).map(seatName).join(" and ");
      return who ? "Waiting for " + who + (prompt ? ": " + prompt : "") : prompt;
    }
    function announce(m) {
      const at = m.version + (m.closed ? " closed" : "");
      if (at === announced) return;  // the same position again (a reconnect): said
      announced = at;
      const parts = [];
      if (m.undone !== undefined) {  // (null: taken back at another server process)
        parts.push(m.undone === null ? "A move was taken back"
                   : m.undone === m.seat ? "You took back your last move"
                   : label(m.undone) + " took back their last move");
      } else if (m.type === "update") {
        if (m.board && m.board.last) parts.push(m.board.last);
        for (const e of m.events.slice(-4)) parts.push(e.text);
      } else if (m.seat !== null) {
        parts.push("You are " + label(m.seat));
      }
      parts.push(turnText(m));
      const box = $("#announce");
      box.append(el("p", { "data-moves": String(m.moves) },
                    parts.map(withNames).map(sentence).filter((t) => t).join(". ") + "."));
      while (box.children.length > 30) box.firstChild.remove();
    }
    // Your turn while the tab is in the background: "(Your turn)" before the title and
    // the favicon with the yellow dot, until you act (or it is no longer your turn).
    const plainTitle = document.title;
    let marked = false;
    function turnMark(mine) {
      if (mine && !marked && document.hidden) mark(true);
      else if (!mine && marked) mark(false);
    }
    function mark(on) {
      marked = on;
      document.title = on ? "(Your turn) " + plainTitle : plainTitle;
      $("#icon").href = on ? "/web/favicon-turn.ico" : "/favicon.ico";
    }
    function moves(legal) {
      const ul = $("#moves");
      if (!ul) return;
      ul.textContent = "";
      for (const a of legal) {
        const li = el("li");
        const b = el("button", { type: "button", class: "move" }, a.text);
        b.dataset.move = a.text;
        li.append(b);
        ul.append(li);
      }
      if (!legal.length) ul.append(el("li", { class: "muted" }, last && last.over ? "The game is over." : "Not your turn."));
      refocus();
    }
    // Names: a seat a named player took shows the name (the seats' list in every message);
    // the log, the announcements and the badge say it where the game's texts say "P2".
    let names = {}, logged = [], sat = false;
    const label = (s) => names[s] ? names[s] + " (" + seatName(s) + ")" : seatName(s);
    const withNames = (t) => String(t).replace(/\bP(\d+)\b/g, (w, n) => names[Number(n) - 1] || w);
    function learnNames(seats) {  // true when they changed
      const now = {};
      for (const s of seats || []) if (s.name) now[s.seat] = s.name;
      const changed = JSON.stringify(now) !== JSON.stringify(names);
      names = now;
      return changed;
    }
    function sit() {  // this browser's named player takes the seat it opened, once
      if (sat || !me.key || !last || last.seat === null) return;
      sat = true;
      if (names[last.seat] !== me.name) {
        postJSON("/api/tables/" + id + "/sit", { token: token, player: me.key });
      }
    }
    naming(sit);
    function log(events, redraw) {  // redraw: every line again (new names, or a new log)
      const ol = $("#log");
      if (redraw) ol.textContent = "";
      const fresh = events.map((e) => e.text);
      logged = logged.concat(fresh).slice(-300);
      for (const t of redraw ? logged : fresh) ol.append(el("li", {}, withNames(t)));
      while (ol.children.length > 300) ol.firstChild.remove();
      ol.scrollTop = ol.scrollHeight;
    }
    async function drawBoard() {
      const asked = ++boardAsked;
      const res = await fetch("/web/tables/" + id + "/board" + q);
      const fetchedAt = performance.now();
      if (!res.ok) return;
      const data = await res.json();
      if (asked !== boardAsked) return;  // a newer one is coming
      showBoard(data, fetchedAt);
    }
    function showBoard(data, fetchedAt) {  // fetchedAt: when the board reached the page
      const parsedAt = performance.now();
      if (data.version < boardShown) return;  // (an undo takes moves back, never versions)
      boardShown = data.version;
      $("#board").innerHTML = data.board;
      $("#board").classList.toggle("text", !data.drawn);
      $("#scores").innerHTML = data.scores;
      const end = $("#end");
      end.innerHTML = data.end;
      end.hidden = !data.end;
      hideChooser();
      panToTargets();
      refocus();
      body.dataset.moves = String(data.moves);
      body.dataset.version = String(data.version);
      if (window.coveFirstBoard === undefined) window.coveFirstBoard = performance.now();
      if (clickedAt !== null && data.version > clickVersion) {  // click -> board redrawn
        const t0 = clickedAt, t1 = updateAt, swappedAt = performance.now();
        clickedAt = null;
        requestAnimationFrame(() => {
          const now = performance.now();
          window.coveTimings.push(now - t0);
          window.coveParts.push([t1 - t0, fetchedAt - t1, parsedAt - fetchedAt,
                                 swappedAt - parsedAt, now - swappedAt, data.cpu]);
        });
      }
    }
    // A phone shows part of the board, which pans sideways. The pan keeps the drawing's
    // left edge in sight (where the headings, row numbers and the players' names start)
    // and moves right only as far as that allows to bring the nearest legal target into
    // view; when the targets lie further right, a button above the board says so and
    // pans to them when asked (the player's choice to lose the left edge from sight).
    function panToTargets() {
      const box = $("#board"), note = $("#pan-note");
      note.hidden = true;
      if (!window.matchMedia("(max-width: 600px)").matches || box.classList.contains("zoom")) return;
      const view = box.getBoundingClientRect(), width = box.clientWidth;
      const span = (e) => {  // [left, right] in the board's own width
        const r = e.getBoundingClientRect(), left = r.left - view.left + box.scrollLeft;
        return [left, left + r.width];
      };
      const labels = [...box.querySelectorAll("svg text")].filter((t) => t.textContent.trim())
        .map(span).filter(([a, b]) => b > a);
      const most = labels.length ? Math.max(0, Math.min(...labels.map(([a]) => a)) - 4) : 0;
      const targets = [...box.querySelectorAll(".target")].map(span);
      const seen = (left) => targets.some(([a, b]) => a < left + width && b > left);
      if (!targets.length) { box.scrollLeft = 0; return; }  // (the end: back to the start)
      if (seen(box.scrollLeft)) return;  // one is in sight (the player may have panned)
      const nearest = Math.min(...targets.map(([a, b]) => Math.min(b, a + width - 16)));
      box.scrollLeft = Math.min(most, Math.max(0, nearest - width + 8));
      note.hidden = seen(box.scrollLeft);
      note.onclick = () => {
        box.scrollLeft = Math.max(0, nearest - width + 8);
        note.hidden = true;
        const first = box.querySelector(".target");
        if (first && lastInput === "key") first.focus({ preventScroll: true });
      };
    }
    function send(text) {
      if (!last || !ws || ws.readyState !== WebSocket.OPEN) {
        showError("Not connected to the table yet; try again in a moment.");
        return;
      }
      showError("");
      hideChooser();
      if (marked) mark(false);  // you acted
      clickedAt = performance.now();
      clickVersion = last.version;
      ws.send(JSON.stringify({ type: "action", action: text, expect: last.moves }));
    }
    function undo() {  // take back my last move: the server says whether it may (can_undo)
      if (!last || !last.can_undo || !ws || ws.readyState !== WebSocket.OPEN) return;
      if (lastInput === "key") keysZone = "board";  // the button goes: the keys go on there
      showError("");
      hideChooser();
      ws.send(JSON.stringify({ type: "undo", expect: last.moves }));
    }
    if ($("#undo")) $("#undo").addEventListener("click", undo);
    // Hint: what the terminal's hint plays (the server's search bot, from this seat's
    // information), marked in the move list and on the board, and said in the live region.
    async function hint() {
      const button = $("#hint");
      if (!last || !last.legal.length || !button || button.disabled) return;
      const asked = last.version;
      button.disabled = true;
      button.textContent = "Thinking…";
      let data = null, res = null;
      try {
        res = await fetch("/api/tables/" + id + "/hint" + q);
        data = await res.json();
      } catch (e) {
        data = { reason: "The server did not answer." };
      }
      button.disabled = false;
      button.textContent = "Hint";
      if (!last || last.version !== asked) return;  // the table moved on meanwhile
      if (!res || !res.ok) { showError(data.reason || "No hint now."); return; }
      showHint(data.hint);
    }
    function showHint(text) {
      const p = $("#hint-text");
      for (const e of document.querySelectorAll(".hinted")) e.classList.remove("hinted");
      p.hidden = text === null;
      if (text === null) return;
      p.textContent = "Hint: " + text;
      for (const b of document.querySelectorAll("#moves button.move")) {
        if (b.dataset.move === text) b.classList.add("hinted");
      }
      for (const t of document.querySelectorAll("#board .target")) {
        if (movesOf(t).includes(text)) t.classList.add("hinted");
      }
      $("#announce").append(el("p", { "data-hint": text }, "Hint: " + text + "."));
    }
    if ($("#hint")) $("#hint").addEventListener("click", hint);
    function hideChooser(back) {  // back: the focus returns to the target that opened it
      const c = $("#chooser");
      c.hidden = true;
      c.textContent = "";
      if (back === true && chooserFrom && chooserFrom.isConnected) chooserFrom.focus();
      chooserFrom = null;
    }
    function place(c, anchor) {  // the chooser just under (or over) the place clicked
      const card = $("#board-card").getBoundingClientRect(), r = anchor.getBoundingClientRect();
      const width = c.offsetWidth, height = c.offsetHeight;
      const left = Math.max(4, Math.min(r.left - card.left, card.width - width - 4));
      const below = r.bottom - card.top + 4, above = r.top - card.top - height - 4;
      const fits = r.bottom + height + 4 <= window.innerHeight || above < 0;
      c.style.left = left + "px";
      c.style.top = (fits ? below : above) + "px";
    }
    function choose(texts, anchor) {
      const c = $("#chooser");
      c.textContent = "";
      c.append(el("p", {}, "Which move?"));
      for (const t of texts) {
        const b = el("button", { type: "button", class: "move" }, t);
        b.dataset.move = t;
        c.append(b);
      }
      const x = el("button", { type: "button", class: "cancel" }, "Cancel");
      x.addEventListener("click", () => hideChooser(true));
      c.append(x);
      c.hidden = false;
      place(c, anchor);
      chooserFrom = anchor;
      c.querySelector("button").focus({ preventScroll: true });  // the page stays where it was
      c.scrollIntoView({ block: "nearest" });  // unless the chooser would be out of sight
    }
    function movesOf(t) {  // the legal move texts a board target means
      try { return JSON.parse(t.getAttribute("data-moves") || "[]"); } catch (e) { return []; }
    }
    function targetClicked(t) {
      const texts = movesOf(t);
      if (watching) return;
      if (!texts.length) {
        showError(last && last.legal.length ? "Nothing to do there now; the highlighted places and the list show your moves."
                                            : "It is not your turn.");
        return;
      }
      if (texts.length === 1) send(texts[0]); else choose(texts, t);
    }
    document.addEventListener("click", (ev) => {
      const move = ev.target.closest("button.move");
      if (move) { send(move.dataset.move); return; }
      const t = ev.target.closest("#board .target");
      if (t) targetClicked(t);
    });
    const typing = (e) => e && e.closest && e.closest("input, textarea, select, [contenteditable]");
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !$("#chooser").hidden) hideChooser(true);
      if ((ev.key === "u" || ev.key === "U") && !ev.ctrlKey && !ev.metaKey && !ev.altKey
          && !typing(ev.target) && last && last.can_undo) { ev.preventDefault(); undo(); return; }
      if ((ev.key === "h" || ev.key === "H") && !ev.ctrlKey && !ev.metaKey && !ev.altKey
          && !typing(ev.target) && $("#hint") && !$("#hint").hidden) { ev.preventDefault(); hint(); return; }
      if (ev.key !== "Enter" && ev.key !== " ") return;
      const t = ev.target.closest && ev.target.closest("#board .target");
      if (t) { ev.preventDefault(); targetClicked(t); }
    });
    const zoom = $("#zoom");  // fit the whole board on the screen, or use the full width
    const phone = window.matchMedia("(max-width: 600px)");  // cove.css: readable, panned
    const zoomed = (on) => {
      $("#board").classList.toggle("zoom", on);
      zoom.setAttribute("aria-pressed", String(on));
      zoom.textContent = phone.matches ? (on ? "Readable size (pan sideways)" : "Show the whole board")
                                       : (on ? "Fit the board to the screen" : "Zoom the board to the full width");
    };
    phone.addEventListener("change", () => zoomed($("#board").classList.contains("zoom")));
    zoomed(store.get("cove.zoom") === "1");
    zoom.addEventListener("click", () => {
      const on = !$("#board").classList.contains("zoom");
      store.set("cove.zoom", on ? "1" : "0");
      zoomed(on);
    });
    const typed = $("#typed");
    if (typed) {
      typed.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const input = $("#typed-move");
        if (input.value.trim()) send(input.value.trim());
        input.value = "";
      });
    }

    // replay of a finished game, step by step from its full record
    let replayReady = false, replayAsked = 0;
    function replayOpen(m) {
      if (replayReady) return;
      replayReady = true;
      const box = $("#replay"), slider = $("#step"), as = $("#replay-as");
      slider.max = String(m.moves);
      slider.value = String(m.moves);
      as.append(el("option", { value: "" }, "a spectator"));
      for (let s = 0; s < m.players; s++) as.append(el("option", { value: String(s) }, label(s)));
      if (m.seat !== null) as.value = String(m.seat);
      const show = async () => {
        const asked = ++replayAsked;
        const who = as.value === "" ? "" : "&as=" + as.value;
        const res = await fetch("/web/tables/" + id + "/replay?step=" + slider.value + who);
        const data = await res.json();
        if (asked !== replayAsked) return;
        if (!res.ok) { $("#replay-move").textContent = data.reason; return; }
        $("#step-label").textContent = data.step + " / " + data.total;
        $("#replay-move").textContent = data.move + ". " + data.prompt;
        $("#replay-board").innerHTML = data.board;
        $("#replay-board").classList.toggle("text", !data.drawn);
        box.dataset.step = String(data.step);
      };
      slider.addEventListener("input", show);
      as.addEventListener("change", show);
      box.hidden = false;
      show();
    }
    connect();
    setInterval(() => { if (ws && ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 25000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (document.body.dataset.page === "lobby") lobby();
    if (document.body.dataset.page === "table") table();
  });
})();
