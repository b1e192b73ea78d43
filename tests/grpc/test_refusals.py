"""A connection chimed refuses before reading from it (here: past --max-connections) is told
why in the peer's own protocol: gRPC clients get a status and a GOAWAY, native ones a frame."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import grpc
import h2.events
import pytest
from google.rpc import error_details_pb2, status_pb2

from chime.v1 import notification_center_pb2 as nc
from chime.v1 import notification_center_pb2_grpc as ncg
from test_bad_input import RawH2


# A connection of its own per channel (grpcio otherwise shares one between channels to a target).
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]


def served_connection(daemon) -> grpc.Channel:
    """A channel holding one of chimed's connections (a call answered on it)."""
    channel = grpc.insecure_channel(daemon.target, options=OWN_CONNECTION)
    ncg.NotificationCenterStub(channel).GetServerInfo(nc.Empty(), metadata=[("chime-app", "org.example.raw")], timeout=10)
    return channel


def test_a_grpc_client_past_the_connection_limit_reads_why(daemon_with):
    d = daemon_with("--max-connections", "1")
    with served_connection(d):
        with grpc.insecure_channel(d.target, options=OWN_CONNECTION) as second:
            try:
                ncg.NotificationCenterStub(second).GetServerInfo(nc.Empty(), metadata=[("chime-app", "org.example.raw")], timeout=10)
                raise AssertionError("a connection past the limit was served")
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
                assert "--max-connections" in error.details(), error.details()
                status = status_pb2.Status.FromString(dict(error.trailing_metadata())["grpc-status-details-bin"])
                info = error_details_pb2.ErrorInfo()
                assert status.details[0].Unpack(info) and info.reason == "TOO_MANY_CONNECTIONS", status
        # The native CLI is still told in its own framing.
        listed = d.cli("pending", app="org.example.refused")
        assert listed.returncode != 0
        assert "RESOURCE_EXHAUSTED" in listed.stderr and "TOO_MANY_CONNECTIONS" in listed.stderr, listed.stderr


def test_a_raw_http2_peer_past_the_connection_limit_gets_its_answer_then_goaway(daemon_with):
    d = daemon_with("--max-connections", "1")
    with served_connection(d):
        raw = RawH2(d.socket_path)
        stream = raw.request(path="/chime.v1.NotificationCenter/GetServerInfo", end_stream=True)
        assert raw.response(stream)["status"]["grpc-status"] == str(grpc.StatusCode.RESOURCE_EXHAUSTED.value[0])
        events = raw.until_closed()
        goaway = [e for e in events if isinstance(e, h2.events.ConnectionTerminated)]
        assert goaway and goaway[-1].error_code == 0 and goaway[-1].additional_data.startswith(b"TOO_MANY_CONNECTIONS: ")


def test_a_refused_peer_that_sends_nothing_gets_a_native_frame_soon(daemon_with):
    d = daemon_with("--max-connections", "1")
    with served_connection(d):
        silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        silent.settimeout(5)
        silent.connect(d.socket_path)
        started = time.monotonic()
        received = b""
        while True:
            chunk = silent.recv(4096)
            if not chunk:
                break
            received += chunk
        silent.close()
        assert time.monotonic() - started < 3
        assert len(received) > 4 and int.from_bytes(received[:4], "big") == len(received) - 4
        assert b"TOO_MANY_CONNECTIONS" in received
        # An HTTP/2 peer that sends its preface and no request: a GOAWAY naming the reason.
        raw = RawH2(d.socket_path)
        goaway = [e for e in raw.until_closed() if isinstance(e, h2.events.ConnectionTerminated)]
        assert goaway and goaway[-1].additional_data.startswith(b"TOO_MANY_CONNECTIONS: ")


OTHER_USER_CALL = """
import sys
import grpc
with grpc.insecure_channel("unix://" + sys.argv[1]) as channel:
    call = channel.unary_unary("/chime.v1.NotificationCenter/GetServerInfo",
                               request_serializer=lambda b: b, response_deserializer=lambda b: b)
    try:
        call(b"", metadata=[("chime-app", "org.example.other")], timeout=10)
        print("SERVED")
    except grpc.RpcError as error:
        print(error.code().name)
        print(error.details())
"""


@pytest.fixture
def modules_for_another_user():
    """A directory the other user can read holding a copy of what OTHER_USER_CALL imports: the
    virtualenv lives in the clone, which may sit below a directory only its owner can enter
    (a `mktemp -d` directory, a home of mode 0700)."""
    import typing_extensions
    directory = tempfile.mkdtemp(prefix="chime-other-user-")
    os.chmod(directory, 0o755)
    shutil.copytree(os.path.dirname(grpc.__file__), os.path.join(directory, "grpc"))
    shutil.copy(typing_extensions.__file__, directory)
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv to call as another user")
def test_a_grpc_client_of_another_user_reads_permission_denied(own_daemon, modules_for_another_user):
    # Let the other user reach the socket; chimed's own check must refuse it.
    os.chmod(own_daemon.root, 0o755)
    os.chmod(own_daemon.socket_path, 0o666)
    result = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                             OTHER_USER_CALL, own_daemon.socket_path], capture_output=True, text=True, timeout=30,
                            env={**os.environ, "PYTHONPATH": modules_for_another_user})
    assert result.stdout.splitlines()[:1] == ["PERMISSION_DENIED"], result
    assert "chimed serves only its own user" in result.stdout, result
