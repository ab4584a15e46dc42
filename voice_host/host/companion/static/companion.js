// The companion page: a seat's private screen (index.html) or the table view (table.html).
// Everything is built with textContent (never HTML from data); every change is announced in
// the "What happened" log, an ARIA live region; colours always come with words.
"use strict";

(function () {
  const PAGE = document.body.dataset.page; // "seat" or "table"
  const STORE = "voice-host-companion";
  const $ = (id) => document.getElementById(id);

  const state = {
    hello: null, // {seat, room, game, players, move_code, extras}
    view: null,
    choices: [],
    sent: false,
    lastSeq: 0,
    ws: null,
    retry: 0,
    stopped: false,
    lastStatus: "",
    lastSecret: "",
    pendingChoice: null,
    seenPrivate: new Set(),
  };
  // Exposed for the browser tests: what arrived, in order.
  window.companion = { received: [], state: state };

  // ------------------------------------------------------------------ small helpers

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function names(list) {
    const items = (list || []).slice();
    if (items.length === 0) return "nobody";
    if (items.length === 1) return items[0];
    return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function announce(text, kind) {
    if (!text) return;
    const log = $("log");
    const item = el("li", { class: kind || null }, text);
    log.append(item);
    while (log.children.length > 60) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
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
    const response = await fetch(path, Object.assign({ headers: headers }, options || {}));
    let body = {};
    try {
      body = await response.json();
    } catch (e) {
      body = { reason: "The host's computer did not answer properly." };
    }
    return { status: response.status, body: body };
  }

  // ------------------------------------------------------------------ joining

  function roomFromHash() {
    const code = (window.location.hash || "").replace("#", "").trim().toUpperCase();
    return /^[A-Z]{4}$/.test(code) ? code : "";
  }

  async function submitRoom(event) {
    if (event) event.preventDefault();
    const room = $("room").value.trim().toUpperCase();
    $("join-error").textContent = "";
    if (!/^[A-Z]{4}$/.test(room)) {
      $("join-error").textContent = "The room code is four letters.";
      $("room").focus();
      return;
    }
    if (PAGE === "table") {
      const res = await api("/api/table?room=" + encodeURIComponent(room));
      if (res.status !== 200) {
        $("join-error").textContent = res.body.reason || "That did not work.";
        $("room").focus();
        return;
      }
      state.room = room;
      showGame();
      connect({ table: true, room: room });
      return;
    }
    const res = await api("/api/room", { method: "POST", body: JSON.stringify({ room: room }) });
    if (res.status !== 200) {
      $("join-error").textContent = res.body.reason || "That did not work.";
      $("room").focus();
      return;
    }
    state.room = room;
    const list = $("seat-list");
    list.replaceChildren();
    res.body.seats.forEach((seat, i) => {
      const id = "seat-" + i;
      const input = el("input", { type: "radio", name: "seat", id: id, value: seat.name });
      const label = el("label", { for: id },
        seat.name + (seat.claimed ? " (already on a device: you need its move code)" : ""));
      list.append(el("div", { class: "seat-option" }, input, label));
    });
    $("room-form").hidden = true;
    $("seat-form").hidden = false;
    const first = list.querySelector("input");
    if (first) first.focus();
  }

  async function submitSeat(event) {
    event.preventDefault();
    $("join-error").textContent = "";
    const chosen = document.querySelector("input[name=seat]:checked");
    if (!chosen) {
      $("join-error").textContent = "Choose your name first.";
      const first = document.querySelector("input[name=seat]");
      if (first) first.focus();
      return;
    }
    const res = await api("/api/claim", {
      method: "POST",
      body: JSON.stringify({ room: state.room, seat: chosen.value,
        move_code: $("move-code").value.trim() }),
    });
    if (res.status !== 200) {
      $("join-error").textContent = res.body.reason || "That did not work.";
      if (res.status === 409) $("move-code").focus();
      return;
    }
    saveStored({ room: state.room, seat: res.body.seat, token: res.body.token });
    openSeat(res.body.seat, res.body.move_code);
  }

  function openSeat(seat, moveCode) {
    $("join").hidden = true;
    $("seat").hidden = false;
    $("device-section").hidden = false;
    $("title").textContent = seat + "'s seat";
    document.title = seat + "'s seat — voice host";
    if (moveCode) $("my-move-code").textContent = spaced(moveCode);
    showGame();
    announce("You hold " + seat + "'s seat. Your secret appears below.");
    $("title").setAttribute("tabindex", "-1");
    $("title").focus();
    const stored = loadStored();
    connect({ seat: seat, token: stored ? stored.token : "" });
  }

  function spaced(code) {
    return String(code).replace(/(\d{3})(?=\d)/g, "$1 ");
  }

  function showGame() {
    $("join").hidden = true;
    $("game").hidden = false;
  }

  function backToJoin(reason) {
    saveStored(null);
    state.stopped = true;
    if (state.ws) state.ws.close();
    $("seat") && ($("seat").hidden = true);
    $("device-section") && ($("device-section").hidden = true);
    $("game").hidden = true;
    $("join").hidden = false;
    $("room-form").hidden = false;
    if ($("seat-form")) $("seat-form").hidden = true;
    $("title").textContent = PAGE === "seat" ? "Your seat" : "The table";
    $("join-error").textContent = reason;
    announce(reason);
  }

  async function leaveSeat() {
    const stored = loadStored();
    if (!stored) return;
    await api("/api/seat/" + encodeURIComponent(stored.seat) + "/leave", { method: "POST" });
    backToJoin("You left your seat. Anyone can now take it on another device.");
  }

  // ------------------------------------------------------------------ the connection

  function connect(first) {
    state.stopped = false;
    state.first = first;
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + window.location.host + "/ws");
    state.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify(Object.assign({ since: state.lastSeq }, first)));
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      receive(message);
    };
    ws.onclose = () => {
      if (state.ws !== ws || state.stopped) return;
      setConnection("Connection lost. Trying again…");
      state.retry = Math.min(state.retry + 1, 5);
      window.setTimeout(() => { if (!state.stopped) connect(first); }, 700 * state.retry);
    };
  }

  function receive(message) {
    window.companion.received.push(message);
    switch (message.type) {
      case "hello":
        state.hello = message;
        state.retry = 0;
        setConnection("Connected to the host, room " + message.room.split("").join(" ") + ".");
        if (message.move_code) $("my-move-code").textContent = spaced(message.move_code);
        return;
      case "refused":
        backToJoin(message.reason);
        return;
      case "moved":
        state.stopped = true;
        backToJoin(message.text);
        return;
      case "closed":
        state.stopped = true;
        setConnection(message.text);
        announce(message.text);
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
        state.view = message.view;
        state.choices = message.choices || [];
        state.sent = Boolean(message.sent);
        render();
        return;
      case "private":
        if (state.seenPrivate.has(message.seq)) return;
        state.seenPrivate.add(message.seq);
        announce("Private: " + message.text, "private");
        return;
      case "notice":
        announce(message.text, "private");
        return;
      case "caption":
        announce("Host: " + message.text);
        return;
      case "countdown":
        showCountdown(message.remaining);
        return;
      default:
        return;
    }
  }

  function showCountdown(remaining) {
    const box = $("countdown");
    if (remaining === null || remaining === undefined) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.textContent = remaining > 0 ? plural(remaining, "second", "seconds") + " left"
      : "Time is up";
    if (remaining === 10 || remaining === 5 || remaining === 0) announce(box.textContent);
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const view = state.view;
    if (!view) return;
    const game = view.game;
    const status = game === "resistance" ? resistanceStatus(view)
      : game === "codenames" ? codenamesStatus(view) : iciStatus(view);
    const parts = [el("p", { class: "big", id: "status" }, status)];
    if (game === "resistance") parts.push(...resistancePublic(view));
    else if (game === "codenames") parts.push(...codenamesPublic(view));
    else parts.push(...iciPublic(view));
    $("public").replaceChildren(...parts);
    if (status !== state.lastStatus) {
      state.lastStatus = status;
      announce(status);
    }
    if (PAGE === "seat") renderSeat(view);
  }

  function renderSeat(view) {
    const game = view.game;
    const secret = game === "resistance" ? resistanceSecret(view)
      : game === "codenames" ? codenamesSecret(view) : iciSecret(view);
    $("secret").replaceChildren(...secret.nodes);
    if (secret.summary !== state.lastSecret) {
      state.lastSecret = secret.summary;
      announce("Your secret: " + secret.summary, "private");
    }
    renderChoices();
  }

  function renderChoices() {
    const box = $("choices");
    if (state.pendingChoice) return; // a confirmation question is open
    if (state.sent) {
      box.replaceChildren(el("p", {}, "Your choice is sent. Waiting for the host."));
      return;
    }
    if (!state.choices.length) {
      box.replaceChildren(el("p", {}, "Nothing to do on this page right now."));
      return;
    }
    const intro = el("p", {}, state.choices.length === 1
      ? "Play your card. Only one card is allowed for you."
      : "Choose your card. Nobody will see which one you played.");
    const buttons = state.choices.map((choice) => {
      const button = el("button", { type: "button", "data-choice": choice.id }, choice.label);
      button.addEventListener("click", () => askConfirm(choice));
      return button;
    });
    box.replaceChildren(intro, ...buttons);
  }

  function askConfirm(choice) {
    state.pendingChoice = choice;
    const question = el("p", { id: "confirm-question", tabindex: "-1", class: "big" },
      choice.confirm);
    const yes = el("button", { type: "button", id: "confirm-yes" }, "Yes, " +
      choice.label.toLowerCase());
    const no = el("button", { type: "button", id: "confirm-no", class: "secondary" },
      "No, go back");
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

  async function sendChoice(choice) {
    const stored = loadStored();
    $("act-error").textContent = "";
    const res = await api("/api/seat/" + encodeURIComponent(stored.seat) + "/act",
      { method: "POST", body: JSON.stringify({ choice: choice.id }) });
    state.pendingChoice = null;
    if (res.status === 200) {
      state.sent = true;
      announce(res.body.text, "private");
    } else {
      $("act-error").textContent = res.body.reason || "That did not work.";
    }
    renderChoices();
    $("act-heading").setAttribute("tabindex", "-1");
    $("act-heading").focus();
  }

  function secretBlock(summary, ...nodes) {
    return { summary: summary, nodes: nodes.length ? nodes : [el("p", {}, summary)] };
  }

  // ------------------------------------------------------------------ Resistance

  function resistanceStatus(v) {
    const mission = "Mission " + v.mission;
    switch (v.phase) {
      case "setup": return "The host is dealing the roles.";
      case "team":
        return mission + ": " + v.leader + " leads and chooses a team of " + v.team_size +
          (v.two_sabotages_needed ? ". Two sabotages are needed to fail it." : ".");
      case "vote":
        return mission + ": vote on the team " + names(v.proposed_team) + ". Still to vote: " +
          names(v.current_players) + ".";
      case "mission":
        return mission + ": " + names(v.proposed_team) + " are on the mission. Cards still " +
          "to come from " + names(v.current_players) + ".";
      case "accuse":
        return "Three missions succeeded. The spies, " + names(v.revealed_spies || []) +
          ", must name the double agent.";
      case "answer":
        return v.accused + " must say whether they are the double agent.";
      case "over": {
        const out = v.outcome || { winners: [] };
        return "The game is over: the " + names(out.winners) + " win.";
      }
      default: return "";
    }
  }

  function resistancePublic(v) {
    const track = el("ol", { class: "track", "aria-label": "Mission track" });
    v.team_sizes.forEach((size, i) => {
      const number = i + 1;
      const done = v.missions.find((m) => m.mission === number);
      let text = "Mission " + number + ": team of " + size;
      if (done) text += done.succeeded ? ", succeeded" : ", failed (" +
        plural(done.sabotages, "sabotage", "sabotages") + ")";
      else if (number === v.mission && v.phase !== "over") text += ", now";
      track.append(el("li", { class: done ? "done" : number === v.mission ? "now" : null },
        text));
    });
    const parts = [
      el("h3", {}, "Missions"),
      el("p", {}, "Successes " + v.successes + ", failures " + v.failures +
        ". Rejected teams in a row: " + v.rejections + " of 5."),
      track,
      el("p", {}, "Leader: " + (v.leader || "not chosen yet") + ". Players in seat order: " +
        names(v.players) + "."),
    ];
    if (v.proposed_team) {
      parts.push(el("p", {}, "Team on the table: " + names(v.proposed_team) +
        (v.phase === "vote" ? ". Voted so far: " + names(v.voted) + "." : "") +
        (v.phase === "mission" ? ". Cards played by: " + names(v.played_card) + "." : "")));
    }
    if (v.votes.length) {
      const list = el("ol", {});
      v.votes.slice().reverse().slice(0, 10).forEach((vote) => {
        const how = vote.yes.length || vote.no.length
          ? "yes: " + names(vote.yes) + "; no: " + names(vote.no)
          : vote.yes_count + " yes";
        list.append(el("li", {}, "Mission " + vote.mission + ", " + vote.leader + "'s team " +
          names(vote.team) + ": " + (vote.approved ? "approved" : "rejected") + " (" + how +
          ")"));
      });
      parts.push(el("h3", {}, "Votes, newest first"), list);
    }
    if (v.missions.length) {
      const table = el("table", {});
      table.append(el("caption", {}, "Missions played"));
      table.append(el("tr", {}, el("th", { scope: "col" }, "Mission"),
        el("th", { scope: "col" }, "Team"), el("th", { scope: "col" }, "Sabotages"),
        el("th", { scope: "col" }, "Result")));
      v.missions.forEach((m) => table.append(el("tr", {}, el("td", {}, String(m.mission)),
        el("td", {}, names(m.team)), el("td", {}, String(m.sabotages)),
        el("td", {}, m.succeeded ? "succeeded" : "failed"))));
      parts.push(table);
    }
    if (v.revealed_spies) parts.push(el("p", {}, "The spies revealed themselves: " +
      names(v.revealed_spies) + "."));
    return parts;
  }

  function resistanceSecret(v) {
    if (!v.role) {
      return secretBlock("The host does not know your role: look at your card.");
    }
    let summary;
    if (v.role === "spy") {
      const others = v.known_spies.filter((p) => p !== v.you);
      summary = "You are a spy. " + (others.length ? "The other spies: " + names(others) + "."
        : "You are the only spy.");
    } else if (v.role === "double_agent") {
      summary = "You are the double agent, a hero who knows the spies. The spies: " +
        names(v.known_spies) + ". Do not let them find you.";
    } else {
      summary = "You are a hero. You do not know who the spies are.";
    }
    const nodes = [el("p", { class: "big" }, summary)];
    if (v.my_mission_card) {
      nodes.push(el("p", {}, "On this mission you played " + v.my_mission_card + "."));
    }
    return { summary: summary, nodes: nodes };
  }

  // ------------------------------------------------------------------ Codenames

  const COLOUR_WORDS = { red: "red agent", blue: "blue agent", neutral: "bystander",
    assassin: "assassin" };

  function codenamesStatus(v) {
    if (v.phase === "deal") return "The host is dealing the grid.";
    if (v.phase === "over") {
      return "The game is over: " + v.winner + " wins" +
        (v.reason === "assassin" ? " because the assassin was found." : ".");
    }
    const team = v.team;
    const spymaster = v.spymasters[team];
    if (v.phase === "clue") return "The " + team + " team's turn: " + spymaster +
      " gives a clue.";
    let text = "The " + team + " team's turn.";
    if (v.clue) text += " Clue: " + v.clue.word + ", " + (v.clue.unlimited ? "unlimited"
      : v.clue.number) + ".";
    if (v.guesses_left !== null && v.guesses_left !== undefined) {
      text += " " + plural(v.guesses_left, "guess", "guesses") + " left.";
    }
    if (v.pending) text += " " + spymaster + " must say the colour of " + v.pending + ".";
    return text;
  }

  function codenamesGrid(v, key) {
    const table = el("table", { class: "grid" });
    table.append(el("caption", {}, key ? "The key (only you can see it)" :
      "The grid, row by row"));
    const size = 5;
    for (let r = 0; r < size; r++) {
      const row = el("tr", {});
      for (let c = 0; c < size; c++) {
        const i = r * size + c;
        const tile = v.grid[i];
        if (!tile) continue;
        const colour = key ? key[i] : tile.covered;
        let state;
        if (key) state = COLOUR_WORDS[colour] + (tile.covered ? ", covered" : "");
        else state = tile.covered ? "covered: " + COLOUR_WORDS[tile.covered] : "not covered";
        row.append(el("td", { class: (colour ? "tile-" + colour : "") +
          (tile.covered ? " covered" : "") },
        el("span", { class: "word" }, tile.word), el("span", { class: "state" }, state)));
      }
      table.append(row);
    }
    return table;
  }

  function codenamesPublic(v) {
    if (!v.grid.length) return [];
    const parts = [
      el("p", {}, "Red team: " + names(v.teams.red) + " (spymaster " + v.spymasters.red +
        "). Blue team: " + names(v.teams.blue) + " (spymaster " + v.spymasters.blue + ")."),
      el("p", {}, "Agents left: red " + v.remaining.red + ", blue " + v.remaining.blue + "."),
      codenamesGrid(v, null),
    ];
    if (v.clues.length) {
      const list = el("ol", {});
      v.clues.forEach((c) => list.append(el("li", {}, c.team + ": " + c.word + ", " +
        (c.number === null ? "unlimited" : c.number))));
      parts.push(el("h3", {}, "Clues so far"), list);
    }
    return parts;
  }

  function codenamesSecret(v) {
    const you = v.you;
    if (!v.key) {
      const summary = "You are on the " + you.team + " team" + (you.spymaster
        ? ", its spymaster. The host does not know the key: use the key card."
        : ". Only the spymasters see the key.");
      return secretBlock(summary);
    }
    const summary = "You are the " + you.team + " spymaster. The key is below.";
    const groups = { red: [], blue: [], neutral: [], assassin: [] };
    v.key.forEach((colour, i) => {
      const tile = v.grid[i];
      if (tile && !tile.covered) groups[colour].push(tile.word);
    });
    const list = el("ul", {});
    list.append(el("li", {}, "Red agents not yet found: " + names(groups.red) + "."));
    list.append(el("li", {}, "Blue agents not yet found: " + names(groups.blue) + "."));
    list.append(el("li", {}, "Bystanders: " + names(groups.neutral) + "."));
    list.append(el("li", {}, "Assassin: " + names(groups.assassin) + "."));
    return { summary: summary, nodes: [el("p", { class: "big" }, summary), list,
      codenamesGrid(v, v.key)] };
  }

  // ------------------------------------------------------------------ Ici Londres

  function iciStatus(v) {
    const round = "Round " + v.round + " of " + v.total_rounds + ", " + v.mode_title;
    switch (v.phase) {
      case "draw": return round + ": " + v.speaker + " is the Speaker.";
      case "guess": {
        const who = v.current_players.length ? names(v.current_players) : "nobody";
        return round + ". Speaker " + v.speaker + ", Wehrmacht " + v.wehrmacht + ". Turn: " +
          who + ". Icons found: " + v.found.length + " of 2.";
      }
      case "answer":
        return v.speaker + " must say whether " + v.awaiting_answer + " is on a card.";
      case "over":
        return "The game is over. Winners: " + names(v.winners) + ".";
      default: return "";
    }
  }

  function iciPublic(v) {
    const scores = el("table", {});
    scores.append(el("caption", {}, "Scores"));
    scores.append(el("tr", {}, el("th", { scope: "col" }, "Player"),
      el("th", { scope: "col" }, "Points"), el("th", { scope: "col" }, "This round")));
    v.players.forEach((p) => {
      const role = p === v.speaker ? "Speaker" : p === v.wehrmacht ? "Wehrmacht"
        : "Résistant";
      const left = v.picks_left[p];
      scores.append(el("tr", {}, el("th", { scope: "row" }, p), el("td", {}, String(v.scores[p])),
        el("td", {}, role + (left === undefined ? "" : ", " + plural(left, "pick", "picks") +
          " left"))));
    });
    const icons = ((state.hello && state.hello.extras && state.hello.extras.icons) || []);
    const named = {};
    v.named.forEach((n) => { named[n.icon] = n; });
    const list = el("ul", { class: "icons", "aria-label": "The 36 icons" });
    icons.forEach((icon) => {
      const n = named[icon.name];
      let words = "not tried";
      let cls = null;
      if (n) {
        if (n.hit === true) { words = "found by " + n.player; cls = "found"; }
        else if (n.hit === false) { words = "tried by " + n.player + ": a miss"; cls = "tried"; }
        else { words = "tried by " + n.player + ": waiting for the answer"; cls = "tried"; }
      }
      list.append(el("li", { class: cls }, el("span", { class: "icon-name" },
        icon.name + " (" + icon.french + ")"), el("span", { class: "icon-state" }, words)));
    });
    const tried = v.named.map((n) => n.icon + " (" + n.player + ", " +
      (n.hit === true ? "found" : n.hit === false ? "a miss" : "waiting") + ")");
    return [
      scores,
      el("h3", {}, "Icons tried this round"),
      el("p", {}, tried.length ? names(tried) + "." : "None yet."),
      list,
    ];
  }

  function iciSecret(v) {
    if (v.message) {
      const summary = "You are the Speaker. Your message: " + names(v.message) + ".";
      return secretBlock(summary, el("p", { class: "big" }, summary),
        el("p", {}, "Code both icons into one radio sentence. Nobody else sees them."));
    }
    const role = v.you === v.speaker ? "You are the Speaker" + (v.deal === "host"
      ? "; your icons appear here when they are drawn." : ": look at your two cards.")
      : v.you === v.wehrmacht ? "You are the Wehrmacht this round: you guess first."
        : "You are a Résistant this round.";
    return secretBlock(role);
  }

  // ------------------------------------------------------------------ start

  function start() {
    $("room-form").addEventListener("submit", submitRoom);
    if (PAGE === "seat") {
      $("seat-form").addEventListener("submit", submitSeat);
      $("leave").addEventListener("click", leaveSeat);
      $("hide-secret").addEventListener("click", () => {
        const box = $("secret");
        const hide = !box.classList.contains("hidden-secret");
        box.classList.toggle("hidden-secret", hide);
        document.body.classList.toggle("secret-hidden", hide);
        $("hide-secret").setAttribute("aria-expanded", hide ? "false" : "true");
        $("hide-secret").textContent = hide ? "Show my secret" : "Hide my secret";
      });
    }
    const stored = PAGE === "seat" ? loadStored() : null;
    const hashRoom = roomFromHash();
    if (stored && stored.token && (!hashRoom || hashRoom === stored.room)) {
      api("/api/seat/" + encodeURIComponent(stored.seat)).then((res) => {
        if (res.status === 200) {
          state.room = stored.room;
          openSeat(stored.seat, res.body.move_code);
        } else {
          saveStored(null);
          $("join-error").textContent = "Your seat is no longer on this device. Join again.";
          if (hashRoom) { $("room").value = hashRoom; submitRoom(null); }
        }
      });
      return;
    }
    if (hashRoom) {
      $("room").value = hashRoom;
      submitRoom(null);
    }
  }

  start();
})();
