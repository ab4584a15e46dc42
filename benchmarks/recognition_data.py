"""Data of the recognition benchmark (``bench_recognition.py``): voices, slot values, table
talk that must never become an action, and the sentences the babble noise is made of.

The chatter here was written for this benchmark and is not used by the intent tests or the
grammars, so rejection is measured on talk nothing was tuned on. ``{p}`` and ``{q}`` stand for
two players of the game being played. Lines are split into a calibration half (even
positions) and a report half (odd positions): thresholds may only be tuned on the first.
"""

from __future__ import annotations

from collections.abc import Sequence

VOICES: tuple[str, ...] = (
    "en-us",
    "en-gb",
    "en-gb-scotland",
    "en-gb-x-rp",
    "en-029",
    "en-us-nyc",
    "en-gb-x-gbclan",
    "en-gb-x-gbcwmd",
    "en-us+f3",
    "en-gb+f2",
)
"""espeak-ng voices (accents; ``+f2``/``+f3`` are female variants)."""

FESTIVAL_VOICES: tuple[str, ...] = ("kal_diphone", "ked_diphone", "cmu_us_slt_arctic_hts")
"""Debian's Festival voices (festvox-kallpc16k, festvox-kdlpc16k, festvox-us-slt-hts): a
second synthesizer, so the recognizer is not tuned to espeak-ng's sound."""

FESTIVAL_STRETCH: tuple[float, ...] = (0.85, 1.0, 1.2)
"""Festival duration stretch (below 1 is faster)."""

FRENCH_VOICES: tuple[str, ...] = ("fr", "fr+f3", "fr+m3", "fr-be", "fr-ch+f2")
"""espeak-ng French voices."""

KOKORO_VOICES: tuple[str, ...] = ("jf_alpha", "jf_gongitsune", "jm_kumo")
"""Kokoro-82M voices (``benchmarks/voices.py``), for English and French alike. Acceptance is
checked with other voices, so nothing may be tuned to these."""

KOKORO_SPEEDS: tuple[float, ...] = (0.9, 1.0, 1.15)
"""Kokoro speed factors (above 1 is faster)."""

SYNTHESIZER_SHARES: dict[str, dict[str, float]] = {
    "en": {"kokoro": 1 / 3, "festival": 1 / 3, "espeak": 1 / 3},
    "fr": {"kokoro": 0.7, "espeak": 0.3},
}
"""Share of the utterances each synthesizer says, per language (renormalized over those
installed). English: the natural voices (Kokoro, Festival) are the yardstick, espeak-ng is
reported on its own row. French: Kokoro is the yardstick (Whisper hardly understands
espeak-ng's French, which stays as a row of its own); Festival has no French voice here."""

NATURAL_SYNTHESIZERS: dict[str, tuple[str, ...]] = {"en": ("kokoro", "festival"),
                                                    "fr": ("kokoro",)}
"""The voices the clean-speech targets are measured on (the others are reported beside)."""

GAINS_DB: tuple[float, ...] = (-20.0, -12.0, -6.0, 0.0)
"""Loudness of the speaker relative to full level (near and far from the box)."""

SPEEDS: tuple[int, ...] = (140, 170, 200)
"""Words per minute."""

PITCHES: tuple[int, ...] = (35, 65)
"""espeak-ng pitch 0..99."""

PLAYER_POOL: tuple[str, ...] = (
    "Sophie", "Thomas", "Hannah", "Lucas", "Emma", "Noah", "Chloe", "Hugo", "Marc", "Zoe",
    "Julien", "Camille", "Olivia", "James", "Priya", "Mateo", "Aisha", "Karim", "Ingrid",
    "Thibault", "Leo", "Nina", "Oscar", "Ruby", "Sam", "Grace", "Victor", "Mila", "Jack",
    "Amelie",
)
"""Player names the games are set up with (a few per game, drawn at random)."""

CHATTER: tuple[str, ...] = (
    # food, drink, house
    "pass me the chips please",
    "who wants another drink",
    "is there any more pizza left",
    "can somebody open the window it's hot in here",
    "i'm going to grab some water do you want some",
    "the oven timer just went off",
    "careful you'll spill your glass",
    "these crisps are really good where did you get them",
    "shall i put the kettle on",
    "the dog wants to go out again",
    "turn the music down a little would you",
    "my phone is about to die has anyone got a charger",
    "where is the bathroom",
    "let me get a napkin",
    "can you pass the salt",
    # about the game, but not a command
    "i don't trust {p} at all",
    "{p} you are definitely a spy",
    "was it {p} who played the fail card",
    "no way really",
    "why would you pick {p}",
    "i think {p} is lying to us",
    "okay but who is the double agent then",
    "last round went really badly",
    "we should have voted differently",
    "that team looked suspicious to me",
    "{p} and {q} have been quiet all game",
    "honestly i have no idea who it is",
    "you always say that when you're a spy",
    "remember what happened last time",
    "if we lose this one it's over",
    "{p} keeps looking at {q}",
    "i would never sabotage a mission",
    "are you sure about that",
    "don't look at me like that",
    "i told you it was a bad idea",
    "the red team is winning by a lot",
    "that clue was way too hard",
    "i was going to say the same thing",
    "how did you not see that coming",
    "that's exactly what a spy would say",
    "nobody ever believes me",
    "my cards were terrible this game",
    "she guessed it right away",
    "he never tells the truth",
    "we need a better strategy",
    "you're overthinking it",
    "whose idea was this game anyway",
    "i bet it's the same person as last time",
    "that was a lucky guess",
    "the icons are so hard to tell apart",
    "what did {p} just say",
    "let's think before we vote",
    "who was the leader last round",
    "one more game after this one",
    "this is my favourite part",
    "you can't be serious",
    "i knew it was you",
    "we're so close to winning",
    "let's not rush this",
    "that's not fair at all",
    "i almost said the wrong word",
    "you were the spy last game too",
    "two missions in a row failed",
    "three of us suspect {p}",
    "the assassin card is scary",
    "our spymaster is brilliant",
    "blue team really needs a good clue",
    "the heart looks like a leaf on this card",
    "i can never remember the icons",
    "my brother would love this game",
    # everyday talk
    "did you see the match last night",
    "what time do you have to leave tomorrow",
    "i have work early in the morning",
    "the traffic was awful on the way here",
    "my sister just had a baby",
    "we went to the beach last weekend",
    "have you finished that book yet",
    "the weather is supposed to be nice on sunday",
    "i need to call my mum later",
    "did anyone feed the cat",
    "my neighbour is painting his house bright yellow",
    "i started learning the piano again",
    "the train was delayed for an hour",
    "we should all go camping this summer",
    "is it raining outside",
    "that film was much better than i expected",
    "my back hurts from sitting so long",
    "i can't believe it's already november",
    "have you tried the new bakery on the corner",
    "the wifi here is so slow",
    "remind me to buy milk tomorrow",
    "our flight leaves at six in the morning",
    "i lost my keys again",
    "he's been working from home all week",
    "the kids are finally asleep",
    "can you send me that photo later",
    "i'm so tired today",
    "what are you doing for the holidays",
    "that song is stuck in my head",
    "they painted the kitchen green",
    "happy birthday by the way",
    "my car needs new tyres",
    "i'll drive you home after",
    "the garden is full of weeds",
    "let's order food next time",
    "somebody left the door open",
    "i've got a meeting at nine",
    "is that your jacket on the chair",
    "we ran out of ice",
    "he talks about football all the time",
    "i'll text you the address",
    "the neighbours are having a party too",
    "i'd rather sit by the window",
    "did you bring the cards from last time",
    "who took the last slice",
    "my turn was ages ago",
)
"""Out-of-grammar table talk: no phase may act on any of these."""

BABBLE: tuple[str, ...] = (
    "and then she told me she was moving to canada next spring",
    "i really don't know what he was thinking when he bought that car",
    "the restaurant on the high street has changed owners again",
    "we spent the whole afternoon looking for a parking space",
    "my grandmother used to make the best apple pie in the village",
    "they say the new manager is much stricter than the old one",
    "if you ask me the whole thing was a waste of money",
    "we are thinking of repainting the living room this winter",
    "the concert was cancelled because the singer had a cold",
    "he has been learning spanish for three years and still cannot order coffee",
    "you would not believe how expensive the tickets were",
    "our team lost again on saturday in the last minute",
    "she bought a little boat and now she sails every weekend",
    "the museum was closed so we walked along the river instead",
    "i think the meeting could have been an email honestly",
    "the children built a huge sandcastle on the beach",
    "there was a fox in the garden this morning",
    "he forgot his passport at the airport of all places",
)
"""Sentences spoken over each other to make babble noise (never test utterances)."""


CHATTER_FR: tuple[str, ...] = (
    "tu peux me passer les chips s'il te plait",
    "qui veut encore un verre",
    "il reste de la pizza dans la cuisine",
    "quelqu'un peut ouvrir la fenetre il fait chaud",
    "je vais chercher de l'eau tu en veux",
    "attention tu vas renverser ton verre",
    "on baisse un peu la musique",
    "mon telephone n'a plus de batterie",
    "ou sont les toilettes",
    "je n'ai aucune confiance en {p}",
    "{p} tu es forcement un espion",
    "c'est {p} qui a mis la carte echec",
    "pourquoi tu as choisi {p}",
    "je crois que {p} nous ment",
    "la derniere manche s'est tres mal passee",
    "on aurait du voter autrement",
    "{p} et {q} ne disent rien depuis le debut",
    "franchement je n'en ai aucune idee",
    "tu dis toujours ca quand tu es espion",
    "si on perd celle la c'est fini",
    "je ne saboterais jamais une mission",
    "tu es sur de toi",
    "ne me regarde pas comme ca",
    "l'equipe rouge a beaucoup d'avance",
    "cet indice etait beaucoup trop dur",
    "c'est exactement ce que dirait un espion",
    "personne ne me croit jamais",
    "il nous faut une meilleure strategie",
    "c'etait un coup de chance",
    "les icones se ressemblent toutes",
    "qu'est ce que {p} vient de dire",
    "reflechissons avant de voter",
    "encore une partie apres celle ci",
    "tu ne peux pas etre serieux",
    "je savais que c'etait toi",
    "on y est presque",
    "ce n'est pas juste du tout",
    "tu as vu le match hier soir",
    "a quelle heure tu pars demain",
    "je travaille tot demain matin",
    "il y avait des bouchons partout en venant",
    "on est alles a la plage le week end dernier",
    "tu as fini ce livre",
    "il doit faire beau dimanche",
    "je dois appeler ma mere tout a l'heure",
    "quelqu'un a nourri le chat",
    "le train avait une heure de retard",
    "il pleut dehors",
    "le film etait bien meilleur que prevu",
    "j'ai mal au dos a force d'etre assis",
    "tu as goute la nouvelle boulangerie",
    "le wifi est tellement lent ici",
    "j'ai encore perdu mes cles",
    "les enfants dorment enfin",
    "tu m'enverras la photo plus tard",
    "je suis tellement fatigue aujourd'hui",
    "cette chanson me reste dans la tete",
    "ma voiture a besoin de pneus neufs",
    "je te raccompagne apres",
    "quelqu'un a laisse la porte ouverte",
    "on n'a plus de glacons",
    "qui a pris la derniere part",
)
"""French table talk, written for this benchmark (same split rule as ``CHATTER``)."""


FILLERS: dict[str, dict[str, tuple[str, ...]]] = {
    "calib": {"en": ("", "", "well, ", "right, "), "fr": ("", "", "alors, ", "bon, ")},
    "report": {"en": ("", "", "okay, ", "um, ", "so "), "fr": ("", "", "euh, ", "bon alors, ")},
}
"""Words a player puts before a command, per split and language (an empty one: none)."""


def fillers(part: str, lang: str = "en") -> tuple[str, ...]:
    """The words ``part``'s players put before a command (none among them)."""
    return tuple(f for f in FILLERS[part][lang] if f)


def chatter_split(part: str, lang: str = "en") -> tuple[str, ...]:
    """``"calib"`` (even positions) or ``"report"`` (odd positions) half of the chatter."""
    if part not in ("calib", "report"):
        raise ValueError("part must be calib or report")
    start = 0 if part == "calib" else 1
    lines = CHATTER_FR if lang == "fr" else CHATTER
    return lines[start::2]


def chatter_said(lang: str, players: Sequence[str]) -> list[str]:
    """Every talk line of ``lang`` as said at a table of ``players``: ``{p}`` and ``{q}``
    are two of them, a different pair from line to line."""
    lines = CHATTER_FR if lang == "fr" else CHATTER
    return [line.format(p=players[i % len(players)].lower(),
                        q=players[(i + 3) % len(players)].lower())
            for i, line in enumerate(lines)]
