"""``voice-host understand``: show what the host understands of typed phrases or WAV files."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from voice_host.host.cli import models as models_cmd
from voice_host.host.core.narration import LANGS
from voice_host.host.core.registry import game_names, registration
from voice_host.host.core.understanding import Understood
from voice_host.host.core.values import Heard
from voice_host.intent import (
    GrammarError,
    Matcher,
    MatchResult,
    PhaseGrammar,
    SlotValues,
    load_grammar,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``voice-host understand``."""
    parser.add_argument("--game", required=True, choices=game_names(),
                        help="which game's grammar")
    parser.add_argument("--phase", required=True,
                        help="a phase of the game's grammar (vote, guess, clue...; an unknown "
                             "one lists the game's phases)")
    parser.add_argument("--players", default="", metavar="A,B,...",
                        help="player names, comma-separated, spelled as the game spells them")
    parser.add_argument("--speaker", default=None, metavar="NAME",
                        help='who is talking, so "me" and "myself" resolve')
    parser.add_argument("--board", default=None, metavar="W1,...,W25",
                        help="Codenames board words (default: the first 25 of the word list)")
    parser.add_argument("--lang", default="en", choices=LANGS,
                        help="grammar language (default %(default)s)")
    models_cmd.add_recognizer_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per input")
    parser.add_argument("--text", nargs="+", default=None, metavar="UTTERANCE",
                        help="typed utterances (skip the recognizer)")
    parser.add_argument("files", nargs="*", metavar="FILE.wav", help="recorded utterances")


def _split(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    return tuple(part.strip() for part in value.split(",") if part.strip())


def _slot_values(args: argparse.Namespace) -> SlotValues:
    board = _split(args.board) if args.board is not None else ()
    return SlotValues(players=_split(args.players), speaker=args.speaker,
                      lists=registration(args.game).example_lists(args.lang, board_word=board))


def _plain_slots(slots: Any) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in slots.items()}


def _record(source: str, transcript: str, result: MatchResult | None) -> dict[str, Any]:
    best = result.best if result is not None else None
    return {
        "input": source,
        "transcript": transcript,
        "intent": best.intent if best else None,
        "slots": _plain_slots(best.slots) if best else {},
        "confidence": round(best.confidence, 3) if best else 0.0,
    }


def _describe(slots: Any) -> str:
    parts = []
    for key, value in slots.items():
        shown = ", ".join(str(v) for v in value) if isinstance(value, tuple) else str(value)
        parts.append(f"{key}={shown}")
    return " ".join(parts)


def _human(source: str, transcript: str, result: MatchResult | None, note: str = "") -> str:
    lines = [f"{source}"]
    if transcript != source:
        lines.append(f"  heard:      {transcript or '(nothing)'}")
    if note:
        lines.append(f"  note:       {note}")
    best = result.best if result is not None else None
    if best is None:
        lines.append("  intent:     none (not a command here)")
        return "\n".join(lines)
    lines.append(f"  intent:     {best.intent}   confidence {best.confidence:.2f}")
    if best.slots:
        lines.append(f"  slots:      {_describe(best.slots)}")
    if result is not None and result.ambiguous:
        options = " or ".join(f"{m.intent} {_describe(m.slots)}".strip()
                              for m in result.alternatives)
        lines.append(f"  ambiguous:  did you mean {options}?")
    elif result is not None and len(result.alternatives) > 1:
        others = "; ".join(f"{m.intent} {_describe(m.slots)} ({m.confidence:.2f})".strip()
                           for m in result.alternatives[1:])
        lines.append(f"  also:       {others}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``voice-host understand``; 0 when every input was processed."""
    grammar_name = registration(args.game).grammar_name
    try:
        grammar = load_grammar(grammar_name, args.lang)
    except GrammarError as error:
        print(str(error), file=sys.stderr)
        return 2
    phases = grammar.phases
    if args.phase not in phases:
        print(f"{args.game} has no phase {args.phase!r}; choose one of {', '.join(phases)}.",
              file=sys.stderr)
        return 2
    if args.text is None and not args.files:
        print("Give phrases with --text, or WAV files.", file=sys.stderr)
        return 2
    if args.text is not None and args.files:
        print("Give either --text phrases or WAV files, not both.", file=sys.stderr)
        return 2
    slots = _slot_values(args)
    if args.speaker and slots.players and args.speaker not in slots.players:
        print(f"The speaker {args.speaker} is not among the players.", file=sys.stderr)
        return 2
    try:
        phase = grammar.phase(args.phase, slots)
    except GrammarError as error:
        print(str(error), file=sys.stderr)
        return 2
    matcher = phase.matcher
    if args.text is not None:
        from voice_host.host.core.understanding import understand
        from voice_host.host.core.values import Heard, HeardKind

        for text in args.text:  # a typed line, read as the host reads one during a game
            understood = understand(Heard(HeardKind.SPEECH, text=text), matcher,
                                    speaker=args.speaker)
            _emit(args, text, text, understood.result)
        return 0
    return _run_wavs(args, phase, matcher)


def _emit(args: argparse.Namespace, source: str, transcript: str,
          result: MatchResult | None, note: str = "",
          extra: dict[str, Any] | None = None) -> None:
    if args.json:
        record = _record(source, transcript, result) | (extra or {})
        print(json.dumps(record, ensure_ascii=False))
    else:
        text = _human(source, transcript, result, note)
        if extra:
            text += (f"\n  recognizer: {extra['backend']}, {extra['audio_seconds']:.2f} s of "
                     f"audio, {extra['decode_ms']:.0f} ms from its end to the intent")
            if extra.get("heard_alternatives"):
                text += f"\n  also heard: {'; '.join(extra['heard_alternatives'])}"
            if "free_text" in extra:
                text += "\n" + _human_readings(extra)
        print(text)


def _reading_record(match: Any) -> dict[str, Any] | None:
    if match is None:
        return None
    return {"intent": match.intent, "slots": _plain_slots(match.slots),
            "confidence": round(match.confidence, 3)}


def _readings(heard: Heard, understood: Understood) -> dict[str, Any]:
    """The two readings of a searched utterance and how they were decided (empty for a
    recognizer that gives one reading)."""
    from voice_host.host.core.understanding import tuning_of

    judgement = heard.judgement
    if judgement is None:
        return {}
    reading = judgement.reading
    return {
        "free_text": judgement.free_text,
        "free_logp": round(judgement.free_logp, 3),
        "free_looped": judgement.looped,
        "free_prompt_lift": round(judgement.free_lift, 3) if judgement.free_lift else None,
        "free_reading": _reading_record(understood.free),
        "free_confident": understood.free is not None and judgement.free_confident(
            understood.free.confidence, tuning_of(heard)),
        "grammar_text": reading.text if reading else None,
        "grammar_margin": round(reading.margin, 3) if reading else None,
        "grammar_similarity": round(reading.similarity, 3) if reading else None,
        "grammar_sound": round(reading.sound, 3) if reading and reading.sound >= 0 else None,
        "grammar_prompt_lift": round(reading.lift, 3) if reading and reading.lift else None,
        "grammar_near": bool(reading and reading.near),
        "grammar_accepted": judgement.accepted,
        "grammar_rejected_because": judgement.reason.value or None,
        "grammar_reading": _reading_record(understood.grammar),
        "decision": understood.verdict.value if understood.verdict else None,
        "why_not": understood.why_not or None,
    }


def _lift(lift: float | None) -> str:
    """How much the phase's words as the decoder's prompt raised a reading (when measured)."""
    return "" if lift is None else f", prompt lift {lift:+.2f}"


def _human_readings(extra: dict[str, Any]) -> str:
    def meaning(record: dict[str, Any] | None) -> str:
        if record is None:
            return "no command"
        slots = " ".join(f"{k}={', '.join(map(str, v)) if isinstance(v, list) else v}"
                         for k, v in record["slots"].items())
        return f"{record['intent']} {slots}".strip()

    free = (f"  free:       {extra['free_text'] or '(nothing)'}   -> "
            f"{meaning(extra['free_reading'])}"
            f"{'' if extra['free_confident'] else ' (not confident)'}; mean log-prob "
            f"{extra['free_logp']:.2f}{', looped' if extra['free_looped'] else ''}"
            + _lift(extra.get("free_prompt_lift")))
    if extra["grammar_text"] is None:
        grammar = f"  grammar:    no sentence found ({extra['grammar_rejected_because']})"
    else:
        verdict = "accepted" if extra["grammar_accepted"] else \
            f"rejected: {extra['grammar_rejected_because']}"
        grammar = (f"  grammar:    {extra['grammar_text']}   -> "
                   f"{meaning(extra['grammar_reading'])}; margin "
                   f"{extra['grammar_margin']:.2f}, similarity "
                   f"{extra['grammar_similarity']:.2f}"
                   + (f", sounds {extra['grammar_sound']:.2f} alike"
                      if extra.get("grammar_sound") is not None else "")
                   + _lift(extra.get("grammar_prompt_lift"))
                   + (", among the sentences nearest the free text"
                      if extra.get("grammar_near") else "")
                   + f", {verdict}")
    decision = f"  decision:   {extra['decision']}"
    if extra.get("why_not"):
        decision += f" ({extra['why_not'].replace('_', ' ')})"
    return "\n".join((free, grammar, decision))


def _run_wavs(args: argparse.Namespace, phase: PhaseGrammar, matcher: Matcher) -> int:
    """WAV files through the same path the host plays with: the recognizer switched to the
    phase's grammar (PhaseEars), then understanding.understand."""
    from voice_host.host.core.understanding import understand
    from voice_host.host.core.values import HeardKind, ListenRequest
    from voice_host.host.io.listening import PhaseEars
    from voice_host.host.io.wiring import WiringError, make_recognizer

    try:
        recognizer, _ = make_recognizer(args.asr, args.vosk_model, args.lang, args.whisper_model)
    except (WiringError, ImportError) as error:
        print(f"WAV input needs the speech recognizer: {error}", file=sys.stderr)
        return 2
    ears = PhaseEars(recognizer)
    request = ListenRequest(grammar=phase, grammar_name=f"{args.game}.{args.phase}.{args.lang}",
                            expected=(args.speaker,) if args.speaker else ())
    failures = 0
    for path in args.files:
        heard = ears.decode_wav(Path(path), request)
        if heard.kind is HeardKind.ERROR:
            failures += 1
            if args.json:
                print(json.dumps(_record(path, "", None) | {"error": heard.error},
                                 ensure_ascii=False))
            else:
                print(f"{path}\n  error:      {heard.error}")
            continue
        started = time.perf_counter()
        understood = understand(heard, matcher, speaker=args.speaker)
        matched = time.perf_counter() - started
        note = "the grammar search did not believe its sentence" \
            if heard.rejected and heard.judgement is not None \
            else "the recognizer judged this out of grammar" if heard.rejected else ""
        result = understood.result if understood.best else None
        extra = {
            "backend": heard.backend or recognizer.name,
            "audio_seconds": round(heard.audio_seconds, 3),
            "decode_ms": round((heard.decode_seconds + matched) * 1000, 1),
            "heard_alternatives": list(heard.alternatives),
            "alternatives": [{"intent": m.intent, "slots": _plain_slots(m.slots),
                              "confidence": round(m.confidence, 3)}
                             for m in (result.alternatives[1:] if result else ())],
            "ambiguous": bool(result and result.ambiguous),
            "rejected": heard.rejected,
        } | _readings(heard, understood)
        _emit(args, path, heard.text, result, note, extra)
    return 1 if failures else 0
