#!/usr/bin/env bash
# Installs everything (scripts/setup.sh), then runs the linters and the whole test suite, and
# tries the package as a user installs it: a wheel in a fresh virtual environment, played from
# outside the checkout (scripts/test_wheel.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup_companion.sh   # chromium, chromedriver and axe-core for the browser tests
source scripts/apt_missing.sh
# Festival voices: a second synthesizer for the spoken test utterances and the benchmark
apt_install_missing "for the speech tests" festival festvox-kallpc16k festvox-kdlpc16k \
  festvox-us-slt-hts
.venv/bin/ruff check voice_host tests benchmarks scripts
.venv/bin/mypy voice_host
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
# the spoken round trips again with CTranslate2's float32 kernels instead of int8: the change of
# kernels is the closest thing to another CPU that can be run on one machine (about a minute)
VOICE_HOST_WHISPER_COMPUTE=float32 .venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/speech/test_round_trips.py
bash scripts/test_wheel.sh
