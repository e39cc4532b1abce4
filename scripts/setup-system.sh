#!/usr/bin/env bash
# Installs the system packages the renderer and the tests need (Debian/Ubuntu), only when missing.
set -euo pipefail
need=()
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || need+=(ffmpeg)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
# The synthetic-VOD generator (tests, demo, benchmark) resamples espeak-ng's speech with sox.
command -v sox >/dev/null 2>&1 || need+=(sox)
# The evaluation's third source of streams (dev/synth-streams-c) speaks with flite, another synthesizer.
command -v flite >/dev/null 2>&1 || need+=(flite)
command -v pocketsphinx_continuous >/dev/null 2>&1 || need+=(pocketsphinx)
[ -d /usr/share/pocketsphinx/model/en-us ] || need+=(pocketsphinx-en-us)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ -f /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc ] || need+=(fonts-noto-cjk)
command -v unzip >/dev/null 2>&1 || need+=(unzip)
# The editor hand-off tests read the .otio and .edl files with OpenTimelineIO's own (pure-Python) readers.
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
# De-duplicate.
mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
echo "system packages missing: ${need[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "Not root and no sudo. Run as root: apt-get update && apt-get install -y ${need[*]}" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "No apt-get here. Install these with your package manager: ${need[*]}" >&2
  exit 1
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
