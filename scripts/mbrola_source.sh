# Sourced by setup.sh. The French narrator speaks with espeak-ng and Debian's MBROLA French
# diphones (mbrola, mbrola-fr1), which Debian ships in its contrib and non-free areas and Ubuntu
# in multiverse: areas a fresh machine often does not list. offer_mbrola (as root) lists them
# for these two packages only: a sources file for the same mirror and suites as the machine's
# main area, and an apt pin that keeps every other package of those areas out (priority -1),
# so nothing else on the machine is upgraded or installed from them.
# VOICE_HOST_NO_NONFREE=1 leaves the sources alone (French is then Kokoro's voice).
MBROLA_SOURCES=/etc/apt/sources.list.d/voice-host-mbrola.sources
MBROLA_PIN=/etc/apt/preferences.d/voice-host-mbrola

mbrola_offered() {
  # grep reads the whole output (no -q): under `set -o pipefail` a grep that stops at the
  # first match makes apt-cache die of SIGPIPE, and the pipeline fail
  apt-cache policy mbrola-fr1 2>/dev/null | grep "Candidate: [0-9]" >/dev/null
}

offer_mbrola() {
  mbrola_offered && return 0
  [ "${VOICE_HOST_NO_NONFREE:-0}" = 1 ] && return 1
  [ "$(id -u)" = 0 ] || return 1
  local distro uri suites components signed
  distro=$(. /etc/os-release && echo "${ID:-}")
  case "$distro" in
    debian) components="contrib non-free" ;;
    ubuntu) components="multiverse" ;;
    *) return 1 ;;
  esac
  # the mirror and suites that carry the main area (deb822 sources, or a one-line sources.list)
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources \
        /etc/apt/sources.list.d/ubuntu.sources 2>/dev/null || true)
  suites=$(awk '/^Suites:/ {$1=""; print; exit}' /etc/apt/sources.list.d/debian.sources \
           /etc/apt/sources.list.d/ubuntu.sources 2>/dev/null || true)
  signed=$(awk '/^Signed-By:/ {print; exit}' /etc/apt/sources.list.d/debian.sources \
           /etc/apt/sources.list.d/ubuntu.sources 2>/dev/null || true)
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" && $0 ~ / main/ {print $2; exit}' /etc/apt/sources.list)
    suites=$(awk '$1 == "deb" && $0 ~ / main/ {print $3; exit}' /etc/apt/sources.list)
  fi
  [ -n "$uri" ] && [ -n "$suites" ] || return 1
  echo "Listing the $components area of $uri for mbrola and mbrola-fr1 only (the French" \
       "narrator's voice; $MBROLA_PIN keeps every other package of it out)"
  cat > "$MBROLA_SOURCES" <<EOF
# voice-host: the French narrator's MBROLA voice (mbrola, mbrola-fr1); see $MBROLA_PIN
Types: deb
URIs: $uri
Suites:$suites
Components: $components
$signed
EOF
  local pins=""
  for c in $components; do
    pins+="Package: mbrola mbrola-fr1
Pin: release c=$c
Pin-Priority: 500

"
  done
  for c in $components; do
    pins+="Package: *
Pin: release c=$c
Pin-Priority: -1

"
  done
  printf '%s' "# voice-host: only the MBROLA French voice comes from these areas
$pins" > "$MBROLA_PIN"
  apt-get update -qq || true
  if mbrola_offered; then
    return 0
  fi
  rm -f "$MBROLA_SOURCES" "$MBROLA_PIN"
  apt-get update -qq || true
  return 1
}
