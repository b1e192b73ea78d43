"""What one long stream costs chimed in memory: bounded by a message and a frame, not by what
the stream carried."""

from __future__ import annotations

import select
import time

import h2.events
import h2.settings
from grpc_reflection.v1alpha import reflection_pb2

from test_bad_input import RawH2, message

REFLECTION = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/PID/status")


class Counter:
    """Counts the whole gRPC messages received on one stream without keeping them."""

    def __init__(self, stream: int) -> None:
        self.stream = stream
        self.pending = bytearray()
        self.count = 0

    def update(self, client: RawH2) -> int:
        for event in client.events:
            if isinstance(event, h2.events.DataReceived) and event.stream_id == self.stream:
                self.pending += event.data
        # What is counted is dropped (50 MiB of answers would otherwise stay in the test).
        client.events[:] = [e for e in client.events if not isinstance(e, h2.events.DataReceived)]
        offset = 0
        while len(self.pending) - offset >= 5:
            length = int.from_bytes(self.pending[offset + 1:offset + 5], "big")
            if len(self.pending) - offset < 5 + length:
                break
            offset += 5 + length
            self.count += 1
        del self.pending[:offset]
        return self.count


def readable(client: RawH2) -> bool:
    return bool(select.select([client.sock], [], [], 0)[0])


def send(client: RawH2, counter: Counter, stream: int, payload: bytes, frame: int) -> None:
    """Sends `payload` in DATA frames of `frame` bytes as chimed's windows allow, reading its
    answers (each echoes its request) as they come so that none wait in chimed for the test."""
    offset = 0
    while offset < len(payload):
        while readable(client):
            client.pump()
        counter.update(client)
        room = min(client.conn.local_flow_control_window(stream), client.conn.max_outbound_frame_size, frame)
        if room <= 0:
            client.pump()  # WINDOW_UPDATEs come back as chimed reads
            continue
        client.conn.send_data(stream, payload[offset:offset + room])
        offset += room
        client.flush()


def test_a_long_stream_of_split_messages_does_not_grow_chimed(own_daemon):
    """16 KiB frames carrying ~10 KB reflection requests: every frame ends inside a message, so
    a partial message is always pending while ~50 MiB go through one ServerReflectionInfo
    stream. chimed's RSS stays within a few MiB of where it was."""
    request = message(reflection_pb2.ServerReflectionRequest(host="h" * 10_000, list_services="").SerializeToString())
    assert len(request) % 16_384 != 0
    batch = 500  # ~5 MB
    client = RawH2(own_daemon.socket_path)
    # Room for chimed's answers: the test reads them as they come.
    client.conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 24})
    client.conn.increment_flow_control_window(1 << 30)
    client.flush()
    stream = client.request(path=REFLECTION)
    counter = Counter(stream)

    def carry(batches: int, sent: int) -> int:
        for _ in range(batches):
            send(client, counter, stream, request * batch, 16_384)
            sent += batch
        deadline = time.monotonic() + 30
        while counter.update(client) < sent:  # chimed has read (and answered) every request
            assert time.monotonic() < deadline, f"{counter.count} of {sent} answered"
            client.pump()
        return sent

    sent = carry(1, 0)  # the first ~5 MB warm chimed up (its heap, the stream's buffers)
    before = rss_kib(own_daemon.process.pid)
    sent = carry(10, sent)  # ~50 MB more, the stream still open
    after = rss_kib(own_daemon.process.pid)
    carried = (sent - batch) * len(request)
    assert after - before <= 6 * 1024, (
        f"chimed's RSS grew {(after - before) / 1024:.1f} MiB while one stream carried {carried / 2**20:.0f} MiB")
    client.data(stream, b"", end_stream=True)
    assert client.response(stream)["trailers"]["grpc-status"] == "0"
