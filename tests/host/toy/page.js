// The toy game "Ten" on the companion page: the running total, whose turn it is, and (for a
// seat) that there is nothing secret. Registered with the page's core (companion.js,
// "games"); its words are the [page] table of lang/<lang>/ten.toml, as "game.*".
"use strict";

window.companionGames.register("ten", (kit) => {
  const { t, el, names, secretBlock } = kit;

  function status(v) {
    if (v.total >= 10) return t("game.over", { total: v.total });
    const player = v.players[v.turn % v.players.length];
    return t("game.turn", { player: player, total: v.total });
  }

  function publicParts(v) {
    return [el("p", { id: "ten-total" }, t("game.total", { total: v.total })),
      el("p", {}, t("game.players", { players: names(v.players) }))];
  }

  function secret(v) {
    return secretBlock(t("game.no_secret"));
  }

  return { status: status, publicParts: publicParts, secret: secret };
});
