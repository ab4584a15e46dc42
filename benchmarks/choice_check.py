"""Are answers to "Did you mean X, or Y?" understood by voice? (a check, not a benchmark)

The host asks which of two readings was meant; the players answer by place ("the first
one", "le second"), by the word that tells the two apart ("gold"), or "neither". Each
answer below is said by synthetic voices and recognized as the host hears it while the
question waits (the phase's grammar with the answers joined, ``choice.with_choice``), then
read by the phase's matcher. English: a Codenames clue, "gold for one" or "called for one",
in the demo's players' voices (Piper at each seat's pitch and pace; espeak-ng without
Piper). French: a Resistance accusation, Ben or Cléo, in Kokoro's French (voices jf_nezumi
and jf_tebukuro, which the benchmark does not use, and jf_alpha).

Usage (from the checkout, with the speech and dev extras)::

    .venv/bin/python benchmarks/choice_check.py [--lang en|fr]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ANSWERS = {
    "en": [("the first one", "first"), ("the second one", "second"), ("neither", "neither"),
           ("first", "first"), ("second", "second"), ("gold", "first"), ("called", "second"),
           ("I meant the first one", "first"), ("the first", "first"),
           ("none of them", "neither")],
    "fr": [("le premier", "first"), ("la première", "first"), ("le second", "second"),
           ("le deuxième", "second"), ("aucun des deux", "neither"),
           ("ni l'un ni l'autre", "neither"), ("je voulais dire le premier", "first"),
           ("la seconde", "second")],
}
"""What a player says, and which reading it names."""


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    from voice_host.host.core.choice import PendingChoice, with_choice
    from voice_host.host.core.understanding import understand
    from voice_host.host.core.values import HeardKind, ListenRequest
    from voice_host.host.io.listening import PhaseEars
    from voice_host.host.io.wiring import make_recognizer
    from voice_host.intent import IntentMatch, SlotValues, load_grammar

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en", choices=("en", "fr"))
    args = parser.parse_args(argv)
    lang = args.lang
    if lang == "en":
        from voice_host.host.cli.demo_voices import player_speech

        grammar, phase = load_grammar("codenames", "en"), "clue"
        slots = SlotValues(players=("Hannah", "Thomas", "Sophie", "Oliver"))
        options = (IntentMatch("clue", {"word": "gold", "number": 1}, 1.0,
                               "my clue is gold for one"),
                   IntentMatch("clue", {"word": "called", "number": 1}, 1.0,
                               "my clue is called for one"))
        speech = player_speech("auto")
        seats = speech.voices(list(slots.players))

        def say(text: str) -> list[tuple[str, np.ndarray]]:
            return [(name, speech.render(text, voice)) for name, voice in seats.items()]
    else:
        import voices

        grammar, phase = load_grammar("resistance", "fr"), "accuse"
        slots = SlotValues(players=("Ada", "Ben", "Cléo", "Dan", "Eve"))
        options = (IntentMatch("accuse", {"player": "Ben"}, 1.0, "ben"),
                   IntentMatch("accuse", {"player": "Cléo"}, 1.0, "cléo"))

        def say(text: str) -> list[tuple[str, np.ndarray]]:
            return [(voice, voices.synthesize(text, lang="fr", voice=voice))
                    for voice in ("jf_nezumi", "jf_tebukuro", "jf_alpha")]
    pg = with_choice(grammar, phase, slots, PendingChoice(phase, options, None, ()))
    recognizer, _ = make_recognizer("whisper", None, lang, None)  # as the host makes it
    ears = PhaseEars(recognizer)
    right = total = 0
    for text, which in ANSWERS[lang]:
        for voice, samples in say(text):
            request = ListenRequest(grammar=pg, grammar_name=f"{grammar.game}.{phase}.{lang}",
                                    expected=())
            heard = ears.hear(samples, request, source=voice)
            best = understand(heard, pg.matcher, speaker=None).best \
                if heard.kind is HeardKind.SPEECH else None
            got = (best.intent, best.slots.get("which")) if best else None
            ok = got == ("choose", which)
            right += ok
            total += 1
            j = heard.judgement
            why = "" if ok or j is None else (
                f" (free {j.free_text!r} {j.free_logp:.2f}; grammar "
                f"{j.reading.text if j.reading else None!r} "
                f"{j.reading.margin if j.reading else float('nan'):.2f}; {j.reason.value})")
            print(f"{'right' if ok else 'WRONG':5} {voice:12} {text!r:32} heard "
                  f"{heard.text!r} -> {got}{why}", flush=True)
    print(f"\n{right} of {total} answers understood as the reading they name ({lang})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
