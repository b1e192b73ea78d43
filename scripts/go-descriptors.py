#!/usr/bin/env python3
"""Writes a google.protobuf.FileDescriptorSet (to stdout) holding the file descriptors compiled
into Go sources by protoc-gen-go: each `var fileDescriptor_<hash> = []byte{...}` literal (a
gzipped FileDescriptorProto) of the .pb.go files named on the command line, in that order.

Debian ships google/rpc/status.proto and error_details.proto only as such Go sources
(golang-google-genproto-dev); gen-descriptors.sh hands this set to protoc with
--descriptor_set_in so that reflection can describe google.rpc.Status and ErrorInfo.
"""
import gzip
import re
import sys


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def descriptor(path: str) -> bytes:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = re.search(r"^var fileDescriptor_[0-9a-f]+ = \[\]byte\{(.*?)^\}", text, re.S | re.M)
    if not found:
        sys.exit(f"go-descriptors: no gzipped file descriptor in {path}")
    body = re.sub(r"//[^\n]*", "", found.group(1))
    return gzip.decompress(bytes(int(b, 16) for b in re.findall(r"0x[0-9a-fA-F]{2}", body)))


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: go-descriptors.py FILE.pb.go...")
    out = bytearray()
    for path in sys.argv[1:]:
        file = descriptor(path)
        # FileDescriptorSet.file = 1, length-delimited.
        out += b"\x0a" + varint(len(file)) + file
    sys.stdout.buffer.write(bytes(out))


if __name__ == "__main__":
    main()
