# Sourced by scripts/setup.sh: link_command TARGET puts the command TARGET (the checkout's
# .venv/bin/voice-host) on the user's PATH as a symbolic link named voice-host, so that
# "voice-host ..." and every command the host prints run as printed from any folder:
#   as root      /usr/local/bin/voice-host (on every login shell's PATH)
#   otherwise    ~/.local/bin/voice-host (Debian's and Ubuntu's ~/.profile put ~/.local/bin
#                on the PATH of a new login shell when that folder exists)
# VOICE_HOST_BIN_DIR=DIR chooses another folder. A voice-host there that is not a symbolic
# link (another installation) is left alone, and the script says so.
link_command() {
  local target=$1 dir
  if [ -n "${VOICE_HOST_BIN_DIR:-}" ]; then
    dir=$VOICE_HOST_BIN_DIR
  elif [ "$(id -u)" -eq 0 ]; then
    dir=/usr/local/bin
  else
    dir=$HOME/.local/bin
  fi
  local link=$dir/voice-host
  if [ -e "$link" ] && [ ! -L "$link" ]; then
    echo "$link exists and is not a link made by this script: left as it is."
    echo "Run this checkout's command as $target"
    return 0
  fi
  mkdir -p "$dir"
  ln -sfn "$target" "$link"
  echo "voice-host is on your PATH: $link -> $target"
  case ":$PATH:" in
    *":$dir:"*) ;;
    *) echo "($dir is not on this shell's PATH yet: open a new login shell, or add it to PATH.)" ;;
  esac
}
