#!/usr/bin/env bash
# Builds Earshot's stand-in for libpcaudio (playback_stand_in.c) into DIR/libearshot-pcaudio.so, beside the
# earshot executable there, which loads it before libespeak-ng (docs/architecture.md, "espeak-ng's playback
# library"). Usage: tools/playback-stand-in/build.sh DIR [SOURCE]  (SOURCE: another C file, for tests)
#
# Built with the system C compiler, or the Swift toolchain's clang: it must not depend on the Swift runtime
# (loading that would cost what the stand-in saves). The file appears whole or not at all.
set -euo pipefail
dir=${1:?usage: $0 DIR}
# The stand-in relies on the GNU dynamic loader taking a loaded library for a dependency of the same soname;
# elsewhere nothing is built, and espeak-ng loads its own libraries.
[ "$(uname -s)" = Linux ] || exit 0
here=$(cd "$(dirname "$0")" && pwd)
source=${2:-$here/playback_stand_in.c}
compiler=${CC:-}
if [ -z "$compiler" ]; then
  for candidate in cc gcc clang "$(dirname "$(command -v swift 2>/dev/null || echo /nonexistent/swift)")/clang"; do
    if command -v "$candidate" >/dev/null 2>&1; then compiler=$candidate; break; fi
  done
fi
[ -n "$compiler" ] || { echo "no C compiler found for the playback stand-in (set CC)" >&2; exit 1; }
mkdir -p "$dir"
output="$dir/libearshot-pcaudio.so"
temporary=$(mktemp "$dir/.libearshot-pcaudio.XXXXXX")
trap 'rm -f "$temporary"' EXIT
"$compiler" -O2 -Wall -Wextra -Werror -shared -fPIC -I "$here" -Wl,-soname,libpcaudio.so.0 \
  -o "$temporary" "$source"
chmod 755 "$temporary"
mv -f "$temporary" "$output"
trap - EXIT
