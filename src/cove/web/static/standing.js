// The lobby's "My games": the tables of this browser's named player (GET
// /api/players/me/tables with the personal key cove.js keeps), those waiting for them
// first. Plain script, no build step; asked again every few seconds while the page shows.
"use strict";

(function () {
  const { $, el, store } = window.coveDom;  // (dom.js)
  const key = () => store.get("cove.player.key");
  const POLL_MS = 5000;
  let shown = "", hookReady = false;

  function seatText(s) {
    const who = s.kind === "bot" ? "bot " + s.bot : (s.name || "someone");
    return who + " (P" + (s.seat + 1) + ")";
  }

  function outcome(t) {  // "you won", "Bea (P2) won", "you and Bea (P2) shared the win"
    const name = (p) => p === t.seat ? "you" : seatText(t.seats[p]);
    const won = t.winners.map(name);
    const said = !won.length ? "no one won" : won.join(" and ") + (won.length > 1 ? " shared the win" : " won");
    return said + ", scores " + t.scores.map((x, p) => (p === t.seat ? "you" : "P" + (p + 1)) + " " + x).join(", ");
  }

  function row(t) {
    const li = el("li", { "data-table": t.id });
    li.append(el("a", { href: t.link }, t.game_name));
    li.append(" ");
    if (t.your_turn) {
      li.classList.add("your-turn");
      li.append(el("strong", { class: "turn" }, "Your turn"));
    } else if (t.over) {
      li.append(el("span", { class: "muted" }, "Finished" + (t.winners ? ": " + outcome(t) : "")));
    } else {
      const waiting = t.seats.filter((s) => t.to_move.includes(s.seat)).map(seatText);
      li.append(el("span", { class: "muted" }, "Waiting for " + (waiting.join(", ") || "the table")));
    }
    const others = t.seats.filter((s) => s.seat !== t.seat).map(seatText).join(", ");
    const detail = (t.rated ? "rated, " : "") + "move " + t.moves + (others ? ", with " + others : "");
    li.append(el("span", { class: "muted small" }, " · " + detail));
    return li;
  }

  async function refresh() {
    const k = key(), box = $("#my-games");
    if (!box || !k || document.hidden) return;
    box.hidden = false;
    if (!hookReady) { hookReady = true; webhook(); }
    const error = $("#my-games-error");
    let res, data;
    try {
      res = await fetch("/api/players/me/tables", { headers: { Authorization: "Bearer " + k } });
      data = await res.json();
    } catch (e) {
      return;  // the server is away: try again at the next tick
    }
    if (!res.ok) {
      error.textContent = data.reason || "Your games could not be listed.";
      error.hidden = false;
      return;
    }
    error.hidden = true;
    const text = JSON.stringify(data.tables.map((t) => [t.id, t.your_turn, t.over, t.moves, t.seats]));
    if (text === shown) return;  // unchanged: nothing to announce again
    shown = text;
    const list = $("#my-games-list");
    list.textContent = "";
    if (!data.tables.length) {
      list.append(el("p", { class: "muted" }, "No games yet: a table you sit at by name shows here."));
      return;
    }
    const ul = el("ul", { class: "tables my-games" });
    for (const t of data.tables) ul.append(row(t));
    list.append(ul);
  }

  async function webhook() {  // the "your turn" webhook: shown, and saved
    const k = key(), form = $("#hook-form");
    if (!k || !form) return;
    const auth = { Authorization: "Bearer " + k };
    try {
      const res = await fetch("/api/players/me/webhook", { headers: auth });
      if (res.ok) $("#hook-url").value = (await res.json()).url || "";
    } catch (e) { /* the server is away: the field stays empty */ }
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const status = $("#hook-status"), url = $("#hook-url").value.trim();
      let res, data;
      try {
        res = await fetch("/api/players/me/webhook", {
          method: "PUT", body: JSON.stringify({ url: url || null }),
          headers: { ...auth, "Content-Type": "application/json" } });
        data = await res.json();
      } catch (e) {
        status.textContent = "The server did not answer: " + e;
        return;
      }
      status.classList.toggle("bad", !res.ok);
      status.textContent = !res.ok ? (data.reason || "The webhook could not be saved.")
        : data.url ? "Saved: your turns are posted to that webhook." : "Removed: no more posts.";
    });
  }

  async function markMine() {  // the leaderboard: this browser's player's own row, said
    const k = key(), game = document.body.dataset.game;
    if (!k || !game) return;
    let data;
    try {
      const res = await fetch("/api/games/" + encodeURIComponent(game) + "/leaderboard",
                              { headers: { Authorization: "Bearer " + k } });
      if (!res.ok) return;
      data = await res.json();
    } catch (e) { return; }
    const mine = data.entries.find((e) => e.you);
    if (!mine) return;
    for (const tr of document.querySelectorAll("table.leaderboard tbody tr")) {
      if (tr.dataset.rank !== String(mine.rank)) continue;
      tr.classList.add("you");
      tr.querySelector("th").append(" ", el("span", { class: "tag" }, "you"));
    }
  }

  if (document.body.dataset.page === "leaderboard") markMine();
  if (document.body.dataset.page === "lobby") {
    refresh();
    setInterval(refresh, POLL_MS);
    document.addEventListener("visibilitychange", refresh);
  }
})();
