"""One multiplexed connection to chimed: framing, call ids, and a reader thread.

Wire format: every frame is a 4-byte big-endian length followed by one serialized
chime.v1.Frame. The client starts calls (Frame.call) and cancels them (Frame.cancel); the
daemon answers with Frame.reply for the same call_id. A reply with call_id 0 is a
connection-level status (a framing error, a refused peer, shutdown) after which the daemon
hangs up.

Threading: any number of threads may start calls at once. Writes are serialized by a lock;
one reader thread per connection routes each reply to the queue of its call, so calls finish
in whatever order the daemon answers them.
"""

from __future__ import annotations

import queue
import socket
import struct
import threading
from typing import Optional, Union

from google.protobuf.message import DecodeError

from .errors import ChimeError, Code
from .generated import frame_pb2

_HEADER = struct.Struct(">I")

# What a call's queue receives: a Reply message, or the ChimeError that ended the connection.
QueueItem = Union[frame_pb2.Reply, ChimeError]


def _copy(error: ChimeError) -> ChimeError:
    # One fresh exception per waiter: a raised exception object carries its traceback.
    return ChimeError(error.code, error.reason, error.message, error.field)


class Connection:
    def __init__(self, path: str, *, max_frame_bytes: int, max_reply_bytes: int,
                 connect_timeout: Optional[float]) -> None:
        self.path = path
        self._max_frame_bytes = max_frame_bytes
        self._max_reply_bytes = max_reply_bytes
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(connect_timeout)
            sock.connect(path)
            sock.settimeout(None)
        except OSError as error:
            sock.close()
            detail = error.strerror or str(error)
            raise ChimeError(Code.UNAVAILABLE, "DAEMON_UNAVAILABLE",
                             f"cannot connect to chimed at {path}: {detail}") from None
        self._sock = sock
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()  # guards everything below
        self._calls: dict[int, queue.SimpleQueue[QueueItem]] = {}
        self._next_id = 1
        self._error: Optional[ChimeError] = None
        self._reader = threading.Thread(target=self._read_loop, name=f"chime-client-reader({path})",
                                        daemon=True)
        self._reader.start()

    # -- calls ---------------------------------------------------------------------------------

    def start_call(self, method: str, app: str, payload: bytes,
                   deadline_unix_ms: int = 0) -> tuple[int, "queue.SimpleQueue[QueueItem]"]:
        """Sends a call; returns its id and the queue its replies arrive on."""
        with self._lock:
            if self._error is not None:
                raise _copy(self._error)
            call_id = self._next_id
            while call_id == 0 or call_id in self._calls:
                call_id = (call_id + 1) & 0xFFFF_FFFF_FFFF_FFFF
            self._next_id = call_id + 1
            replies: queue.SimpleQueue[QueueItem] = queue.SimpleQueue()
            self._calls[call_id] = replies
        frame = frame_pb2.Frame(call_id=call_id, call=frame_pb2.Call(
            method=method, app_id=app, deadline_unix_ms=deadline_unix_ms, payload=payload))
        try:
            self._send(frame)
        except BaseException:
            self._forget(call_id)
            raise
        return call_id, replies

    def cancel(self, call_id: int) -> None:
        """Stops waiting for a call and asks the daemon to stop it. Never raises."""
        if not self._forget(call_id):
            return  # already finished: nothing to cancel
        try:
            self._send(frame_pb2.Frame(call_id=call_id, cancel=frame_pb2.Cancel()))
        except ChimeError:
            pass  # the connection is gone, and the call with it

    def _forget(self, call_id: int) -> bool:
        with self._lock:
            return self._calls.pop(call_id, None) is not None

    def _send(self, frame: frame_pb2.Frame) -> None:
        data = frame.SerializeToString()
        if len(data) > self._max_frame_bytes:
            raise ChimeError(Code.RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE",
                             f"the call is {len(data)} bytes; the limit is {self._max_frame_bytes}")
        with self._send_lock:
            try:
                self._sock.sendall(_HEADER.pack(len(data)) + data)
            except OSError as error:
                failure = ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED",
                                     f"cannot write to chimed: {error.strerror or error}")
                with self._lock:
                    if self._error is not None:
                        raise _copy(self._error) from None
                raise failure from None

    # -- shutdown ------------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        with self._lock:
            return self._error is not None

    def close(self) -> None:
        with self._lock:
            if self._error is None:
                self._error = ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED", "the client closed the connection")
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the reader thread
        except OSError:
            pass
        if threading.current_thread() is not self._reader:
            self._reader.join()
        self._sock.close()

    # -- reading -------------------------------------------------------------------------------

    def _read_exact(self, count: int) -> Optional[bytes]:
        """Exactly `count` bytes, or None at end of stream."""
        buffer = bytearray(count)
        view = memoryview(buffer)
        filled = 0
        while filled < count:
            got = self._sock.recv_into(view[filled:])
            if got == 0:
                return None
            filled += got
        return bytes(buffer)

    def _read_loop(self) -> None:
        error = ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED", "chimed closed the connection")
        try:
            while True:
                header = self._read_exact(_HEADER.size)
                if header is None:
                    break
                (length,) = _HEADER.unpack(header)
                if length > self._max_reply_bytes:
                    error = ChimeError(Code.RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE",
                                       f"chimed sent a {length}-byte frame; the limit is {self._max_reply_bytes}")
                    break
                body = self._read_exact(length)
                if body is None:
                    error = ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED",
                                       "chimed closed the connection in the middle of a frame")
                    break
                frame = frame_pb2.Frame()
                try:
                    frame.ParseFromString(body)
                except DecodeError:
                    error = ChimeError(Code.INTERNAL, "MALFORMED_REPLY", "chimed sent a frame that does not decode")
                    break
                if frame.WhichOneof("kind") != "reply":
                    error = ChimeError(Code.INTERNAL, "MALFORMED_REPLY", "chimed sent a frame that is not a reply")
                    break
                reply = frame.reply
                if frame.call_id == 0:
                    # Connection-level status; the daemon hangs up after it.
                    if reply.HasField("status") and reply.status.code != Code.OK:
                        error = ChimeError.from_status(reply.status)
                    break
                with self._lock:
                    replies = self._calls.get(frame.call_id)
                    if replies is not None and reply.end_of_stream:
                        del self._calls[frame.call_id]
                # A reply for a call no longer tracked (timed out or cancelled here) is dropped.
                if replies is not None:
                    replies.put(reply)
        except OSError as failure:
            error = ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED",
                               f"cannot read from chimed: {failure.strerror or failure}")
        finally:
            with self._lock:
                if self._error is None:
                    self._error = error
                final = self._error
                waiting = list(self._calls.values())
                self._calls.clear()
            for replies in waiting:
                replies.put(_copy(final))
