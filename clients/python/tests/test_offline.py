"""Parts of chime_client that need no daemon: request building, paths, errors, and how it reads
what a gRPC server answers (a grpcio server stands in for chimed)."""

from __future__ import annotations

import os
import socket
from concurrent import futures

import grpc
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

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
    """A grpcio server on a Unix socket that answers with scripted handlers, to test how the
    client reads what a gRPC server sends (trailers, odd replies) and what it sends."""

    def __init__(self, tmp_path, handlers):
        self.path = str(tmp_path / "fake.sock")
        self.calls: list = []
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        self.server.add_generic_rpc_handlers((_Handlers(handlers, self.calls),))
        self.server.add_insecure_port("unix://" + self.path)
        self.server.start()

    def close(self):
        self.server.stop(grace=None)


class _Handlers(grpc.GenericRpcHandler):
    def __init__(self, handlers, calls):
        self.handlers = handlers  # method name -> function(request bytes, context) -> reply bytes
        self.calls = calls

    def service(self, details):
        name = details.method.rsplit("/", 1)[-1]
        handler = self.handlers.get(name)
        if handler is None:
            return None  # UNIMPLEMENTED

        def run(request, context):
            self.calls.append((details.method, dict(details.invocation_metadata), context.time_remaining(), request))
            return handler(request, context)

        return grpc.unary_unary_rpc_method_handler(run, request_deserializer=None, response_serializer=None)


def refusal(code, reason, message, field="", domain="chime") -> bytes:
    """A google.rpc.Status carrying an ErrorInfo, as chimed puts in grpc-status-details-bin."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=domain, metadata={"field": field} if field else {})
    detail = any_pb2.Any()
    detail.Pack(info)
    return status_pb2.Status(code=code, message=message, details=[detail]).SerializeToString()


def test_what_a_call_sends(tmp_path):
    def remove(request, context):
        return pb.notification_center.RemoveResponse(removed=["a"]).SerializeToString()

    server = FakeServer(tmp_path, {"RemovePending": remove})
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            assert chime.remove(["a", "b"]) == ["a"]
            chime.remove("c", timeout=2.5)
        (method, metadata, remaining, body), (_, _, remaining_short, _) = server.calls
        assert method == "/chime.v1.NotificationCenter/RemovePending"
        assert metadata["chime-app"] == "org.example.fake"
        # The timeout, sent as the call's grpc-timeout (which gRPC may round up a little).
        assert 4 < remaining < 5.1
        assert 2 < remaining_short < 2.6
        assert list(pb.notification_center.IdentifiersRequest.FromString(body).identifiers) == ["a", "b"]
    finally:
        server.close()


def test_refusal_reason_and_field_come_from_error_info(tmp_path):
    def refuse(request, context):
        context.set_trailing_metadata((("grpc-status-details-bin",
                                        refusal(3, "INVALID_INTERVAL", "too short", "request.trigger")),))
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "too short: 30 % of a minute")

    def foreign(request, context):
        context.set_trailing_metadata((("grpc-status-details-bin", refusal(9, "SOMETHING", "other", domain="elsewhere")),))
        context.abort(grpc.StatusCode.FAILED_PRECONDITION, "other")

    def garbled(request, context):
        context.set_trailing_metadata((("grpc-status-details-bin", b"\xff\xff\xff"),))
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "bad")

    server = FakeServer(tmp_path, {"GetPending": refuse, "GetDelivered": foreign, "GetCategories": garbled})
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            with pytest.raises(ChimeError) as caught:
                chime.pending()
            assert caught.value.code == Code.INVALID_ARGUMENT
            assert (caught.value.reason, caught.value.field) == ("INVALID_INTERVAL", "request.trigger")
            assert caught.value.message == "too short"
            with pytest.raises(ChimeError) as caught:
                chime.delivered()
            assert (caught.value.code, caught.value.reason) == (Code.FAILED_PRECONDITION, "")  # not chime's domain
            with pytest.raises(ChimeError) as caught:
                chime.categories()
            assert (caught.value.code, caught.value.reason) == (Code.INTERNAL, "MALFORMED_REPLY")
    finally:
        server.close()


def test_an_app_id_metadata_cannot_carry_is_refused_before_sending(tmp_path):
    server = FakeServer(tmp_path, {"GetPending": lambda request, context: b""})
    try:
        for app in ("org.exämple.tea", "org.example.tea\n"):
            with Client(server.path, app=app, timeout=5) as chime:
                with pytest.raises(ChimeError) as caught:
                    chime.pending()
                assert (caught.value.code, caught.value.reason) == (Code.INVALID_ARGUMENT, "INVALID_APP_ID")
                with pytest.raises(ChimeError) as caught:
                    chime.subscribe()
                assert caught.value.reason == "INVALID_APP_ID"
        assert server.calls == []
    finally:
        server.close()


def test_garbage_reply_is_an_error_not_a_hang(tmp_path):
    server = FakeServer(tmp_path, {"GetPending": lambda request, context: b"\xff\xff\xff"})
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            with pytest.raises(ChimeError) as caught:
                chime.pending()
            assert caught.value.code == Code.INTERNAL and caught.value.reason == "MALFORMED_REPLY"
    finally:
        server.close()


def test_unknown_method_is_unimplemented(tmp_path):
    server = FakeServer(tmp_path, {})
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            with pytest.raises(ChimeError) as caught:
                chime.call("NoSuchMethod", pb.notification_center.Empty(), pb.notification_center.Empty)
            assert caught.value.code == Code.UNIMPLEMENTED
    finally:
        server.close()


def test_a_server_that_went_away_is_daemon_unavailable(tmp_path):
    server = FakeServer(tmp_path, {"GetPending": lambda request, context: b""})
    try:
        with Client(server.path, app="org.example.fake", timeout=5) as chime:
            assert chime.pending() == []
            server.close()
            with pytest.raises(ChimeError) as caught:
                chime.pending()
            assert caught.value.code == Code.UNAVAILABLE
            assert caught.value.reason in ("DAEMON_UNAVAILABLE", "CONNECTION_CLOSED"), caught.value
    finally:
        server.close()


def test_a_socket_nobody_listens_on_is_daemon_unavailable(tmp_path):
    path = str(tmp_path / "stale.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stale:
        stale.bind(path)  # bound, never listening: connect() is refused
        with pytest.raises(ChimeError) as caught:
            Client(path, app="org.example.fake", timeout=5)
    assert (caught.value.code, caught.value.reason) == (Code.UNAVAILABLE, "DAEMON_UNAVAILABLE")
    assert "refused" in caught.value.message.lower(), caught.value.message
