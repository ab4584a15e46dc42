// Resistance on the companion page: its status line, what everyone sees and a seat's secret.
// Registered with the page's core (companion.js, "games"); its words are the [page] table of
// host/lang/<lang>/resistance.toml, as "game.*".
"use strict";

window.companionGames.register("resistance", (kit) => {
  const { t, tn, el, names, secretBlock } = kit;

  function status(v) {
    const p = { mission: v.mission, leader: v.leader, size: v.team_size,
      team: names(v.proposed_team || []), waiting: names(v.current_players || []) };
    switch (v.phase) {
      case "setup": return t("game.setup");
      case "team":
        return t("game.team", p) + (v.two_sabotages_needed ? " " + t("game.two_needed") : "");
      case "vote": return t("game.vote", p);
      case "mission": return t("game.mission", p);
      case "accuse": return t("game.accuse", { spies: names(v.revealed_spies || []) });
      case "answer": return t("game.answer", { name: v.accused });
      case "over": {
        const out = v.outcome || { winners: [] };
        return t("game.over", { winners: names((out.winners || []).map((w) =>
          t("game.side_" + w))) });
      }
      default: return "";
    }
  }

  function publicParts(v) {
    const track = el("ol", { class: "track", "aria-label": t("game.track") });
    v.team_sizes.forEach((size, i) => {
      const number = i + 1;
      const done = v.missions.find((m) => m.mission === number);
      let text = t("game.track_item", { mission: number, size: size });
      if (done) text += done.succeeded ? t("game.track_succeeded")
        : tn("game.track_failed", done.sabotages);
      else if (number === v.mission && v.phase !== "over") text += t("game.track_now");
      track.append(el("li", { class: done ? "done" : number === v.mission ? "now" : null },
        text));
    });
    const parts = [
      el("h3", {}, t("game.missions")),
      el("p", {}, t("game.score", { successes: v.successes, failures: v.failures,
        rejections: v.rejections })),
      track,
      el("p", {}, t("game.leader", { leader: v.leader || t("game.no_leader"),
        players: names(v.players) })),
    ];
    if (v.proposed_team) {
      let text = t("game.on_table", { team: names(v.proposed_team) });
      if (v.phase === "vote") text += " " + t("game.voted_so_far", { names: names(v.voted) });
      if (v.phase === "mission") {
        text += " " + t("game.cards_by", { names: names(v.played_card) });
      }
      parts.push(el("p", {}, text));
    }
    if (v.votes.length) {
      const list = el("ol", {});
      v.votes.slice().reverse().slice(0, 10).forEach((vote) => {
        const how = vote.yes.length || vote.no.length
          ? t("game.vote_how", { yes: names(vote.yes), no: names(vote.no) })
          : t("game.vote_count", { n: vote.yes_count });
        list.append(el("li", {}, t(vote.approved ? "game.vote_approved" : "game.vote_rejected", {
          mission: vote.mission, leader: vote.leader, team: names(vote.team), how: how })));
      });
      parts.push(el("h3", {}, t("game.votes")), list);
    }
    if (v.missions.length) {
      const table = el("table", {});
      table.append(el("caption", {}, t("game.missions_played")));
      table.append(el("tr", {}, el("th", { scope: "col" }, t("game.col_mission")),
        el("th", { scope: "col" }, t("game.col_team")),
        el("th", { scope: "col" }, t("game.col_sabotages")),
        el("th", { scope: "col" }, t("game.col_result"))));
      v.missions.forEach((m) => table.append(el("tr", {}, el("td", {}, String(m.mission)),
        el("td", {}, names(m.team)), el("td", {}, String(m.sabotages)),
        el("td", {}, m.succeeded ? t("game.succeeded") : t("game.failed")))));
      parts.push(table);
    }
    if (v.revealed_spies) {
      parts.push(el("p", {}, t("game.revealed", { spies: names(v.revealed_spies) })));
    }
    return parts;
  }

  function secret(v) {
    // before the deal, a host-dealt role is on its way; only with physical cards does the
    // host not know it
    if (!v.role) return secretBlock(t(v.deal === "host" ? "game.role_dealing" : "game.role_unknown"));
    let summary;
    if (v.role === "spy") {
      const others = v.known_spies.filter((p) => p !== v.you);
      summary = others.length ? t("game.role_spy", { others: names(others) })
        : t("game.role_lone_spy");
    } else if (v.role === "double_agent") {
      summary = t("game.role_double", { spies: names(v.known_spies) });
    } else {
      summary = t("game.role_hero");
    }
    const nodes = [el("p", { class: "big" }, summary)];
    if (v.my_mission_card) {
      nodes.push(el("p", {}, t("game.my_card", { card: t("game.card_" + v.my_mission_card) })));
    }
    return { summary: summary, nodes: nodes };
  }

  return { status: status, publicParts: publicParts, secret: secret };
});
