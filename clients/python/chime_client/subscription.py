"""A server-streaming call's messages, read on a thread of their own."""

from __future__ import annotations

import queue
import threading
from typing import Any, Optional, Type, TypeVar

import grpc
from google.protobuf.message import DecodeError, Message

from ._status import error_from_rpc
from .errors import ChimeError, Code

M = TypeVar("M", bound=Message)

_END: Any = object()  # what a subscription's queue receives when the stream ended normally


class Subscription:
    """The messages of one server-streaming call (Subscribe, RegisterExtension), in order.

    Iterate over it (blocks until the next event), or call :meth:`next` with a timeout. A
    fresh subscription (``after=None``) starts with an ``EVENT_KIND_SUBSCRIBED`` event once it
    is live; one that resumes from a cursor first replays the stored events after it, then
    sends ``EVENT_KIND_SUBSCRIBED``. The stream never ends on its own: :meth:`close` it (or
    use ``with``), which cancels the call; it also ends when its client is closed or the
    interpreter exits. A thread reads the stream as it arrives, so events
    that come while nobody reads are buffered in memory.
    """

    def __init__(self, call: Any, path: str, socket_path: str, message_type: Type[Message], *,
                 owner: Any = None) -> None:
        # The client whose channel carries the call: a subscription keeps it (and so its channel)
        # from being collected while the subscription is in use.
        self._owner = owner
        self._call = call
        self._path = path
        self._socket_path = socket_path
        self._message_type = message_type
        self._items: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self._closing = threading.Event()
        self._done = False
        self._reader = threading.Thread(target=self._read, name=f"chime-client-stream({path})", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for message in self._call:
                self._items.put(message)
            self._items.put(_END)
        except grpc.RpcError as rpc_error:
            if self._closing.is_set():
                self._items.put(_END)  # our own cancel
            else:
                self._items.put(error_from_rpc(rpc_error, self._path, self._socket_path))

    def __iter__(self) -> "Subscription":
        return self

    def __next__(self) -> Any:
        return self.next()

    def next(self, timeout: Optional[float] = None) -> Any:
        """The next message. Raises TimeoutError when none comes within `timeout` seconds,
        StopIteration when the stream ended normally (or was closed), ChimeError when it ended
        with an error."""
        if self._done:
            raise StopIteration
        try:
            item = self._items.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no event within {timeout} s") from None
        if item is _END:
            self._done = True
            raise StopIteration
        if isinstance(item, ChimeError):
            self._done = True
            raise item
        if not isinstance(item, self._message_type):
            item = _reparse(self._message_type, item, self._path)
        return item

    def close(self) -> None:
        """Cancels the call (the daemon stops sending). Safe to call more than once."""
        if not self._closing.is_set():
            self._closing.set()
            self._done = True
            self._call.cancel()

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _reparse(message_type: Type[M], message: Message, path: str) -> M:
    # A caller of call()/stream() asked for another message type than the contract's.
    out = message_type()
    try:
        out.ParseFromString(message.SerializeToString())
    except DecodeError:
        raise ChimeError(Code.INTERNAL, "MALFORMED_REPLY",
                         f"the answer to {path} is not a {message_type.DESCRIPTOR.full_name}") from None
    return out
