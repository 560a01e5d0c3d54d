#!/usr/bin/env bash
# A private, real-time paced audio device without a sound card: a PulseAudio daemon with one null sink
# (`paced`, 22050 Hz mono, norewinds=1 — without it new streams stall up to 2 s; measured here), reached
# through ALSA's `pulse` plugin. Used by `earshot listen` tests and for trying `listen` on a headless machine.
#
#   tools/paced-audio.sh start DIR   starts a daemon whose runtime folder is DIR (created, mode 0700);
#                                      prints `PID=… PULSE_SERVER=… SINK=paced` lines on stdout
#   tools/paced-audio.sh stop DIR    stops the daemon started in DIR, by its PID, and removes DIR
#   tools/paced-audio.sh record DIR FILE.raw
#                                      records the sink's monitor (what was actually played) until killed, as
#                                      raw 16-bit little-endian mono at 22050 Hz (raw, so even SIGKILL leaves
#                                      a usable file: `sox -t raw -r 22050 -e signed -b 16 -c 1 FILE.raw out.wav`)
#
# Then: PULSE_SERVER=unix:DIR/pulse/native earshot listen --device pulse announcement-spam
set -euo pipefail

command=${1:-}
dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|record DIR [FILE.raw]" >&2; exit 64; }

case "$command" in
start)
  mkdir -p "$dir"
  chmod 0700 "$dir"
  dir=$(cd "$dir" && pwd)
  touch "$dir/.earshot-paced-audio"   # stop removes only folders carrying this mark
  export XDG_RUNTIME_DIR="$dir" HOME="$dir"
  export PULSE_CONFIG_PATH="$dir/config" PULSE_STATE_PATH="$dir/state"
  pulseaudio --daemonize=yes -n --exit-idle-time=-1 --disallow-exit --use-pid-file=yes \
    --log-target=file:"$dir/pulse.log" \
    --load="module-null-sink sink_name=paced norewinds=1 format=s16le rate=22050 channels=1" \
    --load="module-native-protocol-unix auth-anonymous=1 socket=$dir/pulse/native" \
    --load="module-always-sink"
  # Ready when the socket answers (about 25 ms); give up after 5 s.
  for _ in $(seq 1 100); do
    if PULSE_SERVER="unix:$dir/pulse/native" pactl info >/dev/null 2>&1; then break; fi
    sleep 0.05
  done
  PULSE_SERVER="unix:$dir/pulse/native" pactl info >/dev/null
  echo "PID=$(cat "$dir/pulse/pid")"
  echo "PULSE_SERVER=unix:$dir/pulse/native"
  echo "SINK=paced"
  ;;
stop)
  if [ ! -f "$dir/.earshot-paced-audio" ]; then
    echo "$dir was not made by '$0 start'; not touching it" >&2
    exit 1
  fi
  if [ -f "$dir/pulse/pid" ]; then
    pid=$(cat "$dir/pulse/pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.02; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir/pulse" "$dir/config" "$dir/state" "$dir/pulse.log" "$dir/.config" "$dir/.earshot-paced-audio"
  rmdir "$dir" 2>/dev/null || true
  ;;
record)
  file=${3:?record needs an output file}
  exec env PULSE_SERVER="unix:$(cd "$dir" && pwd)/pulse/native" \
    parec -d paced.monitor --rate=22050 --channels=1 --format=s16le --latency-msec=10 >"$file"
  ;;
*)
  echo "unknown command '$command' (start, stop or record)" >&2
  exit 64
  ;;
esac
