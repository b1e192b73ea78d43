"""Typed results of the main calls.

Each is a frozen dataclass with the fields most programs read, converted to Python types
(datetimes in UTC, plain lists, enums). The whole chime.v1 message stays available as ``raw``,
and any attribute a dataclass does not define is read from it (``pending.request.content``,
``delivered.push``), so nothing of the contract is hidden.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Optional

from .generated import notification_center_pb2 as nc_pb2
from .generated import request_pb2


def _utc(unix_ms: int) -> Optional[datetime]:
    return datetime.fromtimestamp(unix_ms / 1000, tz=timezone.utc) if unix_ms else None


class AuthorizationStatus(enum.IntEnum):
    NOT_DETERMINED = nc_pb2.AUTHORIZATION_STATUS_NOT_DETERMINED
    DENIED = nc_pb2.AUTHORIZATION_STATUS_DENIED
    AUTHORIZED = nc_pb2.AUTHORIZATION_STATUS_AUTHORIZED
    PROVISIONAL = nc_pb2.AUTHORIZATION_STATUS_PROVISIONAL


class _Raw:
    """Falls back to the raw message for attributes the dataclass does not define."""

    raw: Any

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "raw":
            raise AttributeError(name)
        return getattr(self.raw, name)


def _trigger_fields(request: request_pb2.NotificationRequest) -> dict[str, Any]:
    trigger = request.trigger
    kind = trigger.WhichOneof("kind")
    if kind == "time_interval":
        return {"interval_seconds": trigger.time_interval.seconds, "calendar": None,
                "repeats": trigger.time_interval.repeats, "recurrence": None}
    if kind == "calendar":
        components = trigger.calendar.components
        # A repeated field (weekdays) as a list; the others are scalars.
        calendar = {f.name: value if isinstance(value, (int, str)) else list(value) for f, value in components.ListFields()}
        return {"interval_seconds": None, "calendar": calendar, "repeats": trigger.calendar.repeats, "recurrence": None}
    if kind == "recurrence":
        r = trigger.recurrence
        recurrence = {"rule": r.rule, "start": r.start, "time_zone": r.time_zone, "exclusions": list(r.exclusions)}
        return {"interval_seconds": None, "calendar": None, "repeats": True, "recurrence": recurrence}
    return {"interval_seconds": None, "calendar": None, "repeats": False, "recurrence": None}


@dataclass(frozen=True)
class Pending(_Raw):
    """A pending request (chime.v1.PendingRequest)."""

    identifier: str
    title: str
    subtitle: str
    body: str
    category_identifier: str
    thread_identifier: str
    next_fire: Optional[datetime]
    next_fire_unix_ms: int
    added_unix_ms: int
    repeats: bool
    interval_seconds: Optional[float]
    calendar: Optional[dict[str, Any]]
    # A recurrence rule trigger as given: rule, start, time_zone, exclusions.
    recurrence: Optional[dict[str, Any]]
    fire_count: int
    # > 0: a delivered notification snoozed until next_fire (added: when it was snoozed).
    snooze_count: int
    raw: request_pb2.PendingRequest = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: request_pb2.PendingRequest) -> "Pending":
        content = message.request.content
        return cls(identifier=message.request.identifier, title=content.title, subtitle=content.subtitle,
                   body=content.body, category_identifier=content.category_identifier,
                   thread_identifier=content.thread_identifier,
                   next_fire=_utc(message.next_fire_unix_ms), next_fire_unix_ms=message.next_fire_unix_ms,
                   added_unix_ms=message.added_unix_ms, fire_count=message.fire_count,
                   snooze_count=message.snooze_count, raw=message,
                   **_trigger_fields(message.request))


@dataclass(frozen=True)
class Delivered(_Raw):
    """A delivered notification (chime.v1.DeliveredNotification)."""

    identifier: str
    title: str
    subtitle: str
    body: str
    category_identifier: str
    thread_identifier: str
    delivered_at: Optional[datetime]
    delivered_unix_ms: int
    due_unix_ms: int
    missed: bool
    # How many times it was snoozed before this delivery.
    snooze_count: int
    raw: request_pb2.DeliveredNotification = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: request_pb2.DeliveredNotification) -> "Delivered":
        content = message.request.content
        return cls(identifier=message.request.identifier, title=content.title, subtitle=content.subtitle,
                   body=content.body, category_identifier=content.category_identifier,
                   thread_identifier=content.thread_identifier,
                   delivered_at=_utc(message.delivered_unix_ms), delivered_unix_ms=message.delivered_unix_ms,
                   due_unix_ms=message.due_unix_ms, missed=message.missed, snooze_count=message.snooze_count,
                   raw=message)


@dataclass(frozen=True)
class FireDate(_Raw):
    """One date of next_trigger_dates (chime.v1.FireDate)."""

    at: datetime
    unix_ms: int
    time_zone: str
    utc_offset_seconds: int
    dst_note: str
    raw: nc_pb2.FireDate = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: nc_pb2.FireDate) -> "FireDate":
        return cls(at=datetime.fromtimestamp(message.unix_ms / 1000, tz=timezone.utc), unix_ms=message.unix_ms,
                   time_zone=message.time_zone, utc_offset_seconds=message.utc_offset_seconds,
                   dst_note=message.dst_note, raw=message)


@dataclass(frozen=True)
class Settings(_Raw):
    """An app's notification settings (chime.v1.NotificationSettings)."""

    authorization_status: AuthorizationStatus
    alert: bool
    sound: bool
    badge: bool
    critical_alert: bool
    time_sensitive: bool
    car_play: bool
    announcement: bool
    provides_app_notification_settings: bool
    badge_count: int
    raw: nc_pb2.NotificationSettings = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: nc_pb2.NotificationSettings) -> "Settings":
        return cls(authorization_status=AuthorizationStatus(message.authorization_status), alert=message.alert,
                   sound=message.sound, badge=message.badge, critical_alert=message.critical_alert,
                   time_sensitive=message.time_sensitive, car_play=message.car_play,
                   announcement=message.announcement,
                   provides_app_notification_settings=message.provides_app_notification_settings,
                   badge_count=message.badge_count, raw=message)


@dataclass(frozen=True)
class Authorization(_Raw):
    """The answer to request_authorization (chime.v1.AuthorizationResponse)."""

    granted: bool
    settings: Settings
    raw: nc_pb2.AuthorizationResponse = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: nc_pb2.AuthorizationResponse) -> "Authorization":
        return cls(granted=message.granted, settings=Settings.from_pb(message.settings), raw=message)


@dataclass(frozen=True)
class AppLayout(_Raw):
    """An app's registered directories and names (chime.v1.AppLayout)."""

    app_id: str
    container: str
    group_containers: list[str]
    bundle: str
    registered: bool
    display_name: str
    desktop_entry: str
    raw: nc_pb2.AppLayout = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: nc_pb2.AppLayout) -> "AppLayout":
        return cls(app_id=message.app_id, container=message.container,
                   group_containers=list(message.group_containers), bundle=message.bundle,
                   registered=message.registered, display_name=message.display_name,
                   desktop_entry=message.desktop_entry, raw=message)


@dataclass(frozen=True)
class ServerInfo(_Raw):
    """What is serving (chime.v1.ServerInfo): chimed's version, process and store."""

    version: str
    pid: int
    started_at: datetime
    data_directory: str
    socket_path: str
    raw: nc_pb2.ServerInfo = field(repr=False, compare=False)

    @classmethod
    def from_pb(cls, message: nc_pb2.ServerInfo) -> "ServerInfo":
        return cls(version=message.version, pid=message.pid,
                   started_at=datetime.fromtimestamp(message.started_at_ms / 1000, tz=timezone.utc),
                   data_directory=message.data_directory, socket_path=message.socket_path, raw=message)
