#!/usr/bin/env bash
# The README's demo: hear the announcement-spam pattern before and after its fix.
#  1. render the A/B comparison to a WAV with its review page (always: works without a sound card);
#  2. judge the pattern's scripts (each before fails its checks, each after passes);
#  3. when a sound device exists, play the comparison live through it.
set -euo pipefail
earshot=${1:-.build/release/earshot}
out=${EARSHOT_DEMO_DIR:-out}
device=${EARSHOT_DEVICE:-default}
mkdir -p "$out"

echo "== announcement-spam: \"Before.\" … \"After.\" for each of its three scenarios =="
"$earshot" compare announcement-spam -o "$out/announcement-spam.wav" --html "$out/announcement-spam.html"

echo
echo "== announcement-spam: the card's checks =="
"$earshot" check --expect-variants --transcript announcement-spam > "$out/announcement-spam-check.txt"
grep -E ' — |^  [✔✘] |scripts:|as expected' "$out/announcement-spam-check.txt"

echo
if "$earshot" say --device "$device" "Earshot. Listen for the cut-off letters before the fix." 2>/dev/null; then
  echo "== playing the comparison live on '$device' (Ctrl-C stops) =="
  "$earshot" listen --device "$device" --compare announcement-spam
else
  echo "No sound device '$device' here, so nothing plays live; the files below are the listening session."
fi

echo
echo "Files in $out/:"
echo "  announcement-spam.wav   the A/B recording: before, every echoed letter is cut off by \"Results updated\""
echo "  announcement-spam.html  the review page: timeline with each cut marked, player, checks, transcript"
echo "  announcement-spam.vtt   WebVTT transcript (cut cues end in — ✂ and name what cut them)"
echo "  announcement-spam.jsonl the timeline for tools"
echo "  announcement-spam-check.txt  the checks with their evidence and the full transcripts"
