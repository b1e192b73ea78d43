#!/usr/bin/env python3
"""Writes manifest.tsv: every media file of the packages in packages.tsv, the derived files
below, each file's SHA-256 and the facts independent tools report for it (the truth the corpus
test holds Chime's inspectors to). A maintainer's tool: run it after changing packages.tsv or
DERIVED, on a Debian 12 machine with ffmpeg (ffprobe), imagemagick (identify), sox (soxi),
pngcheck, gifsicle and file installed:

    scripts/realworld/make-manifest.py [DIR]     (DIR: where to download, .build/realworld-truth)

Facts, and the tool each comes from:
  type      `file`'s description (MPEG v1/v2, system or program multiplex, or a bare sequence;
            QuickTime and Ogg are not supported types), ffprobe's streams (an MP4 without video
            is MPEG-4 audio)
  size      movies: ffprobe's width x sample aspect ratio (rounded) by height, turned by its
            rotation; PNG: `file`; GIF: gifsicle's logical screen; JPEG: identify (its EXIF
            orientation applied), `file` when it is over identify's pixel limit
  pixels    movies: ffprobe's width by height
  frames    MPEG: ffprobe -count_frames; MP4 and AVI: the container's count (ffprobe nb_frames);
            GIF: gifsicle's images; APNG: ffprobe's apng demuxer
  damage    PNG: pngcheck; GIF: gifsicle's read errors, no image or an empty one; JPEG:
            libjpeg's warnings through identify -regard-warnings
  seconds   MPEG: frames / frame rate; other movies and MP3: ffprobe's duration; animated GIF:
            identify's delays; WAV and AIFF: the frames ffmpeg decodes / rate
  sound     soxi (ffprobe where sox cannot read it: AIFF-C a-law): encoding, channels, rate;
            frames: what ffmpeg decodes to the end of the file
Derived broken files are refused by construction (a cut file, too much padding).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXTENSIONS = (".au", ".wav", ".aif", ".aiff", ".aifc", ".mp3", ".mpg", ".mpeg", ".m1v", ".m2v", ".mp4", ".m4v", ".m4a",
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
    ("boom-ffmpeg-pipe.wav", "wavsize", "python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/boom.wav", ["ffffffff", "ffffffff"], None),
    ("boom-zero-sizes.wav", "wavsize", "python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/boom.wav", ["0", "0"], None),
    ("boom-sox-pipe.wav", "wavsize", "python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/boom.wav", ["7ffff024", "7ffff000"], None),
    ("boom-arecord-pipe.wav", "wavsize", "python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/boom.wav", ["80000024", "80000000"], None),
    ("boom-half.wav", "half", "python-pygame-doc/usr/share/doc/python-pygame-doc/examples/data/boom.wav", [],
     "refused=ATTACHMENT_CORRUPT sound-refused=SOUND_CORRUPT"),
    ("boom-streamed-half.wav", "half", "derived/boom-ffmpeg-pipe.wav", [], None),
]


# Where the tools disagree with each other, the fact a player shows, and why.
OVERRIDES = {
    "gdk-pixbuf-tests/usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/animation-multi-image.gif":
        # 7 images, 4 with a Graphic Control Extension of 0.5 s; an image without one shows at
        # once with the one before, so it lasts 2 s (ffprobe: 2.0 s; identify carries each delay
        # over to the next image: 3.5 s).
        "type=com.compuserve.gif size=2x2 frames=7 seconds=2.000000",
    # The inspector walks a GIF's blocks and does not decode its LZW data: these are whole in
    # structure (gifsicle reads them) and fail only when decoded (identify), which is the
    # thumbnail's THUMBNAIL_RENDER_FAILED, not a refusal.
    "gdk-pixbuf-tests/usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/invalid-code.gif":
        "type=com.compuserve.gif size=2x2 frames=1",
    "gdk-pixbuf-tests/usr/libexec/installed-tests/gdk-pixbuf/test-images/gif-test-suite/invalid-colors.gif":
        "type=com.compuserve.gif size=1x1 frames=1",
    # Its one image's data runs past the end of the file (gifsicle --info does not read image
    # data, and identify stops first at its pixel limit: the screen is 65308x65386).
    "gdk-pixbuf-tests/usr/libexec/installed-tests/gdk-pixbuf/test-images/fail/bug785973.gif": "refused=ATTACHMENT_CORRUPT",
}


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
    rotation = next((int(x.get("rotation", 0)) for x in s.get("side_data_list", []) if "rotation" in x), 0)
    if rotation % 180 != 0:
        return f"size={h}x{dw} pixels={w}x{h}"
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
    if enc:
        codec = {"Signed Integer PCM": "lpcm", "Unsigned Integer PCM": "lpcm", "Floating Point PCM": "float",
                 "u-law": "ulaw", "A-law": "alaw", "IMA ADPCM": "ima4"}.get(enc)
        rate = int(run("soxi", "-r", path))
        channels = int(run("soxi", "-c", path))
    else:
        # sox reads no AIFF-C µ-law or a-law: ffprobe says what the file holds.
        s = next(x for x in ffprobe(path)["streams"] if x.get("codec_type") == "audio")
        name = s["codec_name"]
        codec = ("lpcm" if name.startswith(("pcm_s", "pcm_u")) else "float" if name.startswith("pcm_f")
                 else {"pcm_mulaw": "ulaw", "pcm_alaw": "alaw", "adpcm_ima_qt": "ima4", "adpcm_ima_wav": "ima4"}.get(name))
        rate, channels = int(s["sample_rate"]), int(s["channels"])
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
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        # pngcheck checks every chunk's CRC and the IDAT/IEND structure.
        if subprocess.run(["pngcheck", "-q", path], capture_output=True).returncode != 0:
            return "refused=ATTACHMENT_CORRUPT"
        w, h = desc.split(",")[1].strip().split(" x ")
        frames = 1
        if b"acTL" in data[:data.find(b"IDAT")]:
            frames = int(video_stream(ffprobe(path, "-count_frames", "-f", "apng"))["nb_read_frames"])
        return f"type=public.png size={w}x{h} frames={frames}"
    if desc.startswith("GIF image data"):
        # gifsicle reads every block (a loop extension of the wrong length, which players
        # ignore, is no damage); identify decodes the pixels (its own size limits aside). A read
        # error, no image, an empty image or pixel data that does not decode is damage.
        info = subprocess.run(["gifsicle", "--info", path], capture_output=True, text=True)
        lines = info.stdout.splitlines()
        images = [l for l in lines if l.strip().startswith("+ image #")]
        errors = [l for l in info.stderr.splitlines() if "read error" in l and "bad loop extension" not in l]
        decode = subprocess.run(["identify", "-regard-warnings", "-format", "%k\n", path], capture_output=True, text=True)
        undecodable = decode.returncode != 0 and "limit" not in decode.stderr and "memory allocation" not in decode.stderr
        empty = any(re.search(r" (0x\d+|\d+x0)( |$)", l) for l in images)
        if errors or not images or empty or undecodable:
            return "refused=ATTACHMENT_CORRUPT"
        screen = next(l for l in lines if "logical screen" in l).split("logical screen")[1].split()[0]
        facts = f"type=com.compuserve.gif size={screen} frames={len(images)}"
        if len(images) > 1:
            delays = [r.split()[0] for r in run("identify", "-format", "%T\n", path).splitlines()]
            facts += " " + seconds(sum(int(d) for d in delays) / 100)
        return facts
    if desc.startswith("JPEG image data"):
        # libjpeg's warnings (extraneous bytes, a premature end) are damage Chime refuses.
        decode = subprocess.run(["identify", "-regard-warnings", "-format", "%k", path], capture_output=True, text=True)
        if "Corrupt JPEG data" in decode.stderr or "Premature end" in decode.stderr:
            return "refused=ATTACHMENT_CORRUPT"
        fields = run("identify", "-format", "%w %h %[orientation]", path).split()
        if len(fields) != 3:
            # identify's pixel limit refuses the largest: `file` reads the frame header (as
            # signed 16-bit numbers).
            size = next(f for f in desc.split(", ") if re.fullmatch(r"-?\d+x-?\d+", f))
            w, h = (int(x) % 65536 for x in size.split("x"))
            fields = [str(w), str(h), "TopLeft"]
        w, h, orientation = fields
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


def safe_truth(path):
    """The truth, or a refusal as corrupt when the tools cannot read the file (the gdk-pixbuf
    test suite's broken images): identify and ffprobe fail, or report nothing."""
    try:
        return truth(path)
    except (ValueError, KeyError, TypeError, IndexError, ZeroDivisionError):
        return "refused=ATTACHMENT_CORRUPT"


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
                    rows.append((ident, package, "deb", sha256(full), OVERRIDES.get(ident) or safe_truth(full)))
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
