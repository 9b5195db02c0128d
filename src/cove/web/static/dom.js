// What every page's scripts share (loaded first, by every page): finding an element, making
// one with its attributes and text, and this browser's storage, which may be refused (a
// private window) without stopping the page.
"use strict";

window.coveDom = Object.freeze({
  $: (sel, root) => (root || document).querySelector(sel),
  el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  },
  store: Object.freeze({
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
    remove(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  }),
});
