"""Parts of chime_client that need no daemon: request building, paths, errors, framing."""

from __future__ import annotations

import os
import socket
import struct
import threading

import pytest

from chime_client import ChimeError, Client, Code, default_socket_path, notification_request, pb


def test_default_socket_path():
    assert default_socket_path({"CHIME_SOCKET": "/x/s.sock", "XDG_RUNTIME_DIR": "/run/u"}) == "/x/s.sock"
    assert default_socket_path({"XDG_RUNTIME_DIR": "/run/user/7"}) == "/run/user/7/chime/chimed.sock"
    assert default_socket_path({"CHIME_SOCKET": "", "XDG_RUNTIME_DIR": ""}) == f"/tmp/chime-{os.getuid()}/chimed.sock"


def test_request_building():
    request = notification_request("id", "T", "B", "S", in_seconds=90, repeats=True, badge=0,
                                   sound="bell.caf", user_info={"b": 2, "a": [1]},
                                   interruption_level="time-sensitive", relevance_score=0.5,
                                   category="c", thread="t")
    content = request.content
    assert (content.title, content.body, content.subtitle) == ("T", "B", "S")
    assert content.WhichOneof("badge_set") == "badge" and content.badge == 0
    assert content.sound.kind == pb.request.SOUND_KIND_NAMED and content.sound.name == "bell.caf"
    assert content.user_info_json == '{"a":[1],"b":2}'
    assert content.interruption_level == pb.request.INTERRUPTION_LEVEL_TIME_SENSITIVE
    assert content.relevance_score == 0.5
    assert request.trigger.WhichOneof("kind") == "time_interval"
    assert request.trigger.time_interval.repeats

    plain = notification_request("now")
    assert not plain.HasField("trigger")  # no trigger: delivered at once
    assert plain.content.WhichOneof("badge_set") is None
    assert not plain.content.HasField("sound")

    calendar = notification_request("cal", calendar={"hour": 0, "time_zone": "Europe/Berlin"})
    components = calendar.trigger.calendar.components
    assert components.WhichOneof("hour_set") == "hour" and components.hour == 0  # 0 is set, not free
    assert components.WhichOneof("minute_set") is None
    assert components.time_zone == "Europe/Berlin"
    assert notification_request("any", calendar={}).trigger.WhichOneof("kind") == "calendar"


def test_request_building_rejects_nonsense():
    with pytest.raises(ValueError):
        notification_request("x", in_seconds=5, calendar={"hour": 1})
    with pytest.raises(ValueError):
        notification_request("x", calendar={"hours": 1})
    with pytest.raises(ValueError):
        notification_request("x", repeats=True)
    with pytest.raises(ValueError):
        notification_request("x", interruption_level="loud")


def test_client_needs_an_app(monkeypatch):
    monkeypatch.delenv("CHIME_APP", raising=False)
    with pytest.raises(ValueError):
        Client("/nonexistent.sock")


def test_error_text():
    error = ChimeError(3, "INVALID_INTERVAL", "too short", "request.trigger")
    assert str(error) == "INVALID_ARGUMENT (INVALID_INTERVAL): too short [field request.trigger]"
    assert error.code_name == "INVALID_ARGUMENT"
    assert ChimeError(99).code_name == "CODE_99"
    assert Code.UNIMPLEMENTED == 12


class FakeServer:
    """A socket server that answers with scripted bytes, to test framing and odd replies."""

    def __init__(self, tmp_path, respond):
        self.path = str(tmp_path / "fake.sock")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.received: list = []
        self.thread = threading.Thread(target=self._serve, args=(respond,), daemon=True)
        self.thread.start()

    def _serve(self, respond):
        conn, _ = self.listener.accept()
        with conn:
            header = conn.recv(4, socket.MSG_WAITALL)
            (length,) = struct.unpack(">I", header)
            frame = pb.frame.Frame.FromString(conn.recv(length, socket.MSG_WAITALL))
            self.received.append(frame)
            conn.sendall(respond(frame))
            conn.recv(1)  # until the client hangs up

    def close(self):
        self.listener.close()


def framed(frame) -> bytes:
    data = frame.SerializeToString()
    return struct.pack(">I", len(data)) + data


def test_wire_format_and_out_of_order_noise(tmp_path):
    def respond(call):
        payload = pb.notification_center.RemoveResponse(removed=["a"]).SerializeToString()
        stray = pb.frame.Frame(call_id=call.call_id + 100,
                               reply=pb.frame.Reply(end_of_stream=True))  # for no call of ours
        answer = pb.frame.Frame(call_id=call.call_id, reply=pb.frame.Reply(payload=payload, end_of_stream=True))
        return framed(stray) + framed(answer)

    server = FakeServer(tmp_path, respond)
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            assert chime.remove(["a", "b"]) == ["a"]
        [frame] = server.received
        assert frame.call_id != 0
        assert frame.call.method == "/chime.v1.NotificationCenter/RemovePending"
        assert frame.call.app_id == "org.example.fake"
        assert frame.call.deadline_unix_ms > 0  # the timeout, sent as the deadline
        body = pb.notification_center.IdentifiersRequest.FromString(frame.call.payload)
        assert list(body.identifiers) == ["a", "b"]
    finally:
        server.close()


def test_connection_level_status_fails_the_call(tmp_path):
    def respond(call):
        status = pb.frame.Status(code=3, reason="MALFORMED_FRAME", message="bad")
        return framed(pb.frame.Frame(call_id=0, reply=pb.frame.Reply(end_of_stream=True, status=status)))

    server = FakeServer(tmp_path, respond)
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            with pytest.raises(ChimeError) as caught:
                chime.pending()
            assert caught.value.reason == "MALFORMED_FRAME"
            with pytest.raises(ChimeError) as caught:
                chime.pending()  # the connection is over
            assert caught.value.reason == "MALFORMED_FRAME"
    finally:
        server.close()


def test_garbage_reply_is_an_error_not_a_hang(tmp_path):
    server = FakeServer(tmp_path, lambda call: struct.pack(">I", 3) + b"\xff\xff\xff")
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            with pytest.raises(ChimeError) as caught:
                chime.pending()
            assert caught.value.code == Code.INTERNAL and caught.value.reason == "MALFORMED_REPLY"
    finally:
        server.close()
