#!/usr/bin/env bash
# The README's demo: speak a sample, then check the announcement-spam pattern's before and after scripts.
# Later steps (render, compare, listen) grow here as those commands land.
set -euo pipefail
earshot=${1:-.build/release/earshot}
out=${EARSHOT_DEMO_DIR:-out}
mkdir -p "$out"

"$earshot" say -o "$out/hello.wav" "Earshot lets you hear what a VoiceOver user hears."
if "$earshot" say --device "${EARSHOT_DEVICE:-default}" "Earshot is ready." 2>/dev/null; then
  echo "Played a greeting on ${EARSHOT_DEVICE:-default}."
else
  echo "No sound device here: listen to $out/hello.wav instead."
fi

echo
echo "== announcement-spam: the before scripts fail their checks, the after scripts pass them =="
"$earshot" check --expect-variants --transcript announcement-spam | tee "$out/announcement-spam-check.txt"
echo "Files are in $out/: hello.wav, announcement-spam-check.txt"

echo
echo "== announcement-spam, rendered: \"Before.\" … \"After.\" for each pair =="
"$earshot" compare announcement-spam -o "$out/announcement-spam.wav"
echo "Listen to $out/announcement-spam.wav: the before runs cut every echo off mid-word, the after runs don't."
echo "Beside it: $out/announcement-spam.vtt (transcript, cuts marked — ✂) and $out/announcement-spam.jsonl (timeline)."
