#!/usr/bin/env bash
# Installs everything voice-host needs on a Debian/Ubuntu machine, as root:
# system packages (speech synthesis, sound tools, PortAudio) and the Python package with
# its speech and development extras, in a virtual environment at ./.venv.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(python3 python3-venv python3-pip espeak-ng sox libsox-fmt-all libportaudio2 tmux)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[speech,companion,dev]'
echo "voice-host is installed in $(pwd)/.venv (run .venv/bin/voice-host)."
