// Codenames on the companion page: its status line, what everyone sees and a seat's secret.
// Registered with the page's core (companion.js, "games"); its words are the [page] table of
// host/lang/<lang>/codenames.toml, as "game.*".
"use strict";

window.companionGames.register("codenames", (kit) => {
  const { t, tn, el, names, secretBlock } = kit;

  function colourWord(colour) {
    return t("game.colour_" + colour);
  }

  function teamWord(team) {
    return t("game.team_" + team);
  }

  function status(v) {
    if (v.phase === "deal") return t("game.deal");
    if (v.phase === "over") {
      return t(v.reason === "assassin" ? "game.over_assassin" : "game.over",
        { team: teamWord(v.winner) });
    }
    const p = { team: teamWord(v.team), spymaster: v.spymasters[v.team] };
    if (v.phase === "clue") return t("game.clue_phase", p);
    let text = t("game.turn", p);
    if (v.clue) {
      text += " " + t("game.clue", { word: v.clue.word,
        number: v.clue.unlimited ? t("game.unlimited") : v.clue.number });
    }
    if (v.guesses_left !== null && v.guesses_left !== undefined) {
      text += " " + tn("game.guesses_left", v.guesses_left);
    }
    if (v.pending) text += " " + t("game.pending", { spymaster: p.spymaster, word: v.pending });
    return text;
  }

  function grid(v, key) {
    // explicit roles keep the table's meaning when narrow screens wrap its rows
    const table = el("table", { class: "grid" + (key ? " key" : ""), role: "table" });
    table.append(el("caption", {}, key ? t("game.key_caption") : t("game.grid_caption")));
    const size = 5;
    for (let r = 0; r < size; r++) {
      const row = el("tr", { role: "row" });
      for (let c = 0; c < size; c++) {
        const i = r * size + c;
        const tile = v.grid[i];
        if (!tile) continue;
        const colour = key ? key[i] : tile.covered;
        let words;
        if (key) words = colourWord(colour) + (tile.covered ? ", " + t("game.covered") : "");
        else words = tile.covered ? t("game.covered_by", { colour: colourWord(tile.covered) })
          : t("game.not_covered");
        row.append(el("td", { role: "cell", class: (colour ? "tile-" + colour : "") +
          (tile.covered ? " covered" : "") },
        el("span", { class: "word", lang: v.words_lang || null }, tile.word),
        el("span", { class: "state" }, words)));
      }
      table.append(row);
    }
    return table;
  }

  function publicParts(v) {
    if (!v.grid.length) return [];
    const parts = [
      el("p", {}, t("game.teams", { red: names(v.teams.red), red_spymaster: v.spymasters.red,
        blue: names(v.teams.blue), blue_spymaster: v.spymasters.blue })),
      el("p", {}, t("game.remaining", { red: v.remaining.red, blue: v.remaining.blue })),
      grid(v, null),
    ];
    if (v.clues.length) {
      const list = el("ol", {});
      v.clues.forEach((c) => list.append(el("li", {}, teamWord(c.team) + ": " + c.word + ", " +
        (c.number === null ? t("game.unlimited") : c.number))));
      parts.push(el("h3", {}, t("game.clues")), list);
    }
    return parts;
  }

  function secret(v) {
    const you = v.you;
    if (!v.key) {
      const spymaster = v.deal === "host" ? "game.you_spymaster_wait" : "game.you_spymaster_table";
      const summary = you.spymaster ? t(spymaster, { team: teamWord(you.team) })
        : t("game.you_operative", { team: teamWord(you.team) });
      return secretBlock(summary);
    }
    const summary = t("game.you_spymaster", { team: teamWord(you.team) });
    const groups = { red: [], blue: [], neutral: [], assassin: [] };
    v.key.forEach((colour, i) => {
      const tile = v.grid[i];
      if (tile && !tile.covered) groups[colour].push(tile.word);
    });
    const list = el("ul", {});
    list.append(el("li", {}, t("game.left_red", { words: names(groups.red) })));
    list.append(el("li", {}, t("game.left_blue", { words: names(groups.blue) })));
    list.append(el("li", {}, t("game.left_neutral", { words: names(groups.neutral) })));
    list.append(el("li", {}, t("game.left_assassin", { words: names(groups.assassin) })));
    return { summary: summary, nodes: [el("p", { class: "big" }, summary), list,
      grid(v, v.key)] };
  }

  return { status: status, publicParts: publicParts, secret: secret };
});
