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


def send(client: RawH2, counter: Counter, stream: int, body: bytes, start: int, end: int, size: int,
         lag: int | None) -> None:
    """Sends `body[start:end]` in DATA frames of 16 KiB as chimed's windows allow, reading the
    answers (each echoes its request): as they come, or, with `lag`, only enough to keep about
    that many unread (a reader that always leaves some answers in chimed)."""
    offset = start
    while offset < end:
        while readable(client):
            client.pump()
        counter.update(client)
        if lag is not None and offset // size - counter.count > lag:
            client.pump()
            continue
        room = min(client.conn.local_flow_control_window(stream), client.conn.max_outbound_frame_size, 16_384, end - offset)
        if room <= 0:
            client.pump()  # WINDOW_UPDATEs come back as chimed reads
            continue
        client.conn.send_data(stream, body[offset:offset + room])
        offset += room
        client.flush()


def carry_through_reflection(daemon, lag: int | None) -> tuple[int, int]:
    """~55 MB of ~10 KB reflection requests through one ServerReflectionInfo stream in 16 KiB
    frames; returns chimed's RSS growth (KiB) over the last ~50 MB and the bytes carried then."""
    request = message(reflection_pb2.ServerReflectionRequest(host="h" * 10_000, list_services="").SerializeToString())
    size = len(request)
    assert size % 16_384 != 0
    batch = 500 * size  # ~5 MB
    # One continuous body, sent in pieces that each end halfway into a message (the first is half
    # a message longer than the rest): at no point, between frames or between pieces, has chimed
    # read every byte it was sent.
    body = request * 5_600
    client = RawH2(daemon.socket_path)
    if lag is None:
        # Room for chimed's answers: the test reads them as they come.
        client.conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 24})
        client.conn.increment_flow_control_window(1 << 30)
        client.flush()
    stream = client.request(path=REFLECTION)
    counter = Counter(stream)
    sent = 0

    def carry(pieces: int) -> None:
        nonlocal sent
        for _ in range(pieces):
            end = sent + batch + (size // 2 if sent == 0 else 0)
            send(client, counter, stream, body, sent, end, size, lag)
            sent = end
        if lag is not None:
            return
        deadline = time.monotonic() + 30
        while counter.update(client) < sent // size:  # chimed has read every whole request
            assert time.monotonic() < deadline, f"{counter.count} of {sent // size} answered"
            client.pump()

    carry(1)  # the first ~5 MB warm chimed up (its heap, the stream's buffers)
    before = rss_kib(daemon.process.pid)
    carried = sent
    carry(10)  # ~50 MB more, the stream still open with half a message pending
    growth = rss_kib(daemon.process.pid) - before
    carried = sent - carried
    send(client, counter, stream, body, sent, sent + size - sent % size, size, None)
    client.data(stream, b"", end_stream=True)
    deadline = time.monotonic() + 30
    while counter.update(client) < (sent + size - 1) // size:
        assert time.monotonic() < deadline, f"{counter.count} of {(sent + size - 1) // size} answered"
        client.pump()
    assert client.response(stream)["trailers"]["grpc-status"] == "0"
    return growth, carried


def test_a_long_stream_of_split_messages_does_not_grow_chimed(own_daemon):
    """16 KiB frames carrying ~10 KB reflection requests: every frame ends inside a message, so
    a partial message is always pending while ~50 MiB go through one ServerReflectionInfo
    stream. chimed's RSS stays within a few MiB of where it was."""
    growth, carried = carry_through_reflection(own_daemon, lag=None)
    assert growth <= 6 * 1024, f"chimed's RSS grew {growth / 1024:.1f} MiB while one stream carried {carried / 2**20:.0f} MiB"


def test_answers_a_reader_leaves_waiting_do_not_grow_chimed(own_daemon):
    """The same stream, read by a client that keeps ~40 answers (~0.8 MB) unread with HTTP/2's
    default 64 KiB window: chimed always holds answers not yet sent, and what it sent of them
    must not pile up behind them."""
    growth, carried = carry_through_reflection(own_daemon, lag=40)
    assert growth <= 6 * 1024, f"chimed's RSS grew {growth / 1024:.1f} MiB while one stream carried {carried / 2**20:.0f} MiB"
