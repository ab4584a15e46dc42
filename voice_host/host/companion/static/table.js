// The table view on a television (table.html): a full-screen board that a group reads from
// the sofa. It shows only what everyone may see: the join panel while seats are open (the
// room code and its QR code only on the host's own screen, opened with the table token in the
// URL's fragment, #tv=...), the game's board (each game's /board.js), the end screen, and the
// last thing the host said. Everything is built with textContent (never HTML from data); the
// words come from the host (/api/strings), in the game's language; what the two pages share
// (words, nodes, the connection) is in page.js.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const { t, tn, names, el, svg, loadStrings } = window.voiceHostPage;

  const state = {
    hello: null, // {room, game, lang, players, extras, seats, locked, everyone, join?}
    view: null,
    board: {},
    game: null,
    seats: [],
    locked: false,
    everyone: true,
    lastSeq: 0,
    ws: null,
    first: null,
    stopped: false,
    closedByHost: false,
    retry: 0,
    countdown: null,
    recap: null, // the host's recap lines at the end, when it sends them
  };
  // Exposed for the browser tests: what arrived, in order.
  window.companion = { received: [], state: state };

  // ------------------------------------------------------------------ fitting text

  function fit(node, largest, smallest) {
    // the largest font size (px) at which node's text fits its box, not below smallest
    let size = largest;
    node.style.fontSize = size + "px";
    while (size > smallest && (node.scrollWidth > node.clientWidth + 1 ||
        node.scrollHeight > node.clientHeight + 1)) {
      size -= 2;
      node.style.fontSize = Math.max(size, smallest) + "px";
    }
  }

  function fitAll() {
    for (const node of document.querySelectorAll("[data-fit]")) {
      const [largest, smallest] = node.dataset.fit.split(",").map(Number);
      fit(node, Math.round(largest * window.innerHeight / 1080), smallest);
    }
    if (!$("end").hidden) fitEnd();
  }

  function fitEnd() {
    // a long recap: its lines get smaller, then the oldest give way, until the end screen
    // fits the television without scrolling
    const box = $("end");
    const items = [...box.querySelectorAll(".moments li")];
    const over = () => box.scrollHeight > box.clientHeight + 1;
    let size = Math.round(2.4 * window.innerHeight / 100);
    for (const li of items) li.style.fontSize = "";
    while (over() && size > 18) {
      size -= 1;
      for (const li of items) li.style.fontSize = size + "px";
    }
    while (over() && items.length > 1) items.shift().remove();
  }

  // ------------------------------------------------------------------ connection

  function readFragment() {
    const hash = (window.location.hash || "").replace(/^#/, "").trim();
    if (hash.startsWith("tv=")) return { tv: decodeURIComponent(hash.slice(3)) };
    const code = hash.toUpperCase();
    return /^[A-Z]{6}$/.test(code) ? { room: code } : {};
  }

  function setConnection(text) {
    $("connection").textContent = text;
  }

  async function submitRoom(event) {
    if (event) event.preventDefault();
    const room = $("room").value.trim().toUpperCase();
    $("join-error").textContent = "";
    if (!/^[A-Z]{6}$/.test(room)) {
      $("join-error").textContent = t("page.room_is_six_letters");
      $("room").focus();
      return;
    }
    let res;
    try {
      res = await fetch("/api/table", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ room: room }) });
    } catch (e) {
      $("join-error").textContent = t("page.no_answer");
      return;
    }
    if (res.status !== 200) {
      let reason = t("page.did_not_work");
      try { reason = (await res.json()).reason || reason; } catch (e) { /* keep */ }
      $("join-error").textContent = reason;
      $("room").focus();
      return;
    }
    connect({ table: true, room: room });
  }

  function connect(first) {
    window.voiceHostPage.connect(state, first, {
      receive: receive,
      lost: () => setConnection(t("page.connection_lost")),
      maxTries: 10,
      stepMs: 500,
      afterClose: false,
    });
  }

  function receive(message) {
    window.companion.received.push(message);
    switch (message.type) {
      case "hello":
        state.hello = message;
        state.game = message.game;
        state.retry = 0;
        seatsChanged(message);
        setConnection(t("tv.connected"));
        $("join").hidden = true;
        render();
        return;
      case "refused":
        state.stopped = true;
        $("join").hidden = false;
        $("join-error").textContent = message.reason || t("page.did_not_work");
        setConnection(t("page.not_connected"));
        return;
      case "closed":
        state.closedByHost = true;
        setConnection(t("tv.closed"));
        return;
      case "reset":
        state.lastSeq = message.seq;
        for (const item of message.items) handle(item);
        render();
        return;
      default:
        if (message.seq && message.seq <= state.lastSeq) return;
        if (message.seq) state.lastSeq = message.seq;
        handle(message);
        if (["view", "seats", "recap"].includes(message.type)) render();
    }
  }

  function handle(message) {
    switch (message.type) {
      case "view":
        state.view = message.view;
        state.board = message.board || {};
        state.game = message.game;
        return;
      case "seats":
        seatsChanged(message);
        return;
      case "caption":
        caption(message.text);
        return;
      case "countdown":
        showCountdown(message.remaining);
        return;
      case "recap":
        // the host's own recap of the game, when it sends one: the end screen's key moments
        state.recap = (message.lines || []).filter((line) => typeof line === "string");
        return;
      default:
        return;
    }
  }

  function seatsChanged(message) {
    if (!message.seats) return;
    state.seats = message.seats;
    state.locked = Boolean(message.locked);
    state.everyone = message.everyone !== false;
  }

  function caption(text) {
    const log = $("log");
    log.append(el("li", {}, text));
    while (log.children.length > 3) log.removeChild(log.firstChild);
  }

  function showCountdown(remaining) {
    const box = $("countdown");
    state.countdown = remaining;
    if (remaining === null || remaining === undefined) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.classList.toggle("urgent", remaining <= 10);
    box.textContent = remaining > 0 ? tn("page.seconds_left", remaining) : t("page.time_up");
  }

  // ------------------------------------------------------------------ screens

  function seatsOpen() {
    // the join panel shows until the seats are locked (the host deals) or the game is under way
    return !state.locked;
  }

  function render() {
    if (!state.hello) return;
    const board = BOARDS[state.game];
    document.body.dataset.game = state.game || "";
    const view = state.view;
    const over = Boolean(view && board && board.over(view));
    const lobby = seatsOpen() && !over;
    $("lobby").hidden = !lobby;
    $("game").hidden = lobby || over || !view;
    $("end").hidden = !over;
    document.body.dataset.screen = lobby ? "lobby" : over ? "end" : view && board ? "board"
      : "waiting";
    $("title").textContent = t("tv.game_" + state.game);
    $("status").textContent = lobby ? t("tv.waiting_players")
      : view && board ? board.status(view) : "";
    renderBadge(!lobby && !over);
    if (lobby) renderLobby();
    else if (over) renderEnd(board, view);
    else if (view && board) $("public").replaceChildren(board.render(view, state.board));
    else if (view) $("public").replaceChildren(el("p", { class: "big" }, t("tv.no_board")));
    fitAll();
  }

  function seatChip(seat) {
    const cls = seat.confirmed ? "confirmed" : seat.claimed ? "claimed" : "free";
    const mark = seat.confirmed ? "✓" : seat.claimed ? "•" : "…";
    const words = seat.confirmed ? t("page.seat_confirmed") : seat.claimed
      ? t("page.seat_on_phone") : t("page.seat_free");
    return el("li", { class: "seat " + cls },
      el("span", { class: "seat-mark", "aria-hidden": "true" }, mark),
      el("span", { class: "seat-name" }, seat.name),
      el("span", { class: "seat-state" }, words));
  }

  function renderLobby() {
    const join = state.hello.join;
    const parts = [];
    const seats = el("div", { class: "lobby-seats" },
      el("h3", {}, t("tv.who_joined", { n: state.seats.filter((s) => s.claimed).length,
        total: state.seats.length })),
      el("ul", { class: "seats", id: "seats-box" }, state.seats.map(seatChip)));
    if (join) {
      const qr = join.qr ? el("img", { class: "qr", src: join.qr, alt: t("tv.qr_alt"),
        width: 400, height: 400 }) : null;
      parts.push(el("div", { class: "lobby-qr" }, qr,
        el("p", { class: "scan" }, t("tv.scan"))));
      parts.push(el("div", { class: "lobby-code" },
        el("h2", { id: "lobby-heading" }, t("tv.join_heading")),
        el("p", { class: "label" }, t("tv.open_address")),
        el("p", { class: "address", id: "address" }, join.address),
        el("p", { class: "label" }, t("tv.room_code")),
        el("p", { class: "room-code", id: "room-code", "aria-label":
          join.room.split("").join(" ") }, join.room.slice(0, 3) + " " + join.room.slice(3)),
        seats));
    } else {
      parts.push(el("div", { class: "lobby-code wide" },
        el("h2", { id: "lobby-heading" }, t("tv.join_heading")),
        el("p", { class: "label" }, t("tv.ask_host_code")),
        seats));
    }
    $("lobby").replaceChildren(...parts);
  }

  function renderBadge(playing) {
    // once the game is under way, a seat still without a phone can be joined (the host asks
    // the table): the host's own screen keeps a small QR code and the room code in its bar
    const join = state.hello.join;
    const badge = $("join-badge");
    const free = state.seats.some((s) => !s.claimed);
    badge.hidden = !(join && playing && free);
    if (badge.hidden) return;
    const qr = join.qr ? el("img", { src: join.qr, alt: t("tv.qr_alt"), width: 70,
      height: 70 }) : null;
    badge.replaceChildren(qr, el("div", {}, el("p", {}, t("tv.late_join")),
      el("p", { class: "badge-code" }, join.room)));
  }

  function renderEnd(board, view) {
    const end = board.end(view, state.board);
    const many = (end.roles || []).length > 6;
    const roles = el("ul", { class: "roles" + (many ? " many" : "") }, (end.roles || []).map((r) =>
      el("li", { class: "role " + (r.side || "") },
        el("span", { class: "role-name" }, r.player),
        el("span", { class: "role-what" }, r.role))));
    if (state.recap && state.recap.length) {
      end.moments = state.recap.map((line) => ({ text: line }));
    }
    const moments = el("ol", { class: "moments" }, (end.moments || []).map((m) =>
      el("li", { class: m.side || null }, (m.pictures || []).map((p) =>
        el("img", { src: p.src, alt: "", width: 32, height: 32 })), m.text)));
    const parts = [
      el("p", { class: "end-kicker" }, t("tv.game_over")),
      el("h2", { id: "end-heading", class: "winner " + (end.side || "") }, end.winner),
    ];
    if (end.reason) parts.push(el("p", { class: "end-reason" }, end.reason));
    const columns = el("div", { class: "end-columns" + (end.board ? " with-board" : "") });
    const facts = [];
    if ((end.roles || []).length) {
      facts.push(el("div", { class: "end-roles" }, el("h3", {}, end.rolesHeading ||
        t("tv.roles")), roles));
    }
    if ((end.moments || []).length) {
      facts.push(el("div", { class: "end-moments" }, el("h3", {}, t("tv.moments")),
        moments));
    }
    if (end.board) {
      // the board as it ended, beside who was who and the key moments
      columns.append(el("div", { class: "end-board" }, end.board),
        el("div", { class: "end-facts" }, facts));
    } else {
      columns.append(...facts);
    }
    parts.push(columns);
    $("end").replaceChildren(...parts);
  }

  // ------------------------------------------------------------------ boards

  // Each game's board is its own script, the table.js of the game's host package, served as
  // /board.js for this table's game only. It calls tableBoards.register(name, make);
  // make(kit) returns:
  //   status(view) -> the headline, over(view) -> whether the end screen shows,
  //   render(view, facts) -> the board's node (facts: the server's extra public facts),
  //   end(view, facts) -> {winner, side, reason, roles: [{player, role, side}],
  //                        moments: [{text, side}]}.
  const BOARDS = {};
  const kit = {
    t: t, tn: tn, el: el, svg: svg, names: names,
    lang: window.voiceHostPage.lang,
    extras: () => (state.hello && state.hello.extras) || {},
    countdown: () => state.countdown,
  };
  window.tableBoards = {
    register(name, make) {
      BOARDS[name] = make(kit);
      render();
    },
  };

  async function start() {
    await loadStrings("page.table_title");
    $("room-form").addEventListener("submit", submitRoom);
    window.addEventListener("resize", fitAll);
    const given = readFragment();
    if (given.tv) {
      $("join").hidden = true;
      connect({ table: true, tv: given.tv });
    } else if (given.room) {
      $("room").value = given.room;
      submitRoom(null);
    }
  }

  start();
})();
