"""A generated paraphrase set: what people say without reading a manual, English and French.

Written apart from the grammar files (not sampled from their templates): each phase's moves
are said plainly ("the heart", "Sophie and Thomas"), then combined with hedges and fillers
before them ("I'd say ...", "um, maybe ...", "on tente ..."), reasons after a yes or a no
("no, that's wrong", "oui, bonne équipe"), questions about the game in many forms, and counts
said as words ("twice", "not a single one", "aucun"). Hand-written irregular lines follow.
Table talk that buries a word of the phase ("this is so hard" in the icon phase, "I love the
book you lent me") must stay inert.

``paraphrase_split("calib")`` and ``paraphrase_split("report")`` halve the set by position
(even, odd): tune the grammars and the matcher on the first, report the second
(``benchmarks/bench_intent.py``). The run-time values are those of ``intent_cases``.

Each case is (game, phase, lang, text, intent or None, slots).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.support.intent_cases import BOARD, PLAYERS, SPEAKER

ParaCase = tuple[str, str, str, str, str | None, dict[str, Any]]

Move = tuple[str, str, Callable[[random.Random], tuple[dict[str, str], dict[str, Any]]]]
"""(text with {placeholders}, intent, draw(rng) -> (placeholder values, slots))."""

_ICONS_EN = {"heart": "heart", "book": "book", "bell": "bell", "key": "key",
             "elephant": "elephant", "anchor": "anchor", "star": "star", "candle": "candle",
             "owl": "owl", "moon": "moon", "boat": "boat", "wolf": "wolf", "crown": "crown",
             "sword": "sword", "clock": "clock", "umbrella": "umbrella", "mirror": "mirror"}
_ICONS_FR = {"heart": "le cœur", "book": "le livre", "bell": "la cloche", "key": "la clé",
             "elephant": "l'éléphant", "anchor": "l'ancre", "star": "l'étoile",
             "candle": "la bougie", "owl": "la chouette", "moon": "la lune",
             "boat": "le bateau", "wolf": "le loup", "crown": "la couronne",
             "sword": "l'épée", "clock": "l'horloge", "umbrella": "le parapluie",
             "egg": "l'œuf", "ladder": "l'échelle"}
_OTHERS = tuple(p for p in PLAYERS if p != SPEAKER)
_SPOKEN = {"Zoë": "Zoe", "Jean-Luc": "Jean-Luc", "Mary Ann": "Mary Ann"}


def _name(rng: random.Random) -> tuple[str, str]:
    player = rng.choice(_OTHERS)
    return _SPOKEN.get(player, player), player


def _team(size: int, with_me: bool = False, lang: str = "en") -> Callable[[random.Random], Any]:
    def draw(rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
        chosen = rng.sample(_OTHERS, size)
        spoken = [_SPOKEN.get(p, p) for p in chosen]
        values = tuple(chosen)
        if with_me:
            spoken.append("moi" if lang == "fr" else "me")
            values = values + (SPEAKER,)
        text = ", ".join(spoken[:-1]) + (" et " if lang == "fr" else " and ") + spoken[-1]
        return {"team": text}, {"players": values}
    return draw


def _icons(lang: str, count: int) -> Callable[[random.Random], Any]:
    table = _ICONS_FR if lang == "fr" else _ICONS_EN

    def draw(rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
        chosen = rng.sample(sorted(table), count)
        words = [table[c] for c in chosen]
        if lang == "en":
            words = [("the " + w) if rng.random() < 0.6 else w for w in words]
        joiner = " et " if lang == "fr" else " and "
        return {"icon": joiner.join(words)}, {"icons": tuple(chosen)}
    return draw


def _word(rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
    word = rng.choice(BOARD)
    return {"word": word}, {"word": word}


def _fixed(**slots: Any) -> Callable[[random.Random], Any]:
    return lambda rng: ({}, dict(slots))


def _player(rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
    spoken, player = _name(rng)
    return {"p": spoken}, {"player": player}


def _clue(rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
    word = rng.choice(("ocean", "winter", "music", "animal", "metal", "space", "river"))
    number = rng.randint(1, 4)
    spoken = ("one", "two", "three", "four")[number - 1]
    return {"clue": word, "n": spoken}, {"word": word, "number": number}


def _clue_fr(rng: random.Random) -> tuple[dict[str, str], dict[str, Any]]:
    word = rng.choice(("ocean", "hiver", "musique", "animal", "metal", "espace", "riviere"))
    number = rng.randint(1, 4)
    spoken = ("un", "deux", "trois", "quatre")[number - 1]
    return {"clue": word, "n": spoken}, {"word": word, "number": number}


# ------------------------------------------------------------------ English

HEDGES_EN = ("I'd say", "I would say", "let's try", "I think", "um, maybe", "I guess",
             "let's go with", "I'll go with", "uh, I think", "how about we go with",
             "okay, I'm going to say", "hmm, let's say", "I reckon", "we'll say",
             "I'm thinking", "so, I'd go with", "well, let's try", "I suppose")
"""Said before a plain move ("the heart", "Sophie and Thomas", "yes")."""
CLAUSE_HEDGES_EN = ("I think", "um, I think", "I guess", "okay so", "um", "well", "right",
                    "I reckon", "I suppose", "so", "alright then")
"""Said before a move that is a whole clause ("I pick the heart")."""

MOVES_EN: dict[tuple[str, str], list[Move]] = {
    ("resistance", "team"): [
        ("{team}", "propose_team", _team(2)),
        ("{team}", "propose_team", _team(1, with_me=True)),
        ("{team}", "propose_team", _team(3)),
        ("I'll take {team}", "propose_team", _team(2)),
        ("{team} on the team", "propose_team", _team(2)),
    ],
    ("resistance", "vote"): [
        ("yes", "vote", _fixed(choice="yes")), ("no", "vote", _fixed(choice="no")),
        ("I approve", "vote", _fixed(choice="yes")),
        ("I reject this team", "vote", _fixed(choice="no")),
        ("I vote yes", "vote", _fixed(choice="yes")),
        ("I vote no", "vote", _fixed(choice="no")),
        ("approve", "vote", _fixed(choice="yes")), ("reject", "vote", _fixed(choice="no")),
        ("I accept this team", "vote", _fixed(choice="yes")),
        ("I'm against this team", "vote", _fixed(choice="no")),
    ],
    ("resistance", "mission"): [
        ("one sabotage", "mission_result", _fixed(sabotages=1)),
        ("two sabotages", "mission_result", _fixed(sabotages=2)),
        ("no sabotage", "mission_result", _fixed(sabotages=0)),
        ("all successes", "mission_result", _fixed(sabotages=0)),
        ("one fail", "mission_result", _fixed(sabotages=1)),
        ("sabotaged once", "mission_result", _fixed(sabotages=1)),
        ("sabotaged twice", "mission_result", _fixed(sabotages=2)),
        ("there was a single sabotage", "mission_result", _fixed(sabotages=1)),
        ("not a single sabotage", "mission_result", _fixed(sabotages=0)),
        ("none", "mission_result", _fixed(sabotages=0)),
    ],
    ("resistance", "accuse"): [
        ("{p}", "accuse", _player), ("it's {p}", "accuse", _player),
        ("{p} is the double agent", "accuse", _player),
        ("we accuse {p}", "accuse", _player),
    ],
    ("resistance", "count"): [
        ("three yes", "vote_count", _fixed(yes=3)),
        ("two voted yes", "vote_count", _fixed(yes=2)),
        ("four in favour", "vote_count", _fixed(yes=4)),
        ("nobody said yes", "vote_count", _fixed(yes=0)),
    ],
    ("ici-londres", "guess"): [
        ("{icon}", "pick", _icons("en", 1)), ("{icon}", "pick", _icons("en", 2)),
        ("I pick {icon}", "pick", _icons("en", 1)),
        ("we choose {icon}", "pick", _icons("en", 2)),
    ],
    ("codenames", "guess"): [
        ("{word}", "guess", _word), ("we touch {word}", "guess", _word),
        ("I'll pick {word}", "guess", _word), ("the {word}", "guess", _word),
    ],
    ("codenames", "clue"): [
        ("{clue} {n}", "clue", _clue), ("{clue} for {n}", "clue", _clue),
        ("my clue is {clue}, {n}", "clue", _clue),
    ],
    ("codenames", "colour"): [
        ("red", "colour", _fixed(colour="red")), ("blue", "colour", _fixed(colour="blue")),
        ("it's neutral", "colour", _fixed(colour="neutral")),
        ("that's the assassin", "colour", _fixed(colour="assassin")),
    ],
}

YES_REASONS_EN = ("good team", "I trust them", "let's do it", "sounds good", "why not",
                  "that works for me", "they're fine", "I like this team", "of course",
                  "definitely", "for sure", "I approve")
NO_REASONS_EN = ("that's wrong", "bad team", "I don't trust them", "too risky", "no way",
                 "not this team", "I reject it", "definitely not", "absolutely not",
                 "I don't like it", "that team is suspicious")
YES_WORDS_EN = ("yes", "yeah", "yep", "sure", "okay yes", "absolutely")
NO_WORDS_EN = ("no", "nope", "nah", "no no")
ANSWER_YES_REASONS_EN = ("that's right", "that's correct", "you got it", "correct",
                         "that's one of mine", "well done", "it is", "exactly")
ANSWER_NO_REASONS_EN = ("that's wrong", "not it", "wrong", "that's not it", "sorry",
                        "it isn't", "not one of mine", "try again")

QUESTIONS_EN: list[tuple[str, str]] = [
    ("what can I say", "help"), ("what can I say now", "help"),
    ("what am I allowed to say", "help"), ("what are my options", "help"),
    ("what should I say", "help"), ("what do I say now", "help"),
    ("what are the commands", "help"), ("help me out", "help"),
    ("how does this work", "help"), ("what can we do here", "help"),
    ("whose turn is it", "status"), ("whose turn is it now", "status"),
    ("who goes next", "status"), ("who's playing now", "status"),
    ("who is up", "status"), ("what happens next", "status"), ("what's next", "status"),
    ("where are we at", "status"), ("what are we waiting for", "status"),
    ("what's left", "read_board"), ("what is left", "read_board"),
    ("what's still left", "read_board"), ("which ones are left", "read_board"),
    ("what remains", "read_board"), ("read me what's left", "read_board"),
    ("what's the score", "score"), ("how many points do we have", "score"),
    ("who's ahead", "score"), ("what's the score now", "score"),
    ("could you say that again", "repeat"), ("what was that", "repeat"),
    ("sorry, can you repeat that", "repeat"),
]
QUESTIONS_ICI_EN: list[tuple[str, str]] = [
    ("what has been tried", "list_tried"), ("which icons have we tried", "list_tried"),
    ("what did we already say", "list_tried"), ("which ones are taken", "list_tried"),
]
QUESTIONS_CODENAMES_EN: list[tuple[str, str]] = [
    ("how many words are left", "read_board"), ("how many cards are left", "read_board"),
    ("which words are still on the board", "read_board"),
]

IRREGULAR_EN: list[ParaCase] = [
    ("resistance", "vote", "en", "Yes, I approve.", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "No, that's wrong.", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "definitely", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "no way", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "yes, good team", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "hell no", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "count me in", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "count me out", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "I'm in favour", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "not a chance", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "yes please", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "I agree with this team", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "I don't approve", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "no, I vote no", "vote", {"choice": "no"}),
    ("resistance", "mission", "en", "it was sabotaged once", "mission_result",
     {"sabotages": 1}),
    ("resistance", "mission", "en", "not a single one", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "en", "there were none", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "en", "just one sabotage", "mission_result", {"sabotages": 1}),
    ("resistance", "mission", "en", "two fails in there", "mission_result",
     {"sabotages": 2}),
    ("resistance", "mission", "en", "zero sabotages, the mission worked", "mission_result",
     {"sabotages": 0}),
    ("resistance", "answer", "en", "No, that's wrong.", "answer", {"choice": "no"}),
    ("resistance", "answer", "en", "yes, that's right", "answer", {"choice": "yes"}),
    ("ici-londres", "guess", "en", "I'd say the heart", "pick", {"icons": ("heart",)}),
    ("ici-londres", "guess", "en", "um, maybe the bell", "pick", {"icons": ("bell",)}),
    ("ici-londres", "guess", "en", "let's try the key and the star", "pick",
     {"icons": ("key", "star")}),
    ("ici-londres", "answer", "en", "yes, well done", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", "en", "nope, that's not one of mine", "answer",
     {"choice": "no"}),
    ("codenames", "guess", "en", "I think we should go with piano", "guess",
     {"word": "piano"}),
    ("codenames", "guess", "en", "we're done for this turn", "pass", {}),
    ("codenames", "answer", "en", "yes, go ahead", "answer", {"choice": "yes"}),
    ("codenames", "answer", "en", "no, that's wrong", "answer", {"choice": "no"}),
    ("codenames", "colour", "en", "it's a red one", "colour", {"colour": "red"}),
]

CHATTER_EN: list[tuple[str, str, str]] = [
    # a word of the phase buried in table talk
    ("ici-londres", "guess", "this is so hard"),
    ("ici-londres", "guess", "I love the book you lent me"),
    ("ici-londres", "guess", "my heart isn't in it tonight"),
    ("ici-londres", "guess", "the key to this game is patience"),
    ("ici-londres", "guess", "she has a heart of gold"),
    ("ici-londres", "guess", "the moon was so bright last night"),
    ("ici-londres", "guess", "ring the bell when dinner is ready"),
    ("ici-londres", "guess", "that star sign stuff is nonsense"),
    ("ici-londres", "guess", "I left my keys in the car"),
    ("ici-londres", "guess", "can you read the clock from there"),
    ("ici-londres", "answer", "yes I heard you the first time"),
    ("ici-londres", "answer", "no I was talking to Thomas"),
    ("resistance", "vote", "yes but Thomas always lies"),
    ("resistance", "vote", "no idea what to vote"),
    ("resistance", "vote", "I approve of the snacks"),
    ("resistance", "vote", "definitely not my favourite game"),
    ("resistance", "vote", "yes the pizza is here"),
    ("resistance", "vote", "no you can't have my chair"),
    ("resistance", "team", "Thomas and Sophie were late again"),
    ("resistance", "team", "Lucas and I went to school together"),
    ("resistance", "mission", "one more time and I'm leaving"),
    ("resistance", "mission", "two of my friends play this every week"),
    ("resistance", "mission", "none of your business"),
    ("resistance", "accuse", "Thomas you are so suspicious"),
    ("resistance", "accuse", "Sophie was right last time"),
    ("codenames", "guess", "the piano at my parents' house is out of tune"),
    ("codenames", "guess", "I fell off a horse once"),
    ("codenames", "guess", "the bank closes at five"),
    ("codenames", "guess", "there's snow on the mountains"),
    ("codenames", "colour", "red wine or white"),
    ("codenames", "colour", "my car is blue too"),
    ("codenames", "answer", "yes mum I'm coming"),
    ("codenames", "clue", "give me a second to think of something"),
    # hedges with no move after them
    ("ici-londres", "guess", "I think the heart is a weird icon"),
    ("ici-londres", "guess", "let's try to remember the book"),
    ("ici-londres", "guess", "I'd say the moon is pretty"),
    ("ici-londres", "guess", "maybe the heart, maybe the book, I don't know"),
    ("ici-londres", "guess", "I guess the key is in the car"),
    ("ici-londres", "guess", "perhaps later"),
    ("ici-londres", "guess", "then the bell rang"),
    ("ici-londres", "guess", "we should go with the flow"),
    ("resistance", "vote", "I think yes is wrong"),
    ("resistance", "vote", "I'd say no to dessert"),
    ("resistance", "vote", "yes, I'm hungry"),
    ("resistance", "vote", "no, I was talking to Sophie"),
    ("resistance", "vote", "definitely a spy"),
    ("resistance", "vote", "good team for a spy"),
    ("resistance", "vote", "maybe"),
]

# ------------------------------------------------------------------ French

HEDGES_FR = ("je dirais", "on tente", "je pense", "euh, peut-être", "on va dire",
             "je crois", "moi je dis", "allez, on tente", "euh, je dirais", "bon, on dit",
             "je propose", "essayons", "disons", "alors je dirais", "on essaie",
             "je vais dire", "ben, je pense")
"""Said before a plain move (en français)."""
CLAUSE_HEDGES_FR = ("euh", "bon", "alors", "ben", "bon alors", "allez", "bah", "euh bon")
"""Said before a move that is a whole clause ("je prends la clé")."""

MOVES_FR: dict[tuple[str, str], list[Move]] = {
    ("resistance", "team"): [
        ("{team}", "propose_team", _team(2, lang="fr")),
        ("je prends {team}", "propose_team", _team(2, lang="fr")),
        ("{team}", "propose_team", _team(1, with_me=True, lang="fr")),
    ],
    ("resistance", "vote"): [
        ("oui", "vote", _fixed(choice="yes")), ("non", "vote", _fixed(choice="no")),
        ("je valide", "vote", _fixed(choice="yes")),
        ("je refuse cette équipe", "vote", _fixed(choice="no")),
        ("je vote pour", "vote", _fixed(choice="yes")),
        ("je vote contre", "vote", _fixed(choice="no")),
        ("j'approuve", "vote", _fixed(choice="yes")),
        ("je suis contre", "vote", _fixed(choice="no")),
    ],
    ("resistance", "mission"): [
        ("un sabotage", "mission_result", _fixed(sabotages=1)),
        ("deux sabotages", "mission_result", _fixed(sabotages=2)),
        ("aucun sabotage", "mission_result", _fixed(sabotages=0)),
        ("que des succès", "mission_result", _fixed(sabotages=0)),
        ("un seul échec", "mission_result", _fixed(sabotages=1)),
        ("pas un seul sabotage", "mission_result", _fixed(sabotages=0)),
    ],
    ("resistance", "accuse"): [
        ("{p}", "accuse", _player), ("c'est {p}", "accuse", _player),
        ("on accuse {p}", "accuse", _player),
    ],
    ("ici-londres", "guess"): [
        ("{icon}", "pick", _icons("fr", 1)), ("{icon}", "pick", _icons("fr", 2)),
        ("je prends {icon}", "pick", _icons("fr", 1)),
    ],
    ("codenames", "guess"): [
        ("{word}", "guess", _word), ("on touche {word}", "guess", _word),
        ("je prends {word}", "guess", _word),
    ],
    ("codenames", "clue"): [
        ("{clue} {n}", "clue", _clue_fr), ("{clue} pour {n}", "clue", _clue_fr),
    ],
    ("codenames", "colour"): [
        ("rouge", "colour", _fixed(colour="red")), ("bleu", "colour", _fixed(colour="blue")),
        ("c'est neutre", "colour", _fixed(colour="neutral")),
        ("c'est l'assassin", "colour", _fixed(colour="assassin")),
    ],
}

YES_REASONS_FR = ("bonne équipe", "je leur fais confiance", "ça me va", "carrément",
                  "allons-y", "pourquoi pas", "bien sûr", "je valide", "c'est bon")
NO_REASONS_FR = ("c'est faux", "mauvaise équipe", "je ne leur fais pas confiance",
                 "trop risqué", "pas question", "pas cette équipe", "je refuse",
                 "certainement pas", "hors de question")
YES_WORDS_FR = ("oui", "ouais", "d'accord", "ok oui", "carrément")
NO_WORDS_FR = ("non", "nan", "non non")
ANSWER_YES_REASONS_FR = ("c'est ça", "c'est juste", "bien vu", "exactement", "bravo",
                         "c'est exact")
ANSWER_NO_REASONS_FR = ("c'est faux", "c'est pas ça", "raté", "perdu", "désolé",
                        "ce n'est pas ça")

QUESTIONS_FR: list[tuple[str, str]] = [
    ("qu'est-ce que je peux dire", "help"), ("qu'est-ce qu'on peut dire", "help"),
    ("je peux dire quoi", "help"), ("on peut dire quoi", "help"),
    ("quelles sont les commandes", "help"), ("c'est quoi les options", "help"),
    ("aide-moi", "help"), ("comment ça marche", "help"),
    ("c'est à qui", "status"), ("c'est à qui de jouer", "status"),
    ("c'est à qui le tour", "status"), ("qui joue maintenant", "status"),
    ("on en est où", "status"), ("qu'est-ce qu'on fait maintenant", "status"),
    ("c'est quoi la suite", "status"),
    ("qu'est-ce qui reste", "read_board"), ("qu'est-ce qu'il reste", "read_board"),
    ("il reste quoi", "read_board"), ("quels mots restent", "read_board"),
    ("c'est quoi le score", "score"), ("qui gagne", "score"), ("combien de points", "score"),
    ("tu peux répéter", "repeat"), ("pardon, tu peux répéter", "repeat"),
]
QUESTIONS_ICI_FR: list[tuple[str, str]] = [
    ("qu'est-ce qui a déjà été dit", "list_tried"),
    ("qu'est-ce qu'on a déjà dit", "list_tried"),
    ("quelles icônes ont été proposées", "list_tried"),
]

IRREGULAR_FR: list[ParaCase] = [
    ("resistance", "vote", "fr", "Oui, j'approuve.", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "Non, c'est faux.", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "carrément", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "pas question", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "je valide cette équipe", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "je rejette cette équipe", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "oui, bonne équipe", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "je vote oui", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "moi je vote non", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "je suis d'accord", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "je ne suis pas d'accord", "vote", {"choice": "no"}),
    ("resistance", "mission", "fr", "une seule fois", "mission_result", {"sabotages": 1}),
    ("resistance", "mission", "fr", "deux fois", "mission_result", {"sabotages": 2}),
    ("resistance", "mission", "fr", "aucun", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "fr", "il n'y a eu aucun sabotage", "mission_result",
     {"sabotages": 0}),
    ("resistance", "mission", "fr", "pas un seul", "mission_result", {"sabotages": 0}),
    ("resistance", "accuse", "fr", "je pense que c'est Thomas", "accuse",
     {"player": "Thomas"}),
    ("ici-londres", "guess", "fr", "je dirais l'éléphant", "pick", {"icons": ("elephant",)}),
    ("ici-londres", "guess", "fr", "on tente l'ancre et la clé", "pick",
     {"icons": ("anchor", "key")}),
    ("ici-londres", "guess", "fr", "euh, peut-être la chouette", "pick",
     {"icons": ("owl",)}),
    ("ici-londres", "guess", "fr", "qu'on prenne l'étoile", "pick", {"icons": ("star",)}),
    ("ici-londres", "answer", "fr", "oui, bien vu", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", "fr", "non, c'est raté", "answer", {"choice": "no"}),
    ("codenames", "guess", "fr", "je dirais piano", "guess", {"word": "piano"}),
    ("codenames", "guess", "fr", "on passe notre tour", "pass", {}),
    ("codenames", "answer", "fr", "non, c'est faux", "answer", {"choice": "no"}),
    ("codenames", "colour", "fr", "c'est un rouge", "colour", {"colour": "red"}),
]

CHATTER_FR: list[tuple[str, str, str]] = [
    ("ici-londres", "guess", "c'est trop dur ce jeu"),
    ("ici-londres", "guess", "j'adore le livre que tu m'as prêté"),
    ("ici-londres", "guess", "la clé du jeu c'est la patience"),
    ("ici-londres", "guess", "il a un cœur d'or"),
    ("ici-londres", "guess", "la lune était magnifique hier soir"),
    ("ici-londres", "guess", "j'ai oublié mes clés dans la voiture"),
    ("ici-londres", "guess", "tu as vu l'heure à l'horloge"),
    ("ici-londres", "answer", "oui j'ai entendu la première fois"),
    ("resistance", "vote", "oui mais Thomas ment toujours"),
    ("resistance", "vote", "aucune idée de quoi voter"),
    ("resistance", "vote", "non tu ne prends pas ma chaise"),
    ("resistance", "vote", "oui la pizza est arrivée"),
    ("resistance", "team", "Thomas et Sophie sont encore en retard"),
    ("resistance", "mission", "une fois de plus et je m'en vais"),
    ("resistance", "mission", "deux de mes amis jouent à ça chaque semaine"),
    ("resistance", "accuse", "Thomas tu es vraiment louche"),
    ("codenames", "guess", "le piano chez mes parents est désaccordé"),
    ("codenames", "guess", "la banque ferme à cinq heures"),
    ("codenames", "colour", "du vin rouge ou du blanc"),
    ("codenames", "colour", "ma voiture est bleue aussi"),
    ("codenames", "answer", "oui maman j'arrive"),
    ("resistance", "vote", "oui, j'ai faim"),
    ("resistance", "vote", "non, je parlais à Sophie"),
    ("resistance", "vote", "carrément un espion"),
    ("resistance", "vote", "peut-être"),
    ("resistance", "vote", "bonne équipe pour des espions"),
    ("ici-londres", "guess", "je dirais que la lune est belle ce soir"),
    ("ici-londres", "guess", "on tente de se souvenir du livre"),
    ("ici-londres", "guess", "je pense que le cœur est bizarre"),
    ("codenames", "guess", "je crois que le piano est faux"),
]


# ------------------------------------------------------------------ the generator

_PLAIN = frozenset({
    "yes", "no", "approve", "reject", "one sabotage", "two sabotages", "no sabotage",
    "all successes", "one fail", "not a single sabotage", "none", "three yes",
    "four in favour", "red", "blue", "oui", "non", "un sabotage", "deux sabotages",
    "aucun sabotage", "que des succès", "un seul échec", "pas un seul sabotage", "rouge",
    "bleu"})
"""Moves that are a noun phrase or a bare answer (any hedge fits before them)."""

def _fill(text: str, values: dict[str, str]) -> str:
    return text.format(**values) if values else text


def _hedged(lang: str, rng: random.Random, per_phase: int) -> list[ParaCase]:
    hedges = HEDGES_FR if lang == "fr" else HEDGES_EN
    clause_hedges = CLAUSE_HEDGES_FR if lang == "fr" else CLAUSE_HEDGES_EN
    moves = MOVES_FR if lang == "fr" else MOVES_EN
    out: list[ParaCase] = []
    for (game, phase), options in moves.items():
        for _ in range(per_phase):
            text, intent, draw = rng.choice(options)
            values, slots = draw(rng)
            said = _fill(text, values)
            if rng.random() < 0.75:
                plain = text.startswith("{") or text in _PLAIN
                said = rng.choice(hedges if plain else clause_hedges) + " " + said
            out.append((game, phase, lang, said, intent, slots))
    return out


def _reasons(lang: str, rng: random.Random, per_kind: int) -> list[ParaCase]:
    fr = lang == "fr"
    yes_words, no_words = (YES_WORDS_FR, NO_WORDS_FR) if fr else (YES_WORDS_EN, NO_WORDS_EN)
    kinds = [
        ("resistance", "vote", "vote", YES_REASONS_FR if fr else YES_REASONS_EN,
         NO_REASONS_FR if fr else NO_REASONS_EN),
        ("resistance", "answer", "answer", ANSWER_YES_REASONS_FR if fr
         else ANSWER_YES_REASONS_EN, ANSWER_NO_REASONS_FR if fr else ANSWER_NO_REASONS_EN),
        ("ici-londres", "answer", "answer", ANSWER_YES_REASONS_FR if fr
         else ANSWER_YES_REASONS_EN, ANSWER_NO_REASONS_FR if fr else ANSWER_NO_REASONS_EN),
        ("codenames", "answer", "answer", ANSWER_YES_REASONS_FR if fr
         else ANSWER_YES_REASONS_EN, ANSWER_NO_REASONS_FR if fr else ANSWER_NO_REASONS_EN),
    ]
    out: list[ParaCase] = []
    for game, phase, intent, yes_reasons, no_reasons in kinds:
        for _ in range(per_kind):
            choice = rng.choice(("yes", "no"))
            word = rng.choice(yes_words if choice == "yes" else no_words)
            reason = rng.choice(yes_reasons if choice == "yes" else no_reasons)
            out.append((game, phase, lang, f"{word}, {reason}", intent, {"choice": choice}))
    return out


def _questions(lang: str, rng: random.Random) -> list[ParaCase]:
    fr = lang == "fr"
    general = QUESTIONS_FR if fr else QUESTIONS_EN
    phases = [("resistance", "team"), ("resistance", "vote"), ("resistance", "mission"),
              ("ici-londres", "guess"), ("codenames", "guess"), ("codenames", "clue")]
    out: list[ParaCase] = []
    for text, intent in general:
        game, phase = rng.choice(phases)
        out.append((game, phase, lang, text, intent, {}))
    for text, intent in (QUESTIONS_ICI_FR if fr else QUESTIONS_ICI_EN):
        out.append(("ici-londres", rng.choice(("guess", "answer")), lang, text, intent, {}))
    if not fr:
        for text, intent in QUESTIONS_CODENAMES_EN:
            out.append(("codenames", "guess", lang, text, intent, {}))
    return out


def paraphrase_cases() -> list[ParaCase]:
    """Every paraphrase (English then French), in a fixed order, each line once."""
    out: list[ParaCase] = []
    for lang in ("en", "fr"):
        rng = random.Random(f"paraphrases/{lang}")
        out += _hedged(lang, rng, 24 if lang == "en" else 20)
        out += _reasons(lang, rng, 16)
        out += _questions(lang, rng)
        out += IRREGULAR_FR if lang == "fr" else IRREGULAR_EN
    seen: set[tuple[str, str, str, str]] = set()
    unique: list[ParaCase] = []
    for case in out:  # a line drawn twice counts once, in one half
        if case[:4] not in seen:
            seen.add(case[:4])
            unique.append(case)
    return unique


def paraphrase_chatter() -> list[tuple[str, str, str, str]]:
    """(game, phase, lang, text): table talk with a word of the phase in it."""
    return [(g, p, "en", t) for g, p, t in CHATTER_EN] + \
        [(g, p, "fr", t) for g, p, t in CHATTER_FR]


def paraphrase_split(part: str) -> list[ParaCase]:
    """``"calib"`` (even positions) or ``"report"`` (odd positions) half of the set."""
    if part not in ("calib", "report"):
        raise ValueError("part must be calib or report")
    return paraphrase_cases()[0 if part == "calib" else 1::2]


def chatter_split(part: str) -> list[tuple[str, str, str, str]]:
    """The same split of :func:`paraphrase_chatter`."""
    if part not in ("calib", "report"):
        raise ValueError("part must be calib or report")
    return paraphrase_chatter()[0 if part == "calib" else 1::2]


# ------------------------------------------------------------------ written after the tuning

FRESH: list[ParaCase] = [
    # English
    ("resistance", "vote", "en", "I'm gonna say yes", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "yeah, I'm happy with that team", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "no, I don't like this team", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "I vote against it", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "sure, go for it", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "nope, too risky", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "I think no", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "yes, I trust them", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "absolutely not", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "I object", "vote", {"choice": "no"}),
    ("resistance", "team", "en", "I'd go with Sophie and Lucas", "propose_team",
     {"players": ("Sophie", "Lucas")}),
    ("resistance", "team", "en", "let's try Thomas and me", "propose_team",
     {"players": ("Thomas", "Hannah")}),
    ("resistance", "team", "en", "I think Zoe, Lucas and Sophie", "propose_team",
     {"players": ("Zoë", "Lucas", "Sophie")}),
    ("resistance", "mission", "en", "there was one sabotage", "mission_result",
     {"sabotages": 1}),
    ("resistance", "mission", "en", "I count two fails", "mission_result", {"sabotages": 2}),
    ("resistance", "mission", "en", "nobody sabotaged", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "en", "only one fail card", "mission_result", {"sabotages": 1}),
    ("resistance", "mission", "en", "it got sabotaged twice", "mission_result",
     {"sabotages": 2}),
    ("resistance", "accuse", "en", "I'd say it's Lucas", "accuse", {"player": "Lucas"}),
    ("resistance", "accuse", "en", "we think Sophie is the mole", "accuse",
     {"player": "Sophie"}),
    ("resistance", "answer", "en", "no, that's not right", "answer", {"choice": "no"}),
    ("ici-londres", "guess", "en", "I'll go with the candle", "pick", {"icons": ("candle",)}),
    ("ici-londres", "guess", "en", "I reckon the owl and the wolf", "pick",
     {"icons": ("owl", "wolf")}),
    ("ici-londres", "guess", "en", "let's say the clock", "pick", {"icons": ("clock",)}),
    ("ici-londres", "guess", "en", "hmm, I think the umbrella", "pick",
     {"icons": ("umbrella",)}),
    ("ici-londres", "answer", "en", "yes, you got one", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", "en", "nope, not that one", "answer", {"choice": "no"}),
    ("codenames", "guess", "en", "I'd say honey", "guess", {"word": "honey"}),
    ("codenames", "guess", "en", "let's go with the bridge", "guess", {"word": "bridge"}),
    ("codenames", "guess", "en", "we'll pass this turn", "pass", {}),
    ("codenames", "clue", "en", "I'd say music, two", "clue", {"word": "music", "number": 2}),
    ("codenames", "answer", "en", "yes, that's correct", "answer", {"choice": "yes"}),
    ("codenames", "colour", "en", "that one's blue", "colour", {"colour": "blue"}),
    ("resistance", "team", "en", "what can I say here", "help", {}),
    ("ici-londres", "guess", "en", "whose go is it", "status", {}),
    ("codenames", "guess", "en", "which words are left", "read_board", {}),
    ("resistance", "vote", "en", "who's winning right now", "score", {}),
    # French
    ("resistance", "vote", "fr", "je dirais oui", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "oui, ça me va", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "non, trop risqué", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "je refuse", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "je vote contre cette équipe", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "ouais carrément", "vote", {"choice": "yes"}),
    ("resistance", "team", "fr", "je propose Sophie et Lucas", "propose_team",
     {"players": ("Sophie", "Lucas")}),
    ("resistance", "team", "fr", "on part sur Thomas et moi", "propose_team",
     {"players": ("Thomas", "Hannah")}),
    ("resistance", "mission", "fr", "il y a eu deux échecs", "mission_result",
     {"sabotages": 2}),
    ("resistance", "mission", "fr", "zéro sabotage", "mission_result", {"sabotages": 0}),
    ("resistance", "accuse", "fr", "je crois que c'est Lucas", "accuse", {"player": "Lucas"}),
    ("ici-londres", "guess", "fr", "on tente la bougie", "pick", {"icons": ("candle",)}),
    ("ici-londres", "guess", "fr", "je dirais la lune et l'étoile", "pick",
     {"icons": ("moon", "star")}),
    ("ici-londres", "guess", "fr", "disons l'horloge", "pick", {"icons": ("clock",)}),
    ("ici-londres", "answer", "fr", "non, c'est raté", "answer", {"choice": "no"}),
    ("codenames", "guess", "fr", "on tente piano", "guess", {"word": "piano"}),
    ("codenames", "guess", "fr", "on s'arrête là", "pass", {}),
    ("codenames", "answer", "fr", "oui, c'est ça", "answer", {"choice": "yes"}),
    ("codenames", "colour", "fr", "c'est un bleu", "colour", {"colour": "blue"}),
    ("resistance", "vote", "fr", "qu'est-ce que je peux dire", "help", {}),
    ("ici-londres", "guess", "fr", "c'est à qui de jouer", "status", {}),
]
"""Written after the grammars and the matcher were tuned on the calibration half, and
measured once before any change (see :data:`FRESH_FIRST_RUN`)."""

FRESH_CHATTER: list[tuple[str, str, str, str]] = [
    ("ici-londres", "guess", "en", "my heart goes out to them"),
    ("ici-londres", "guess", "en", "I read that book on holiday"),
    ("ici-londres", "guess", "en", "the wolf of wall street is a long film"),
    ("ici-londres", "guess", "en", "where did I put my glass"),
    ("resistance", "vote", "en", "yes I know it's my turn to cook"),
    ("resistance", "vote", "en", "no I said the other one"),
    ("resistance", "team", "en", "Sophie and Lucas are getting married"),
    ("resistance", "mission", "en", "twice a week I go running"),
    ("codenames", "guess", "en", "the honey from the market is better"),
    ("codenames", "colour", "en", "the red one is my jacket"),
    ("codenames", "clue", "en", "wow that's a tough board"),
    ("ici-londres", "guess", "fr", "j'ai le cœur qui bat"),
    ("ici-londres", "guess", "fr", "la bougie sent bon"),
    ("resistance", "vote", "fr", "oui je sais que c'est mon tour"),
    ("resistance", "vote", "fr", "non pas toi Thomas"),
    ("resistance", "mission", "fr", "deux fois par semaine je cours"),
    ("codenames", "guess", "fr", "le piano de ma grand-mère"),
    ("codenames", "colour", "fr", "le rouge te va bien"),
]
"""Table talk written with :data:`FRESH` (same rule)."""

FRESH_FIRST_RUN = ("53/58 understood (91.4%), 0/18 table talk acted on; every miss a rejection "
                   "(\"yeah, I'm happy with that team\", \"I count two fails\", \"no, that's not "
                   "right\", \"yes, you got one\", \"that one's blue\"). The grammars before "
                   "the natural phrasings: 31/58 (53.4%), 0/18.")
"""The fresh set at its first run, before any change made for it."""


# ------------------------------------------------------------ the second fresh set

FRESH_B: list[ParaCase] = [
    # English: a move with a hedge or a word of certainty after it, "going for", polite
    # and half-sentence forms, as a table says them without reading the help.
    ("resistance", "vote", "en", "yes I guess", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "no, I'd rather not", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "yeah okay", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "I'm okay with that team", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "not this time", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "I'll approve it", "vote", {"choice": "yes"}),
    ("resistance", "vote", "en", "I'm voting against", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "no from me", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "I'm gonna reject", "vote", {"choice": "no"}),
    ("resistance", "vote", "en", "yes, I suppose", "vote", {"choice": "yes"}),
    ("resistance", "team", "en", "Sophie, Thomas and myself", "propose_team",
     {"players": ("Sophie", "Thomas", "Hannah")}),
    ("resistance", "team", "en", "how about Lucas and Mary Ann", "propose_team",
     {"players": ("Lucas", "Mary Ann")}),
    ("resistance", "team", "en", "I want Jean-Luc and Sophie on the team", "propose_team",
     {"players": ("Jean-Luc", "Sophie")}),
    ("resistance", "team", "en", "I'm going with Zoe and Thomas", "propose_team",
     {"players": ("Zoë", "Thomas")}),
    ("resistance", "mission", "en", "two fails this time", "mission_result", {"sabotages": 2}),
    ("resistance", "mission", "en", "no sabotage at all", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "en", "just the one fail", "mission_result", {"sabotages": 1}),
    ("resistance", "mission", "en", "the mission passed", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "en", "we had a single sabotage", "mission_result",
     {"sabotages": 1}),
    ("resistance", "accuse", "en", "I'm pretty sure it's Thomas", "accuse",
     {"player": "Thomas"}),
    ("resistance", "accuse", "en", "the double agent has to be Zoe", "accuse",
     {"player": "Zoë"}),
    ("resistance", "accuse", "en", "we're going for Lucas", "accuse", {"player": "Lucas"}),
    ("resistance", "answer", "en", "yes it is", "answer", {"choice": "yes"}),
    ("resistance", "answer", "en", "nope, it isn't", "answer", {"choice": "no"}),
    ("ici-londres", "guess", "en", "the anchor I think", "pick", {"icons": ("anchor",)}),
    ("ici-londres", "guess", "en", "maybe the wolf and the moon", "pick",
     {"icons": ("wolf", "moon")}),
    ("ici-londres", "guess", "en", "I'm going for the crown", "pick", {"icons": ("crown",)}),
    ("ici-londres", "guess", "en", "the sword and the clock please", "pick",
     {"icons": ("sword", "clock")}),
    ("ici-londres", "guess", "en", "definitely the owl", "pick", {"icons": ("owl",)}),
    ("ici-londres", "guess", "en", "the key and the boat, final answer", "pick",
     {"icons": ("key", "boat")}),
    ("ici-londres", "answer", "en", "yes, that's one of them", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", "en", "that's a hit", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", "en", "no, not that one", "answer", {"choice": "no"}),
    ("codenames", "clue", "en", "my clue is water for three", "clue",
     {"word": "water", "number": 3}),
    ("codenames", "clue", "en", "the clue is music, two words", "clue",
     {"word": "music", "number": 2}),
    ("codenames", "guess", "en", "we'll go for the castle", "guess", {"word": "castle"}),
    ("codenames", "guess", "en", "honey I think", "guess", {"word": "honey"}),
    ("codenames", "guess", "en", "definitely the bridge", "guess", {"word": "bridge"}),
    ("codenames", "guess", "en", "I'm going to touch lemon", "guess", {"word": "lemon"}),
    ("codenames", "guess", "en", "we're done for this round", "pass", {}),
    ("codenames", "guess", "en", "let's stop there", "pass", {}),
    ("codenames", "colour", "en", "it's a red one", "colour", {"colour": "red"}),
    ("codenames", "colour", "en", "blue, I think", "colour", {"colour": "blue"}),
    ("codenames", "colour", "en", "that's the assassin", "colour", {"colour": "assassin"}),
    ("codenames", "answer", "en", "yep, that's right", "answer", {"choice": "yes"}),
    ("resistance", "team", "en", "sorry, what did you say", "repeat", {}),
    ("ici-londres", "guess", "en", "can you repeat that", "repeat", {}),
    ("codenames", "guess", "en", "what are my options", "help", {}),
    ("resistance", "vote", "en", "whose turn is it now", "status", {}),
    ("codenames", "clue", "en", "hold on a second", "pause", {}),
    ("ici-londres", "guess", "en", "can you speak slower", "slower", {}),
    ("resistance", "mission", "en", "speak up please", "louder", {}),
    ("codenames", "guess", "en", "take that back", "undo", {}),
    # French
    ("resistance", "vote", "fr", "oui je pense", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "allez, oui", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "non merci", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "je suis contre", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "pas cette fois", "vote", {"choice": "no"}),
    ("resistance", "vote", "fr", "je valide", "vote", {"choice": "yes"}),
    ("resistance", "vote", "fr", "je ne suis pas d'accord", "vote", {"choice": "no"}),
    ("resistance", "team", "fr", "je prends Sophie et Zoé", "propose_team",
     {"players": ("Sophie", "Zoë")}),
    ("resistance", "team", "fr", "Lucas, Thomas et moi", "propose_team",
     {"players": ("Lucas", "Thomas", "Hannah")}),
    ("resistance", "team", "fr", "on envoie Mary Ann et Jean-Luc", "propose_team",
     {"players": ("Mary Ann", "Jean-Luc")}),
    ("resistance", "mission", "fr", "un seul échec", "mission_result", {"sabotages": 1}),
    ("resistance", "mission", "fr", "aucun sabotage", "mission_result", {"sabotages": 0}),
    ("resistance", "mission", "fr", "deux sabotages cette fois", "mission_result",
     {"sabotages": 2}),
    ("resistance", "mission", "fr", "la mission a réussi", "mission_result", {"sabotages": 0}),
    ("resistance", "accuse", "fr", "c'est Zoé l'agent double", "accuse", {"player": "Zoë"}),
    ("resistance", "accuse", "fr", "je pense que c'est Thomas", "accuse",
     {"player": "Thomas"}),
    ("ici-londres", "guess", "fr", "la chouette je pense", "pick", {"icons": ("owl",)}),
    ("ici-londres", "guess", "fr", "je tente la couronne", "pick", {"icons": ("crown",)}),
    ("ici-londres", "guess", "fr", "peut-être l'ancre et le bateau", "pick",
     {"icons": ("anchor", "boat")}),
    ("ici-londres", "guess", "fr", "je dirais l'épée", "pick", {"icons": ("sword",)}),
    ("ici-londres", "answer", "fr", "oui c'est bien ça", "answer", {"choice": "yes"}),
    ("ici-londres", "answer", "fr", "non, raté", "answer", {"choice": "no"}),
    ("codenames", "guess", "fr", "on prend table", "guess", {"word": "table"}),
    ("codenames", "guess", "fr", "piano je crois", "guess", {"word": "piano"}),
    ("codenames", "guess", "fr", "on arrête là pour ce tour", "pass", {}),
    ("codenames", "colour", "fr", "c'est rouge", "colour", {"colour": "red"}),
    ("codenames", "answer", "fr", "oui, exactement", "answer", {"choice": "yes"}),
    ("resistance", "vote", "fr", "tu peux répéter", "repeat", {}),
    ("codenames", "guess", "fr", "c'est à qui maintenant", "status", {}),
    ("ici-londres", "guess", "fr", "moins vite s'il te plaît", "slower", {}),
]
"""Written before any change made for it, and measured once before any such
change (see :data:`FRESH_B_FIRST_RUN`)."""

FRESH_B_CHATTER: list[tuple[str, str, str, str]] = [
    ("codenames", "guess", "en", "piano maybe, or is that too obvious"),
    ("codenames", "guess", "en", "I think the castle could go with ocean"),
    ("codenames", "guess", "en", "did you see the bridge in that film"),
    ("codenames", "guess", "en", "I'd say that's a tough clue"),
    ("resistance", "vote", "en", "yes I think he's lying"),
    ("resistance", "vote", "en", "I guess we'll see"),
    ("resistance", "team", "en", "not sure about Lucas"),
    ("resistance", "team", "en", "Thomas always picks himself"),
    ("resistance", "mission", "en", "one more drink and I'm done"),
    ("resistance", "mission", "en", "two of them are lying"),
    ("resistance", "accuse", "en", "honestly I don't know"),
    ("ici-londres", "guess", "en", "the moon was beautiful last night"),
    ("ici-londres", "guess", "en", "is it the bell or the key, what do you think"),
    ("ici-londres", "guess", "en", "no idea what he means"),
    ("resistance", "vote", "fr", "je pense que Lucas ment"),
    ("resistance", "vote", "fr", "oui mais pourquoi lui"),
    ("ici-londres", "guess", "fr", "la cloche de l'église sonne"),
    ("resistance", "mission", "fr", "on verra bien"),
    ("resistance", "accuse", "fr", "j'ai faim, pas vous"),
    ("codenames", "guess", "fr", "piano peut-être, ou alors table"),
    ("resistance", "mission", "fr", "deux d'entre eux mentent"),
]
"""Table talk written with :data:`FRESH_B` (same rule)."""

FRESH_B_FIRST_RUN = (
    "English 37/53 (69.8%), French 25/30 (83.3%), 0/21 table talk acted on; every miss a "
    "rejection: a hedge after the move (\"yes I guess\", \"the anchor I think\", \"honey I "
    "think\", \"blue, I think\", \"oui je pense\", \"la chouette je pense\", \"piano je crois\"), "
    "a word of certainty before it (\"definitely the owl\", \"I'm pretty sure it's Thomas\"), "
    "\"not this time\", \"no, I'd rather not\", \"I'm gonna reject\", \"no sabotage at all\", "
    "\"the double agent has to be Zoe\", \"the clue is music, two words\", \"I'm going to touch "
    "lemon\", \"we're done for this round\", \"pas cette fois\", \"deux sabotages cette fois\".")
"""The second fresh set at its first run, before any change made for it."""
