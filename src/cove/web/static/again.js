// After the game (docs/WEB.md, "Play again"): "Play again" starts a new table of the same
// game, options and seats (POST /api/tables/{id}/again with this seat's token) and opens
// this seat there; the other seats are told ({"type": "again"}) and their button says
// "Join". "Download record" saves the game's full record as JSON.
"use strict";

(function () {
  document.addEventListener("DOMContentLoaded", () => {
    const t = window.coveTable, box = document.querySelector("#after");
    if (!t || !box) return;
    const { $, store } = window.coveDom;  // (dom.js)
    const button = $("#again"), note = $("#again-note"), error = $("#again-error");
    const record = $("#record");
    let shown = false, next = null;  // next: the new game's id, once someone started it
    const kept = (tid) => store.get("cove.token." + tid);
    const keep = (tid, tok) => store.set("cove.token." + tid, tok);
    function started(data, say) {  // someone started the new game
      next = data.table;
      const mine = t.last() && data.by === t.last().seat;
      note.textContent = "";
      if (t.watching) {
        note.append((mine ? "" : data.name + " started a new game: "));
        const a = document.createElement("a");
        a.href = "/web/tables/" + next + "/watch";
        a.textContent = "watch it";
        note.append(a);
      } else {
        note.textContent = mine ? "You started a new game." : data.name + " started a new game with the same seats: join it with the button.";
        button.textContent = "Join the new game";
      }
      note.hidden = false;
      if (say && !mine) t.say(data.name + " started a new game with the same seats." + (t.watching ? "" : " Join the new game with the button under the end screen."));
    }
    async function open() {  // shown once the game is over
      if (shown) return;
      shown = true;
      record.href = "/api/tables/" + t.id + "/record" + (t.token ? "?token=" + encodeURIComponent(t.token) : "");
      record.setAttribute("download", "cove-" + document.body.dataset.game + "-" + t.id + ".json");
      button.hidden = t.watching;
      box.hidden = false;
      try {
        const res = await fetch("/api/tables/" + t.id + "/again");
        const data = await res.json();
        if (res.ok && data.table && !next) started(data, false);
      } catch (e) { /* the websocket tells when someone starts one */ }
    }
    button.addEventListener("click", async () => {
      error.hidden = true;
      const have = next && kept(next);
      if (have) { location.href = "/web/tables/" + next + "?token=" + encodeURIComponent(have); return; }
      button.disabled = true;
      const got = await t.post("/api/tables/" + t.id + "/again", { token: t.token });
      button.disabled = false;
      if (!got.ok) {
        error.textContent = got.data.reason || "The new game could not be started.";
        error.hidden = false;
        return;
      }
      keep(got.data.id, got.data.token);
      location.href = got.data.link;
    });
    const follow = (m) => { if (m.over) open(); };
    t.on("state", follow);
    t.on("update", follow);
    t.on("again", (m) => { open(); started(m, true); });
  });
})();
