"""What the players said, as a move of the Resistance engine.

Only what cannot become a move at all is answered here (no number heard, a vote without yes
or no, a count the dealt roles cannot produce as secret cards); every rule of the game is the
engine's, who may act included, and the session says its refusals in the game's language
after trying the move on a copy of the game. A move's actor is the player who spoke or, when
the voice did not say who it is, the player the host asked (the leader, the accused, the first
spy)."""

from __future__ import annotations

from dataclasses import replace

from voice_host.games import GameState
from voice_host.games.base import Deal, find_player
from voice_host.games.resistance import (
    Accuse,
    CastVote,
    ConfirmDoubleAgent,
    Phase,
    PlayMissionCard,
    ProposeTeam,
    RecordVoteCount,
    ReportSabotages,
    ResistanceState,
    Role,
)
from voice_host.host.adapters.resistance import narrate, prompts, votes
from voice_host.host.adapters.resistance.words import ResistanceWords
from voice_host.host.core.adapter import Decision, narrow
from voice_host.host.core.values import Line
from voice_host.intent import IntentMatch

NUMBER_WORDS = frozenset({
    "zero", "none", "nothing", "nil", "naught", "one", "single", "two", "couple", "pair",
    "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "aucun", "aucune", "un", "une", "seul", "seule", "deux", "trois", "quatre", "cinq", "sept",
    "huit", "neuf", "dix",
})
"""Words (English and French, as the matcher folds them) that show a count was really
said, not just "success" or "no"."""
MISSION_WORDS = ("sabotag", "fail", "success", "succeed", "pass", "card", "mission", "echec",
                 "echou", "succes", "reussi", "carte")
"""Word beginnings that show a sentence is about mission cards, not a vote count."""


def interpret(w: ResistanceWords, state: GameState, match: IntentMatch,
              speaker: str | None) -> Decision:
    s = narrow(state, ResistanceState)
    phase = s.phase()
    intent = match.intent
    if phase == Phase.TEAM and intent == "propose_team":
        return _propose(w, s, match, speaker)
    if phase == Phase.VOTE and w.count_votes and intent in ("mission_result",
                                                            "vote_count"):
        return _vote_count(w, s, match, speaker)
    if phase == Phase.VOTE and intent in ("vote", "votes"):
        if w.count_votes:
            return Decision(reply=(w.line("count_individual", leader=s.leader),))
        if intent == "votes":
            return _votes(w, s, match)
        return _vote(w, s, match, speaker)
    if phase == Phase.MISSION and intent == "mission_result":
        if w.companion:
            return Decision(reply=(w.line("mission_on_phones"),))
        return _mission(w, s, match, speaker)
    if phase == Phase.ACCUSE and intent == "accuse":
        return _accuse(w, s, match, speaker)
    if phase == Phase.ANSWER and intent == "answer":
        choice = match.slots.get("choice")
        if choice not in ("yes", "no"):
            return Decision(reply=(w.line("answer_reminder", player=s.accused),))
        action = ConfirmDoubleAgent(speaker or s.accused or "", choice == "yes")
        return Decision(action=action, irreversible=narrate.describe(w, s, action))
    return Decision(reply=_not_now(w, s))


def own_move(w: ResistanceWords, state: GameState, match: IntentMatch
             ) -> tuple[str, IntentMatch] | None:
    """A vote sentence that names one voter ("Ada yes"): that voter, and the same vote with
    nobody named ("yes"), the speaker's own. None for any other reading (a team, several
    voters, "everyone yes"): the host asks whose move it is only when the voice of another
    player said a vote naming one player."""
    s = narrow(state, ResistanceState)
    if s.phase() != Phase.VOTE or match.intent != "votes" or w.count_votes:
        return None
    reading = votes.read(s, match.slots, w.voting_order(s))
    if isinstance(reading, votes.Problem) or len(reading) != 1:
        return None
    player, approve = reading[0]
    choice = "yes" if approve else "no"
    return player, IntentMatch("vote", {"choice": choice}, match.confidence, choice)


def _not_now(w: ResistanceWords, s: ResistanceState) -> tuple[Line, ...]:
    prompt = prompts.prompt(w, s)
    if prompt is None:
        return ()
    return prompt.reminder or prompt.lines


def _propose(w: ResistanceWords, s: ResistanceState, match: IntentMatch,
             speaker: str | None) -> Decision:
    team = tuple(match.slots.get("players") or ())
    # whoever spoke proposes: the engine refuses anyone but the leader
    return Decision(action=ProposeTeam(speaker or s.leader or "", team))


def _vote(w: ResistanceWords, s: ResistanceState, match: IntentMatch,
          speaker: str | None) -> Decision:
    """One vote that names nobody ("yes", "I vote no"): the speaker's when known, else the
    player the prompt asks by name (none right after the count-in: then it is nobody's)."""
    order = w.voting_order(s)
    choice = match.slots.get("choice")
    voter = speaker if speaker is not None else w.addressed(s)
    if voter is None:
        return Decision(reply=(w.line("vote_whose", example=prompts.vote_example(w, order)),))
    if choice not in ("yes", "no"):
        return Decision(reply=(w.line("vote_reminder", players=w.names(order),
                                      player=voter),))
    return _cast(w, s, [(voter, choice == "yes")])


def _votes(w: ResistanceWords, s: ResistanceState, match: IntentMatch) -> Decision:
    """Named votes, one player's or many in one sentence (see
    :func:`~voice_host.host.adapters.resistance.votes.read`)."""
    reading = votes.read(s, match.slots, w.voting_order(s))
    if isinstance(reading, votes.Problem):
        params = dict(reading.params)
        if "vote" in params:
            params["vote"] = w.text("word_yes" if params["vote"] else "word_no")
        if "players" in params:
            params["players"] = w.names(params["players"])
        return Decision(reply=(w.line(reading.key, **params),))
    decision = _cast(w, s, reading)
    if votes.named_twice(match.slots):  # a doubtful reading: said back as a question first
        assert decision.action is not None
        return replace(decision, confirm=narrate.describe(w, s, decision.action))
    return decision


def _cast(w: ResistanceWords, s: ResistanceState,
          cast: list[tuple[str, bool]]) -> Decision:
    """The votes as one move: the first CastVote and the others after it (one undo step;
    the session tries them all first, so a refusal leaves the game untouched), each with its
    voter as actor; the next prompt repeats them back."""
    actions = [CastVote(player, approve) for player, approve in cast]
    w.remember_echo(s, cast)
    # a vote said aloud is heard by the table: it is not easily taken back
    return Decision(action=actions[0], then=tuple(actions[1:]),
                    irreversible=narrate.describe(w, s, actions[0]))


def _said_number(match: IntentMatch) -> bool:
    """True when the words hold a number and no mission word ("one sabotage" answers
    another question than "how many voted yes?")."""
    words = match.text.lower().split()
    if any(word.startswith(MISSION_WORDS) for word in words):
        return False
    return any(word.isdigit() or word in NUMBER_WORDS for word in words)


def _vote_count(w: ResistanceWords, s: ResistanceState, match: IntentMatch,
                speaker: str | None) -> Decision:
    value = match.slots.get("yes", match.slots.get("sabotages"))
    if not isinstance(value, int) or isinstance(value, bool) or (
            match.intent == "mission_result" and not _said_number(match)):
        return Decision(reply=(w.line("count_need_number"),))
    action = RecordVoteCount(speaker or s.leader or "", value)
    return Decision(action=action, irreversible=narrate.describe(w, s, action))


def _mission(w: ResistanceWords, s: ResistanceState, match: IntentMatch,
             speaker: str | None) -> Decision:
    count = match.slots.get("sabotages")
    if not isinstance(count, int) or isinstance(count, bool):
        return Decision(reply=(w.line("mission_reminder", leader=s.leader),))
    report = ReportSabotages(speaker or s.leader or "", count)
    # a report cannot be taken back once heard: confirmed unless said plainly
    confirm = narrate.describe(w, s, report)
    if s.deal is Deal.TABLE:
        return Decision(action=report, irreversible=confirm)
    # Host mode: the count becomes secret cards, the sabotages given to the spies on the
    # team in seat order. A count the dealt roles cannot produce has no such cards; it is
    # answered without saying why, which would tell who the spies are. Only the leader
    # reports (the engine's refusal, tried on the report itself).
    if report.player != s.leader:
        return Decision(action=report)
    team = s.proposed_team or ()
    spies = [p for p in team if s.role_of(p) is Role.SPY]
    if not 0 <= count <= len(spies):
        return Decision(reply=(w.line("mission_not_fit"),))
    saboteurs = set(spies[:count])
    cards = [PlayMissionCard(p, p in saboteurs) for p in team]
    return Decision(action=cards[0], then=tuple(cards[1:]), irreversible=confirm)


def _accuse(w: ResistanceWords, s: ResistanceState, match: IntentMatch,
            speaker: str | None) -> Decision:
    player = find_player(s.players, match.slots.get("player"))
    if player is None:
        return Decision(reply=(w.line("accuse_reminder", example=prompts.accuse_example(s)),))
    action = Accuse(speaker or s.current_players()[0], player)
    return Decision(action=action, irreversible=narrate.describe(w, s, action))
