#!/bin/bash
# Builds the two libFuzzer targets (scripts, voice files) with AddressSanitizer into OUT (default
# .build/fuzz): EarshotCore, EarshotScript and tools/fuzz/ compiled as one module by swiftc, because
# SwiftPM has no per-target fuzzer flags. Usage: tools/fuzz/build.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/.build/fuzz}
src="$out/src"
rm -rf "$src"
mkdir -p "$src"
for file in "$root"/Sources/EarshotCore/*.swift "$root"/Sources/EarshotScript/*.swift; do
    module=$(basename "$(dirname "$file")")
    # One module: drop the cross-module import, keep every line where it was (messages keep line numbers).
    sed 's/^import EarshotCore$//' "$file" >"$src/$module-$(basename "$file")"
done
cp "$root"/tools/fuzz/FuzzHarness.swift "$src/"
for target in script voice; do
    entry="$root/tools/fuzz/$(echo "$target" | sed 's/^./\U&/')Fuzzer.swift"
    rm -f "$out/fuzz-$target"
    # The linker warns once per sanitizer helper symbol; those lines are noise.
    ${SWIFTC:-swiftc} -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 \
        -module-name EarshotFuzz "$src"/*.swift "$entry" -o "$out/fuzz-$target" 2>&1 \
        | { grep -v "Cannot export local symbol" || true; }
    echo "built $out/fuzz-$target"
done
