// Ici Londres on the companion page: its status line, what everyone sees and a seat's secret.
// Registered with the page's core (companion.js, "games"); its words are the [page] table of
// host/lang/<lang>/ici-londres.toml, as "game.*".
"use strict";

window.companionGames.register("ici-londres", (kit) => {
  const { t, tn, el, names, secretBlock } = kit;

  function iconName(name) {
    const icon = (kit.extras().icons || []).find((i) => i.name === name);
    if (!icon) return name;
    return kit.lang() === "fr" ? icon.french : icon.name;
  }

  function status(v) {
    const round = t("game.round", { round: v.round, total: v.total_rounds, mode: v.mode_title });
    switch (v.phase) {
      case "draw": return t("game.draw", { round: round, speaker: v.speaker });
      case "guess":
        return t("game.guess", { round: round, speaker: v.speaker, wehrmacht: v.wehrmacht,
          who: names(v.current_players), found: v.found.length });
      case "answer":
        return t("game.answer", { speaker: v.speaker, name: v.awaiting_answer });
      case "over": return t("game.over", { winners: names(v.winners) });
      default: return "";
    }
  }

  function publicParts(v) {
    const scores = el("table", {});
    scores.append(el("caption", {}, t("game.scores")));
    scores.append(el("tr", {}, el("th", { scope: "col" }, t("game.col_player")),
      el("th", { scope: "col" }, t("game.col_points")),
      el("th", { scope: "col" }, t("game.col_round"))));
    v.players.forEach((p) => {
      const role = p === v.speaker ? t("game.speaker") : p === v.wehrmacht ? t("game.wehrmacht")
        : t("game.resistant");
      const left = v.picks_left[p];
      scores.append(el("tr", {}, el("th", { scope: "row" }, p),
        el("td", {}, String(v.scores[p])),
        el("td", {}, role + (left === undefined ? "" : ", " + tn("game.picks_left", left)))));
    });
    const icons = kit.extras().icons || [];
    const named = {};
    v.named.forEach((n) => { named[n.icon] = n; });
    const list = el("ul", { class: "icons", "aria-label": t("game.all_icons") });
    icons.forEach((icon) => {
      const n = named[icon.name];
      let words = t("game.not_tried");
      let cls = null;
      if (n) {
        if (n.hit === true) { words = t("game.found_by", { name: n.player }); cls = "found"; }
        else if (n.hit === false) { words = t("game.miss_by", { name: n.player }); cls = "tried"; }
        else { words = t("game.waiting_by", { name: n.player }); cls = "tried"; }
      }
      // the name in the other language is a gloss, marked as that language for readers
      const french = kit.lang() === "fr";
      const other = el("span", { lang: french ? "en" : "fr" }, french ? icon.name : icon.french);
      list.append(el("li", { class: cls }, el("span", { class: "icon-name" },
        iconName(icon.name) + " (", other, ")"), el("span", { class: "icon-state" }, words)));
    });
    const tried = v.named.map((n) => iconName(n.icon) + " (" + n.player + ", " +
      (n.hit === true ? t("game.found") : n.hit === false ? t("game.a_miss")
        : t("game.waiting")) + ")");
    return [
      scores,
      el("h3", {}, t("game.tried")),
      el("p", {}, tried.length ? names(tried) + "." : t("game.none_yet")),
      list,
    ];
  }

  function secret(v) {
    if (v.message) {
      const summary = t("game.your_message", { icons: names(v.message.map(iconName)) });
      return secretBlock(summary, el("p", { class: "big" }, summary),
        el("p", {}, t("game.code_them")));
    }
    const role = v.you === v.speaker ? t(v.deal === "host" ? "game.you_speaker_host"
      : "game.you_speaker_table")
      : v.you === v.wehrmacht ? t("game.you_wehrmacht") : t("game.you_resistant");
    return secretBlock(role);
  }

  return { status: status, publicParts: publicParts, secret: secret, valueName: iconName };
});
