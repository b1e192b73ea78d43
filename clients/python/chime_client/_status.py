"""Turns a failed gRPC call into a ChimeError.

chimed puts Chime's reason and the field at fault in the call's trailers, as gRPC's rich error
model: ``grpc-status-details-bin`` is a ``google.rpc.Status`` whose details hold a
``google.rpc.ErrorInfo`` (``reason``, ``domain`` "chime", ``metadata["field"]``). A failure
without it comes from the client's own gRPC library (no connection, a deadline that passed here,
a message over a size limit, a reply that does not decode) and gets the client-side reasons of
the README's table.
"""

from __future__ import annotations

from typing import Optional

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

from .errors import ChimeError, Code

DETAILS_KEY = "grpc-status-details-bin"
DOMAIN = "chime"


def _details(rpc_error: grpc.RpcError) -> Optional[bytes]:
    for key, value in rpc_error.trailing_metadata() or ():
        if key == DETAILS_KEY:
            return value if isinstance(value, bytes) else value.encode("latin-1")
    return None


def _code(rpc_error: grpc.RpcError) -> int:
    code = rpc_error.code()
    return int(code.value[0]) if code is not None else int(Code.UNKNOWN)


def error_from_rpc(rpc_error: grpc.RpcError, path: str, socket_path: str) -> ChimeError:
    """The ChimeError for a call to ``path`` that ended with ``rpc_error``."""
    code = _code(rpc_error)
    message = rpc_error.details() or ""
    raw = _details(rpc_error)
    if raw is not None:
        status = status_pb2.Status()
        try:
            status.ParseFromString(raw)
        except DecodeError:
            return ChimeError(Code.INTERNAL, "MALFORMED_REPLY",
                              f"the {DETAILS_KEY} trailer of {path} is not a google.rpc.Status")
        for detail in status.details:
            if not detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                continue
            info = error_details_pb2.ErrorInfo()
            if not detail.Unpack(info):
                return ChimeError(Code.INTERNAL, "MALFORMED_REPLY",
                                  f"the ErrorInfo in the {DETAILS_KEY} trailer of {path} does not decode")
            if info.domain == DOMAIN:
                return ChimeError(code, info.reason, status.message or message, info.metadata.get("field", ""))
        return ChimeError(code, "", status.message or message)
    return _client_side(code, message, path, socket_path)


def _client_side(code: int, message: str, path: str, socket_path: str) -> ChimeError:
    lowered = message.lower()
    if code == Code.UNAVAILABLE:
        if "connect" in lowered and ("failed" in lowered or "refused" in lowered):
            return ChimeError(code, "DAEMON_UNAVAILABLE", f"cannot connect to chimed at {socket_path}: {message}")
        return ChimeError(code, "CONNECTION_CLOSED", f"the connection to chimed broke during {path}: {message}")
    if code == Code.DEADLINE_EXCEEDED:
        return ChimeError(code, "DEADLINE_EXCEEDED", f"no answer to {path} in time")
    if code == Code.RESOURCE_EXHAUSTED and "larger than max" in lowered:
        return ChimeError(code, "FRAME_TOO_LARGE", f"{path}: {message}")
    if code == Code.INTERNAL and "deserializ" in lowered:
        return ChimeError(code, "MALFORMED_REPLY", f"the answer to {path} does not decode")
    if code == Code.CANCELLED and "channel closed" in lowered:
        return ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED", "the client closed the connection")
    return ChimeError(code, "", message)
