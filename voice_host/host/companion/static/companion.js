// The companion page: a seat's private screen (index.html); what it shares with the table
// view (words, nodes, the connection) is in page.js.
// Everything is built with textContent (never HTML from data). Public news goes to the
// "What happened" log, which is not read aloud (the host says it aloud already); private
// lines go to the secret box, read aloud only when the player turns that on. When it becomes
// this seat's move, the move is scrolled into view and focused, announced once in a polite
// live region and the phone vibrates where the browser allows it. Colours always come with
// words. The words of the page come from the host (/api/strings, the game's language).
"use strict";

(function () {
  const { t, tn, names, el, loadStrings } = window.voiceHostPage;
  const STORE = "voice-host-companion";
  const CHOICE_BODY = 160; // bytes of every choice sent (see paddedChoice)
  const SPEAK = "voice-host-read-secrets";
  const $ = (id) => document.getElementById(id);

  const state = {
    hello: null, // {seat, room, game, lang, players, move_code, extras, seats, locked}
    view: null,
    game: null,
    choices: [],
    sent: false,
    seats: [],
    locked: false,
    lastSeq: 0,
    ws: null,
    retry: 0,
    stopped: false,
    lastStatus: "",
    lastSecret: "",
    pendingChoice: null,
    picked: [],
    seenPrivate: new Set(),
    views: 0,
    seatName: "",
    roomSeats: [],
    active: false, // this seat's move is offered now (choices shown, nothing sent)
    turnWhat: "", // what that move is (its instruction): a new one is announced once
    sending: false, // a choice is on its way to the host
    turns: 0, // how many times a move was brought to this seat
  };
  // Exposed for the browser tests: what arrived, in order.
  window.companion = { received: [], state: state };

  // ------------------------------------------------------------------ small helpers

  function announce(text, kind) {
    if (!text) return;
    const log = $("log");
    log.append(el("li", { class: kind || null }, text));
    while (log.children.length > 200) log.removeChild(log.firstChild);
    const box = $("log-box");
    box.scrollTop = box.scrollHeight;
  }

  function privately(text) {
    // a line only this player may see: in the secret box, read aloud only when asked
    if (!text) return;
    const list = $("private-log");
    list.append(el("li", {}, text));
    while (list.children.length > 100) list.removeChild(list.firstChild);
  }

  function setConnection(text) {
    $("connection").textContent = text;
  }

  function loadStored() {
    try {
      return JSON.parse(window.localStorage.getItem(STORE) || "null");
    } catch (e) {
      return null;
    }
  }

  function saveStored(value) {
    if (value === null) window.localStorage.removeItem(STORE);
    else window.localStorage.setItem(STORE, JSON.stringify(value));
  }

  async function api(path, options) {
    const stored = loadStored();
    const headers = { "Content-Type": "application/json" };
    if (stored && stored.token) headers["X-Seat-Token"] = stored.token;
    const opts = Object.assign({ headers: headers }, options || {});
    if (opts.method === "POST" && opts.body === undefined) opts.body = "{}";
    let response;
    try {
      response = await fetch(path, opts);
    } catch (e) {
      return { status: 0, body: { reason: t("page.no_answer") } };
    }
    let body = {};
    try {
      body = await response.json();
    } catch (e) {
      body = { reason: t("page.no_answer") };
    }
    return { status: response.status, body: body };
  }

  function spaced(code) {
    return String(code).replace(/(\d{3})(?=\d)/g, "$1 ");
  }

  // ------------------------------------------------------------------ joining

  function roomFromHash() {
    const code = (window.location.hash || "").replace("#", "").trim().toUpperCase();
    return /^[A-Z]{6}$/.test(code) ? code : "";
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
    const res = await api("/api/room", { method: "POST", body: JSON.stringify({ room: room }) });
    if (res.status !== 200) {
      $("join-error").textContent = res.body.reason || t("page.did_not_work");
      $("room").focus();
      return;
    }
    state.room = room;
    state.roomSeats = res.body.seats;
    const list = $("seat-list");
    list.replaceChildren();
    res.body.seats.forEach((seat, i) => {
      const id = "seat-" + i;
      const input = el("input", { type: "radio", name: "seat", id: id, value: seat.name });
      input.addEventListener("change", showMoveCodeField);
      const note = !seat.claimed ? "" : res.body.locked
        ? " " + t("page.seat_taken_code") : " " + t("page.seat_taken_free");
      const label = el("label", { for: id }, seat.name + note);
      list.append(el("div", { class: "seat-option" }, input, label));
    });
    state.roomLocked = res.body.locked;
    $("room-form").hidden = true;
    $("seat-form").hidden = false;
    showMoveCodeField();
    const first = list.querySelector("input");
    if (first) first.focus();
  }

  function showMoveCodeField() {
    // the move code is asked only for a seat that needs it
    const chosen = document.querySelector("input[name=seat]:checked");
    const seat = chosen && state.roomSeats.find((s) => s.name === chosen.value);
    // a seat another phone holds: its move code moves it at once (before the lock); without
    // it, or once the seats are locked, the host asks the table
    const needs = Boolean(seat && seat.claimed && !state.roomLocked);
    $("move-code-box").hidden = !needs;
  }

  async function submitSeat(event) {
    event.preventDefault();
    $("join-error").textContent = "";
    const chosen = document.querySelector("input[name=seat]:checked");
    if (!chosen) {
      $("join-error").textContent = t("page.choose_name_first");
      const first = document.querySelector("input[name=seat]");
      if (first) first.focus();
      return;
    }
    let res = await api("/api/claim", {
      method: "POST",
      body: JSON.stringify({ room: state.room, seat: chosen.value,
        move_code: $("move-code").value.trim() }),
    });
    if (res.body.key === "stale_token") {
      // this page's old seat is gone: forget it and ask again without it
      saveStored(null);
      res = await api("/api/claim", {
        method: "POST",
        body: JSON.stringify({ room: state.room, seat: chosen.value,
          move_code: $("move-code").value.trim() }),
      });
    }
    if (res.status === 202 && res.body.ticket) {
      const button = document.querySelector("#seat-form button[type=submit]");
      if (button) button.disabled = true; // one request at a time
      try {
        res = await waitForTable(chosen.value, res.body.ticket);
      } finally {
        if (button) button.disabled = false;
      }
    }
    if (res.status !== 200) {
      $("join-error").textContent = res.body.reason || t("page.did_not_work");
      if (res.status === 409 || res.status === 403) {
        $("move-code-box").hidden = false;
        $("move-code").focus();
      }
      return;
    }
    saveStored({ room: state.room, seat: res.body.seat, token: res.body.token });
    openSeat(res.body.seat, res.body.move_code);
  }

  async function waitForTable(seat, ticket) {
    // the host asks the table aloud; ask again every two seconds until it answered
    const note = t("page.asking_table", { name: seat });
    $("join-error").textContent = note;
    announce(note);
    for (let i = 0; i < 90; i++) {
      await new Promise((resolve) => window.setTimeout(resolve, 2000));
      const res = await api("/api/claim", {
        method: "POST",
        body: JSON.stringify({ room: state.room, seat: seat, ticket: ticket }),
      });
      if (res.status !== 202) return res;
    }
    return { status: 410, body: { reason: t("page.did_not_work") } };
  }

  function openSeat(seat, moveCode) {
    state.seatName = seat;
    $("join").hidden = true;
    $("seat").hidden = false;
    $("device-section").hidden = false;
    $("title").textContent = t("page.seat_of", { name: seat });
    document.title = t("page.seat_of", { name: seat }) + " — voice host";
    if (moveCode) $("my-move-code").textContent = spaced(moveCode);
    showGame();
    announce(t("page.you_hold", { name: seat }));
    $("title").setAttribute("tabindex", "-1");
    $("title").focus();
    const stored = loadStored();
    renderWaiting();
    connect({ seat: seat, token: stored ? stored.token : "" });
  }

  function showGame() {
    $("join").hidden = true;
    $("game").hidden = false;
  }

  function backToJoin(reason) {
    saveStored(null);
    state.stopped = true;
    if (state.ws) state.ws.close();
    if ($("seat")) $("seat").hidden = true;
    if ($("device-section")) $("device-section").hidden = true;
    if ($("private-log")) $("private-log").replaceChildren();
    if ($("secret")) $("secret").replaceChildren();
    $("game").hidden = true;
    $("join").hidden = false;
    $("room-form").hidden = false;
    if ($("seat-form")) $("seat-form").hidden = true;
    $("title").textContent = t("page.seat_heading");
    $("join-error").textContent = reason;
    announce(reason);
  }

  async function leaveSeat() {
    const stored = loadStored();
    if (!stored) return;
    await api("/api/seat/" + encodeURIComponent(stored.seat) + "/leave", { method: "POST" });
    backToJoin(t("page.left_seat"));
  }

  async function confirmSeat() {
    const stored = loadStored();
    if (!stored) return;
    const res = await api("/api/seat/" + encodeURIComponent(stored.seat) + "/confirm",
      { method: "POST" });
    if (res.status !== 200) {
      $("act-error").textContent = res.body.reason || t("page.did_not_work");
      return;
    }
    state.confirmedHere = true;
    renderWaiting();
    $("waiting-heading").focus();
  }

  // ------------------------------------------------------------------ the connection

  function connect(first) {
    window.voiceHostPage.connect(state, first, {
      receive: receive,
      lost: () => setConnection(t("page.connection_lost")),
      maxTries: 5,
      stepMs: 700,
      afterClose: true,
    });
  }

  function receive(message) {
    window.companion.received.push(message);
    switch (message.type) {
      case "hello":
        if (state.closedByHost) announce(t("page.back"));
        state.closedByHost = false;
        state.hello = message;
        state.retry = 0;
        setConnection(t("page.connected", { room: message.room.split("").join(" ") }));
        if (message.move_code) $("my-move-code").textContent = spaced(message.move_code);
        seatsChanged(message);
        return;
      case "refused":
        backToJoin(message.reason);
        return;
      case "moved":
        state.stopped = true;
        backToJoin(t("page.moved_away", { name: message.seat || state.seatName }));
        return;
      case "closed":
        // the host stopped; a resumed game comes back at the same address and this page
        // takes its seat again by itself
        state.closedByHost = true;
        setConnection(t("page.closed"));
        announce(t("page.closed"));
        return;
      case "reset":
        state.lastSeq = message.seq;
        for (const item of message.items) handle(item);
        return;
      default:
        if (message.seq && message.seq <= state.lastSeq) return; // already seen
        if (message.seq) state.lastSeq = message.seq;
        handle(message);
    }
  }

  function handle(message) {
    switch (message.type) {
      case "view":
        state.views += 1;
        state.view = message.view;
        state.game = message.game; // the table's game (the host names it, not the view)
        state.choices = message.choices || [];
        state.sent = Boolean(message.sent);
        render();
        return;
      case "seats":
        seatsChanged(message);
        return;
      case "move_code":
        $("my-move-code").textContent = spaced(message.move_code);
        return;
      case "private":
        if (state.seenPrivate.has(message.seq)) return;
        state.seenPrivate.add(message.seq);
        privately(message.text);
        return;
      case "notice":
        privately(message.key ? t("page." + message.key) : message.text);
        return;
      case "caption":
        announce(t("page.host_says", { text: message.text }));
        return;
      case "countdown":
        showCountdown(message.remaining);
        return;
      default:
        return;
    }
  }

  function seatsChanged(message) {
    if (!message.seats) return;
    // who took a seat is said by the host (and shown in the log as its caption): not twice
    state.seats = message.seats;
    state.locked = Boolean(message.locked);
    state.everyone = message.everyone !== false;
    renderSeats();
    renderWaiting();
  }

  function showCountdown(remaining) {
    const box = $("countdown");
    if (remaining === null || remaining === undefined) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.textContent = remaining > 0 ? tn("page.seconds_left", remaining) : t("page.time_up");
    if (remaining === 10 || remaining === 5 || remaining === 0) announce(box.textContent);
  }

  // ------------------------------------------------------------------ seats

  function seatState(seat) {
    if (!seat.claimed) return t("page.seat_free");
    return seat.confirmed ? t("page.seat_confirmed") : t("page.seat_on_phone");
  }

  function renderSeats() {
    const box = $("seats-box");
    if (!box) return;
    const list = el("ul", { class: "seats" });
    for (const seat of state.seats) {
      list.append(el("li", { class: seat.confirmed ? "confirmed" : seat.claimed ? "claimed"
        : null }, el("span", { class: "seat-name" }, seat.name), " ",
      el("span", { class: "seat-state" }, seatState(seat))));
    }
    box.replaceChildren(el("h3", {}, state.locked ? t("page.seats_locked")
      : t("page.seats_waiting")), list);
    box.hidden = state.locked;
  }

  function renderWaiting() {
    // before the table confirmed its seats: no secret exists on any phone yet
    const box = $("waiting");
    if (!box) return;
    const me = state.seats.find((s) => s.name === state.seatName);
    // with physical cards (no secret from the host) a seat is ready once its player confirmed
    if (state.locked || (!state.everyone && me && me.confirmed)) {
      box.hidden = true;
      $("secret-area").hidden = false;
      return;
    }
    box.hidden = false;
    $("secret-area").hidden = true;
    const everyone = !state.everyone ||
      (state.seats.length && state.seats.every((s) => s.claimed));
    const parts = [el("h2", { id: "waiting-heading", tabindex: "-1" },
      t("page.waiting_heading"))];
    parts.push(el("p", { class: "big" }, t("page.this_phone_is", { name: state.seatName })));
    if (me && me.confirmed) {
      const left = state.seats.filter((s) => !s.confirmed).map((s) => s.name);
      parts.push(el("p", {}, t("page.you_confirmed", { names: names(left) })));
    } else if (!everyone) {
      const free = state.seats.filter((s) => !s.claimed).map((s) => s.name);
      parts.push(el("p", {}, t("page.waiting_for_phones", { names: names(free) })));
    } else {
      parts.push(el("p", {}, t("page.check_your_name")));
      const yes = el("button", { type: "button", id: "thats-me" }, t("page.thats_me"));
      yes.addEventListener("click", confirmSeat);
      const no = el("button", { type: "button", id: "not-me", class: "secondary" },
        t("page.not_me"));
      no.addEventListener("click", leaveSeat);
      parts.push(yes, no);
    }
    const focused = document.activeElement && document.activeElement.id;
    box.replaceChildren(...parts);
    if (focused && $(focused) && focused !== "waiting-heading") $(focused).focus();
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const view = state.view;
    if (!view) return;
    const game = GAMES[state.game];
    const status = game ? game.status(view) : t("page.game_not_shown");
    const parts = [el("p", { class: "big", id: "status" }, status)];
    if (game) parts.push(...game.publicParts(view));
    $("public").replaceChildren(...parts);
    if (status !== state.lastStatus) {
      state.lastStatus = status;
      announce(status);
    }
    renderSeat(view);
  }

  function fitWords(box) {
    // a word that does not fit its cell (the spymaster's 5x5 key on a phone) is drawn
    // smaller rather than broken or cut
    for (const word of box.querySelectorAll(".key .word")) {
      word.style.fontSize = "";
      let size = parseFloat(getComputedStyle(word).fontSize);
      while (size > 7 && word.scrollWidth > word.clientWidth) {
        size -= 0.5;
        word.style.fontSize = size + "px";
      }
    }
  }

  function renderSeat(view) {
    const game = GAMES[state.game];
    const secret = game ? game.secret(view) : secretBlock(t("page.game_not_shown"));
    $("secret").replaceChildren(...secret.nodes);
    fitWords($("secret"));
    if (secret.summary !== state.lastSecret) {
      state.lastSecret = secret.summary;
      privately(t("page.your_secret", { text: secret.summary }));
    }
    renderChoices();
  }

  function choiceButton(choice, text) {
    const button = el("button", { type: "button", "data-choice": choice.id }, text);
    button.addEventListener("click", () => askConfirm(choice));
    return button;
  }

  function stillOffered(choice) {
    // a question open for a choice the game no longer offers is withdrawn
    if (choice.id.startsWith("pick:")) {
      const icons = choice.id.slice(5).split("+");
      return icons.every((i) => state.choices.some((c) => c.id === "pick:" + i));
    }
    return state.choices.some((c) => c.id === choice.id);
  }

  function instruction() {
    // what the seat is asked to do, in the words shown above its buttons
    const kinds = state.choices.map((c) => c.kind || "card");
    if (kinds.includes("card")) return t("page.choose_card");
    if (kinds.includes("vote")) return t("page.choose_vote");
    if (kinds.includes("answer")) return t("page.choose_answer");
    if (kinds.includes("guess")) return t("page.choose_guess");
    if (kinds.includes("pick")) {
      const sizes = state.choices.find((c) => c.kind === "pick").sizes || [1];
      const most = Math.max(...sizes);
      return most === 1 ? t("page.choose_icon") : sizes.includes(1)
        ? t("page.choose_icons_one_or_two") : t("page.choose_icons_two");
    }
    return t("page.choose_move");
  }

  function followTurn() {
    // brings a new move to the player once: the live note, the scroll and focus, a buzz
    const active = !state.sent && state.choices.length > 0;
    const what = active ? instruction() : "";
    const note = $("turn-note");
    if (active && (!state.active || what !== state.turnWhat)) {
      state.turns += 1;
      // said once: by the private log when it is read aloud, else by the turn note
      const news = t("page.your_turn", { what: what });
      privately(news);
      if (note) note.textContent = speaking() ? "" : news;
      const act = $("act");
      const busy = document.activeElement && ["INPUT", "TEXTAREA", "SELECT"]
        .includes(document.activeElement.tagName);
      if (act && !busy && !document.body.classList.contains("secret-hidden")) {
        act.scrollIntoView({ block: "start" });
        $("act-heading").setAttribute("tabindex", "-1");
        $("act-heading").focus({ preventScroll: true });
      }
      if (navigator.vibrate) {
        try { navigator.vibrate(200); } catch (e) { /* not allowed here */ }
      }
    } else if (!active && note) {
      note.textContent = "";
    }
    state.active = active;
    state.turnWhat = what;
  }

  function renderChoices() {
    const box = $("choices");
    if (state.pendingChoice && !state.sending && !stillOffered(state.pendingChoice)) {
      // the phase changed under an open question: its buttons go, and the player is told
      state.pendingChoice = null;
      $("act-error").textContent = t("page.choice_gone");
    }
    if (state.pendingChoice) return; // a confirmation question is open
    followTurn();
    if (state.sent) {
      box.replaceChildren(el("p", {}, t("page.sent_waiting")));
      return;
    }
    if (!state.choices.length) {
      box.replaceChildren(el("p", {}, t("page.nothing_to_do")));
      return;
    }
    const cards = state.choices.filter((c) => c.kind === "card" || !c.kind);
    const votes = state.choices.filter((c) => c.kind === "vote" || c.kind === "answer");
    const picks = state.choices.filter((c) => c.kind === "pick");
    const guesses = state.choices.filter((c) => c.kind === "guess" || c.kind === "end_turn");
    // any other kind a game offers: plain buttons with their own labels
    const known = ["card", "vote", "answer", "pick", "guess", "end_turn"];
    const moves = state.choices.filter((c) => c.kind && !known.includes(c.kind));
    const parts = [];
    if (moves.length) {
      parts.push(el("p", {}, t("page.choose_move")));
      parts.push(...moves.map((c) => choiceButton(c, c.label)));
    }
    if (cards.length) {
      // the same buttons for every role: the rules refuse a hero's sabotage on this page only
      parts.push(el("p", {}, t("page.choose_card")));
      parts.push(...cards.map((c) => choiceButton(c, c.label)));
    }
    if (votes.length) {
      parts.push(el("p", {}, t(votes[0].kind === "answer" ? "page.choose_answer"
        : "page.choose_vote")));
      parts.push(...votes.map((c) => choiceButton(c, c.label)));
    }
    if (picks.length) parts.push(...renderPicks(picks));
    if (guesses.length) {
      parts.push(el("p", {}, t("page.choose_guess")));
      const list = el("div", { class: "word-buttons" });
      guesses.filter((c) => c.kind === "guess").forEach((c) => {
        list.append(choiceButton(c, c.label));
      });
      parts.push(list);
      // passing ends the team's turn: its own button, apart from the words
      guesses.filter((c) => c.kind === "end_turn").forEach((c) => {
        const button = choiceButton(c, c.label);
        button.className = "secondary pass";
        parts.push(button);
      });
    }
    box.replaceChildren(...parts);
  }

  function valueName(name) {
    // a picked value in words (an icon's name in the page's language), as the game says it
    const game = GAMES[state.game];
    return game && game.valueName ? game.valueName(name) : name;
  }

  function renderPicks(picks) {
    const sizes = picks[0].sizes || [1];
    const most = Math.max(...sizes);
    const parts = [el("p", {}, most === 1 ? t("page.choose_icon")
      : sizes.includes(1) ? t("page.choose_icons_one_or_two") : t("page.choose_icons_two"))];
    const group = el("div", { class: "icon-buttons", role: "group",
      "aria-label": t("page.icons_free") });
    for (const c of picks) {
      const name = c.id.slice(5);
      const on = state.picked.includes(name);
      const button = el("button", { type: "button", "data-choice": c.id,
        "aria-pressed": most > 1 ? String(on) : null, class: on ? "picked" : null },
      valueName(name));
      button.addEventListener("click", () => {
        if (most === 1) {
          askConfirm({ id: c.id, label: valueName(name),
            confirm: t("page.pick_confirm", { icons: valueName(name) }) });
          return;
        }
        if (on) state.picked = state.picked.filter((p) => p !== name);
        else if (state.picked.length < most) state.picked.push(name);
        renderChoices();
        const again = document.querySelector("[data-choice='" + c.id + "']");
        if (again) again.focus();
      });
      group.append(button);
    }
    parts.push(group);
    if (most > 1) {
      const ready = sizes.includes(state.picked.length);
      const send = el("button", { type: "button", id: "send-picks", disabled: !ready },
        t("page.send_picks"));
      send.addEventListener("click", () => {
        const shown = names(state.picked.map(valueName));
        askConfirm({ id: "pick:" + state.picked.join("+"), label: shown,
          confirm: t("page.pick_confirm", { icons: shown }) });
      });
      parts.push(send);
    }
    return parts;
  }

  function askConfirm(choice) {
    state.pendingChoice = choice;
    const question = el("p", { id: "confirm-question", tabindex: "-1", class: "big" },
      choice.confirm);
    const yes = el("button", { type: "button", id: "confirm-yes" }, t("page.yes_send"));
    const no = el("button", { type: "button", id: "confirm-no", class: "secondary" },
      t("page.no_go_back"));
    yes.addEventListener("click", () => sendChoice(choice));
    no.addEventListener("click", () => {
      state.pendingChoice = null;
      renderChoices();
      const first = $("choices").querySelector("button");
      if (first) first.focus();
    });
    $("choices").replaceChildren(question, yes, no);
    question.focus();
  }

  function paddedChoice(id) {
    // every choice is sent in a body of the same size: its length tells nothing
    const body = { choice: id, pad: "" };
    const size = JSON.stringify(body).length;
    body.pad = " ".repeat(Math.max(0, CHOICE_BODY - size));
    return body;
  }

  async function sendChoice(choice) {
    const stored = loadStored();
    $("act-error").textContent = "";
    const views = state.views;
    state.sending = true;
    const res = await api("/api/seat/" + encodeURIComponent(stored.seat) + "/act",
      { method: "POST", body: JSON.stringify(paddedChoice(choice.id)) });
    state.sending = false;
    state.pendingChoice = null;
    state.picked = [];
    if (res.status === 200) {
      // a view that came meanwhile already says whether it is still waiting
      if (state.views === views) state.sent = true;
      privately(res.body.text);
    } else {
      // refused (out of turn, or against the rules): said on this page, never kept for later
      $("act-error").textContent = res.body.reason || t("page.did_not_work");
    }
    renderChoices();
    $("act-heading").setAttribute("tabindex", "-1");
    $("act-heading").focus();
  }

  function secretBlock(summary, ...nodes) {
    return { summary: summary, nodes: nodes.length ? nodes : [el("p", {}, summary)] };
  }

  // ------------------------------------------------------------------ games

  // Each game's part of the page is its own script, the page.js of the game's host package,
  // served as /game.js for this table's game only. It calls
  // companionGames.register(name, make); make(kit) returns the game's part:
  //   status(view) -> the one-line status, publicParts(view) -> nodes everyone sees,
  //   secret(view) -> {summary, nodes} (what only this seat sees),
  //   valueName(id) (optional) -> a picked value in words.
  // A game without its script is shown by name only: never as another game.
  const GAMES = {};
  const kit = {
    t: t, tn: tn, el: el, names: names, secretBlock: secretBlock,
    lang: window.voiceHostPage.lang,
    extras: () => (state.hello && state.hello.extras) || {},
  };
  window.companionGames = {
    register(name, make) {
      GAMES[name] = make(kit);
      if (state.view) render();
    },
  };

  // ------------------------------------------------------------------ start

  function setHidden(hide) {
    // "Hide" hides everything that comes from the secret: the role, the choices, a pending
    // question, private lines and the move code
    document.body.classList.toggle("secret-hidden", hide);
    if (!hide && $("secret")) fitWords($("secret"));
    $("hide-secret").setAttribute("aria-expanded", hide ? "false" : "true");
    $("hide-secret").textContent = hide ? t("page.show_secret") : t("page.hide_secret");
  }

  function speaking() {
    return $("private-log").getAttribute("aria-live") === "polite";
  }

  function setSpeak(on) {
    $("private-log").setAttribute("aria-live", on ? "polite" : "off");
    // a refused move can tell what the secret is ("Heroes can only play success")
    if (on) $("act-error").setAttribute("role", "alert");
    else $("act-error").removeAttribute("role");
    $("speak-secrets").checked = on;
    window.localStorage.setItem(SPEAK, on ? "1" : "0");
  }

  async function start() {
    await loadStrings("page.seat_title");
    $("room-form").addEventListener("submit", submitRoom);
    $("seat-form").addEventListener("submit", submitSeat);
    $("leave").addEventListener("click", leaveSeat);
    $("hide-secret").addEventListener("click", () => {
      setHidden(!document.body.classList.contains("secret-hidden"));
    });
    $("speak-secrets").addEventListener("change", (e) => setSpeak(e.target.checked));
    setSpeak(window.localStorage.getItem(SPEAK) === "1");
    setHidden(false);
    window.addEventListener("resize", () => fitWords($("secret")));
    const stored = loadStored();
    const hashRoom = roomFromHash();
    if (stored && stored.token && (!hashRoom || hashRoom === stored.room)) {
      const res = await api("/api/seat/" + encodeURIComponent(stored.seat));
      if (res.status === 200) {
        state.room = stored.room;
        openSeat(stored.seat, res.body.move_code);
        return;
      }
      saveStored(null);
      $("join-error").textContent = t("page.seat_gone");
    }
    if (hashRoom) {
      $("room").value = hashRoom;
      submitRoom(null);
    }
  }

  start();
})();
