"""Vosk model catalogue, download (against a local HTTP server), install and removal."""

from __future__ import annotations

import argparse
import hashlib
import io
import threading
import zipfile
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from voice_host.host.cli import models as models_cmd
from voice_host.speech import models
from voice_host.speech.recognizers import choose_backend
from voice_host.speech.types import RecognizerUnavailable

NAME = "vosk-model-test-en"


pytestmark = pytest.mark.network


def _model_zip(path: Path, *, name: str = NAME) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{name}/am/final.mdl", b"\0" * 4000)
        archive.writestr(f"{name}/conf/model.conf", "--sample-frequency=16000\n")
        archive.writestr(f"{name}/graph/words.txt", "<eps> 0\nvote 1\nyes 2\n")
    data = buffer.getvalue()
    path.write_bytes(data)
    return data


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "www"
    root.mkdir()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture()
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data"
    monkeypatch.setenv(models.DATA_ENV, str(home))
    monkeypatch.delenv(models.MODEL_URL_ENV, raising=False)
    return home


def _info(data: bytes, *, sha: bool = True, size: int | None = None) -> models.ModelInfo:
    return models.ModelInfo(
        lang="en",
        name=NAME,
        url="http://invalid.example/x.zip",
        size_bytes=len(data) if size is None else size,
        approx_mb=1,
        sha256=hashlib.sha256(data).hexdigest() if sha else None,
        description="test model",
    )


def test_data_dir_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(models.DATA_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert models.models_dir() == tmp_path / "xdg" / "voice-host" / "models"
    monkeypatch.setenv(models.DATA_ENV, str(tmp_path / "mine"))
    assert models.models_dir() == tmp_path / "mine" / "models"


def test_unpacked_models_are_found_beside_packaged_ones(
        data_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An English or French model the user unpacked is found in the data folder; a language
    only a Python package holds (the Korean test model) is found in that package."""
    for lang in ("en", "fr"):
        folder = data_home / "models" / models.CATALOGUE[lang].name
        (folder / "am").mkdir(parents=True)
        (folder / "conf").mkdir()
        assert models.installed_model(lang) == folder
    package = tmp_path / "site" / "fake_vosk_model"
    (package / "model" / "am").mkdir(parents=True)
    (package / "model" / "graph").mkdir()
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setitem(models.PACKAGED_MODELS, "xx", "fake_vosk_model")
    assert models.installed_model("xx") == package / "model"
    monkeypatch.setitem(models.PACKAGED_MODELS, "xx", "no_such_vosk_model_package")
    assert models.installed_model("xx") is None
    assert models.installed_model("zz") is None
    assert [s.info.lang for s in models.list_models()] == ["en", "fr"]  # the catalogue's


def test_catalogue_has_english_and_french() -> None:
    assert models.CATALOGUE["en"].name == "vosk-model-small-en-us-0.15"
    assert models.CATALOGUE["fr"].name == "vosk-model-small-fr-0.22"
    with pytest.raises(models.ModelError, match="no Vosk model for 'xx'"):
        models.catalogue_entry("xx")


def test_download_verifies_and_unpacks_atomically(
    server: tuple[str, Path], data_home: Path
) -> None:
    url, root = server
    data = _model_zip(root / f"{NAME}.zip")
    seen: list[tuple[int, int | None]] = []
    path = models.download_model(
        "en", base_url=url, info=_info(data), progress=lambda r, t: seen.append((r, t))
    )
    assert path == data_home / "models" / NAME
    assert (path / "graph" / "words.txt").read_text().startswith("<eps>")
    assert seen[-1] == (len(data), len(data))
    leftovers = [p.name for p in path.parent.iterdir() if p.name != NAME]
    assert leftovers == []


def test_download_with_wrong_size_is_refused_and_nothing_installed(
    server: tuple[str, Path], data_home: Path
) -> None:
    url, root = server
    data = _model_zip(root / f"{NAME}.zip")
    with pytest.raises(models.ModelError, match="wrong size"):
        models.download_model("en", base_url=url, info=_info(data, size=len(data) + 10))
    assert not (data_home / "models" / NAME).exists()
    assert list((data_home / "models").iterdir()) == []


def test_download_with_bad_checksum_is_refused(server: tuple[str, Path], data_home: Path) -> None:
    url, root = server
    data = _model_zip(root / f"{NAME}.zip")
    info = _info(data)
    wrong = models.ModelInfo(**{**info.__dict__, "sha256": "0" * 64})
    with pytest.raises(models.ModelError, match="checksum"):
        models.download_model("en", base_url=url, info=wrong)
    assert not (data_home / "models" / NAME).exists()


def test_corrupt_zip_without_checksum_is_refused(server: tuple[str, Path], data_home: Path) -> None:
    url, root = server
    (root / f"{NAME}.zip").write_bytes(b"PK\3\4 this is not really a zip archive")
    data = (root / f"{NAME}.zip").read_bytes()
    with pytest.raises(models.ModelError, match="not a valid zip"):
        models.download_model("en", base_url=url, info=_info(data, sha=False))
    assert not (data_home / "models" / NAME).exists()


def test_archive_without_a_model_is_refused(server: tuple[str, Path], data_home: Path) -> None:
    url, root = server
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("readme.txt", "hello")
    (root / f"{NAME}.zip").write_bytes(buffer.getvalue())
    with pytest.raises(models.ModelError, match="does not contain a Vosk model"):
        models.download_model("en", base_url=url, info=_info(buffer.getvalue()))
    assert not (data_home / "models" / NAME).exists()


def test_download_resumes_a_partial_file(server: tuple[str, Path], data_home: Path) -> None:
    url, root = server
    data = _model_zip(root / f"{NAME}.zip")
    target = data_home / "models"
    target.mkdir(parents=True)
    (target / f".{NAME}.zip.part").write_bytes(data[:100])
    path = models.download_model("en", base_url=url, info=_info(data))
    assert models.is_vosk_model(path)


def test_offline_error_says_what_to_do(data_home: Path) -> None:
    with pytest.raises(models.ModelError) as caught:
        models.download_model("en", base_url="http://127.0.0.1:9", timeout=2)
    message = str(caught.value)
    assert "--asr pocketsphinx" in message and "--vosk-model PATH" in message
    assert not (data_home / "models" / models.CATALOGUE["en"].name).exists()


def test_missing_file_on_server_is_reported(server: tuple[str, Path], data_home: Path) -> None:
    url, _root = server
    with pytest.raises(models.ModelError, match="404"):
        models.download_model("en", base_url=url)


def test_cli_download_list_remove(
    server: tuple[str, Path], data_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, root = server
    name = models.CATALOGUE["fr"].name
    _model_zip(root / f"{name}.zip", name=name)
    parser = argparse.ArgumentParser()
    models_cmd.add_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    args = parser.parse_args(["download", "fr", "--base-url", url])
    assert models_cmd.run(args, out=out, err=err) == 0
    assert "zip integrity" in out.getvalue()
    assert "100%" in err.getvalue()
    assert models.installed_model("fr") == data_home / "models" / name

    out = io.StringIO()
    assert models_cmd.run(parser.parse_args(["list"]), out=out, err=err) == 0
    assert f"installed at {data_home / 'models' / name}" in out.getvalue()

    assert models_cmd.run(parser.parse_args(["remove", "fr"]), out=out, err=err) == 0
    assert models.installed_model("fr") is None
    err = io.StringIO()
    assert models_cmd.run(parser.parse_args(["remove", "fr"]), out=out, err=err) == 1
    assert "No French Vosk model is installed." in err.getvalue()


@pytest.fixture
def no_whisper(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine without the Whisper libraries."""
    import voice_host.speech.recognizers as recognizers

    monkeypatch.setattr(recognizers, "whisper_importable", lambda: False)


def test_auto_choice_without_any_model_is_pocketsphinx(data_home: Path, no_whisper: None) -> None:
    choice = choose_backend("auto", lang="en")
    assert choice.backend == "pocketsphinx"
    assert "no Vosk model is installed" in choice.description
    assert "Whisper libraries are not installed" in choice.description


def test_auto_choice_with_installed_model_is_vosk(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, no_whisper: None
) -> None:
    import voice_host.speech.recognizers as recognizers

    monkeypatch.setattr(recognizers, "vosk_importable", lambda: True)
    model = data_home / "models" / models.CATALOGUE["en"].name
    (model / "am").mkdir(parents=True)
    (model / "conf").mkdir()
    (model / "conf" / "model.conf").write_text("")
    choice = choose_backend("auto", lang="en")
    assert choice.backend == "vosk" and choice.model_path == model
    assert choose_backend("pocketsphinx").backend == "pocketsphinx"


def test_auto_choice_falls_back_when_vosk_library_missing(
    data_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, no_whisper: None
) -> None:
    import voice_host.speech.recognizers as recognizers

    monkeypatch.setattr(recognizers, "vosk_importable", lambda: False)
    model = tmp_path / "m"
    (model / "am").mkdir(parents=True)
    (model / "conf").mkdir()
    (model / "conf" / "model.conf").write_text("")
    assert choose_backend("auto", vosk_model=model).backend == "pocketsphinx"
    with pytest.raises(RecognizerUnavailable, match="pip install vosk"):
        choose_backend("vosk", vosk_model=model)


def test_explicit_vosk_without_model_says_what_to_do(data_home: Path, no_whisper: None) -> None:
    with pytest.raises(RecognizerUnavailable, match="voice-host models download en"):
        choose_backend("vosk", lang="en")
    with pytest.raises(RecognizerUnavailable, match="no unpacked Vosk model"):
        choose_backend("auto", vosk_model=data_home / "nowhere")
    with pytest.raises(RecognizerUnavailable, match="Unknown recognizer"):
        choose_backend("kaldi")
    with pytest.raises(RecognizerUnavailable, match="Whisper cannot start"):
        choose_backend("whisper")


def test_recognizer_arguments_parse() -> None:
    parser = argparse.ArgumentParser()
    models_cmd.add_recognizer_arguments(parser)
    args = parser.parse_args(["--asr", "pocketsphinx", "--vosk-model", "/tmp/m"])
    assert (args.asr, args.vosk_model) == ("pocketsphinx", "/tmp/m")
    assert parser.parse_args([]).asr == "auto"
