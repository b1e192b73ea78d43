"""A call ends at its grpc-timeout with DEADLINE_EXCEEDED, sent by chimed (gRPC's HTTP/2
protocol has the server cancel), streaming calls included."""

from __future__ import annotations

import time

import grpc

from chime.v1 import notification_center_pb2 as nc
from test_bad_input import RawH2, message

SUBSCRIBE = "/chime.v1.NotificationCenter/Subscribe"


def test_chimed_ends_a_subscribe_stream_at_its_grpc_timeout(daemon):
    """A client that keeps no deadline of its own: what ends the stream is chimed."""
    client = RawH2(daemon.socket_path)
    started = time.monotonic()
    stream = client.request(path=SUBSCRIBE, extra=[("grpc-timeout", "1S")])
    client.data(stream, message(nc.SubscribeRequest().SerializeToString()), end_stream=True)
    out = client.response(stream)
    elapsed = time.monotonic() - started
    assert out["status"]["grpc-status"] == str(grpc.StatusCode.DEADLINE_EXCEEDED.value[0]), out
    assert 0.9 <= elapsed < 3, f"the stream ended after {elapsed:.2f} s"
    # The subscribed event came first; the connection serves on.
    assert len(out["body"]) > 5
    other = client.request(path="/chime.v1.NotificationCenter/GetServerInfo")
    client.data(other, message(b""), end_stream=True)
    assert client.response(other)["trailers"]["grpc-status"] == "0"


def test_a_grpcio_subscribe_with_timeout_1_gets_deadline_exceeded(stub, app_id):
    started = time.monotonic()
    events = stub.Subscribe(nc.SubscribeRequest(), metadata=[("chime-app", app_id)], timeout=1)
    assert next(events).kind == nc.EVENT_KIND_SUBSCRIBED
    try:
        for _ in events:
            pass
        raise AssertionError("the stream ended without an error")
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED, error
    elapsed = time.monotonic() - started
    assert 0.9 <= elapsed < 3, f"the stream ended after {elapsed:.2f} s"
