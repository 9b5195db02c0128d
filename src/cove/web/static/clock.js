// Clocks on the table page (each seat's time, counting down for the seats to move), who is
// away, the choices offered when a seat runs out of time, "Take my seat back", and the
// optional browser notification of your turn; and the clock fields of the lobby's form.
// cove.js hands every websocket message to coveClock.message (docs/WEB.md, "Clocks").
"use strict";

window.coveClock = (function () {
  const { $, el, store } = window.coveDom;  // (dom.js)
  const PRESETS = {
    realtime: { mode: "realtime", allowance: 600, per_move: 20 },
    "turn-based": { mode: "turn-based", allowance: 3 * 86400, per_move: 86400 },
  };
  // the times said in the live region as a running clock passes them (seconds)
  const THRESHOLDS = { realtime: [60, 10, 0], "turn-based": [86400, 3600, 0] };

  // ---- the lobby: none / real-time 10 min + 20 s / turn-based 3 days + 1 day / custom ----
  const clockSel = $("#clock");
  if (clockSel) {
    clockSel.addEventListener("change", () => { $("#clock-custom").hidden = clockSel.value !== "custom"; });
  }
  function formValue() {  // the new table's "clock" (null: none); the server checks it
    if (!clockSel || clockSel.value === "none") return null;
    if (PRESETS[clockSel.value]) return PRESETS[clockSel.value];
    const num = (id) => Number($(id).value) * Number($(id + "-unit").value);
    return { mode: $("#clock-mode").value, allowance: num("#clock-allowance"),
             per_move: num("#clock-per-move") };
  }

  // ---- the table page ----
  const id = document.body.dataset.table;
  const token = () => new URL(location.href).searchParams.get("token");
  let last = null, at = 0, timer = null, offered = null, said = new Set(), mine = false;

  function shown(sec, mode) {  // as the server's cove.serve.clock.display
    const s = Math.max(0, Math.ceil(sec - 0.001));
    const pad = (n) => String(n).padStart(2, "0");
    if (mode === "realtime") {
      const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
      return h ? h + ":" + pad(m) + ":" + pad(s % 60) : m + ":" + pad(s % 60);
    }
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    return d ? d + " d " + h + " h" : h ? h + " h " + m + " min" : m + " min " + (s % 60) + " s";
  }
  function spoken(sec, mode) {  // for the live region: words, not a clock face
    if (sec <= 0) return "no time";
    if (mode === "realtime") return sec >= 60 ? "one minute" : Math.round(sec) + " seconds";
    return sec >= 86400 ? "one day" : "one hour";
  }
  function label(s) {
    const seat = last && last.seats[s];
    return seat && seat.name ? seat.name + " (P" + (s + 1) + ")" : "P" + (s + 1);
  }
  function announce(text) {
    const box = $("#announce");
    if (box) box.append(el("p", { class: "clock-said" }, text));
  }
  function left(c) {
    return Math.max(0, c.remaining - (c.running ? (performance.now() - at) / 1000 : 0));
  }
  function clockOf(s) {
    return last.clock.seats.find((c) => c.seat === s);
  }
  function botFor(s) {
    return (last.bots_for || []).find((b) => b.seat === s);
  }

  function message(m) {
    if (m.type === "presence") {
      if (last && last.clock) {
        const before = new Set(last.away || []);
        for (const s of m.away) if (!before.has(s)) announce(label(s) + " is away");
        for (const s of before) if (!m.away.includes(s)) announce(label(s) + " is back");
        last.away = m.away;
        render();
      }
      return;
    }
    if (m.type !== "state" && m.type !== "update") return;
    notify(m);
    const prev = last;
    last = m;
    if (prev && prev.id === m.id) takeovers(prev, m);
    at = performance.now();
    const card = $("#clocks-card");
    if (!card) return;
    card.hidden = !m.clock;
    if (!m.clock) return;
    render();
    if (!timer) timer = setInterval(tick, 1000);
  }

  function render() {
    const ul = $("#clocks");
    ul.textContent = "";
    const away = new Set(last.away || []);
    last.seats.forEach((seat, s) => {
      const li = el("li", { "data-seat": String(s) });
      li.append(el("span", { class: "clock-who" }, label(s) + (s === last.seat ? " (you)" : "")));
      const c = clockOf(s);
      if (c) li.append(" ", el("span", { class: "clock-time" }, shown(left(c), last.clock.mode)));
      const notes = [];
      if (seat.kind === "bot") notes.push("bot, no clock");
      if (c && c.running) notes.push("to move");
      if (away.has(s)) notes.push("away");
      const bot = botFor(s);
      if (bot) notes.push("bot playing for " + label(s));
      for (const n of notes) li.append(" ", el("span", { class: "clock-note" + (n === "away" ? " away" : "") }, n));
      li.classList.toggle("running", Boolean(c && c.running));
      ul.append(li);
    });
    offers();
    reclaimButton();
  }

  function tick() {
    if (!last || !last.clock) return;
    const mode = last.clock.mode;
    for (const c of last.clock.seats) {
      if (!c.running) continue;
      const now = left(c);
      const span = $('#clocks li[data-seat="' + c.seat + '"] .clock-time');
      if (span) span.textContent = shown(now, mode);
      for (const t of THRESHOLDS[mode]) {
        const key = last.version + ":" + c.seat + ":" + t;
        if (now <= t && c.remaining > t && !said.has(key)) {
          said.add(key);
          const who = c.seat === last.seat ? "You have " : label(c.seat) + " has ";
          announce(t === 0 ? (c.seat === last.seat ? "You are" : label(c.seat) + " is") + " out of time"
                   : who + spoken(t, mode) + " left");
        }
      }
    }
    offers();
  }

  // a seat out of time: the other seated players may let a bot decide for it (never by itself)
  function offers() {
    const box = $("#timeout-choices");
    if (!box) return;
    const out = last.seat === null || last.over || last.closed ? [] : last.clock.seats
      .filter((c) => c.seat !== last.seat && c.running && left(c) <= 0).map((c) => c.seat);
    const key = last.version + ":" + out.join(",");
    if (key === offered) return;  // unchanged: keep the buttons (and the focus on them)
    offered = key;
    box.textContent = "";
    box.hidden = !out.length;
    for (const s of out) {
      const group = el("div", { class: "row", role: "group", "aria-label": label(s) + " is out of time" });
      group.append(el("p", {}, label(s) + " is out of time. You may:"));
      const once = el("button", { type: "button", "data-choice": "decision" }, "Let a bot play this decision for " + label(s));
      const game = el("button", { type: "button", "data-choice": "game" }, "Hand " + label(s) + "'s seat to a bot for the rest of the game");
      for (const b of [once, game]) b.addEventListener("click", () => choose(s, b.dataset.choice));
      group.append(once, game);
      box.append(group);
    }
  }
  async function post(what, body) {
    const err = $("#clock-error");
    err.hidden = true;
    try {
      const res = await fetch("/api/tables/" + id + "/" + what, {
        method: "POST", body: JSON.stringify({ token: token(), ...body }),
        headers: { "Content-Type": "application/json" } });
      if (res.ok) return true;
      err.textContent = "⚠ " + ((await res.json()).reason || "refused");
    } catch (e) {
      err.textContent = "⚠ The server did not answer: " + e;
    }
    err.hidden = false;
    return false;
  }
  function choose(seat, choice) {  // the update that follows says it (takeovers)
    post("timeout", { seat: seat, choice: choice });
  }
  // bots taking seats over and seats taken back, said to everyone at the table
  function takeovers(prev, m) {
    const before = new Map((prev.bots_for || []).map((b) => [b.seat, b.until]));
    const now = new Map((m.bots_for || []).map((b) => [b.seat, b.until]));
    const you = (s) => s === m.seat;
    for (const [s, until] of now) {
      if (before.has(s)) continue;
      announce(until === "game"
        ? "A bot plays " + (you(s) ? "your seat" : label(s)) + " for the rest of the game"
        : "A bot plays this decision for " + (you(s) ? "you" : label(s)));
    }
    for (const [s, until] of before) {
      if (until !== "game" || now.get(s) === "game") continue;
      announce(you(s) ? "You take your seat back from your next decision"
               : label(s) + " takes their seat back");
    }
  }
  function reclaimButton() {
    const b = $("#reclaim");
    if (!b) return;
    const bot = last.seat === null ? null : botFor(last.seat);
    b.hidden = !bot || bot.until !== "game";
    const note = $("#reclaim-note");
    note.hidden = !bot || bot.until === "game";
    note.textContent = !bot ? "" : bot.until === "finishing"
      ? "A bot finishes this decision for you; the seat is yours from the next."
      : "A bot plays this decision for you; the seat is yours from the next.";
  }
  const reclaim = $("#reclaim");
  if (reclaim) {
    reclaim.addEventListener("click", () => post("reclaim", {}));  // the update says it
  }

  // ---- "your turn" as a browser notification: asked for only when "Notify me" is ticked ----
  const box = $("#notify");
  const can = typeof window.Notification === "function";
  if (box) {
    box.checked = can && store.get("cove.notify") === "1" && Notification.permission === "granted";
    box.addEventListener("change", async () => {
      const note = $("#notify-note");
      note.textContent = "";
      if (!box.checked) { store.set("cove.notify", "0"); return; }
      if (!can) { box.checked = false; note.textContent = "This browser cannot show notifications."; return; }
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        box.checked = false;
        note.textContent = "Notifications are blocked for this site: the title and the tab's icon still show your turn.";
        return;
      }
      store.set("cove.notify", "1");
      note.textContent = "You will be notified of your turn while this tab is not in view.";
    });
  }
  function notify(m) {
    const now = m.legal.length > 0 && !m.over;
    const was = mine;
    mine = now;
    if (!now || was || !document.hidden || !box || !box.checked || !can
        || Notification.permission !== "granted") return;
    const game = ($("h1") || {}).textContent || "Cove";
    try {
      new Notification("Your turn: " + game, { body: (m.decision && m.decision.prompt) || "", tag: "cove-" + id });
    } catch (e) { /* a browser that only notifies from a service worker: the title says it */ }
  }

  return { message: message, formValue: formValue, shown: shown };
})();
