"""Status codes and the one exception type the client raises."""

from __future__ import annotations

import enum


class Code(enum.IntEnum):
    """gRPC canonical status codes (google.rpc.Code numbering), as used by chime.v1.Status."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16


def code_name(code: int) -> str:
    try:
        return Code(code).name
    except ValueError:
        return f"CODE_{code}"


class ChimeError(Exception):
    """A call that did not succeed.

    Either the daemon answered with a non-OK gRPC status (``code`` is its status code,
    ``message`` its grpc-message, and ``reason`` and ``field`` come from the
    ``google.rpc.ErrorInfo`` in its ``grpc-status-details-bin`` trailer), or the client could
    not complete the call; those client-side failures use the same codes and these reasons:

    - ``DAEMON_UNAVAILABLE`` (UNAVAILABLE): nothing accepts connections at the socket.
    - ``CONNECTION_CLOSED`` (UNAVAILABLE): the connection broke, or the client was closed.
    - ``DEADLINE_EXCEEDED`` (DEADLINE_EXCEEDED): no answer within the call's timeout.
    - ``FRAME_TOO_LARGE`` (RESOURCE_EXHAUSTED): a request or reply over the size limit.
    - ``MALFORMED_REPLY`` (INTERNAL): the daemon sent bytes that do not decode.
    """

    def __init__(self, code: int, reason: str = "", message: str = "", field: str = "") -> None:
        self.code = int(code)
        self.reason = reason
        self.message = message
        self.field = field
        super().__init__(str(self))

    @property
    def code_name(self) -> str:
        return code_name(self.code)

    def __str__(self) -> str:
        text = f"{self.code_name}"
        if self.reason:
            text += f" ({self.reason})"
        if self.message:
            text += f": {self.message}"
        if self.field:
            text += f" [field {self.field}]"
        return text

    def __repr__(self) -> str:
        return (f"ChimeError(code={self.code}, reason={self.reason!r}, "
                f"message={self.message!r}, field={self.field!r})")

    @classmethod
    def from_status(cls, status) -> "ChimeError":
        """Builds the error from a chime.v1.Status message."""
        return cls(status.code, status.reason, status.message, status.field)
