// Stepping back through a live game's moves (docs/WEB.md, "History"): the board after an
// earlier move as this seat saw it (GET /web/tables/{id}/replay?step=k with the seat's
// token), shown in place of the live board, which goes on updating out of sight; moves
// made meanwhile are counted, not shown, until "Back to live".
"use strict";

(function () {
  document.addEventListener("DOMContentLoaded", () => {
    const t = window.coveTable, box = document.querySelector("#history");
    if (!t || !box) return;
    const { $ } = window.coveDom;  // (dom.js)
    const prev = $("#history-prev"), next = $("#history-next"), live = $("#history-live");
    const line = $("#history-state"), moveLine = $("#history-move"), board = $("#history-board");
    const auth = t.token ? "&token=" + encodeURIComponent(t.token) : "";
    const LIVE = "Live. Keys [ and ] step through the moves so far, as " +
                 (t.watching ? "spectators" : "your seat") + " saw them.";
    let at = null, since = 0, asked = 0;  // at: the move viewed (null: live)
    const total = () => { const m = t.last(); return m ? m.moves : 0; };
    function describe() {
      const n = total(), stepping = at !== null;
      prev.disabled = (stepping ? at : n) <= 0;
      next.disabled = !stepping;
      live.hidden = !stepping;
      board.hidden = !stepping;
      document.body.classList.toggle("stepping", stepping);
      line.classList.toggle("stepping", stepping);
      if (!stepping) {
        line.textContent = LIVE;
        moveLine.hidden = true;
        return;
      }
      const fresh = Math.max(0, n - since), m = t.last();
      line.textContent = "Viewing move " + at + " of " + n + " — not live." +
        (fresh ? " " + fresh + (fresh === 1 ? " new move" : " new moves") + " since you stepped back." : "") +
        (m && m.legal.length ? " It is your turn: back to live (L) to play." : "");
    }
    async function show(k) {
      const n = total();
      if (k >= n) { toLive(); return; }
      if (at === null) since = n;
      at = Math.max(0, k);
      describe();
      const mine = ++asked;
      let res, data;
      try {
        res = await fetch("/web/tables/" + t.id + "/replay?step=" + at + auth);
        data = await res.json();
      } catch (e) {
        data = { reason: "The server did not answer." };
      }
      if (mine !== asked) return;  // stepped on (or back to live) meanwhile
      moveLine.hidden = false;
      if (!res || !res.ok) { moveLine.textContent = data.reason; return; }
      board.innerHTML = data.board;
      board.classList.toggle("text", !data.drawn);
      board.dataset.step = String(data.step);
      board.setAttribute("aria-label", "The board at move " + data.step + " of " + data.total);
      moveLine.textContent = data.move + ".";
      t.say("Viewing move " + data.step + " of " + total() + ", not live. " + data.move + ".");
    }
    function toLive() {
      if (at === null) return;
      const inside = box.contains(document.activeElement) || document.activeElement === document.body;
      at = null;
      asked++;
      describe();
      if (inside) prev.focus();  // the button pressed is hidden or disabled now
      t.say("Back to live: move " + total() + ".");
    }
    const back = () => show((at === null ? total() : at) - 1);
    const on = () => { if (at !== null) show(at + 1); };
    prev.addEventListener("click", back);
    next.addEventListener("click", on);
    live.addEventListener("click", toLive);
    const typing = (e) => e && e.closest && e.closest("input, textarea, select, [contenteditable]");
    document.addEventListener("keydown", (ev) => {
      if (box.hidden || ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
      if (ev.key === "[") { ev.preventDefault(); if (!prev.disabled) back(); }
      else if (ev.key === "]") { ev.preventDefault(); on(); }
      else if ((ev.key === "l" || ev.key === "L") && at !== null) { ev.preventDefault(); toLive(); }
    });
    function follow(m) {  // every state and update: the count of moves, the end
      box.hidden = Boolean(m.over || m.closed);
      if (at !== null && (box.hidden || at >= m.moves)) toLive();  // the end, or an undo
      describe();
    }
    t.on("state", follow);
    t.on("update", follow);
  });
})();
