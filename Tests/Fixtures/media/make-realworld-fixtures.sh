#!/usr/bin/env bash
# Makes the fixtures of real-world kinds (issue 28) in realworld/:
#   - real files cut from pinned Debian 12 packages (scripts/realworld/packages.tsv): DVD
#     templates with non-square pixels (devede, GPL-3+), a program stream without timestamps
#     (python-pygame-doc, LGPL-2.1+), a bare MPEG-1 video stream (wx3.2-examples, wxWindows
#     licence), the first 16 sectors of a Video CD with zero padding between packs (k3b-data,
#     GPL-2+);
#   - files made with ffmpeg and sox: bare MPEG-1 and MPEG-2 video streams, an MP4 with
#     non-square pixels (pasp), a 3-second fragmented MP4, WAVs written to a pipe, a transport
#     stream.
# Needs apt-get (Debian 12), ffmpeg and sox. Tests never run this; they read the committed files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
. "$root/scripts/realworld/lib.sh"
command -v ffmpeg >/dev/null || { echo "ffmpeg not found (apt-get install ffmpeg)" >&2; exit 1; }
command -v sox >/dev/null || { echo "sox not found (apt-get install sox)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while IFS=$'\t' read -r name version arch sha _; do
  case "$name" in devede|python-pygame-doc|wx3.2-examples|k3b-data) fetch_deb "$name" "$version" "$arch" "$sha" "$work" ;; esac
done < <(grep -v '^#' "$root/scripts/realworld/packages.tsv")

out="$here/realworld"
rm -rf "$out"
mkdir -p "$out"
cp "$work/pkg/devede/usr/share/devedeng/base_pal.mpg" "$out/devede-base_pal.mpg"
cp "$work/pkg/devede/usr/share/devedeng/base_ntsc_wide.mpg" "$out/devede-base_ntsc_wide.mpg"
cp "$work/pkg/python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/blue.mpg" "$out/pygame-blue.mpg"
cp "$work/pkg/wx3.2-examples/usr/share/doc/wx3.2-examples/examples/samples/splash/press.mpg" "$out/wx-press.mpg"
# A Video CD's packs are 2324-byte sectors; the second ends in 22 zero bytes before the third.
head -c $((16 * 2324)) "$work/pkg/k3b-data/usr/share/k3b/extra/k3bphotovcd.mpg" > "$out/k3bphotovcd-16-sectors.mpg"

FF=(ffmpeg -hide_banner -loglevel error -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
SRC=(-f lavfi -i "testsrc=size=32x32:rate=25:duration=1")
"${FF[@]}" "${SRC[@]}" "${BITEXACT[@]}" -c:v mpeg1video -q:v 10 -f mpeg1video "$out/ffmpeg-mpeg1.m1v"
# 16:9 on 32×32 pixels: shown 57×32.
"${FF[@]}" "${SRC[@]}" "${BITEXACT[@]}" -c:v mpeg2video -q:v 10 -aspect 16:9 -f mpeg2video "$out/ffmpeg-mpeg2-wide.m2v"
# 90×72 pixels of 16:15 (a PAL 4:3 shape): shown 96×72.
"${FF[@]}" -f lavfi -i "testsrc=size=90x72:rate=10:duration=1" "${BITEXACT[@]}" -vf setsar=16/15 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$out/ffmpeg-pasp.mp4"
# What MediaRecorder writes: fragments only, no duration in the movie header. 3.0 s.
"${FF[@]}" -f lavfi -i "testsrc=size=32x24:rate=10:duration=3" "${BITEXACT[@]}" -c:v mpeg4 -q:v 10 \
  -movflags +frag_keyframe+empty_moov -frag_duration 1000000 "$out/ffmpeg-fragmented-3s.mp4"
# WAVs written to a pipe: ffmpeg's sizes are 0xFFFFFFFF, sox's 0x7FFFF000.
"${FF[@]}" -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.25" "${BITEXACT[@]}" -c:a pcm_s16le -f wav - \
  | cat > "$out/ffmpeg-pipe.wav"
sox -n -r 8000 -c 1 -b 16 -t wav - synth 0.25 sine 440 2>/dev/null | cat > "$out/sox-pipe.wav"
# A transport stream: 188-byte packets, each starting with 0x47.
"${FF[@]}" -f lavfi -i "testsrc=size=32x32:rate=25:duration=0.2" "${BITEXACT[@]}" -c:v mpeg2video -q:v 10 -f mpegts "$out/ffmpeg.ts"
ls -l "$out"
