#!/usr/bin/env bash
# The test command (`make test`): runs every stage below in order, keeps going after a failing stage, and
# ends with a table of every stage's result and duration; exits non-zero when any stage failed.
#
#   tools/test-stages.sh            runs every stage
#   tools/test-stages.sh unit scripts
#                                   runs only the named stages (in the order of the list below)
#   tools/test-stages.sh --list     prints the stage names
#
# The package is built once (stage `build`); later stages reuse that build (`--skip-build`, the debug
# binary). Environment: SWIFT (default swift), BUILD_DIR (default .build).
#
# To add a stage, add one `stage NAME COMMAND…` line to the list at the end. A stage passes when its command
# exits 0. Output goes to the terminal as it comes; a `== stage NAME ==` line opens each stage.
set -uo pipefail

cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
BUILD_DIR=${BUILD_DIR:-.build}
EARSHOT_DEBUG="$BUILD_DIR/debug/earshot"

# How the real-time stage is started: round-robin real-time priority 10 (`chrt`, needs root or CAP_SYS_NICE;
# the kernel still leaves other work 5% of each second), else a raised nice level, else as it is.
if chrt --rr 10 true 2>/dev/null; then
  REALTIME="chrt --rr 10"
elif nice -n -10 true 2>/dev/null && [ "$(nice -n -10 nice)" -lt 0 ]; then
  REALTIME="nice -n -10"
else
  REALTIME=""
fi

selected=("$@")
names=()
results=()
durations=()
failed=0
listing=0
if [ "${1:-}" = "--list" ]; then listing=1; fi

# stage NAME COMMAND…: runs COMMAND as the stage NAME (unless other stages were selected) and records it.
stage() {
  local name=$1
  shift
  if [ "$listing" -eq 1 ]; then
    echo "$name"
    return
  fi
  if [ "${#selected[@]}" -gt 0 ]; then
    local wanted=0 word
    for word in "${selected[@]}"; do [ "$word" = "$name" ] && wanted=1; done
    [ "$wanted" -eq 1 ] || return 0
  fi
  echo
  echo "== stage $name: $* =="
  local started status ended
  started=$(date +%s.%N)
  "$@"
  status=$?
  ended=$(date +%s.%N)
  names+=("$name")
  durations+=("$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')")
  if [ "$status" -eq 0 ]; then
    results+=("ok")
  else
    results+=("FAILED (status $status)")
    failed=$((failed + 1))
  fi
}

summary() {
  [ "$listing" -eq 1 ] && exit 0
  if [ "${#names[@]}" -eq 0 ]; then
    echo "no stage named: ${selected[*]} (see $0 --list)" >&2
    exit 64
  fi
  echo
  echo "== test stages =="
  printf '%-16s %10s  %s\n' "stage" "seconds" "result"
  local index
  for index in "${!names[@]}"; do
    printf '%-16s %10s  %s\n' "${names[$index]}" "${durations[$index]}" "${results[$index]}"
  done
  if [ "$failed" -gt 0 ]; then
    echo "$failed of ${#names[@]} stage(s) failed"
    exit 1
  fi
  echo "all ${#names[@]} stage(s) passed"
}

# ---- the stages, in order: one line each ----
# The package and its tests, built once; later stages reuse this build.
stage build make --no-print-directory build-tests SWIFT="$SWIFT" BUILD_DIR="$BUILD_DIR"
# Unit and integration tests with real espeak-ng and ALSA, in parallel.
stage unit "$SWIFT" test --build-path "$BUILD_DIR" --skip-build --skip 'Live|Listen'
# Real-time playback tests on a paced device, alone, with real-time scheduling when the machine allows it (as an
# audio server gets it): they measure Earshot's latency, which unrelated CPU load would otherwise stretch.
stage realtime $REALTIME "$SWIFT" test --build-path "$BUILD_DIR" --skip-build --no-parallel --filter 'Live|Listen'
# Every scenario script: each before must fail its checks, each after must pass them.
stage scripts "$EARSHOT_DEBUG" check --quiet --expect-variants Scripts/
# Every product in release (library users build it so), then a package outside Earshot that depends on it by path
# and tests a screen with EarshotTesting and real espeak-ng, in debug and release.
stage release make --no-print-directory release-all SWIFT="$SWIFT" BUILD_DIR="$BUILD_DIR"
stage consumer make --no-print-directory consumer SWIFT="$SWIFT" BUILD_DIR="$BUILD_DIR"
# A bounded libFuzzer run (about a minute per target) over scripts and voice files, from the saved corpus.
stage fuzz make --no-print-directory fuzz-short BUILD_DIR="$BUILD_DIR"

summary
