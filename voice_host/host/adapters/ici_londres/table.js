// Ici Londres on the television: the 36 icons as pictures (static/icons/<name>.svg, drawn by
// scripts/make_icons.py, each named in the game's language), marked when named, found or
// missed this round; the round, the Speaker and the Wehrmacht player, the scores and picks
// left; at the end the winners, the scores and each round's story. Registered with the
// television's core (static/table.js); its words are the [ici-londres] table of
// host/lang/<lang>/tv.toml, as "tv.ici-londres.*".
"use strict";

window.tableBoards.register("ici-londres", (kit) => {
  const { t, tn, el, names } = kit;
  const w = (key, params) => t("tv.ici-londres." + key, params);

  function iconName(name) {
    const icon = (kit.extras().icons || []).find((i) => i.name === name);
    if (!icon) return name;
    return kit.lang() === "fr" ? icon.french : icon.name;
  }

  function status(v) {
    const p = { round: v.round, total: v.total_rounds, speaker: v.speaker,
      wehrmacht: v.wehrmacht, who: names(v.current_players), name: v.awaiting_answer };
    switch (v.phase) {
      case "draw": return w("draw", p);
      case "guess": return w("guess", p);
      case "answer": return w("answer", p);
      case "over": return w("over", { winners: names(v.winners) });
      default: return "";
    }
  }

  function tile(icon, named) {
    let cls = "il-icon";
    let mark = "";
    let note = "";
    if (named) {
      if (named.hit === true) {
        cls += " found"; mark = "✓"; note = w("found_by", { name: named.player });
      } else if (named.hit === false) {
        cls += " missed"; mark = "✗"; note = w("missed_by", { name: named.player });
      } else {
        cls += " waiting"; mark = "?"; note = w("waiting_by", { name: named.player });
      }
    }
    const shown = iconName(icon.name);
    return el("li", { class: cls, "data-icon": icon.name },
      el("img", { src: "/static/icons/" + icon.name + ".svg", alt: shown, width: 64,
        height: 64 }),
      el("span", { class: "il-name", "aria-hidden": "true" }, shown),
      named ? el("span", { class: "il-mark" }, el("span", { "aria-hidden": "true" }, mark + " "),
        el("span", { class: "visually-hidden" }, note), el("span", { "aria-hidden": "true" },
          named.player)) : null);
  }

  function render(v) {
    const named = {};
    v.named.forEach((n) => { named[n.icon] = n; });
    const icons = kit.extras().icons || [];
    const grid = el("ul", { class: "il-grid", "aria-label": w("icons") },
      icons.map((icon) => tile(icon, named[icon.name])));
    const round = el("div", { class: "il-round" },
      el("p", { class: "il-round-n" }, w("round", { round: v.round, total: v.total_rounds })),
      el("p", { class: "il-mode" }, v.mode_title));
    const roles = el("div", { class: "il-roles" },
      el("p", { class: "il-role speaker" }, el("span", { class: "il-role-label" },
        w("speaker")), el("span", { class: "il-role-name" }, v.speaker)),
      el("p", { class: "il-role wehrmacht" }, el("span", { class: "il-role-label" },
        w("wehrmacht")), el("span", { class: "il-role-name" }, v.wehrmacht)));
    const found = el("p", { class: "il-found" }, w("found_count", { n: v.found.length }));
    const scores = el("ol", { class: "il-scores", "aria-label": w("scores") });
    v.players.forEach((p) => {
      const left = v.picks_left[p];
      const role = p === v.speaker ? w("speaker") : p === v.wehrmacht ? w("wehrmacht") : "";
      scores.append(el("li", { class: "il-player" + (v.current_players.includes(p)
        ? " to-play" : "") },
      el("span", { class: "il-player-name" }, p),
      el("span", { class: "il-player-role" }, role || (left === undefined ? ""
        : tn("tv.ici-londres.picks_left", left))),
      el("span", { class: "il-points" }, tn("tv.ici-londres.points", v.scores[p]))));
    });
    const side = el("div", { class: "il-side" }, round, roles, found,
      el("h3", {}, w("scores")), scores);
    if (v.named.length) {
      // the icons named this round, the latest first (the board marks them all)
      const list = el("ul", { class: "il-named" }, v.named.slice(v.players.length > 4 ? -4 : -6).reverse().map((n) =>
        el("li", { class: n.hit === true ? "found" : n.hit === false ? "missed" : "waiting" },
          el("img", { src: "/static/icons/" + n.icon + ".svg", alt: "", width: 32, height: 32 }),
          el("span", {}, iconName(n.icon) + " — " + w(n.hit === true ? "found_by"
            : n.hit === false ? "missed_by" : "waiting_by", { name: n.player })))));
      side.append(el("h3", {}, w("named")), list);
    }
    return el("div", { class: "il" }, grid, side);
  }

  function end(v, facts) {
    const ranked = v.players.slice().sort((a, b) => v.scores[b] - v.scores[a]);
    const best = Math.max(1, ...ranked.map((p) => v.scores[p]));
    const podium = el("ol", { class: "il-podium", "aria-label": w("scores") }, ranked.map((p) => {
      const bar = el("span", { class: "il-bar", "aria-hidden": "true" });
      bar.style.height = Math.max(4, Math.round(100 * v.scores[p] / best)) + "%";
      return el("li", { class: v.winners.includes(p) ? "gold" : null },
        el("span", { class: "il-bar-points" }, tn("tv.ici-londres.points", v.scores[p])),
        el("span", { class: "il-bar-box" }, bar),
        el("span", { class: "il-bar-name" }, (v.winners.includes(p) ? "♛ " : "") + p));
    }));
    const moments = (facts.rounds || []).filter((r) => r.found.length).map((r) => ({
      pictures: r.found.map((f) => ({ src: "/static/icons/" + f.icon + ".svg" })),
      text: w("moment", { round: r.round, speaker: r.speaker,
        found: r.found.map((f) => w(f.intercepted ? "intercepted" : "found_icon",
          { icon: iconName(f.icon), name: f.finder })).join(", ") }) }));
    const silent = (facts.rounds || []).filter((r) => !r.found.length).length;
    if (silent) moments.push({ text: tn("tv.ici-londres.moment_silent", silent) });
    return {
      winner: v.winners.length === 1 ? w("winner_one", { name: v.winners[0] })
        : w("winner_many", { names: names(v.winners) }),
      side: "gold",
      reason: "",
      roles: [],
      moments: moments,
      board: podium,
    };
  }

  return { status: status, over: (v) => v.phase === "over", render: render, end: end };
});
