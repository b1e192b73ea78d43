#!/usr/bin/env python3
"""Writes Fuzz/corpus/grpc: HTTP/2 conversations a gRPC client opens with chimed, as the grpc
fuzz target reads them (a mode byte, then the frames after the client preface).

Needs hyper-h2 (the gRPC tests' venv has it: .build-venv-grpc/bin/python Fuzz/make-grpc-seeds.py).
"""

import struct
import sys
from pathlib import Path

import h2.config
import h2.connection

OUT = Path(__file__).resolve().parent / "corpus" / "grpc"
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def message(payload: bytes, flag: int = 0) -> bytes:
    return struct.pack(">BI", flag, len(payload)) + payload


def conversation(calls, mode: int = 0) -> bytes:
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    for path, body, extra, end in calls:
        stream = conn.get_next_available_stream_id()
        headers = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                   ("content-type", "application/grpc"), ("te", "trailers"), ("chime-app", "org.example.app")] + extra
        conn.send_headers(stream, headers, end_stream=body is None)
        if body is not None:
            conn.send_data(stream, body, end_stream=end)
    data = conn.data_to_send()
    assert data.startswith(PREFACE)
    return bytes([mode]) + data[len(PREFACE):]


NC = "/chime.v1.NotificationCenter/"
seeds = {
    "unary-info": conversation([(NC + "GetServerInfo", message(b""), [], True)]),
    "unary-add-refused": conversation([(NC + "Add", message(b"\x0a\x03\x0a\x01x"), [("grpc-timeout", "5S")], True)], mode=1),
    "subscribe": conversation([(NC + "Subscribe", message(b""), [], True)], mode=2),
    "two-streams-drain": conversation([(NC + "Subscribe", message(b""), [], True), (NC + "GetPending", message(b""), [], True)], mode=0x18),
    "reflection": conversation([("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                 message(b"\x3a\x00") + message(b"\x22\x1bchime.v1.NotificationCenter"), [], True)], mode=3),
    "health": conversation([("/grpc.health.v1.Health/Check", message(b""), [], True),
                            ("/grpc.health.v1.Health/Watch", message(b""), [], True)], mode=4),
    "compressed": conversation([(NC + "Add", message(b"abc", flag=1), [], True)], mode=5),
    "oversized": conversation([(NC + "Add", struct.pack(">BI", 0, 1 << 30) + b"x" * 100, [], False)], mode=0x40),
    "open-body": conversation([(NC + "Add", message(b"\x0a\x00")[:-1], [], False)]),
    "unknown-method": conversation([(NC + "Nope", message(b""), [("grpc-encoding", "gzip")], True)], mode=0x80),
}
OUT.mkdir(parents=True, exist_ok=True)
for old in OUT.iterdir():
    old.unlink()
for name, data in seeds.items():
    (OUT / name).write_bytes(data)
print(f"{len(seeds)} seeds in {OUT}", file=sys.stderr)
