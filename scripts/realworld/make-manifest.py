#!/usr/bin/env python3
"""Writes manifest.tsv: every media file of the packages in packages.tsv, the derived files
below, each file's SHA-256 and the facts independent tools report for it (the truth the corpus
test holds Chime's inspectors to). A maintainer's tool: run it after changing packages.tsv or
DERIVED, on a Debian 12 machine with ffmpeg (ffprobe), imagemagick (identify), sox (soxi) and
file installed:

    scripts/realworld/make-manifest.py [DIR]     (DIR: where to download, .build/realworld-truth)

Facts, and the tool each comes from:
  type      `file`'s description (MPEG v1/v2, system or program multiplex, or a bare sequence;
            QuickTime and Ogg are not supported types), ffprobe's streams (an MP4 without video
            is MPEG-4 audio)
  seconds   WAV and AIFF: frames ffmpeg decodes / rate
  size      movies: ffprobe's width x sample aspect ratio (rounded) by height; images: identify
            (a JPEG's EXIF orientation turning it a quarter is applied)
  pixels    movies: ffprobe's width by height
  frames    MPEG: ffprobe -count_frames; MP4 and AVI: the container's count (ffprobe nb_frames);
            GIF: identify's frames; APNG: ffprobe's apng demuxer
  seconds   MPEG: frames / frame rate; other movies and MP3: ffprobe's duration; animated GIF: identify's delays
  sound     soxi: encoding, channels, rate; frames: what ffmpeg decodes to the end of the file
Derived broken files are refused by construction (a cut file, too much padding).
"""
import hashlib
import json
import os
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXTENSIONS = (".wav", ".aif", ".aiff", ".aifc", ".mp3", ".mpg", ".mpeg", ".m1v", ".m2v", ".mp4", ".m4v", ".m4a",
              ".avi", ".mov", ".gif", ".png", ".jpg", ".jpeg", ".ogg", ".oga", ".caf", ".webm", ".bmp", ".flac")

# (name, operation, source id, arguments, expected when made broken on purpose or None for truth)
DERIVED = [
    ("devede-base_pal.m2v", "es", "devede/usr/share/devedeng/base_pal.mpg", [], None),
    ("devede-base_ntsc_wide.m2v", "es", "devede/usr/share/devedeng/base_ntsc_wide.mpg", [], None),
    ("pygame-blue.m1v", "es", "python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/blue.mpg", [], None),
    ("k3bphotosvcd.m2v", "es", "k3b-data/usr/share/k3b/extra/k3bphotosvcd.mpg", [], None),
    ("k3bphotovcd.m1v", "es", "k3b-data/usr/share/k3b/extra/k3bphotovcd.mpg", [], None),
    ("k3bphotovcd-padded-100.mpg", "zeros", "k3b-data/usr/share/k3b/extra/k3bphotovcd.mpg", ["100"], None),
    ("k3bphotovcd-padded-5000.mpg", "zeros", "k3b-data/usr/share/k3b/extra/k3bphotovcd.mpg", ["5000"], "refused=ATTACHMENT_CORRUPT"),
    # DVD packs are 2048 bytes: a cut at a pack boundary cannot be told from a whole stream.
    ("devede-base_pal-cut.mpg", "cut", "devede/usr/share/devedeng/base_pal.mpg", ["17000"], "refused=ATTACHMENT_CORRUPT"),
    ("balle-jbart-half.mp4", "half", "python3-mecavideo/usr/share/pymecavideo/data/video/balle-jbart.mp4", [], "refused=ATTACHMENT_CORRUPT"),
    ("homer-half.avi", "half", "gem-doc/usr/share/gem/examples/data/homer.avi", [], "refused=ATTACHMENT_CORRUPT"),
    ("Front_Center-ffmpeg-pipe.wav", "wavsize", "alsa-utils/usr/share/sounds/alsa/Front_Center.wav", ["ffffffff", "ffffffff"], None),
    ("Front_Center-zero-sizes.wav", "wavsize", "alsa-utils/usr/share/sounds/alsa/Front_Center.wav", ["0", "0"], None),
    ("Front_Center-sox-pipe.wav", "wavsize", "alsa-utils/usr/share/sounds/alsa/Front_Center.wav", ["7ffff024", "7ffff000"], None),
    ("Front_Center-arecord-pipe.wav", "wavsize", "alsa-utils/usr/share/sounds/alsa/Front_Center.wav", ["80000024", "80000000"], None),
    ("Front_Center-half.wav", "half", "alsa-utils/usr/share/sounds/alsa/Front_Center.wav", [],
     "refused=ATTACHMENT_CORRUPT sound-refused=SOUND_CORRUPT"),
    ("Front_Center-streamed-half.wav", "half", "derived/Front_Center-ffmpeg-pipe.wav", [], None),
]


def run(*args):
    return subprocess.run(args, capture_output=True, text=True).stdout.strip()


def ffprobe(path, *extra):
    out = run("ffprobe", "-v", "error", "-of", "json", "-show_format", "-show_streams", *extra, path)
    return json.loads(out or "{}")


def video_stream(info):
    return next((s for s in info.get("streams", []) if s.get("codec_type") == "video"), None)


def display(s):
    w, h = int(s["width"]), int(s["height"])
    sar = s.get("sample_aspect_ratio", "1:1")
    n, d = (int(x) for x in sar.split(":")) if ":" in sar else (1, 1)
    dw = round(w * n / d) if n > 0 and d > 0 else w
    return f"size={dw}x{h} pixels={w}x{h}"


def seconds(x):
    return f"seconds={float(x):.6f}"


def decoded_frames(path, channels):
    """Frames ffmpeg decodes, reading to the end of the file (a streamed WAV's header sizes are
    placeholders, which soxi reports as they are)."""
    pcm = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "s16le", "-"], capture_output=True).stdout
    return len(pcm) // (2 * channels)


def sound_facts(path):
    enc = run("soxi", "-e", path)
    codec = {"Signed Integer PCM": "lpcm", "Unsigned Integer PCM": "lpcm", "Floating Point PCM": "float",
             "u-law": "ulaw", "A-law": "alaw", "IMA ADPCM": "ima4"}.get(enc)
    rate = int(run("soxi", "-r", path))
    channels = int(run("soxi", "-c", path))
    frames = decoded_frames(path, channels)
    facts = f"seconds={frames / rate:.6f} "
    if codec is None:
        return facts + "sound-refused=SOUND_UNSUPPORTED_FORMAT"
    return facts + f"sound={codec}/{channels}/{rate}/{frames}"


def truth(path):
    desc = run("file", "-b", path)
    data = open(path, "rb").read()
    if desc.startswith("RIFF (little-endian) data, WAVE audio") or data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return f"type=com.microsoft.waveform-audio {sound_facts(path)}"
    if desc.startswith("IFF data, AIFF") or data[:4] == b"FORM":
        return f"type=public.aiff-audio {sound_facts(path)}"
    if desc.startswith("PNG image data"):
        w, h = run("identify", "-format", "%w %h\n", path + "[0]").split()
        frames = 1
        if b"acTL" in data[:data.find(b"IDAT")]:
            frames = int(video_stream(ffprobe(path, "-count_frames", "-f", "apng"))["nb_read_frames"])
        return f"type=public.png size={w}x{h} frames={frames}"
    if desc.startswith("GIF image data"):
        rows = [r.split() for r in run("identify", "-format", "%W %H %T\n", path).splitlines()]
        facts = f"type=com.compuserve.gif size={rows[0][0]}x{rows[0][1]} frames={len(rows)}"
        if len(rows) > 1:
            facts += " " + seconds(sum(int(r[2]) for r in rows) / 100)
        return facts
    if desc.startswith("JPEG image data"):
        w, h, orientation = run("identify", "-format", "%w %h %[orientation]", path).split()
        if orientation in ("LeftTop", "RightTop", "RightBottom", "LeftBottom"):
            w, h = h, w
        return f"type=public.jpeg size={w}x{h} frames=1"
    if desc.startswith("MPEG sequence") or desc.startswith("MPEG ADTS, layer I,") and False:
        info = ffprobe(path, "-count_frames")
        s = video_stream(info)
        if "multiplex" in desc:
            mpeg2 = "program multiplex" in desc
        else:
            mpeg2 = desc.startswith("MPEG sequence, v2")
        kind = "public.mpeg-2-video" if mpeg2 else "public.mpeg"
        frames = int(s["nb_read_frames"])
        rate = Fraction(s["r_frame_rate"])
        return f"type={kind} {display(s)} frames={frames} {seconds(frames / rate)}"
    if desc.startswith("ISO Media") or data[4:8] == b"ftyp":
        info = ffprobe(path)
        s = video_stream(info)
        if s is None:
            return f"type=public.mpeg-4-audio {seconds(info['format']['duration'])}"
        return f"type=public.mpeg-4 {display(s)} frames={s['nb_frames']} {seconds(info['format']['duration'])}"
    if desc.startswith("RIFF (little-endian) data, AVI"):
        info = ffprobe(path)
        s = video_stream(info)
        return f"type=public.avi {display(s).split()[1].replace('pixels', 'size')} frames={s['nb_frames']} {seconds(s['duration'])}"
    if "MPEG ADTS, layer III" in desc or desc.startswith("Audio file with ID3"):
        return f"type=public.mp3 {seconds(ffprobe(path)['format']['duration'])}"
    if "Ogg data" in desc:
        return "refused=ATTACHMENT_UNRECOGNIZED_TYPE sound-refused=SOUND_UNSUPPORTED_FORMAT"
    return "refused=ATTACHMENT_UNRECOGNIZED_TYPE"


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def main():
    work = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "realworld-truth")
    # Downloads and unpacks every package (the short and the full corpus share the manifest).
    subprocess.run(["bash", "-c", f'. "{HERE}/lib.sh"; grep -v "^#" "{HERE}/packages.tsv" | '
                    f'while IFS=$\'\\t\' read -r n v a s k; do fetch_deb "$n" "$v" "$a" "$s" "{work}"; done'], check=True)
    rows = []
    packages = [l.split("\t")[0] for l in open(os.path.join(HERE, "packages.tsv")) if not l.startswith("#")]
    paths = {}
    for package in packages:
        base = os.path.join(work, "pkg", package)
        for d, _, files in sorted(os.walk(base)):
            for f in sorted(files):
                full = os.path.join(d, f)
                if f.lower().endswith(EXTENSIONS) and os.path.isfile(full) and not os.path.islink(full):
                    if os.path.getsize(full) == 0 or os.path.getsize(full) > 50_000_000:
                        continue
                    ident = package + "/" + os.path.relpath(full, base)
                    paths[ident] = (package, full)
                    rows.append((ident, package, "deb", sha256(full), truth(full)))
    made = os.path.join(work, "derived")
    os.makedirs(made, exist_ok=True)
    for name, op, src, args, expected in DERIVED:
        package, source_path = paths[src]
        out = os.path.join(made, name)
        subprocess.run([sys.executable, os.path.join(HERE, "derive.py"), out, op, source_path, *args], check=True)
        ident = "derived/" + name
        paths[ident] = (package, out)
        rows.append((ident, package, "|".join(["derive", op, src, *args]), sha256(out), expected or truth(out)))
    with open(os.path.join(HERE, "manifest.tsv"), "w") as m:
        m.write("# The real-world corpus: written by make-manifest.py (see there for where each fact comes from),\n")
        m.write("# rebuilt byte for byte by build.sh, checked by Tests/ChimeCoreTests/Media/RealWorldCorpusTests.swift.\n")
        m.write("# id\tpackage\tsource\tsha256\texpected facts\n")
        for r in rows:
            m.write("\t".join(r) + "\n")
    print(f"{len(rows)} files")


main()
