#!/usr/bin/env bash
# voice-host as a user installs it: build a wheel from this checkout, install it with the
# speech extra into a fresh virtual environment outside the checkout, and from another folder
#   - play a scripted Ici Londres game to its end (narration as WAV files, cue sounds included),
#   - simulate every game,
#   - understand typed phrases (English and French grammars, the Codenames word list) and a
#     WAV spoken by espeak-ng (through the recognizer),
#   - check that `voice-host bench` says it needs a source checkout.
# Any error, or an answer other than the one expected, stops it with a non-zero exit.
# Called by scripts/test.sh (after scripts/setup.sh); alone: bash scripts/test_wheel.sh
set -euo pipefail
# nothing may point back into a checkout (with PYTHONPATH on one, pip would even take its
# egg-info for an installed voice-host and skip the wheel)
unset PYTHONPATH VOICE_HOST_GRAMMARS VOICE_HOST_AUDIO
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
grep -qs '^name = "voice-host"' "$repo/pyproject.toml" \
  || { echo "[wheel] $repo is not a voice-host checkout" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/voice-host-wheel.XXXXXX")"
trap 'rm -rf "$work"' EXIT
started=$SECONDS

say() { printf '[wheel] %s\n' "$*"; }
fail() { printf '[wheel] FAILED: %s\n' "$*" >&2; exit 1; }
# run NAME CMD...: run CMD from the run folder, output to $work/NAME.out and .err; fail on a
# non-zero exit, showing what it printed
run() {
  local name=$1; shift
  say "\$ $*"
  if ! (cd "$work/run" && "$@") >"$work/$name.out" 2>"$work/$name.err"; then
    cat "$work/$name.out" "$work/$name.err" >&2
    fail "$name exited with an error"
  fi
}
# expect NAME PYTHON-EXPRESSION: the expression, over `out` (stdout) and `err` (stderr) of
# the step NAME and the module `json`, must be true
expect() {
  local name=$1 check=$2
  if ! "$venv/bin/python" - "$work/$name.out" "$work/$name.err" "$check" <<'EOF'
import json, sys  # noqa: E401
out = open(sys.argv[1], encoding="utf-8").read()
err = open(sys.argv[2], encoding="utf-8").read()
sys.exit(0 if eval(sys.argv[3], {"json": json, "out": out, "err": err}) else 1)
EOF
  then
    cat "$work/$name.out" "$work/$name.err" >&2
    fail "$name: expected $check"
  fi
  say "  ok: $check"
}

# --- the wheel, built from a copy of the checkout's files (a stale build/ folder or
# egg-info in the checkout cannot leak into it)
mkdir "$work/src" "$work/dist" "$work/run"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done \
    | tar --null -T - -cf -) | tar -xf - -C "$work/src"
else  # an unpacked source archive
  tar -C "$repo" --exclude=./.venv --exclude=./build --exclude='*.egg-info' -cf - . \
    | tar -xf - -C "$work/src"
fi
say "fresh virtual environment in $work/venv"
"$python" -m venv "$work/venv"
venv="$work/venv"
# pip COMMAND...: quiet unless it fails
pip() {
  "$venv/bin/python" -m pip "$@" >"$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; fail "pip $*"; }
}
pip install -q --upgrade pip
pip wheel -q --no-deps -w "$work/dist" "$work/src"
wheel=$(ls "$work/dist"/voice_host-*.whl)
say "built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
pip install -q "$wheel[speech]"
pip check
say "installed it with the speech extra ($((SECONDS - started)) s so far)"

# --- from a folder outside the checkout
export VOICE_HOST_DATA="$work/data"  # saves and joined models stay in the temp folder
export PATH="$venv/bin:$PATH"
installed=$(cd "$work/run" && python -c 'import voice_host; print(voice_host.__file__)')
[[ $installed == "$venv"/* ]] || fail "voice_host was imported from $installed, not the wheel"
say "voice_host imported from $installed"

# a scripted game of Ici Londres to its end, narrated into WAV files with its cue sounds
printf 'Ada: Love weighs a pound\nheart\nhit\nCleo: book\nAda: hit\n' >"$work/run/game.txt"
run play voice-host play ici-londres --players Ada,Ben,Cleo --rounds 1 --seed 4 \
  --confirm never --input text --script game.txt --output "wav:$work/run/narration" \
  --log game.jsonl
expect play "'The winner is Ben' in out and 'stay on the screen' not in err + out"
log="$work/run/game.jsonl"
# the game's end (after it come only the recap and the "play again?" question)
over=$(grep '"event": "game_over"' "$log" | tail -n 1 || true)
[[ $over == *'"winner": ["Ben"]'* ]] \
  || fail "the game log does not record Ben's win: ${over:-no game_over event}"
say "  ok: the log records Ben's win"
transcript="$work/run/narration/transcript.txt"
for cue in turn tuning v_motif; do
  grep -q "$(printf '\tcue\t')$cue\$" "$transcript" || fail "no $cue cue in the narration"
done
wavs=$(find "$work/run/narration" -name '*.wav' -size +1k | wc -l)
((wavs > 20)) || fail "only $wavs narration WAV files"
say "  ok: $wavs narration WAV files, the turn, tuning and V-motif cues among them"

run simulate voice-host simulate all --games 5 --seed 1
expect simulate "all(f'{g}: 5 games' in out for g in ('resistance', 'ici-londres', 'codenames'))"

players=Ada,Ben,Cleo,Dan,Eve
run understand_en voice-host understand --game resistance --phase team --players $players \
  --speaker Cleo --json --text "I choose Ada and Ben"
expect understand_en "json.loads(out)['intent'] == 'propose_team' and json.loads(out)['slots'] == {'players': ['Ada', 'Ben']}"
run understand_fr voice-host understand --game resistance --phase vote --lang fr \
  --players $players --json --text "je vote pour"
expect understand_fr "json.loads(out)['slots'] == {'choice': 'yes'}"
run understand_clue voice-host understand --game codenames --phase clue --json --text "tree two"
expect understand_clue "json.loads(out)['slots'] == {'word': 'tree', 'number': 2}"

espeak-ng -v en-us -s 150 -w "$work/run/vote.wav" "I vote yes"
run understand_wav voice-host understand --game resistance --phase vote --players $players \
  --json vote.wav
expect understand_wav "json.loads(out)['slots'] == {'choice': 'yes'} and json.loads(out)['backend'] == 'whisper'"

say "\$ voice-host bench"
status=0
(cd "$work/run" && voice-host bench) >"$work/bench.out" 2>"$work/bench.err" || status=$?
((status == 2)) || { cat "$work/bench.err"; fail "voice-host bench exited with $status, not 2"; }
expect bench "'source checkout' in err and 'Traceback' not in err"

say "the wheel works outside the checkout ($((SECONDS - started)) s)"
