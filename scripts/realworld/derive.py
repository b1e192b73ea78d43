#!/usr/bin/env python3
"""Makes one derived corpus file from another, by byte operations only (no encoder, so the
result is the same on every machine):

  derive.py OUT cut SRC N            the first N bytes of SRC
  derive.py OUT half SRC             the first half of SRC (rounded down)
  derive.py OUT wavsize SRC RIFF DATA  SRC with its RIFF and data chunk sizes replaced (hex),
                                     as a WAV written to a pipe carries them
  derive.py OUT es SRC               the video elementary stream of MPEG program stream SRC
                                     (the payloads of its 0xE0-0xEF packets, in order)
  derive.py OUT zeros SRC K          K zero bytes inserted before SRC's third pack header
  derive.py OUT byte SRC OFFSET HEX  SRC with the byte at OFFSET replaced
"""
import sys


def pes_payload(data, at, end):
    """Where a PES packet's payload starts (MPEG-2 or MPEG-1 header)."""
    p = at + 6
    if p < end and data[p] & 0xC0 == 0x80:
        return p + 3 + data[p + 2]
    while p < end and data[p] == 0xFF:
        p += 1
    if p < end and data[p] & 0xC0 == 0x40:
        p += 2
    if p < end:
        flags = data[p] & 0xF0
        p += 5 if flags == 0x20 else 10 if flags == 0x30 else 1
    return p


def elementary_stream(data):
    out = bytearray()
    pos = 0
    while pos + 4 <= len(data):
        if data[pos:pos + 3] != b"\x00\x00\x01":
            pos += 1  # zero padding between packs
            continue
        sid = data[pos + 3]
        if sid == 0xBA:
            pos += 14 + (data[pos + 13] & 7) if data[pos + 4] >> 6 == 1 else 12
        elif sid == 0xB9:
            break
        elif sid >= 0xBB:
            length = int.from_bytes(data[pos + 4:pos + 6], "big")
            end = pos + 6 + length
            if 0xE0 <= sid <= 0xEF:
                out += data[pes_payload(data, pos, end):end]
            pos = end
        else:
            raise SystemExit(f"derive.py: unexpected start code {sid:#x} at {pos}")
    return bytes(out)


def main():
    out, op, src = sys.argv[1], sys.argv[2], sys.argv[3]
    args = sys.argv[4:]
    data = open(src, "rb").read()
    if op == "cut":
        result = data[:int(args[0])]
    elif op == "half":
        result = data[:len(data) // 2]
    elif op == "wavsize":
        riff, size = int(args[0], 16), int(args[1], 16)
        at = data.index(b"data", 12)
        result = data[:4] + riff.to_bytes(4, "little") + data[8:at + 4] + size.to_bytes(4, "little") + data[at + 8:]
    elif op == "es":
        result = elementary_stream(data)
    elif op == "zeros":
        packs = [i for i in range(len(data) - 3) if data[i:i + 4] == b"\x00\x00\x01\xba"][:3]
        result = data[:packs[2]] + bytes(int(args[0])) + data[packs[2]:]
    elif op == "byte":
        at = int(args[0])
        result = data[:at] + bytes([int(args[1], 16)]) + data[at + 1:]
    else:
        raise SystemExit(f"derive.py: unknown operation {op}")
    open(out, "wb").write(result)


main()
