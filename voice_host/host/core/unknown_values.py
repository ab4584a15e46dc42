"""A command that names something the game does not have: "Frank yes" when nobody called
Frank is playing, "I choose Ada and Zoe", "animal" when that word is not on the board, "the
giraffe" among the icons. Such a line matches no sentence of the phase, so the matcher alone
would only say it was not understood; here each word the grammar does not know is tried as
a value of the game's lists (a player, an icon, a board word): when the line then reads as
a command of the phase, the host says which word is not in the game and, for a name, who
the players are -- in the game's language, and nothing is taken."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from voice_host.host.core.adapter import Prompt
from voice_host.host.core.values import Heard, Line
from voice_host.intent import Matcher, PhaseGrammar
from voice_host.text import tokenize

if TYPE_CHECKING:
    from voice_host.host.core.session import Session

REFUSALS = {"player": "common.not_playing", "icon": "common.no_such_icon",
            "board_word": "common.not_on_board"}
"""The run-time lists a word is tried in, and what the host says when it fits one."""
MOST_WORDS = 12
"""Longer lines are talk: not tried."""
MOST_UNKNOWN = 3
SURE = 0.9
"""The matcher's confidence a line must reach with its unknown words taken as values."""


def unknown_value_lines(s: Session, prompt: Prompt, heard: Heard, speaker: str | None, *,
                        for_host: bool) -> list[Line] | None:
    """What the host says when ``heard`` is a command of the prompt's phase naming a player,
    an icon or a board word the game does not have; None when it is not one.

    The line must read as a command with certainty once the unknown words are taken as
    values (:data:`SURE`), and keep a word of its own beside them ("Frank *yes*", "I
    *choose* *Ada* and Zoe"): a line of unknown words alone ("quelle belle soirée") is talk.
    A single word alone ("animal") is taken only from the player the host asked, or typed
    at the host's keyboard, or said to the host (``for_host``)."""
    pg, matcher = s.phase_grammar(prompt.phase)
    text = heard.judgement.free_text if heard.judgement is not None else heard.text
    tokens = list(tokenize(text or ""))
    if not tokens or len(tokens) > MOST_WORDS:
        return None
    unknown = [i for i, word in enumerate(tokens) if _unknown(word, pg)]
    if not unknown or len(unknown) > MOST_UNKNOWN:
        return None
    st = pg.settings
    small = st.fillers | st.function_words | st.articles | st.discourse | st.interjections \
        | st.joiners
    kept = [w for i, w in enumerate(tokens) if i not in unknown and w not in small]
    if not kept and (len(unknown) > 1 or not for_host):
        return None
    for name, key in REFUSALS.items():
        values = pg.lists.get(name)
        if values is None or not any(_reads(matcher, tokens, unknown, picks, speaker)
                                     for picks in _stand_ins(values.forms, set(tokens),
                                                             len(unknown))):
            continue
        said = [_as_said(text or "", tokens[i], name == "player") for i in unknown]
        many = len(said) > 1
        params: dict[str, Any] = {"words": s.narrator.names(said)}
        if name == "player":
            params["players"] = s.narrator.names(s.state.players)
        return [s.narrator.line(key + ("_many" if many else ""), **params)]
    return None


def _unknown(word: str, pg: PhaseGrammar) -> bool:
    """A word neither the phase's sentences, nor the language's small words, nor a value
    of its lists explain: perhaps a name the game does not have."""
    st = pg.settings
    if len(word) < 2 or not word.replace("-", "").replace("'", "").isalpha():
        return False
    if word in pg.literal_words or word in st.fillers or word in st.function_words \
            or word in st.vetoes or word in st.joiners or word in st.discourse \
            or word in st.answer_words or word in st.articles or word in st.interjections:
        return False
    return not any(word in form for values in pg.lists.values() for form, _ in values.forms)


def _stand_ins(forms: Iterable[tuple[tuple[str, ...], Any]], said: set[str], count: int,
               tries: int = 4) -> Iterator[list[tuple[tuple[str, ...], Any]]]:
    """Up to ``tries`` sets of ``count`` different one-word values of a list, none of them
    said in the line (another set when one does not fit the sentence: a French article
    agrees with its noun)."""
    single: list[tuple[tuple[str, ...], Any]] = []
    seen: set[Any] = set()
    for form, value in forms:
        if len(form) == 1 and form[0] not in said and value not in seen \
                and isinstance(value, str):
            single.append((form, value))
            seen.add(value)
    for start in range(0, min(tries * count, len(single) - count + 1), count):
        yield single[start:start + count]


def _reads(matcher: Matcher, tokens: list[str], unknown: list[int],
           picks: list[tuple[tuple[str, ...], Any]], speaker: str | None) -> bool:
    """Whether the line, its unknown words replaced by ``picks``, is surely a command that
    takes those values."""
    probe = list(tokens)
    for i, (form, _) in zip(unknown, picks, strict=True):
        probe[i] = " ".join(form)
    best = matcher.match(" ".join(probe), speaker=speaker).best
    if best is None or best.confidence < SURE:
        return False
    taken = set(_flat(best.slots.values()))
    return all(value in taken for _, value in picks)


def _flat(values: Iterable[Any]) -> Iterable[Any]:
    for value in values:
        if isinstance(value, list | tuple):
            yield from value
        else:
            yield value


def _as_said(text: str, token: str, name: bool) -> str:
    """The word as the line wrote it ("Zoé", not "zoe"); a name capitalised."""
    for word in re.findall(r"[\w'-]+", text):
        if tokenize(word) == (token,):
            return word[:1].upper() + word[1:] if name else word
    return token.capitalize() if name else token
