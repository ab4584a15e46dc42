#!/usr/bin/env bash
# Installs everything (scripts/setup.sh), then runs the whole test suite and the linter.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup_companion.sh   # chromium, chromedriver and axe-core for the browser tests
.venv/bin/ruff check voice_host tests benchmarks scripts
.venv/bin/mypy voice_host
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
