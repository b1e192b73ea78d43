"""The NotificationCenter client."""

from __future__ import annotations

import functools
import json
import os
import socket
import stat
import threading
import weakref
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Mapping, Optional, Type, TypeVar, Union

import grpc
from google.protobuf.message import Message

from ._status import error_from_rpc
from .errors import ChimeError, Code
from .generated import notification_center_pb2 as nc_pb2
from .generated import notification_center_pb2_grpc as nc_grpc
from .generated import request_pb2
from .requests import DEFAULT_ACTION, SNOOZE_ACTION, _identifiers, category, duration_seconds, notification_request
from .subscription import Subscription, _reparse
from .types import AppLayout, Authorization, Delivered, FireDate, Pending, ServerInfo, Settings

SERVICE = "/chime.v1.NotificationCenter/"
APP_METADATA_KEY = "chime-app"
DEFAULT_MAX_FRAME_BYTES = 1 << 20
DEFAULT_MAX_REPLY_BYTES = 64 << 20
# How long the constructor waits to learn whether the socket refuses connections.
CONNECT_WAIT = 1.0

M = TypeVar("M", bound=Message)

_DEFAULT: Any = object()  # "use the client's timeout"


def default_socket_path(environ: Optional[Mapping[str, str]] = None) -> str:
    """The daemon's socket, resolved the way chimed resolves it.

    ``$CHIME_SOCKET``, else ``$XDG_RUNTIME_DIR/chime/chimed.sock``, else
    ``/tmp/chime-<uid>/chimed.sock``.
    """
    env = os.environ if environ is None else environ
    if env.get("CHIME_SOCKET"):
        return env["CHIME_SOCKET"]
    if env.get("XDG_RUNTIME_DIR"):
        return os.path.join(env["XDG_RUNTIME_DIR"], "chime", "chimed.sock")
    return f"/tmp/chime-{os.getuid()}/chimed.sock"


def _method_path(method: str) -> str:
    return method if method.startswith("/") else SERVICE + method


def _serialize(message: Message) -> bytes:
    return message.SerializeToString()


def _connect_failure(socket_path: str) -> str:
    """Why connecting to the socket fails, in the system's words (gRPC does not say)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(socket_path)
    except OSError as error:
        return error.strerror or str(error)
    finally:
        probe.close()
    return "it accepts connections but does not speak gRPC"


def _channel_target(socket_path: str) -> str:
    return "unix://" + os.path.abspath(socket_path)


class Client:
    """A gRPC channel to chimed acting for one app.

    ``Client(socket_path=None, app="org.example.app")`` connects at once (the default socket
    is :func:`default_socket_path`; the default app is ``$CHIME_APP``, sent as the ``chime-app``
    metadata of every call). Every method is one call; a non-OK answer raises
    :class:`ChimeError`. The client is thread-safe: calls from several threads share the
    channel (one HTTP/2 connection) and are answered independently, and a
    :class:`Subscription` can stream while other calls go on. ``timeout`` bounds how long each
    unary call waits for its answer (None waits forever); gRPC sends it to the daemon as the
    call's deadline (``grpc-timeout``). Every method takes ``timeout=`` (seconds) for that call
    alone. ``stub`` is the generated ``NotificationCenterStub`` on the same channel, for calls
    made with grpcio directly (pass ``metadata=[("chime-app", app)]``). Use it as a context
    manager, or call :meth:`close`; a client that is never closed closes its channel when it
    is garbage-collected or when the interpreter exits (the stub then stops working, so keep
    the client while you use it; an open :class:`Subscription` keeps its client).
    """

    def __init__(self, socket_path: Optional[str] = None, app: Optional[str] = None, *,
                 timeout: Optional[float] = 60.0,
                 max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
                 max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> None:
        app = app or os.environ.get("CHIME_APP")
        if not app:
            raise ValueError("an app identifier is required: pass app=... or set $CHIME_APP")
        self.app = app
        self.socket_path = socket_path or default_socket_path()
        self.timeout = timeout
        self._metadata = ((APP_METADATA_KEY, app),)
        # gRPC metadata carries printable ASCII only; such an app id is not reverse-DNS anyway.
        self._app_error: Optional[ChimeError] = None
        if not all(" " <= ch <= "~" for ch in app):
            self._app_error = ChimeError(Code.INVALID_ARGUMENT, "INVALID_APP_ID",
                                         f"the app id {app!r} is not reverse-DNS style (it has characters "
                                         "outside printable ASCII)")
        self._per_call = threading.local()  # the timeout= of the method running on this thread
        self._lock = threading.Lock()
        self._closed = False
        self._generic: dict[tuple[str, str, Any], Any] = {}
        self._check_socket()
        self.channel = grpc.insecure_channel(_channel_target(self.socket_path), options=[
            ("grpc.max_send_message_length", max_frame_bytes),
            ("grpc.max_receive_message_length", max_reply_bytes),
        ])
        self.stub = nc_grpc.NotificationCenterStub(self.channel)
        # Closes the channel once: on close(), when the client is collected, or at the
        # interpreter's exit (atexit, while threads still run). grpcio itself never closes a
        # dropped channel, and one whose connectivity was watched blocks the interpreter's final
        # clean-up forever. The finalizer holds the channel, never the client.
        self._finalizer = weakref.finalize(self, self.channel.close)
        try:
            self._connect(timeout)
        except BaseException:
            self._finalizer()
            raise

    def _check_socket(self) -> None:
        try:
            mode = os.stat(self.socket_path).st_mode
        except OSError as error:
            raise ChimeError(Code.UNAVAILABLE, "DAEMON_UNAVAILABLE",
                             f"cannot connect to chimed at {self.socket_path}: {error.strerror or error}") from None
        if not stat.S_ISSOCK(mode):
            raise ChimeError(Code.UNAVAILABLE, "DAEMON_UNAVAILABLE",
                             f"cannot connect to chimed at {self.socket_path}: not a socket")

    def _connect(self, timeout: Optional[float]) -> None:
        """Starts connecting; raises DAEMON_UNAVAILABLE when the connection is refused. A
        daemon that accepts but has not answered yet is left to each call's deadline."""
        settled = threading.Event()
        outcome: list[grpc.ChannelConnectivity] = []  # the first of READY, TRANSIENT_FAILURE

        def watch(state: grpc.ChannelConnectivity) -> None:
            if state in (grpc.ChannelConnectivity.READY, grpc.ChannelConnectivity.TRANSIENT_FAILURE):
                if not outcome:
                    outcome.append(state)
                settled.set()

        self.channel.subscribe(watch, try_to_connect=True)
        try:
            settled.wait(CONNECT_WAIT if timeout is None else min(timeout, CONNECT_WAIT))
        finally:
            self.channel.unsubscribe(watch)
        if outcome and outcome[0] is grpc.ChannelConnectivity.TRANSIENT_FAILURE:
            raise ChimeError(Code.UNAVAILABLE, "DAEMON_UNAVAILABLE",
                             f"cannot connect to chimed at {self.socket_path}: {_connect_failure(self.socket_path)}")

    # -- lifecycle -----------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the channel; calls still waiting fail with CONNECTION_CLOSED and
        subscriptions end."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._finalizer()

    @property
    def closed(self) -> bool:
        with self._lock:
            return self._closed

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client(socket_path={self.socket_path!r}, app={self.app!r})"

    # -- generic calls -------------------------------------------------------------------------

    def _multicallable(self, path: str, kind: str, response_type: Type[Message]) -> Any:
        """The generated stub's method for a NotificationCenter call, else a generic one."""
        if path.startswith(SERVICE):
            found = getattr(self.stub, path[len(SERVICE):], None)
            if found is not None:
                return found
        key = (path, kind, response_type)
        with self._lock:
            found = self._generic.get(key)
            if found is None:
                make = self.channel.unary_unary if kind == "unary" else self.channel.unary_stream
                found = make(path, request_serializer=_serialize, response_deserializer=response_type.FromString)
                self._generic[key] = found
            return found

    def _ensure_open(self) -> None:
        if self.closed:
            raise ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED", "the client closed the connection")
        if self._app_error is not None:
            error = self._app_error
            raise ChimeError(error.code, error.reason, error.message, error.field)

    def call(self, method: str, request: Message, response_type: Type[M], *,
             timeout: Optional[float] = _DEFAULT) -> M:
        """One unary call. `method` is a NotificationCenter method name ("Add") or a full
        path ("/chime.v1.NotificationCenter/Add")."""
        path = _method_path(method)
        if timeout is _DEFAULT:
            timeout = getattr(self._per_call, "timeout", _DEFAULT)
        wait = self.timeout if timeout is _DEFAULT else timeout
        self._ensure_open()
        invoke = self._multicallable(path, "unary", response_type)
        try:
            answer = invoke(request, timeout=wait, metadata=self._metadata)
        except grpc.RpcError as rpc_error:
            raise self._error(rpc_error, path) from None
        except ValueError:
            if self.closed:  # closed by another thread while this call started
                raise ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED", "the client closed the connection") from None
            raise
        if not isinstance(answer, response_type):
            answer = _reparse(response_type, answer, path)
        return answer

    def _error(self, rpc_error: grpc.RpcError, path: str) -> ChimeError:
        if self.closed and rpc_error.code() is grpc.StatusCode.CANCELLED:
            return ChimeError(Code.UNAVAILABLE, "CONNECTION_CLOSED", "the client closed the connection")
        return error_from_rpc(rpc_error, path, self.socket_path)

    def stream(self, method: str, request: Message, message_type: Type[Message] = nc_pb2.Event) -> Subscription:
        """Starts a server-streaming call; its messages are ``message_type`` (chime.v1.Event by default)."""
        path = _method_path(method)
        self._ensure_open()
        invoke = self._multicallable(path, "stream", message_type)
        return Subscription(invoke(request, metadata=self._metadata), path, self.socket_path, message_type,
                            owner=self)

    # -- NotificationCenter --------------------------------------------------------------------

    def add_request(self, request: request_pb2.NotificationRequest) -> nc_pb2.AddResponse:
        """Add with a full NotificationRequest; returns the whole AddResponse (pending,
        replaced, and delivered when the request had no trigger)."""
        return self.call("Add", nc_pb2.AddRequest(request=request), nc_pb2.AddResponse)

    def add(self, identifier: str, title: str = "", body: str = "", subtitle: str = "", *,
            in_seconds: Optional[float] = None,
            calendar: Optional[Mapping[str, Any]] = None,
            repeats: bool = False,
            **content: Any) -> Pending:
        """Schedules a request and returns it as the daemon stored it (next_fire_unix_ms set).

        Takes the arguments of :func:`notification_request`. The same identifier replaces the
        app's earlier pending request. Use :meth:`add_request` to see whether it replaced one,
        or the delivered notification of a request without a trigger.
        """
        request = notification_request(identifier, title, body, subtitle, in_seconds=in_seconds,
                                       calendar=calendar, repeats=repeats, **content)
        return Pending.from_pb(self.add_request(request).pending)

    def pending_page(self, page_size: int = 0, page_token: str = "") -> nc_pb2.GetPendingResponse:
        return self.call("GetPending", nc_pb2.PageRequest(page_size=page_size, page_token=page_token),
                         nc_pb2.GetPendingResponse)

    def pending(self, *, page_size: int = 0) -> list[Pending]:
        """All of the app's pending requests (every page)."""
        return [Pending.from_pb(m) for m in self._all_pages(self.pending_page, "requests", page_size)]

    def remove(self, identifiers: Union[str, Iterable[str]]) -> list[str]:
        """Removes pending requests; returns the identifiers that existed and were removed."""
        request = nc_pb2.IdentifiersRequest(identifiers=_identifiers(identifiers))
        return list(self.call("RemovePending", request, nc_pb2.RemoveResponse).removed)

    def remove_all(self) -> list[str]:
        return list(self.call("RemoveAllPending", nc_pb2.Empty(), nc_pb2.RemoveResponse).removed)

    def delivered_page(self, page_size: int = 0, page_token: str = "") -> nc_pb2.GetDeliveredResponse:
        return self.call("GetDelivered", nc_pb2.PageRequest(page_size=page_size, page_token=page_token),
                         nc_pb2.GetDeliveredResponse)

    def delivered(self, *, page_size: int = 0) -> list[Delivered]:
        """All of the app's delivered notifications (every page)."""
        return [Delivered.from_pb(m) for m in self._all_pages(self.delivered_page, "notifications", page_size)]

    def next_trigger_dates(self, *, in_seconds: Optional[float] = None,
                           calendar: Optional[Mapping[str, Any]] = None, repeats: bool = False,
                           after: Union[None, int, datetime] = None, count: int = 1) -> list[FireDate]:
        """The next ``count`` dates a trigger would fire after ``after`` (a datetime or unix ms;
        None: now), without scheduling anything. The trigger is given as to :meth:`add`."""
        if (in_seconds is None) == (calendar is None):
            raise ValueError("give in_seconds or calendar")
        trigger = notification_request("-", in_seconds=in_seconds, calendar=calendar, repeats=repeats).trigger
        after_ms = int(after.timestamp() * 1000) if isinstance(after, datetime) else int(after or 0)
        request = nc_pb2.NextTriggerDatesRequest(trigger=trigger, after_unix_ms=after_ms, count=count)
        answer = self.call("NextTriggerDates", request, nc_pb2.NextTriggerDatesResponse)
        return [FireDate.from_pb(date) for date in answer.dates]

    def remove_delivered(self, identifiers: Union[str, Iterable[str]]) -> list[str]:
        request = nc_pb2.IdentifiersRequest(identifiers=_identifiers(identifiers))
        return list(self.call("RemoveDelivered", request, nc_pb2.RemoveResponse).removed)

    def remove_all_delivered(self) -> list[str]:
        return list(self.call("RemoveAllDelivered", nc_pb2.Empty(), nc_pb2.RemoveResponse).removed)

    def subscribe(self, after: Optional[int] = None) -> Subscription:
        """Streams the app's events. ``after=None`` starts with new events; a cursor (an
        earlier Event.cursor, or 0 for everything retained) replays what came after it."""
        request = nc_pb2.SubscribeRequest()
        if after is not None:
            request.after_cursor = after
        return self.stream("Subscribe", request)

    # -- categories and responses --------------------------------------------------------------

    def set_categories(self, categories: Iterable[Union[Mapping[str, Any], request_pb2.Category]]) -> None:
        """Replaces all of this app's categories (an empty list removes them). Each is a
        ``chime.v1.Category`` or its JSON shape (see :func:`category`). Refusals name the field,
        e.g. reason DUPLICATE_ACTION_IDENTIFIER, field ``categories[0].actions[2].identifier``."""
        request = nc_pb2.SetCategoriesRequest(categories=[category(c) for c in categories])
        self.call("SetCategories", request, nc_pb2.Empty)

    def categories(self) -> list[request_pb2.Category]:
        """This app's categories, in the order they were set (empty when none)."""
        return list(self.call("GetCategories", nc_pb2.Empty(), nc_pb2.GetCategoriesResponse).categories)

    def respond(self, identifier: str, action: str = DEFAULT_ACTION, text: str = "", *,
                snooze: Union[None, int, float, timedelta, str] = None) -> nc_pb2.RespondResponse:
        """Reports the user's answer to the delivered notification ``identifier``: opened
        (:data:`DEFAULT_ACTION`), dismissed (:data:`DISMISS_ACTION`) or one of its category's
        actions, with ``text`` for a text-input action; ``snooze`` (one of the category's snooze
        durations) is a snooze button: action :data:`SNOOZE_ACTION`, snoozed unless a content
        extension handled it. Subscribers get an EVENT_KIND_RESPONSE event; the answer's
        ``removed`` says the notification left the delivered list. Raises ChimeError
        NOTIFICATION_NOT_DELIVERED, UNKNOWN_ACTION, TEXT_REQUIRED, TEXT_NOT_ACCEPTED,
        DISMISS_NOT_ENABLED or SNOOZE_NOT_OFFERED."""
        response = nc_pb2.NotificationResponse(notification_identifier=identifier, action_identifier=action, user_text=text)
        if snooze is not None:
            response.action_identifier = SNOOZE_ACTION
            response.snooze_seconds = duration_seconds(snooze)
        return self.call("Respond", nc_pb2.RespondRequest(response=response), nc_pb2.RespondResponse)

    def snooze(self, identifier: str, duration: Union[int, float, timedelta, str]) -> Pending:
        """Snoozes the delivered notification ``identifier`` for ``duration`` (seconds, a
        timedelta or text such as ``"10m"``; 1 minute ... 1 week): it leaves the screen and the
        delivered list and is delivered again then, with ``snooze_count`` one higher. Returns its
        snoozed entry as :meth:`pending` lists it meanwhile (``snooze_count > 0``, ``next_fire``
        its return). Raises ChimeError INVALID_SNOOZE_DURATION or NOTIFICATION_NOT_DELIVERED."""
        request = nc_pb2.SnoozeRequest(notification_identifier=identifier, duration_seconds=duration_seconds(duration))
        return Pending.from_pb(self.call("Snooze", request, nc_pb2.SnoozeResponse).snoozed)

    def register_extension(self, identifier: str, categories: Iterable[str], ratio: float, *,
                           default_content_hidden: bool = False, overrides_default_title: bool = False,
                           user_interaction_enabled: bool = False,
                           media_button: Optional[request_pb2.MediaPlayPauseButton] = None) -> Subscription:
        """Registers this connection as the app's content extension ``identifier`` for
        ``categories``, presented with an initial content size ratio (height / width, > 0) and
        the other attributes an Info.plist would carry; ``media_button`` is a
        ``chime.v1.MediaPlayPauseButton`` (type, frame, tint_color "#RRGGBB"). The stream
        yields ``chime.v1.ExtensionEvent``s: first one with ``registered`` set, then each
        notification delivered in those categories (``delivered``), each response to one
        (``response``) and each media button press (``media``). Closing the subscription (or
        the client) ends the registration. Refused with EXTENSION_ALREADY_REGISTERED,
        EXTENSION_CATEGORIES_REQUIRED, INVALID_CONTENT_SIZE_RATIO, INVALID_MEDIA_BUTTON_FRAME or
        INVALID_TINT_COLOR (raised by the first read)."""
        attributes = request_pb2.ExtensionAttributes(
            initial_content_size_ratio=ratio, default_content_hidden=default_content_hidden,
            overrides_default_title=overrides_default_title, user_interaction_enabled=user_interaction_enabled)
        if media_button is not None:
            attributes.media_button.CopyFrom(media_button)
        request = nc_pb2.RegisterExtensionRequest(extension_identifier=identifier, category_identifiers=list(categories),
                                                  attributes=attributes)
        return self.stream("RegisterExtension", request, nc_pb2.ExtensionEvent)

    def answer_response(self, extension: str, response_id: int, option: int) -> None:
        """A content extension's answer to the response it was shown with ``response_id``
        (``ExtensionEvent.response_id``): ``option`` is a ``chime.v1.ExtensionResponseOption``
        (EXTENSION_RESPONSE_OPTION_DO_NOT_DISMISS, _DISMISS, _DISMISS_AND_FORWARD). Raises
        RESPONSE_NOT_AWAITED when it no longer waits (answered, past its deadline)."""
        request = nc_pb2.AnswerResponseRequest(extension_identifier=extension, response_id=response_id, option=option)
        self.call("AnswerResponse", request, nc_pb2.Empty)

    def press_media_button(self, identifier: str, command: int) -> str:
        """The user pressed the media play/pause button of the delivered notification
        ``identifier``: ``command`` is ``chime.v1.MEDIA_COMMAND_PLAY`` or ``_PAUSE``. The content
        extension live for its category is shown it (``ExtensionEvent.media``); returns that
        extension's identifier. Raises NOTIFICATION_NOT_DELIVERED, EXTENSION_NOT_LIVE or
        MEDIA_BUTTON_NOT_AVAILABLE."""
        request = nc_pb2.PressMediaButtonRequest(notification_identifier=identifier, command=command)
        return self.call("PressMediaButton", request, nc_pb2.PressMediaButtonResponse).extension_identifier

    def report_media_playback(self, extension: str, identifier: str, playback: int) -> None:
        """A content extension reports that the media of the delivered notification
        ``identifier`` started (``chime.v1.MEDIA_PLAYBACK_PLAYING``) or paused
        (``MEDIA_PLAYBACK_PAUSED``); kept as its ``media_playback``. Raises
        NOTIFICATION_NOT_DELIVERED or EXTENSION_NOT_LIVE."""
        request = nc_pb2.ReportMediaPlaybackRequest(extension_identifier=extension, notification_identifier=identifier,
                                                    playback=playback)
        self.call("ReportMediaPlayback", request, nc_pb2.Empty)

    # -- pushed notifications and service extensions -----------------------------------------

    def push(self, payload: Union[bytes, str, Mapping[str, Any]], identifier: str = "", *,
             timeout: Optional[float] = _DEFAULT) -> nc_pb2.PushResponse:
        """Delivers an APNs-style payload at once (``xcrun simctl push``): ``payload`` is the
        JSON as bytes or text, or a dict that is dumped to JSON. ``identifier`` is the
        apns-collapse-id (it replaces an earlier delivered notification; empty generates one).
        A payload with ``"mutable-content": 1`` goes to the app's live service extension first,
        so this can wait until its deadline and grace period. The answer's ``delivered.push``
        says which content was delivered (``original``, ``extension``, ``best-attempt``) and
        why. Raises ChimeError PUSH_PAYLOAD_TOO_LARGE, INVALID_PUSH_PAYLOAD (``field`` is the
        path, e.g. ``aps.alert.title``), UNKNOWN_INTERRUPTION_LEVEL, Add's content reasons or
        NOTIFICATIONS_NOT_ALLOWED. ``timeout`` defaults to the client's, raised to 40 s: chimed's
        default service-extension deadline (30 s) and grace (1 s) fit in it."""
        if timeout is _DEFAULT:
            timeout = None if self.timeout is None else max(self.timeout, 40.0)
        if isinstance(payload, Mapping):
            payload = json.dumps(payload)
        if isinstance(payload, str):
            payload = payload.encode("utf-8")
        return self.call("Push", nc_pb2.PushRequest(payload=bytes(payload), identifier=identifier), nc_pb2.PushResponse,
                         timeout=timeout)

    def register_service_extension(self, identifier: str) -> Subscription:
        """Registers this connection as the app's service extension ``identifier`` (one live
        per app, else EXTENSION_ALREADY_REGISTERED, raised by the first read). The stream
        yields ``chime.v1.ExtensionEvent``s: ``registered``, then each mutable pushed
        notification as ``service_request`` (id, request, deadline_unix_ms) and, when a
        request's deadline passes, ``service_time_will_expire`` (its id). Answer with
        :meth:`answer_service`. Closing the subscription ends the registration."""
        request = nc_pb2.RegisterExtensionRequest(extension_identifier=identifier, service=True)
        return self.stream("RegisterExtension", request, nc_pb2.ExtensionEvent)

    def answer_service(self, extension: str, request_id: int,
                       content: Optional[request_pb2.NotificationContent] = None, error: str = "") -> None:
        """A service extension's answer to ``request_id``: the whole replacement ``content``
        (a ``chime.v1.NotificationContent``; attachments are files it wrote, moved into the
        store as at Add), or ``error`` to have the original delivered. Raises
        SERVICE_REQUEST_NOT_AWAITED when the request no longer waits for it."""
        request = nc_pb2.AnswerServiceRequest(extension_identifier=extension, request_id=request_id, error=error)
        if content is not None and not error:
            request.content.CopyFrom(content)
        self.call("AnswerService", request, nc_pb2.Empty)

    def run_service_extension(self, identifier: str,
                              callback: Callable[[request_pb2.NotificationRequest], Optional[request_pb2.NotificationContent]],
                              *, requests: Optional[int] = None, ready: Optional[Callable[[], None]] = None) -> int:
        """Acts as the app's service extension ``identifier``: for each mutable pushed
        notification, ``callback(request)`` returns the content to deliver instead (start from
        a copy of ``request.content``), or None to deliver the original; an exception it raises
        is sent as the extension's error (the original is delivered). ``ready`` is called once
        the registration is live. Returns after ``requests`` answers (None: until the stream
        ends); returns how many it answered. A callback slower than the deadline gets its
        answer refused (SERVICE_REQUEST_NOT_AWAITED, counted but not raised)."""
        answered = 0
        with self.register_service_extension(identifier) as events:
            for event in events:
                if event.registered:
                    if ready is not None:
                        ready()
                    continue
                if not event.HasField("service_request"):
                    continue
                asked = event.service_request
                try:
                    content = callback(asked.request)
                    error = "" if content is not None else "the extension kept the original content"
                except Exception as exc:  # the extension's failure, reported to chimed
                    content, error = None, f"{type(exc).__name__}: {exc}"
                try:
                    self.answer_service(identifier, asked.id, content, error)
                except ChimeError as exc:
                    if exc.reason != "SERVICE_REQUEST_NOT_AWAITED":
                        raise
                answered += 1
                if requests is not None and answered >= requests:
                    break
        return answered

    # -- apps and sounds -----------------------------------------------------------------------

    def register_app(self, container: str = "", group_containers: Iterable[str] = (),
                     bundle: str = "", display_name: str = "", desktop_entry: str = "") -> AppLayout:
        """Records this app's container, group containers (searched for sounds in this order)
        and bundle. Empty container or bundle means the default under
        $XDG_DATA_HOME/chime/apps/<app>/. Each directory must exist and belong to you."""
        request = nc_pb2.RegisterAppRequest(container=container, group_containers=list(group_containers),
                                            bundle=bundle, display_name=display_name,
                                            desktop_entry=desktop_entry)
        return AppLayout.from_pb(self.call("RegisterApp", request, nc_pb2.AppLayout))

    def server_info(self) -> ServerInfo:
        """What is serving: chimed's version, pid, start time, data directory and socket."""
        return ServerInfo.from_pb(self.call("GetServerInfo", nc_pb2.Empty(), nc_pb2.ServerInfo))

    def app_layout(self) -> AppLayout:
        """This app's layout; ``registered`` is False for the defaults."""
        return AppLayout.from_pb(self.call("GetApp", nc_pb2.Empty(), nc_pb2.AppLayout))

    def list_apps(self) -> list[AppLayout]:
        return [AppLayout.from_pb(m) for m in self.call("ListApps", nc_pb2.Empty(), nc_pb2.ListAppsResponse).apps]

    def check_sound(self, name: str) -> nc_pb2.CheckSoundResponse:
        """Where the daemon looks for the sound file ``name`` for this app (every place searched,
        in order) and what would play (``resolution``)."""
        return self.call("CheckSound", nc_pb2.CheckSoundRequest(name=name), nc_pb2.CheckSoundResponse)

    # -- authorization, settings and badge ---------------------------------------------------

    def request_authorization(self, *, alert: bool = False, sound: bool = False, badge: bool = False,
                              critical_alert: bool = False, provisional: bool = False,
                              time_sensitive: bool = False, car_play: bool = False,
                              provides_app_notification_settings: bool = False,
                              announcement: bool = False) -> Authorization:
        """Asks for these options for this app. The first request records the daemon's policy
        decision (``chimed --authorization``); later ones answer it unchanged. ``granted`` says
        whether the app may post."""
        request = nc_pb2.AuthorizationRequest(
            alert=alert, sound=sound, badge=badge, critical_alert=critical_alert, provisional=provisional,
            time_sensitive=time_sensitive, car_play=car_play,
            provides_app_notification_settings=provides_app_notification_settings, announcement=announcement)
        return Authorization.from_pb(self.call("RequestAuthorization", request, nc_pb2.AuthorizationResponse))

    def settings(self) -> Settings:
        """This app's authorization status, effective settings and badge count."""
        return Settings.from_pb(self.call("GetSettings", nc_pb2.Empty(), nc_pb2.NotificationSettings))

    def set_badge_count(self, count: int) -> None:
        """Sets this app's badge count (0 clears it). Raises ChimeError ``BADGE_INPUT_INVALID``
        for a negative count, ``BADGE_NOT_ALLOWED`` when the app's badge setting is off."""
        self.call("SetBadgeCount", nc_pb2.SetBadgeCountRequest(count=count), nc_pb2.Empty)

    def badge_count(self) -> int:
        return int(self.settings().badge_count)

    def set_app_settings(self, app_id: str, *, allow: Optional[bool] = None,
                         **switches: bool) -> Settings:
        """The user's call: allows (``allow=True``), denies (``allow=False``) or switches settings
        of the app ``app_id`` (not this client's), e.g. ``sound=False, badge=False``; returns that
        app's settings. Switches: alert, sound, badge, critical_alert, time_sensitive, car_play,
        announcement. With nothing to change it just reads them."""
        request = nc_pb2.AppSettingsRequest(app_id=app_id)
        if allow is not None:
            request.status = (nc_pb2.AUTHORIZATION_STATUS_AUTHORIZED if allow
                              else nc_pb2.AUTHORIZATION_STATUS_DENIED)
        for name, value in switches.items():
            setattr(request, name, bool(value))
        return Settings.from_pb(self.call("SetAppSettings", request, nc_pb2.NotificationSettings))

    def do_not_disturb(self) -> nc_pb2.DoNotDisturbState:
        """The user's Do Not Disturb setting and whether it is on now (``active``, ``source``,
        ``until_unix_ms`` or ``next_start_unix_ms``; ``desktop``: "dunst paused" or "KDE
        inhibited" while the followed notification server is; the settings ``follow_desktop``
        and ``summary``)."""
        return self.call("GetDoNotDisturb", nc_pb2.Empty(), nc_pb2.DoNotDisturbState)

    def set_do_not_disturb(self, *, on: Optional[bool] = None, until: Optional[datetime] = None,
                           schedule: Optional[tuple[int, int]] = None, days: Iterable[int] = (),
                           clear_schedule: bool = False, follow_desktop: Optional[bool] = None,
                           summary: Optional[bool] = None) -> nc_pb2.DoNotDisturbState:
        """The user's call: switches Do Not Disturb on by hand (``on=True``, until ``until`` when
        given) or off (``on=False``; a scheduled window still applies), sets the daily window
        ``schedule=(start_minute, end_minute)`` (minutes after midnight, floating wall time; an
        end at or before the start is the next day) on ``days`` (0 Monday ... 6 Sunday; none:
        every day), or clears it; ``follow_desktop`` says whether a paused or inhibited
        notification server counts as Do Not Disturb, ``summary`` whether one popup sums up
        what arrived quietly when it ends. A part left out is unchanged. Raises ChimeError
        ``INVALID_DND_SCHEDULE``, ``INVALID_DND_DAYS`` or ``DND_UNTIL_IN_PAST``."""
        request = nc_pb2.SetDoNotDisturbRequest()
        if on is not None:
            request.manual_on = on
        if until is not None:
            request.manual_until_unix_ms = int(until.timestamp() * 1000)
        if schedule is not None and clear_schedule:
            raise ValueError("give schedule or clear_schedule, not both")
        if schedule is not None:
            request.schedule.start_minute, request.schedule.end_minute = schedule
            request.schedule.days = sum(1 << day for day in set(days))
        elif clear_schedule:
            request.clear_schedule = True
        if follow_desktop is not None:
            request.follow_desktop = follow_desktop
        if summary is not None:
            request.summary = summary
        return self.call("SetDoNotDisturb", request, nc_pb2.DoNotDisturbState)

    # -- calendars (the user's: chimed posts their alarms under io.github.chime.calendar.NAME) --

    def add_calendar(self, name: str, path: str) -> nc_pb2.CalendarSource:
        """The user's call: registers the calendar ``name`` (1 to 64 letters, digits, '-' or
        '_'): a vdir collection directory, as vdirsyncer keeps a CalDAV calendar, or one .ics
        file (``path``, made absolute here). Its alarms are scheduled under the app id
        ``io.github.chime.calendar.<name>`` and its files followed. Raises ChimeError
        INVALID_CALENDAR_NAME, INVALID_CALENDAR_PATH or CALENDAR_EXISTS."""
        request = nc_pb2.AddCalendarRequest(name=name, path=os.path.abspath(os.path.expanduser(path)))
        return self.call("AddCalendar", request, nc_pb2.CalendarSource)

    def calendars(self) -> list[nc_pb2.CalendarSource]:
        """The registered calendars: path, app id, item and alarm counts, last scan and the files
        skipped at it (``errors``)."""
        return list(self.call("ListCalendars", nc_pb2.Empty(), nc_pb2.ListCalendarsResponse).calendars)

    def remove_calendar(self, name: str) -> int:
        """The user's call: forgets the calendar ``name``; its pending alarms are withdrawn
        (answered: how many), its files untouched. Raises ChimeError CALENDAR_NOT_FOUND."""
        request = nc_pb2.RemoveCalendarRequest(name=name)
        return self.call("RemoveCalendar", request, nc_pb2.RemoveCalendarResponse).withdrawn_alarms

    def sync_calendars(self, name: Optional[str] = None) -> list[nc_pb2.CalendarSource]:
        """Rescans the calendar ``name`` whole (every calendar when None) and answers once the
        scan is done. Raises ChimeError CALENDAR_NOT_FOUND."""
        request = nc_pb2.SyncCalendarsRequest(name=name or "")
        return list(self.call("SyncCalendars", request, nc_pb2.ListCalendarsResponse).calendars)

    # -- helpers -------------------------------------------------------------------------------

    @staticmethod
    def _all_pages(fetch: Any, field: str, page_size: int) -> list:
        items: list = []
        token = ""
        seen: set[str] = set()
        while True:
            page = fetch(page_size, token)
            items.extend(getattr(page, field))
            token = page.next_page_token
            if not token:
                return items
            if token in seen:
                raise ChimeError(Code.INTERNAL, "MALFORMED_REPLY", "chimed repeated a page token")
            seen.add(token)



def _with_timeout(method: Callable[..., Any]) -> Callable[..., Any]:
    """Gives a Client method a ``timeout=`` keyword (seconds; None waits forever) that bounds
    each call it makes, instead of the client's ``timeout``. It is sent to the daemon as the
    call's deadline too; a call not answered in time raises ChimeError DEADLINE_EXCEEDED."""

    @functools.wraps(method)
    def wrapper(self: Client, *args: Any, timeout: Optional[float] = _DEFAULT, **kwargs: Any) -> Any:
        if timeout is _DEFAULT:
            return method(self, *args, **kwargs)
        outer = getattr(self._per_call, "timeout", _DEFAULT)
        self._per_call.timeout = timeout
        try:
            return method(self, *args, **kwargs)
        finally:
            self._per_call.timeout = outer

    return wrapper


for _name in ("add_request", "add", "pending_page", "pending", "remove", "remove_all", "delivered_page",
              "delivered", "remove_delivered", "remove_all_delivered", "next_trigger_dates", "set_categories",
              "categories", "respond", "answer_response", "press_media_button", "report_media_playback", "push",
              "answer_service", "register_app", "app_layout", "list_apps", "check_sound",
              "request_authorization", "settings", "set_badge_count", "badge_count", "set_app_settings", "snooze",
              "add_calendar", "calendars", "remove_calendar", "sync_calendars"):
    setattr(Client, _name, _with_timeout(getattr(Client, _name)))
