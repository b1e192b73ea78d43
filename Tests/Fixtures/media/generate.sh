#!/usr/bin/env bash
# Regenerates the committed media fixtures with Debian's own tools:
#   apt-get install -y sox libsox-fmt-all ffmpeg imagemagick
# Tests never run this; they read the committed files and derive broken variants in code.
# Outputs are small (each under ~60 KB) and use bit-exact flags where the tools offer them;
# a different tool version may produce different (equally valid) bytes.
set -euo pipefail
cd "$(dirname "$0")"

IM=""
for c in convert-im6.q16 magick /usr/bin/convert; do
  if command -v "$c" >/dev/null 2>&1; then IM="$c"; break; fi
done
[ -n "$IM" ] || { echo "ImageMagick not found" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "ffmpeg not found" >&2; exit 1; }
command -v sox >/dev/null || { echo "sox not found" >&2; exit 1; }

FF=(ffmpeg -hide_banner -loglevel error -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1)
VIDEO=(-f lavfi -i "testsrc=size=32x24:rate=10:duration=1")
TONE8K=(-f lavfi -i "sine=frequency=440:sample_rate=8000:duration=1")

rm -rf images audio movies sounds
mkdir -p images audio movies sounds

# ---- images (image class: public.png, public.jpeg, com.compuserve.gif) ----
"$IM" -size 32x24 gradient:red-blue -strip images/png-rgb.png
"$IM" -size 32x24 gradient:red-blue -strip -interlace PNG images/png-interlaced.png
"$IM" -size 32x24 gradient:red-blue -strip -colors 16 PNG8:images/png-palette.png
"$IM" -size 16x16 xc:gray50 -strip -type Grayscale -depth 16 images/png-gray16.png
"$IM" -size 64x48 plasma:fractal -seed 7 -strip -quality 80 images/jpeg-baseline.jpg 2>/dev/null || \
  "$IM" -size 64x48 gradient:green-yellow -strip -quality 80 images/jpeg-baseline.jpg
"$IM" -size 64x48 gradient:green-yellow -strip -quality 80 -interlace JPEG images/jpeg-progressive.jpg
"$IM" -size 40x30 gradient:orange-purple -strip -sampling-factor 1x1 images/jpeg-444.jpg
"$IM" -size 20x10 xc:white -fill black -draw "rectangle 2,2 8,8" -strip images/gif-static.gif
"$IM" -delay 20 -size 20x10 xc:red xc:green xc:blue -loop 0 -strip images/gif-animated.gif

# ---- audio attachments (audio class) ----
"${FF[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -ac 1 -c:a libmp3lame -b:a 8k -id3v2_version 3 \
  -metadata title=Chime -write_xing 1 audio/mp3-id3.mp3
"${FF[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -ac 1 -c:a libmp3lame -b:a 8k -id3v2_version 0 \
  -write_xing 0 audio/mp3-plain.mp3
"${FF[@]}" -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=0.5" "${BITEXACT[@]}" -ac 1 \
  -c:a libmp3lame -b:a 32k -id3v2_version 4 -write_xing 1 audio/mp3-mpeg1.mp3
"${FF[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -c:a aac -b:a 16k -f mp4 audio/m4a-audio.m4a
"${FF[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -c:a pcm_s16le audio/wav-pcm16.wav
"${FF[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -c:a pcm_s16be -f aiff audio/aiff-pcm16.aiff

# ---- movies (movie class) ----
"${FF[@]}" "${VIDEO[@]}" "${BITEXACT[@]}" -c:v libx264 -preset ultrafast -pix_fmt yuv420p \
  -movflags +faststart movies/mp4-video.mp4
"${FF[@]}" "${VIDEO[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -c:v mpeg4 -q:v 10 -c:a aac -b:a 16k \
  -shortest movies/mp4-video-audio.mp4
"${FF[@]}" "${VIDEO[@]}" "${BITEXACT[@]}" -c:v mpeg4 -q:v 10 -movflags +frag_keyframe+empty_moov \
  movies/mp4-fragmented.mp4
"${FF[@]}" -f lavfi -i "testsrc=size=32x32:rate=25:duration=1" "${BITEXACT[@]}" -c:v mpeg1video -q:v 10 \
  -f mpeg movies/mpeg1-system.mpg
"${FF[@]}" -f lavfi -i "testsrc=size=32x32:rate=25:duration=1" "${TONE8K[@]}" "${BITEXACT[@]}" \
  -c:v mpeg2video -q:v 10 -c:a mp2 -ar 48000 -b:a 32k -shortest -f vob movies/mpeg2-program.mpg
"${FF[@]}" "${VIDEO[@]}" "${BITEXACT[@]}" -c:v mjpeg -q:v 20 -f avi movies/avi-mjpeg.avi
"${FF[@]}" "${VIDEO[@]}" "${TONE8K[@]}" "${BITEXACT[@]}" -c:v mpeg4 -q:v 10 -c:a pcm_u8 -shortest \
  -f avi movies/avi-mpeg4-audio.avi

# ---- sounds: every accepted codec in each container (0.5 s, 8 kHz mono) ----
S=(-f lavfi -i "sine=frequency=660:sample_rate=8000:duration=0.5")
# WAV
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_u8 sounds/wav-lpcm8.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_s16le sounds/wav-lpcm16.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -t 0.25 -c:a pcm_f32le sounds/wav-float32.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a adpcm_ima_wav sounds/wav-ima-adpcm.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_mulaw sounds/wav-ulaw.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_alaw sounds/wav-alaw.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_s24le sounds/wav-extensible-lpcm24.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -ac 4 -t 0.25 -c:a pcm_s16le sounds/wav-extensible-4ch.wav
sox -D -n -r 8000 -c 3 -b 16 sounds/wav-extensible-sox.wav synth 0.25 sine 660
# AIFF / AIFF-C
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_s16be -f aiff sounds/aiff-lpcm16.aiff
sox -D -n -r 8000 -c 1 -b 16 -e signed sounds/aifc-none.aifc synth 0.5 sine 660
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_s16le -f aiff sounds/aifc-sowt.aifc
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -t 0.25 -c:a pcm_f32be -f aiff sounds/aifc-fl32.aifc
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a adpcm_ima_qt -f aiff sounds/aifc-ima4.aifc
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_mulaw -f aiff sounds/aifc-ulaw.aifc
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_alaw -f aiff sounds/aifc-alaw.aifc
# CAF
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_s16le -f caf sounds/caf-lpcm16.caf
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -t 0.25 -c:a pcm_f32be -f caf sounds/caf-float32.caf
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a adpcm_ima_qt -f caf sounds/caf-ima4.caf
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_mulaw -f caf sounds/caf-ulaw.caf
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a pcm_alaw -f caf sounds/caf-alaw.caf
# Unsupported codecs in sound containers
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a libmp3lame -b:a 8k -f wav sounds/unsupported-mp3-in-wav.wav
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a alac -f caf sounds/unsupported-alac-in-caf.caf
"${FF[@]}" "${S[@]}" "${BITEXACT[@]}" -c:a adpcm_ms -f wav sounds/unsupported-msadpcm.wav
# The 30-second boundary, for real: 1000 Hz mono 8-bit µ-law, so 30 s is 30,000 bytes of audio.
sox -D -n -r 1000 -c 1 -e u-law -b 8 sounds/length-29.9s-ulaw.wav synth 29.9 sine 220
sox -D -n -r 1000 -c 1 -e u-law -b 8 sounds/length-30.0s-ulaw.wav synth 30.0 sine 220
"${FF[@]}" -f lavfi -i "sine=frequency=220:sample_rate=1000:duration=29.9" "${BITEXACT[@]}" -c:a pcm_mulaw \
  -f aiff sounds/length-29.9s-ulaw.aifc
"${FF[@]}" -f lavfi -i "sine=frequency=220:sample_rate=1000:duration=30" "${BITEXACT[@]}" -c:a pcm_mulaw \
  -f aiff sounds/length-30.0s-ulaw.aifc

ls -l images audio movies sounds
du -sh .
