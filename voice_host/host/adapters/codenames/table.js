// Codenames on the television: the 5x5 grid over the whole screen, each covered card in its
// colour with its words (never the key card: only what the table uncovered), the two teams'
// agents left, the clue and the guesses left; at the end the winner, who played what and each
// clue's story. Registered with the television's core (static/table.js); its words are the
// [codenames] table of host/lang/<lang>/tv.toml, as "tv.codenames.*".
"use strict";

window.tableBoards.register("codenames", (kit) => {
  const { t, tn, el, names } = kit;
  const w = (key, params) => t("tv.codenames." + key, params);
  const MARK = { red: "◆", blue: "●", neutral: "—", assassin: "☠" };

  function team(name) {
    return w("team_" + name);
  }

  function number(clue) {
    return clue.unlimited || clue.number === null ? "∞" : String(clue.number);
  }

  function status(v) {
    if (v.phase === "deal") return w("deal");
    if (v.phase === "over") return w("over", { team: team(v.winner) });
    const p = { team: team(v.team), spymaster: v.spymasters[v.team] };
    if (v.phase === "clue") return w("clue_phase", p);
    if (v.phase === "colour") return w("colour_phase", Object.assign({ word: v.pending }, p));
    if (v.phase === "penalty") return w("penalty_phase", p);
    return w("guess_phase", p);
  }

  function teamBox(v, name) {
    const active = v.team === name && v.phase !== "over";
    const players = v.teams[name] || [];
    const operatives = players.filter((p) => p !== v.spymasters[name]);
    return el("div", { class: "cn-team " + name + (active ? " active" : "") },
      el("p", { class: "cn-count" }, String(v.remaining[name])),
      el("div", { class: "cn-team-words" },
        el("p", { class: "cn-team-name" }, tn("tv.codenames.agents_left", v.remaining[name],
          { team: team(name) })),
        el("p", { class: "cn-who" }, w("spymaster", { name: v.spymasters[name] })),
        el("p", { class: "cn-who" }, names(operatives))));
  }

  function turnBox(v) {
    const parts = [];
    if (v.clue && (v.phase === "guess" || v.phase === "colour")) {
      parts.push(el("p", { class: "cn-clue-label" }, w("clue_label", { team: team(v.team) })),
        el("p", { class: "cn-clue" }, el("span", { class: "cn-clue-word" }, v.clue.word),
          " ", el("span", { class: "cn-clue-number" }, number(v.clue))));
      if (v.guesses_left !== null && v.guesses_left !== undefined) {
        parts.push(el("p", { class: "cn-guesses" }, tn("tv.codenames.guesses_left",
          v.guesses_left)));
      } else {
        parts.push(el("p", { class: "cn-guesses" }, w("no_limit")));
      }
    } else if (v.phase === "clue") {
      parts.push(el("p", { class: "cn-clue-label" }, w("waiting_clue", {
        spymaster: v.spymasters[v.team] })));
    }
    return el("div", { class: "cn-turn " + (v.team || "") }, parts);
  }

  function card(tile, fitting, pending) {
    const covered = tile.covered;
    const attrs = { class: "cn-card" + (covered ? " covered " + covered : "") +
      (pending ? " pending" : ""), role: "listitem" };
    return el("li", attrs,
      el("span", { class: "cn-word", "data-fit": fitting || "60,28" }, tile.word),
      covered ? el("span", { class: "cn-tag" }, el("span", { "aria-hidden": "true" },
        MARK[covered] + " "), w("covered_" + covered)) : null);
  }

  function render(v) {
    if (!v.grid.length) return el("p", { class: "big" }, w("deal"));
    const grid = el("ul", { class: "cn-grid", "aria-label": w("grid") },
      v.grid.map((tile) => card(tile, null, v.phase === "colour" && tile.word === v.pending)));
    if (v.language && v.language !== kit.lang()) grid.setAttribute("lang", v.language);
    return el("div", { class: "cn" },
      el("div", { class: "cn-top" }, teamBox(v, "red"), turnBox(v), teamBox(v, "blue")),
      grid);
  }

  function end(v, facts) {
    const roles = [];
    for (const side of ["red", "blue"]) {
      for (const p of v.teams[side] || []) {
        roles.push({ player: p, side: side, role: w(p === v.spymasters[side]
          ? "role_spymaster" : "role_operative", { team: team(side) }) });
      }
    }
    const moments = (facts.turns || []).map((turn) => {
      const covered = turn.covered.map((c) => w("covered_word", { word: c.word,
        colour: w("covered_" + c.colour) }));
      return { side: turn.team, text: w("moment", { team: team(turn.team), clue: turn.clue,
        number: turn.number === null ? "∞" : turn.number,
        covered: covered.length ? covered.join(", ") : w("nothing_covered") }) };
    });
    const loser = v.winner === "red" ? "blue" : "red";
    return {
      winner: w("winner", { team: team(v.winner) }),
      side: v.winner,
      reason: v.reason === "assassin" ? w("reason_assassin", { team: team(loser) })
        : w("reason_all_found", { team: team(v.winner) }),
      roles: roles,
      moments: moments.slice(-6),
      board: el("ul", { class: "cn-grid small", "aria-label": w("final_grid") },
        v.grid.map((tile) => card(tile, "36,14"))),
    };
  }

  return { status: status, over: (v) => v.phase === "over", render: render, end: end };
});
