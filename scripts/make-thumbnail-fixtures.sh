#!/usr/bin/env bash
# Makes the thumbnail fixtures in Tests/Fixtures/media/thumbnails with Debian's ffmpeg
# (apt-get install -y ffmpeg). Tests read the committed outputs and never run this.
# Every picture is made of flat, saturated colours so a pixel check can name the colour it
# expects: red (255,0,0), lime (0,255,0), blue (0,0,255), yellow (255,255,0).
#   quadrants.png  64x48, quadrants red (top left), lime (top right), blue (bottom left),
#                  yellow (bottom right)
#   frames.gif     32x24, 4 frames of 0.1 s: red, lime, blue, yellow
#   frames.apng.png 32x24 animated PNG, 3 frames of 0.1 s: red, lime, blue (the default image
#                  is frame 0)
#   seconds.mp4    64x48, MPEG-4 Part 2 at 5 fps, 3 s: red in second 0, lime in 1, blue in 2
#   apng-default-not-a-frame.png 8x6 APNG whose default image (white) is not part of the
#                  animation (no fcTL before IDAT), then 2 frames: red, lime. Written by python3
#                  (ffmpeg always makes the default image frame 0).
#   rotated.mp4    quadrants.png as a 1 s movie whose display matrix turns it a quarter turn
#                  counterclockwise (the "rotate=90" tag): shown 48x64, lime at the top left
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures/media/thumbnails"
command -v ffmpeg >/dev/null || { echo "ffmpeg not found (apt-get install -y ffmpeg)" >&2; exit 1; }

FF=(ffmpeg -hide_banner -loglevel error -y)
BITEXACT=(-fflags +bitexact -flags:v +bitexact -map_metadata -1)
# A flat colour clip: colour, size, seconds, rate.
flat() { echo "color=c=$1:s=$2:d=$3:r=$4,format=rgb24"; }

"${FF[@]}" -f lavfi -i "$(flat red 32x24 1 1)" -f lavfi -i "$(flat lime 32x24 1 1)" \
  -f lavfi -i "$(flat blue 32x24 1 1)" -f lavfi -i "$(flat yellow 32x24 1 1)" \
  -filter_complex "[0][1]hstack[top];[2][3]hstack[bottom];[top][bottom]vstack" \
  "${BITEXACT[@]}" -frames:v 1 -pix_fmt rgb24 quadrants.png

# Animations are assembled from one PNG per frame (image2 at 10 fps: 0.1 s each), which gives
# exactly one frame per colour. The GIF palette is made from the frames so the colours stay
# exact, and no frame is cropped to its changed part.
frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT
n=0
for c in red lime blue yellow; do
  "${FF[@]}" -f lavfi -i "$(flat $c 32x24 1 1)" -frames:v 1 "$frames/f$n.png"
  n=$((n + 1))
done
"${FF[@]}" -framerate 10 -i "$frames/f%d.png" \
  -filter_complex "split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse=dither=none" \
  "${BITEXACT[@]}" -gifflags -offsetting-transdiff -loop 0 -f gif frames.gif
rm "$frames/f3.png"
"${FF[@]}" -framerate 10 -i "$frames/f%d.png" "${BITEXACT[@]}" -pix_fmt rgb24 -plays 0 -f apng frames.apng.png

"${FF[@]}" -f lavfi -i "$(flat red 64x48 1 5)" -f lavfi -i "$(flat lime 64x48 1 5)" \
  -f lavfi -i "$(flat blue 64x48 1 5)" -filter_complex "[0][1][2]concat=n=3,format=yuv420p" \
  "${BITEXACT[@]}" -c:v mpeg4 -q:v 2 -g 5 -movflags +faststart seconds.mp4

# The tag is written when remuxing (ffmpeg 5.1 drops it on an encode).
"${FF[@]}" -loop 1 -framerate 5 -t 1 -i quadrants.png -vf format=yuv420p "${BITEXACT[@]}" -c:v mpeg4 -q:v 2 \
  "$frames/rotated.mp4"
"${FF[@]}" -i "$frames/rotated.mp4" -c copy -metadata:s:v:0 rotate=90 "${BITEXACT[@]}" rotated.mp4

python3 - <<'PY'
import struct, zlib
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
W, H = 8, 6
def pixels(rgb): return zlib.compress(b''.join(b'\x00' + bytes(rgb) * W for _ in range(H)), 9)
def fctl(seq): return chunk(b'fcTL', struct.pack('>IIIIIHHBB', seq, W, H, 0, 0, 1, 10, 0, 0))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', W, H, 8, 2, 0, 0, 0))
png += chunk(b'acTL', struct.pack('>II', 2, 0)) + chunk(b'IDAT', pixels((255, 255, 255)))
png += fctl(0) + chunk(b'fdAT', struct.pack('>I', 1) + pixels((255, 0, 0)))
png += fctl(2) + chunk(b'fdAT', struct.pack('>I', 3) + pixels((0, 255, 0)))
open('apng-default-not-a-frame.png', 'wb').write(png + chunk(b'IEND', b''))
PY

ls -l
