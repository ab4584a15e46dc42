"""A fake Whisper decoder on made-up log-probabilities: its next-token scores after a prefix
come from a table, so a grammar search's outcome is exact and the same on every CPU. The
grammar search and decision tests (tests/speech/test_decision.py, test_search_*.py) share it."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from voice_host.speech.decision import Judgement, SearchTuning
from voice_host.speech.grammar_search import TokenConstraint, TokenTrie, WordGraph
from voice_host.speech.search import Rollout, Scored, Search, judge

WORDS = [" I", " vote", " yes", " no", " pass", " me", " the", " chips", ".", " Yes",
         " approve", " book", " Bye", " well", " bell", " and", " do", " undo", " please", ",",
         " VOTE"]
TEXTS = dict(enumerate(WORDS))
EOT = len(WORDS)
IDS = {text.strip().lower() if text.strip() not in ("Yes", "VOTE") else text.strip(): i
       for i, text in TEXTS.items()}
VOTE = "#JSGF V1.0;\ngrammar vote;\npublic <s> = i vote (yes | no) | yes | no | pass;\n"
BOOK = "#JSGF V1.0;\ngrammar guess;\npublic <s> = book | bell;\n"


def ids(*words: str) -> tuple[int, ...]:
    return tuple(IDS[w] for w in words)


class TableDecoder:
    """A decoder whose logits after a prefix come from ``table`` (missing tokens get
    ``floor``); greedy continuation, suppressed tokens removed and the rest renormalized."""

    eot = EOT

    def __init__(self, table: dict[tuple[int, ...], dict[int, float]],
                 floor: float = -8.0) -> None:
        self.table = table
        self.floor = floor
        self.calls = 0

    def logp(self, prefix: tuple[int, ...], suppress: Sequence[int] = ()) -> np.ndarray:
        row = np.full(EOT + 1, self.floor, dtype=np.float64)
        for token, value in self.table.get(prefix, {}).items():
            row[token] = value
        for token in suppress:
            if token >= 0:
                row[token] = -math.inf
        top = row.max()
        return row - (top + math.log(np.exp(row - top).sum()))

    def continue_prefixes(self, prefixes: Sequence[tuple[int, ...]], cap: int,
                          suppress: Sequence[int] | None = None) -> list[Rollout]:
        self.calls += 1
        out = []
        for prefix in prefixes:
            tokens: list[int] = []
            rows = []
            while len(prefix) + len(tokens) < cap:
                row = self.logp((*prefix, *tokens), suppress or ())
                rows.append(row)
                best = int(np.argmax(row))
                if best == EOT:
                    break
                tokens.append(best)
            out.append(Rollout(tuple(tokens), tuple(rows)))
        return out

    def score(self, sentences: Sequence[tuple[int, ...]]) -> list[Scored]:
        out = []
        for tokens in sentences:
            total = margin = 0.0
            for step, token in enumerate([*tokens, EOT]):
                row = self.logp(tuple(tokens[:step]))
                total += float(row[token])
                margin += float(row[token] - row.max())
            out.append(Scored(tuple(tokens), total, margin))
        return out

    def text(self, tokens: Sequence[int]) -> str:
        return "".join(TEXTS[t] for t in tokens if t != EOT).strip()


def say(*steps: tuple[str, float]) -> dict[tuple[int, ...], dict[int, float]]:
    """A table where the decoder says these words in turn with these logits (the last step
    ends), every other token at the floor."""
    table: dict[tuple[int, ...], dict[int, float]] = {}
    prefix: tuple[int, ...] = ()
    for word, value in steps:
        token = EOT if word == "<end>" else IDS[word]
        table.setdefault(prefix, {})[token] = value
        prefix = (*prefix, token)
    return table


def searches(document: str) -> list[Search]:
    return [Search(TokenConstraint(WordGraph(document)))]


VOCAB = TokenTrie(TEXTS)
TUNING = SearchTuning()


def run(table: dict[tuple[int, ...], dict[int, float]], document: str = VOTE,
        cap: int = 12, tuning: SearchTuning = TUNING, floor: float = -8.0) -> Judgement:
    return judge(TableDecoder(table, floor), searches(document), VOCAB, cap=cap,
                 tuning=tuning)


OPEN = "#JSGF V1.0;\ngrammar open;\npublic <s> = i vote (yes | no) | the vote yes;\n"
"""A grammar whose second sentence starts with a word the first does not have."""


def drifting(first_inside: bool) -> dict[tuple[int, ...], dict[int, float]]:
    """After "i" and after "i vote" the decoder would rather write " the" (out of the
    grammar), the grammar's next word half a nat behind: "i vote yes" takes one round per
    word. The free decode writes "i" first (inside the grammar) or " the" (outside)."""
    table: dict[tuple[int, ...], dict[int, float]] = {
        (): {IDS["i"]: 6.0, IDS["the"]: 5.5} if first_inside
        else {IDS["the"]: 6.0, IDS["i"]: 5.5},
        ids("i"): {IDS["the"]: 6.0, IDS["vote"]: 5.5},
        ids("i", "vote"): {IDS["the"]: 6.0, IDS["yes"]: 5.5},
        ids("i", "vote", "yes"): {EOT: 6.0},
    }
    return table
