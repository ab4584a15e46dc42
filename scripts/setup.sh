#!/usr/bin/env bash
# Installs everything voice-host needs on a Debian/Ubuntu machine, as root:
# system packages (speech synthesis, sound tools, PortAudio) and the Python package with
# its speech and development extras, in a virtual environment at ./.venv.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/apt_missing.sh

PACKAGES=(python3 python3-venv python3-pip espeak-ng sox libsox-fmt-all libportaudio2 tmux)
apt_install_missing "for voice-host" "${PACKAGES[@]}"

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[speech,companion,dev]'
echo "voice-host is installed in $(pwd)/.venv (run .venv/bin/voice-host)."
