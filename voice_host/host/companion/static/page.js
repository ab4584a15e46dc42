// What the two companion pages share (loaded before companion.js on a seat's page and before
// table.js on the television): the page's words from the host, building nodes with
// textContent only (never HTML from data), and the WebSocket connection that replays what the
// page missed and comes back after a drop. Exposed as window.voiceHostPage.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  let STR = {};

  // ------------------------------------------------------------------ words

  function t(key, params) {
    let text = STR[key];
    if (typeof text !== "string") text = key;
    const all = Object.assign({}, params || {});
    if (all.name !== undefined) {
      // French "de" before a name: "d'Ada", "de Ben"
      all.de_name = (/^[aeiouyhàâäéèêëîïôöûü]/i.test(String(all.name)) ? "d'" : "de ") +
        all.name;
    }
    for (const [name, value] of Object.entries(all)) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function tn(key, n, params) {
    return t(key + (n === 1 ? "_one" : "_many"), Object.assign({ n: n }, params || {}));
  }

  function names(list) {
    const items = (list || []).slice();
    if (items.length === 0) return t("words.nobody");
    if (items.length === 1) return items[0];
    return items.slice(0, -1).join(", ") + " " + t("words.and") + " " + items[items.length - 1];
  }

  async function loadStrings(titleKey) {
    // the page's words in the game's language (/api/strings), put into every [data-t] node
    try {
      const response = await fetch("/api/strings");
      STR = (await response.json()).strings || {};
    } catch (e) {
      STR = {};
    }
    document.documentElement.lang = STR.lang_code || "en";
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
    for (const node of document.querySelectorAll("[data-t-label]")) {
      node.setAttribute("aria-label", t(node.dataset.tLabel));
    }
    document.title = t(titleKey);
  }

  function lang() {
    return STR.lang_code || "en";
  }

  // ------------------------------------------------------------------ building nodes

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.setAttribute("class", value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  function append(node, children) {
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) append(node, child);
      else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }

  // ------------------------------------------------------------------ the connection

  // connect(state, first, how): opens /ws and sends `first` (who this page is) with the last
  // event it saw (state.lastSeq), so the host replays only what it missed. Each message goes
  // to how.receive. After a drop it says so (how.lost) and tries again after
  // how.stepMs * tries (tries capped at how.maxTries); after the host closed the table
  // (state.closedByHost) it tries again only when how.afterClose is true.
  function connect(state, first, how) {
    state.stopped = false;
    state.first = first;
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + window.location.host + "/ws");
    state.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(Object.assign({ since: state.lastSeq }, first)));
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      how.receive(message);
    };
    ws.onclose = () => {
      if (state.ws !== ws || state.stopped) return;
      if (!state.closedByHost) how.lost();
      if (state.closedByHost && !how.afterClose) return;
      state.retry = Math.min(state.retry + 1, how.maxTries);
      window.setTimeout(() => {
        if (!state.stopped) connect(state, state.first, how);
      }, how.stepMs * state.retry);
    };
  }

  window.voiceHostPage = {
    t: t, tn: tn, names: names, loadStrings: loadStrings, lang: lang,
    el: el, svg: svg, connect: connect,
  };
})();
