#!/usr/bin/env bash
# The review page's browser check: render a pattern's before/after comparison with its review page, take a
# headless Chromium screenshot of it, and say where both are so you can look. Usage:
#   tools/screenshot-review.sh [PATTERN] [OUT_DIR]     (defaults: announcement-spam, /tmp/earshot-review)
# Uses $EARSHOT (default .build/debug/earshot, built first) and $CHROMIUM (default: chromium on the PATH).
set -euo pipefail
pattern=${1:-announcement-spam}
out=${2:-/tmp/earshot-review}
earshot=${EARSHOT:-}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ]; then
  echo "chromium is not installed: run 'make deps' (the Makefile's APT_PACKAGES has it) or 'apt-get install chromium'" >&2
  exit 1
fi
if [ -z "$earshot" ]; then
  swift build --product earshot >/dev/null
  earshot=.build/debug/earshot
fi
mkdir -p "$out"
"$earshot" compare "$pattern" -o "$out/$pattern.wav" --html "$out/$pattern.html"
png="$out/$pattern.png"
rm -f "$png"
# A throwaway profile folder, so a Chromium already running for this user is not disturbed.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$profile" \
  --screenshot="$png" --window-size=1400,2000 "file://$(cd "$out" && pwd)/$pattern.html" 2>/dev/null
if [ ! -s "$png" ]; then
  echo "chromium wrote no screenshot" >&2
  exit 1
fi
bytes=$(wc -c < "$png")
size=$(od -An -tu1 -j16 -N8 "$png" | awk '{ printf "%dx%d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
echo "Screenshot: $png ($size, $bytes bytes). Open it and look: bars on scale, labels apart, cut marks red."
if [ "$bytes" -lt 60000 ]; then
  echo "The screenshot is nearly blank ($bytes bytes)" >&2
  exit 1
fi
