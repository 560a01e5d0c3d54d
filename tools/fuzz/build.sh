#!/bin/bash
# Builds the libFuzzer binary OUT/fuzz-earshot (default OUT: .build/fuzz) with AddressSanitizer:
# EarshotCore, EarshotScript, the tests' fixed synthesizer and tools/fuzz/ compiled as one module by swiftc, because SwiftPM has no
# per-target fuzzer flags. tools/fuzz/run.sh runs it on scripts and on voice files.
# Usage: tools/fuzz/build.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/.build/fuzz}
src="$out/src"
rm -rf "$src" "$out/fuzz-earshot"
mkdir -p "$src"
for file in "$root"/Sources/EarshotCore/*.swift "$root"/Sources/EarshotScript/*.swift \
    "$root"/Tests/EarshotTestSupport/FixedSynthesizer.swift; do
    module=$(basename "$(dirname "$file")")
    # One module: drop the cross-module import, keep every line where it was (messages keep line numbers).
    sed 's/^import EarshotCore$//' "$file" >"$src/$module-$(basename "$file")"
done
cp "$root"/tools/fuzz/FuzzHarness.swift "$root"/tools/fuzz/FuzzEntry.swift "$src/"
# -parse-as-library: FuzzEntry.swift is not a main file (libFuzzer has the main). The linker warns once
# per sanitizer helper symbol; those lines are noise.
${SWIFTC:-swiftc} -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name EarshotFuzz \
    "$src"/*.swift -o "$out/fuzz-earshot" 2>&1 | { grep -v "Cannot export local symbol" || true; }
echo "built $out/fuzz-earshot"
