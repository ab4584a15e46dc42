// Resistance on the television: the five missions as a track (team sizes; a success and a
// failure each in its own colour and symbol, with the sabotages), the rejected teams, the
// leader and the team on the table, and the last vote (who said yes and who said no); at the
// end the winners, every role the table may now know, and the game's key moments.
// Registered with the television's core (static/table.js); its words are the [resistance]
// table of host/lang/<lang>/tv.toml, as "tv.resistance.*".
"use strict";

window.tableBoards.register("resistance", (kit) => {
  const { t, tn, el, names } = kit;
  const w = (key, params) => t("tv.resistance." + key, params);
  const rejectionLimit = 5;

  function status(v) {
    const p = { mission: v.mission, leader: v.leader, size: v.team_size,
      team: names(v.proposed_team || []) };
    switch (v.phase) {
      case "setup": return w("setup");
      case "team": return w("team", p);
      case "vote": return w("vote", p);
      case "mission": return w("mission", p);
      case "accuse": return w("accuse", { spies: names(v.revealed_spies || []) });
      case "answer": return w("answer", { name: v.accused });
      case "over": return winnerLine(v);
      default: return "";
    }
  }

  function winnerLine(v) {
    const winners = ((v.outcome || {}).winners || []);
    return winners.includes("spies") ? w("spies_win") : w("heroes_win");
  }

  function track(v) {
    const list = el("ol", { class: "rs-track", "aria-label": w("track") });
    v.team_sizes.forEach((size, i) => {
      const n = i + 1;
      const done = v.missions.find((m) => m.mission === n);
      let cls = "later";
      let symbol = String(n);
      let result = "";
      if (done && done.succeeded) {
        cls = "success"; symbol = "✓"; result = w("succeeded");
      } else if (done) {
        cls = "failure"; symbol = "✗"; result = w("failed");
      } else if (n === v.mission && v.phase !== "over") {
        cls = "now"; result = w("now");
      }
      const detail = done ? tn("tv.resistance.sabotages", done.sabotages) : n === v.mission &&
        v.two_sabotages_needed && v.phase !== "over" ? w("two_needed") : "";
      list.append(el("li", { class: "rs-mission " + cls },
        el("span", { class: "rs-mission-name" }, w("mission_n", { n: n })),
        el("span", { class: "rs-disc", "aria-hidden": "true" }, symbol),
        el("span", { class: "rs-size" }, tn("tv.resistance.agents", size)),
        el("span", { class: "rs-result" }, result),
        el("span", { class: "rs-detail" }, detail)));
    });
    return list;
  }

  function rejections(v) {
    const boxes = el("ol", { class: "rs-rejections", "aria-hidden": "true" });
    for (let i = 1; i <= rejectionLimit; i++) {
      boxes.append(el("li", { class: i <= v.rejections ? "on" : null },
        i === rejectionLimit ? "✗" : String(i)));
    }
    return el("div", { class: "rs-reject-box" },
      el("p", { class: "rs-reject-label" }, w("rejected", { n: v.rejections,
        limit: rejectionLimit })), boxes);
  }

  function badge(kind, symbol, words, compact) {
    // a large table shows the symbols only (their words stay for screen readers)
    if (!compact) return el("span", { class: "badge " + kind }, (symbol ? symbol + " " : "") + words);
    return el("span", { class: "badge " + kind }, el("span", { "aria-hidden": "true" },
      symbol || words), symbol ? el("span", { class: "visually-hidden" }, words) : null);
  }

  function playerChip(v, p, compact) {
    const onTeam = (v.proposed_team || []).includes(p);
    const badges = [];
    if (p === v.leader) badges.push(badge("leader", "♛", w("leader"), compact));
    if (onTeam) badges.push(badge("team", "★", w("on_team"), compact));
    if (v.phase === "vote" && v.voted.includes(p)) {
      badges.push(badge("done", "✓", w("voted"), compact));
    }
    if (v.phase === "mission" && v.played_card.includes(p)) {
      badges.push(badge("done", "✓", w("card_played"), compact));
    }
    if ((v.revealed_spies || []).includes(p)) badges.push(badge("spy", "", w("spy"), compact));
    return el("li", { class: "rs-player" + (onTeam ? " on-team" : "") +
      (p === v.leader ? " is-leader" : "") }, el("span", { class: "rs-name" }, p), badges);
  }

  function lastVote(v) {
    if (!v.votes.length) return el("div", { class: "rs-vote empty" },
      el("h3", {}, w("last_vote")), el("p", {}, w("no_vote_yet")));
    const vote = v.votes[v.votes.length - 1];
    const parts = [el("h3", {}, w("last_vote")),
      el("p", { class: "rs-vote-what" }, w("vote_what", { mission: vote.mission,
        leader: vote.leader, team: names(vote.team) })),
      el("p", { class: "rs-verdict " + (vote.approved ? "yes" : "no") },
        (vote.approved ? "✓ " : "✗ ") + w(vote.approved ? "approved" : "rejected_vote"))];
    if (vote.yes.length || vote.no.length) {
      parts.push(el("p", { class: "rs-yes" }, el("span", { class: "rs-yn" }, "✓ " + w("yes")),
        " ", names(vote.yes)));
      parts.push(el("p", { class: "rs-no" }, el("span", { class: "rs-yn" }, "✗ " + w("no")),
        " ", names(vote.no)));
    } else {
      parts.push(el("p", {}, w("yes_count", { n: vote.yes_count })));
    }
    return el("div", { class: "rs-vote" }, parts);
  }

  function proposal(v) {
    // the team on the table (or the leader still choosing it), large
    if (v.phase === "over" || v.phase === "setup" || !v.leader) return null;
    if (!v.proposed_team) {
      return el("div", { class: "rs-proposal" }, el("p", { class: "rs-proposal-label" },
        w("choosing", { leader: v.leader, size: v.team_size, mission: v.mission })));
    }
    return el("div", { class: "rs-proposal" },
      el("p", { class: "rs-proposal-label" }, w("proposal", { leader: v.leader,
        mission: v.mission })),
      el("ul", { class: "rs-proposal-team" }, v.proposed_team.map((p) =>
        el("li", {}, el("span", { "aria-hidden": "true" }, "★ "), p))));
  }

  function render(v) {
    const compact = v.players.length > 6;
    const score = el("div", { class: "rs-score" },
      el("p", { class: "rs-side heroes" }, el("span", { class: "rs-big" }, String(v.successes)),
        " ", tn("tv.resistance.successes", v.successes)),
      el("p", { class: "rs-side spies" }, el("span", { class: "rs-big" }, String(v.failures)),
        " ", tn("tv.resistance.failures", v.failures)));
    const main = el("div", { class: "rs-main" }, proposal(v), score, track(v), rejections(v));
    const side = el("div", { class: "rs-aside" },
      el("h3", {}, w("players")),
      el("ul", { class: "rs-players" + (compact ? " many" : "") },
        v.players.map((p) => playerChip(v, p, compact))),
      lastVote(v));
    return el("div", { class: "rs" }, main, side);
  }

  function end(v, facts) {
    const out = v.outcome || { winners: [] };
    const spiesWon = (out.winners || []).includes("spies");
    let roles = (facts.roles || []).map((r) => ({ player: r.player, role: w("role_" + r.role),
      side: r.role === "spy" ? "spies" : "heroes" }));
    if (!roles.length && v.revealed_spies) {
      roles = v.revealed_spies.map((p) => ({ player: p, role: w("role_spy"), side: "spies" }));
    }
    const moments = v.missions.map((m) => ({ side: m.succeeded ? "heroes" : "spies",
      text: w(m.succeeded ? "moment_success" : "moment_failure", { mission: m.mission,
        team: names(m.team), sabotages: tn("tv.resistance.sabotages", m.sabotages) }) }));
    const rejected = v.votes.filter((vote) => !vote.approved).length;
    if (rejected) moments.push({ text: tn("tv.resistance.moment_rejected", rejected) });
    if (v.accused) {
      moments.push({ side: v.accusation_correct ? "spies" : "heroes",
        text: w(v.accusation_correct ? "moment_accused_right" : "moment_accused_wrong",
          { name: v.accused }) });
    }
    return {
      winner: winnerLine(v),
      side: spiesWon ? "spies" : "heroes",
      reason: out.reason ? w("reason_" + out.reason) : "",
      roles: roles,
      moments: moments,
      board: el("div", { class: "rs-end-board" }, track(v), rejections(v)),
    };
  }

  return { status: status, over: (v) => v.phase === "over", render: render, end: end };
});
