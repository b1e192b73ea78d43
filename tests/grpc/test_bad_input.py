"""Input grpcio never sends, written with a plain HTTP/2 client (hyper-h2): each bad stream or
connection gets the status or HTTP/2 error the gRPC spec names, and chimed serves on."""

from __future__ import annotations

import base64
import socket
import struct
import time

import grpc
import h2.config
import h2.connection
import h2.events
import h2.settings
from google.rpc import error_details_pb2, status_pb2

from chime.v1 import notification_center_pb2 as nc
from chime.v1 import request_pb2 as rq

ADD = "/chime.v1.NotificationCenter/Add"


class RawH2:
    """An HTTP/2 client connection over chimed's Unix socket."""

    def __init__(self, path: str, preface: bool = True) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.events: list = []
        self.closed = False
        self.write_closed = False
        # What ended the connection, for failure messages: EOF, or the error seen.
        self.ending = "open"
        self.received = 0
        if preface:
            self.conn.initiate_connection()
            self.flush()

    def flush(self) -> None:
        data = self.conn.data_to_send()
        if data and not self.closed and not self.write_closed:
            try:
                self.sock.sendall(data)
            except (BrokenPipeError, ConnectionResetError):
                # chimed hung up: what it wrote before is still to be read (a GOAWAY).
                self.write_closed = True

    def request(self, path: str = ADD, content_type: str = "application/grpc", extra: list | None = None,
                end_stream: bool = False) -> int:
        stream = self.conn.get_next_available_stream_id()
        headers = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                   ("content-type", content_type), ("te", "trailers"), ("chime-app", "org.example.raw")]
        self.conn.send_headers(stream, headers + (extra or []), end_stream=end_stream)
        self.flush()
        return stream

    def data(self, stream: int, payload: bytes, end_stream: bool = False) -> None:
        """Sends `payload` in DATA frames of at most the peer's frame size."""
        size = self.conn.max_outbound_frame_size
        chunks = [payload[i:i + size] for i in range(0, len(payload), size)] or [b""]
        for i, chunk in enumerate(chunks):
            self.conn.send_data(stream, chunk, end_stream=end_stream and i == len(chunks) - 1)
        self.flush()

    def pump(self) -> None:
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            raise AssertionError("chimed did not answer within 10 s") from None
        if not chunk:
            self.closed = True
            self.ending = f"EOF after {self.received} bytes"
            return
        self.received += len(chunk)
        for event in self.conn.receive_data(chunk):
            if isinstance(event, h2.events.DataReceived):
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            self.events.append(event)
        self.flush()

    def response(self, stream: int) -> dict:
        """The stream's headers, body and trailers once it ends (END_STREAM or reset)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            mine = [e for e in self.events if getattr(e, "stream_id", None) == stream]
            if any(isinstance(e, (h2.events.StreamEnded, h2.events.StreamReset)) for e in mine):
                out: dict = {"headers": {}, "trailers": {}, "body": b"", "reset": None}
                for e in mine:
                    if isinstance(e, h2.events.ResponseReceived):
                        out["headers"] = dict(e.headers)
                    elif isinstance(e, h2.events.TrailersReceived):
                        out["trailers"] = dict(e.headers)
                    elif isinstance(e, h2.events.DataReceived):
                        out["body"] += e.data
                    elif isinstance(e, h2.events.StreamReset):
                        out["reset"] = e.error_code
                # Trailers-only: the status is in the one HEADERS frame.
                out["status"] = out["trailers"] or out["headers"]
                return out
            assert not self.closed, f"connection closed before stream {stream} ended: {self.events}"
            self.pump()
        raise AssertionError(f"stream {stream} did not end")

    def until_closed(self) -> list:
        deadline = time.monotonic() + 10
        while not self.closed and time.monotonic() < deadline:
            try:
                self.pump()
            except (ConnectionResetError, BrokenPipeError, h2.exceptions.ProtocolError) as error:
                self.closed = True
                self.ending = f"{error!r} after {self.received} bytes"
        assert self.closed, "chimed kept the connection open"
        return self.events


def message(payload: bytes, flag: int = 0) -> bytes:
    return struct.pack(">BI", flag, len(payload)) + payload


def add_request(identifier: str) -> bytes:
    return nc.AddRequest(request=rq.NotificationRequest(
        identifier=identifier, content=rq.NotificationContent(title="T"),
        trigger=rq.Trigger(time_interval=rq.TimeIntervalTrigger(seconds=600)))).SerializeToString()


def reason(status_headers: dict) -> str:
    raw = status_headers["grpc-status-details-bin"]
    status = status_pb2.Status.FromString(base64.b64decode(raw + "=" * (-len(raw) % 4)))
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    return info.reason


def pending(daemon) -> list[str]:
    with grpc.insecure_channel(daemon.target) as channel:
        from chime.v1 import notification_center_pb2_grpc as ncg
        reply = ncg.NotificationCenterStub(channel).GetPending(nc.PageRequest(), metadata=[("chime-app", "org.example.raw")],
                                                               timeout=10)
        return [p.request.identifier for p in reply.requests]


def test_settings_limit_streams_as_native_calls(daemon):
    client = RawH2(daemon.socket_path)
    while not any(isinstance(e, h2.events.RemoteSettingsChanged) for e in client.events):
        client.pump()
    settings = next(e for e in client.events if isinstance(e, h2.events.RemoteSettingsChanged)).changed_settings
    assert settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS].new_value == 4096
    assert settings[h2.settings.SettingCodes.MAX_HEADER_LIST_SIZE].new_value == 16384


def test_wrong_content_type_is_http_415(daemon):
    client = RawH2(daemon.socket_path)
    stream = client.request(content_type="application/json", end_stream=True)
    answer = client.response(stream)
    assert answer["headers"][":status"] == "415"
    assert b"application/grpc" in answer["body"]


def test_unknown_method_is_unimplemented(daemon):
    client = RawH2(daemon.socket_path)
    stream = client.request(path="/chime.v1.NotificationCenter/Nope")
    client.data(stream, message(b""), end_stream=True)
    status = client.response(stream)["status"]
    assert status["grpc-status"] == str(grpc.StatusCode.UNIMPLEMENTED.value[0])
    assert reason(status) == "UNKNOWN_METHOD"


def test_a_message_split_across_frames_is_read_whole(daemon):
    client = RawH2(daemon.socket_path)
    stream = client.request()
    for byte in message(add_request("split")):
        client.data(stream, bytes([byte]))
    client.data(stream, b"", end_stream=True)
    out = client.response(stream)
    assert out["trailers"]["grpc-status"] == "0"
    reply = nc.AddResponse.FromString(out["body"][5:])
    assert reply.pending.request.identifier == "split"


def test_oversized_message_fails_that_call_only(daemon):
    client = RawH2(daemon.socket_path)
    big = client.request()
    client.data(big, struct.pack(">BI", 0, 2 << 20) + b"x" * 1000)
    status = client.response(big)["status"]
    assert status["grpc-status"] == str(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0])
    assert reason(status) == "FRAME_TOO_LARGE"
    fine = client.request()
    client.data(fine, message(add_request("after-big")), end_stream=True)
    assert client.response(fine)["trailers"]["grpc-status"] == "0"


def test_compressed_message_is_unimplemented(daemon):
    client = RawH2(daemon.socket_path)
    stream = client.request()
    client.data(stream, message(add_request("gz"), flag=1), end_stream=True)
    status = client.response(stream)["status"]
    assert status["grpc-status"] == str(grpc.StatusCode.UNIMPLEMENTED.value[0])
    assert reason(status) == "COMPRESSION_UNSUPPORTED"
    encoded = client.request(extra=[("grpc-encoding", "gzip")])
    client.data(encoded, message(add_request("gz")), end_stream=True)
    assert client.response(encoded)["status"]["grpc-status"] == str(grpc.StatusCode.UNIMPLEMENTED.value[0])


def test_truncated_or_missing_message_is_internal(daemon):
    client = RawH2(daemon.socket_path)
    truncated = client.request()
    client.data(truncated, message(add_request("cut"))[:-3], end_stream=True)
    status = client.response(truncated)["status"]
    assert status["grpc-status"] == str(grpc.StatusCode.INTERNAL.value[0])
    assert reason(status) == "GRPC_PROTOCOL_VIOLATION"
    empty = client.request(end_stream=True)
    assert client.response(empty)["status"]["grpc-status"] == str(grpc.StatusCode.INTERNAL.value[0])
    two = client.request()
    client.data(two, message(add_request("one")) + message(add_request("two")), end_stream=True)
    assert client.response(two)["status"]["grpc-status"] == str(grpc.StatusCode.INTERNAL.value[0])


def test_grpc_timeout_is_the_deadline(daemon):
    client = RawH2(daemon.socket_path)
    expired = client.request(extra=[("grpc-timeout", "0m")])
    client.data(expired, message(add_request("late")), end_stream=True)
    assert client.response(expired)["status"]["grpc-status"] == str(grpc.StatusCode.DEADLINE_EXCEEDED.value[0])
    malformed = client.request(extra=[("grpc-timeout", "soon")])
    client.data(malformed, message(add_request("late")), end_stream=True)
    assert client.response(malformed)["status"]["grpc-status"] == str(grpc.StatusCode.INTERNAL.value[0])
    ample = client.request(extra=[("grpc-timeout", "30S")])
    client.data(ample, message(add_request("in-time")), end_stream=True)
    assert client.response(ample)["trailers"]["grpc-status"] == "0"


def test_oversized_header_list_is_refused(daemon):
    client = RawH2(daemon.socket_path)
    client.conn.update_settings({})
    stream = client.request(extra=[(f"x-pad-{i}", "v" * 1000) for i in range(20)])
    client.data(stream, message(add_request("padded")), end_stream=True)
    status = client.response(stream)["status"]
    assert status["grpc-status"] == str(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0])
    assert reason(status) == "HEADER_LIST_TOO_LARGE"


def test_bad_preface_or_frames_end_that_connection_only(daemon):
    with grpc.insecure_channel(daemon.target) as channel:
        from chime.v1 import notification_center_pb2_grpc as ncg
        stub = ncg.NotificationCenterStub(channel)
        stub.Add(nc.AddRequest.FromString(add_request("kept")),
                 metadata=[("chime-app", "org.example.raw")], timeout=10)
        # A broken preface: nghttp2 refuses it and chimed hangs up.
        broken = RawH2(daemon.socket_path, preface=False)
        broken.sock.sendall(b"PRI * HTTP/1.1\r\n\r\nXX\r\n\r\n")
        broken.until_closed()
        # A good preface, then a frame that is not HTTP/2 (a DATA frame on stream 0): GOAWAY.
        garbage = RawH2(daemon.socket_path)
        garbage.sock.sendall(struct.pack(">I", 4)[1:] + bytes([0, 1]) + struct.pack(">I", 0) + b"abcd")
        events = garbage.until_closed()
        goaway = [e for e in events if isinstance(e, h2.events.ConnectionTerminated)]
        assert goaway and goaway[0].error_code == h2.errors.ErrorCodes.PROTOCOL_ERROR, f"{garbage.ending}: {events}\n{daemon.log()}"
        # A length prefix that lies about the frame: over the advertised frame size.
        oversized = RawH2(daemon.socket_path)
        oversized.sock.sendall(struct.pack(">I", 1 << 20)[1:] + bytes([0, 0]) + struct.pack(">I", 1) + b"x" * 100)
        oversized.until_closed()
        # The established channel never noticed, and what was accepted is still there.
        assert stub.GetServerInfo(nc.Empty(), metadata=[("chime-app", "org.example.raw")], timeout=10).pid > 0
    assert "kept" in pending(daemon)


def test_unfinished_requests_are_held_by_flow_control(daemon):
    """Bytes of a message not yet complete keep their room in chimed's stream window (nghttp2
    would give it back past half the window if chimed let it): a client cannot make chimed
    buffer more than its windows, whatever it sends."""
    client = RawH2(daemon.socket_path)
    while not any(isinstance(e, h2.events.WindowUpdated) and e.stream_id == 0 for e in client.events):
        client.pump()
    stream = client.request()
    window = client.conn.local_flow_control_window(stream)
    client.data(stream, struct.pack(">BI", 0, 700_000) + b"\xff" * 599_995)
    # A round trip on another stream: chimed has read everything sent before it.
    other = client.request(path="/chime.v1.NotificationCenter/GetServerInfo")
    client.data(other, message(b""), end_stream=True)
    assert client.response(other)["trailers"]["grpc-status"] == "0"
    assert client.conn.local_flow_control_window(stream) == window - 600_000
    client.data(stream, b"\xff" * 100_005, end_stream=True)
    # Handed on (and refused: those bytes are no Add request).
    assert client.response(stream)["status"]["grpc-status"] == str(grpc.StatusCode.INVALID_ARGUMENT.value[0])
