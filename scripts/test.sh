#!/usr/bin/env bash
# Installs everything, the development tools included (scripts/setup.sh --dev), then runs
# the linters and the whole test suite, the game rules again with only the base dependencies,
# and tries the package as a user installs it: a wheel in a fresh virtual environment, played
# from outside the checkout (scripts/test_wheel.sh). This is what CI runs.
#
# scripts/test.sh --quick [pytest args]: the fast loop while working. Installs only when the
# environment is missing (no ./.venv, or it cannot import voice_host from this checkout),
# lints, and runs every test not marked model, browser, network or slow (pyproject.toml
# registers the markers); no wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
QUICK_MARKERS="not model and not browser and not network and not slow"
if [ "${1:-}" = "--quick" ]; then
  shift
  if ! .venv/bin/python -c "import voice_host, sys; \
      sys.exit(not voice_host.__file__.startswith('$(pwd)/'))" 2>/dev/null; then
    bash scripts/setup.sh --dev
  fi
  .venv/bin/ruff check voice_host tests benchmarks scripts
  .venv/bin/mypy voice_host benchmarks
  exec .venv/bin/python -m pytest -q -p no:cacheprovider -m "$QUICK_MARKERS" "$@"
fi
bash scripts/setup.sh --dev
bash scripts/setup_companion.sh   # chromium, chromedriver and axe-core for the browser tests
source scripts/apt_missing.sh
# Festival voices: a second synthesizer for the spoken test utterances and the benchmark
apt_install_missing "for the speech tests" festival festvox-kallpc16k festvox-kdlpc16k \
  festvox-us-slt-hts
.venv/bin/ruff check voice_host tests benchmarks scripts
.venv/bin/mypy voice_host benchmarks
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
# the spoken round trips (English, and French with the Kokoro voices) and the comparison of
# our Whisper decoder with CTranslate2's again with float32 kernels instead of int8: the
# change of kernels is the closest thing to another CPU that can be run on one machine (a
# few minutes)
VOICE_HOST_WHISPER_COMPUTE=float32 .venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/speech/test_round_trips.py tests/speech/test_french_round_trips.py \
  tests/speech/test_whisper_decoder_models.py
# the rules with only the base dependencies (no speech, companion or dev extra but the test
# runner): every rule, the Codenames clue check included, reads nothing from an optional
# package. The environment is kept in ./.venv-base (a minute to make, seconds afterwards)
if [ ! -x .venv-base/bin/python ]; then
  python3 -m venv .venv-base
fi
.venv-base/bin/python -m pip install -q --upgrade pip >/dev/null
.venv-base/bin/python -m pip install -q -e . "pytest>=7.4" "hypothesis>=6.80"
.venv-base/bin/python -m pytest -q -p no:cacheprovider tests/games
bash scripts/test_wheel.sh
