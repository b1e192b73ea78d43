#!/usr/bin/env python3
"""Writes an ICU common-data package (CmnD) holding only the named items of another.

Usage: icu-data-subset.py SOURCE.dat TARGET.dat ITEM... (items named without the package
prefix, e.g. zoneinfo64.res or zone/root.res). Used by gen-icu-data.sh."""
import struct, sys

def read_package(data):
    header_size = struct.unpack_from('<H', data, 0)[0]
    count = struct.unpack_from('<I', data, header_size)[0]
    entries = [struct.unpack_from('<II', data, header_size + 4 + 8 * i) for i in range(count)]
    names = []
    for name_offset, _ in entries:
        start = header_size + name_offset
        names.append(data[start:data.index(b'\0', start)].decode())
    offsets = [data_offset for _, data_offset in entries] + [len(data) - header_size]
    items = {names[i]: data[header_size + offsets[i]:header_size + offsets[i + 1]] for i in range(count)}
    return data[:header_size], items

def write_package(header, items):
    names = sorted(items)
    toc_size = 4 + 8 * len(names)
    name_bytes = b''.join(n.encode() + b'\0' for n in names)
    name_offsets, o = [], toc_size
    for n in names:
        name_offsets.append(o); o += len(n.encode()) + 1
    data_start = (toc_size + len(name_bytes) + 15) & ~15
    body, data_offsets, cursor = bytearray(), [], data_start
    for n in names:
        blob = items[n]
        data_offsets.append(cursor)
        pad = (-len(blob)) % 16
        body += blob + b'\0' * pad
        cursor += len(blob) + pad
    toc = struct.pack('<I', len(names)) + b''.join(struct.pack('<II', a, b) for a, b in zip(name_offsets, data_offsets))
    toc += name_bytes
    toc += b'\0' * (data_start - len(toc))
    return header + toc + bytes(body)

source, target, *wanted = sys.argv[1:]
header, items = read_package(open(source, 'rb').read())
prefix = next(iter(items)).split('/')[0] + '/'
missing = [w for w in wanted if prefix + w not in items]
if missing: sys.exit(f"not in {source}: {missing}")
open(target, 'wb').write(write_package(header, {prefix + w: items[prefix + w] for w in wanted}))
