// The table's chat (docs/WEB.md, "Chat"): the messages so far from
// GET /api/tables/{id}/chat, new ones from the table's websocket ({"type": "chat"}),
// sent with POST. Every text goes in as text (textContent), never as markup.
"use strict";

(function () {
  document.addEventListener("DOMContentLoaded", () => {
    const t = window.coveTable, list = document.querySelector("#chat");
    if (!t || !list) return;
    const form = document.querySelector("#chat-form"), input = document.querySelector("#chat-text");
    const note = document.querySelector("#chat-note"), error = document.querySelector("#chat-error");
    const auth = t.token ? "&token=" + encodeURIComponent(t.token) : "";
    let next = 0, loaded = false, asking = null;
    const mySeat = () => { const m = t.last(); return m ? m.seat : null; };
    function who(m) {
      if (m.seat === null) return m.name ? m.name + " (watching)" : "A spectator";
      return t.label(m.seat) + (m.seat === mySeat() ? " (you)" : "");
    }
    function add(m, say) {  // false: shown before
      if (m.n < next) return false;
      next = m.n + 1;
      const li = document.createElement("li"), name = document.createElement("strong");
      li.dataset.n = String(m.n);
      name.textContent = who(m) + ": ";
      li.append(name, document.createTextNode(m.text));
      list.append(li);
      while (list.children.length > 300) list.firstChild.remove();
      list.scrollTop = list.scrollHeight;
      const mine = m.seat !== null && m.seat === mySeat();
      if (say && !mine) t.say(who(m) + " says: " + m.text);
      return true;
    }
    async function load() {  // the messages not shown yet (all of them at first)
      if (asking) return asking;
      asking = (async () => {
        try {
          const res = await fetch("/api/tables/" + t.id + "/chat?since=" + next + auth);
          if (!res.ok) return;
          const data = await res.json();
          for (const m of data.messages) add(m, loaded);
          form.hidden = !data.can_write;
          note.textContent = data.can_write
            ? (t.watching ? "Spectators may write at this table. " : "") + "Enter sends (at most 500 characters)."
            : "Spectators read the chat; the seated players write.";
          if (!data.messages.length && !list.children.length) note.textContent = "No messages yet. " + note.textContent;
          loaded = true;
        } catch (e) {
          /* the server is away: the next state message asks again */
        } finally {
          asking = null;
        }
      })();
      return asking;
    }
    t.on("state", load);  // each connection (a reconnect too) starts with one
    t.on("chat", (msg) => {
      const m = msg.message;  // a gap (or the first load under way): the rest first
      if (m.n > next || asking) load().then(() => add(m, true)); else add(m, true);
    });
    form.addEventListener("submit", async (ev) => {  // Enter in the box submits the form
      ev.preventDefault();
      const text = input.value;
      error.hidden = true;
      if (!text.trim()) return;
      input.value = "";  // at once: what is typed while it is sent is the next message
      const body = { text: text };
      if (t.token) body.token = t.token; else if (t.player()) body.player = t.player();
      const got = await t.post("/api/tables/" + t.id + "/chat", body);
      if (!got.ok) {
        error.textContent = got.data.reason || "The message was not sent.";
        error.hidden = false;
        if (!input.value) input.value = text;  // to mend and send again
        return;
      }
      if (got.data.n > next || asking) load().then(() => add(got.data, false));
      else add(got.data, false);
    });
  });
})();
