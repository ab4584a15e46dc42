"""Pronunciations for words the PocketSphinx dictionary lacks."""

from __future__ import annotations

import pytest

from voice_host.speech.pronounce import (
    ARPABET,
    espeak_available,
    ipa_to_arpabet,
    pronounce,
    spell_to_arpabet,
)

needs_espeak = pytest.mark.skipif(not espeak_available(), reason="espeak-ng is not installed")


def test_ipa_mapping_of_common_symbols() -> None:
    assert ipa_to_arpabet("s_ˈoʊ_f_i") == ["S", "OW", "F", "IY"]
    assert ipa_to_arpabet("tʃ_ˈuː_z") == ["CH", "UW", "Z"]
    assert ipa_to_arpabet("v_ˈɛɹ_m_æ_x_t") == ["V", "EH", "R", "M", "AE", "K", "T"]


def test_unknown_ipa_symbols_are_dropped_not_fatal() -> None:
    assert ipa_to_arpabet("☃_m") == ["M"]


@pytest.mark.parametrize("word", ["sophie", "wehrmacht", "claire", "yann", "thibault", "x"])
def test_spelling_fallback_gives_valid_phones(word: str) -> None:
    phones = spell_to_arpabet(word)
    assert phones
    assert set(phones) <= ARPABET


@needs_espeak
def test_names_and_rare_words_get_espeak_pronunciations() -> None:
    words = ["wehrmacht", "sabotages", "gwenaëlle", "jean-luc", "o'neil", "hannah"]
    result = pronounce(words)
    assert set(result) == set(words)
    for phones in result.values():
        assert phones.split()
        assert set(phones.split()) <= ARPABET
    assert result["sabotages"].endswith("Z")
    assert result["wehrmacht"].startswith("V")


def test_pronounce_never_returns_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    import voice_host.speech.pronounce as module

    monkeypatch.setattr(module, "espeak_available", lambda: False)
    result = pronounce(["zzyzx", "éloïse"])
    assert all(result[w].split() for w in ("zzyzx", "éloïse"))
