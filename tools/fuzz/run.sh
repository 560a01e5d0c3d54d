#!/bin/bash
# Fuzzes scenario scripts (parse → run → check) and voice files for SECONDS each, one after the other.
# Usage: tools/fuzz/run.sh SECONDS [OUT]   (make fuzz SECONDS=600; make fuzz-short runs 60 s each)
#
# Each target starts from its working corpus in OUT/corpus-TARGET, the saved regression corpus
# (Tests/FuzzCorpus/TARGET) and the shipped files (Scripts/ or Voices/), with the formats' keywords as
# a dictionary. A crash, a leak, an out-of-memory or a timeout is written to OUT/crashes/ and the script
# exits 1; add the file to Tests/FuzzCorpus/TARGET once fixed so the test suite keeps checking it.
set -uo pipefail
seconds=${1:?usage: tools/fuzz/run.sh SECONDS [OUT]}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$root/.build/fuzz}
status=0
for target in script voice; do
    binary="$out/fuzz-earshot"
    [ -x "$binary" ] || { echo "missing $binary: run tools/fuzz/build.sh first" >&2; exit 2; }
    seeds=$([ "$target" = script ] && echo "$root/Scripts" || echo "$root/Voices")
    mkdir -p "$out/corpus-$target" "$out/crashes"
    echo "fuzzing $target files for ${seconds}s"
    # The Swift backtracer and AddressSanitizer both want the crash; libFuzzer reports it. Leaks inside the
    # toolchain's own libraries (Foundation's regular expressions) are silenced as in `make sanitize`;
    # a leak in Earshot's code is still a finding.
    LSAN_OPTIONS="suppressions=$root/tools/lsan-suppressions.txt ${LSAN_OPTIONS:-}" \
    SWIFT_BACKTRACE=enable=no EARSHOT_FUZZ_TARGET=$target nice -n 15 "$binary" "$out/corpus-$target" "$root/Tests/FuzzCorpus/$target" "$seeds" \
        -dict="$root/tools/fuzz/earshot.dict" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=3072 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$out/crashes/$target-" \
        >"$out/$target.log" 2>&1
    code=$?
    grep -E "^#[0-9]+\s+(DONE|INITED)|stat::number_of_executed_units|stat::peak_rss_mb" "$out/$target.log"
    if [ $code -ne 0 ]; then
        status=1
        echo "fuzzing $target files found a problem (exit $code); see $out/$target.log:" >&2
        grep -E "ERROR|SUMMARY|Test unit written" "$out/$target.log" >&2
    fi
done
exit $status
