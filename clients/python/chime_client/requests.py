"""Builders of the messages a client sends: notification requests (triggers, sounds,
attachments, ends), categories and their JSON form, durations, and the response actions."""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timedelta
from typing import Any, Iterable, Mapping, Optional, Union

from .generated import request_pb2

_INTERRUPTION_LEVELS = {
    "passive": request_pb2.INTERRUPTION_LEVEL_PASSIVE,
    "active": request_pb2.INTERRUPTION_LEVEL_ACTIVE,
    "time_sensitive": request_pb2.INTERRUPTION_LEVEL_TIME_SENSITIVE,
    "time-sensitive": request_pb2.INTERRUPTION_LEVEL_TIME_SENSITIVE,
    "critical": request_pb2.INTERRUPTION_LEVEL_CRITICAL,
}

_DATE_COMPONENTS = ("year", "month", "day", "hour", "minute", "second", "weekday",
                    "weekday_ordinal", "week_of_month", "week_of_year", "year_for_week_of_year",
                    "time_zone", "weekdays")


def _identifiers(ids: Union[str, Iterable[str]]) -> list[str]:
    # A bare string is one identifier, not a sequence of one-letter ones.
    return [ids] if isinstance(ids, str) else list(ids)


def _sound(sound: Union[None, str, request_pb2.Sound]) -> Optional[request_pb2.Sound]:
    if sound is None or isinstance(sound, request_pb2.Sound):
        return sound
    if sound == "default":
        return request_pb2.Sound(kind=request_pb2.SOUND_KIND_DEFAULT)
    if sound == "none":
        return request_pb2.Sound(kind=request_pb2.SOUND_KIND_NONE)
    return request_pb2.Sound(kind=request_pb2.SOUND_KIND_NAMED, name=sound)


def _attachment(item: Union[str, os.PathLike, request_pb2.Attachment]) -> request_pb2.Attachment:
    if isinstance(item, request_pb2.Attachment):
        return item
    # The daemon wants an absolute, normalized path; a relative one is taken from here.
    return request_pb2.Attachment(path=os.path.abspath(os.fspath(item)))


DEFAULT_ACTION = "chime.default"
"""The action of a response that opened the notification (UNNotificationDefaultActionIdentifier)."""
DISMISS_ACTION = "chime.dismiss"
"""The action of a response that dismissed it (only for categories with customDismissAction)."""
SNOOZE_ACTION = "chime.snooze"
"""The action of a response from one of the category's snooze buttons (with its duration)."""

_DURATION_UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 604800}


def duration_seconds(value: Union[int, float, timedelta, str]) -> int:
    """Whole seconds of a snooze duration: a number of seconds, a timedelta, or text as the CLI
    takes it (``"10m"``, ``"1h30m"``, ``"1d"``, ``"1w"``, ``"90"``). The daemon checks the bounds
    (1 minute ... 1 week: INVALID_SNOOZE_DURATION); text that is no duration raises ValueError."""
    if isinstance(value, timedelta):
        return int(value.total_seconds())
    if isinstance(value, (int, float)):
        return int(value)
    text = value.strip().lower()
    if text.isdigit():
        return int(text)
    parts = re.findall(r"(\d+)(min|[smhdw])", text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise ValueError(f"{value!r} is not a duration (write e.g. 5m, 10m, 1h or 1d)")
    return sum(int(n) * _DURATION_UNITS[u] for n, u in parts)


def _duration_text(seconds: int) -> str:
    out = ""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size:
            out += f"{seconds // size}{unit}"
            seconds %= size
    return out or "0s"

_CATEGORY_OPTIONS = {"customDismissAction": "custom_dismiss_action",
                     "hiddenPreviewsShowTitle": "hidden_previews_show_title",
                     "hiddenPreviewsShowSubtitle": "hidden_previews_show_subtitle"}
_ACTION_OPTIONS = {"authenticationRequired": "authentication_required", "destructive": "destructive",
                   "foreground": "foreground"}


def category(value: Union[Mapping[str, Any], request_pb2.Category]) -> request_pb2.Category:
    """A ``chime.v1.Category`` from the JSON shape ``chime categories set`` reads (see the
    README): ``{"identifier": ..., "actions": [{"identifier", "title", "options": [...], "icon",
    "textInput": {"buttonTitle", "placeholder"}}], "intentIdentifiers", "options": [...],
    "hiddenPreviewsBodyPlaceholder", "summaryFormat", "snooze": ["5m", "10m", "1h"]}``. A message
    is returned as is. Unknown keys or option names raise ValueError."""
    if isinstance(value, request_pb2.Category):
        return value
    known = {"identifier", "actions", "intentIdentifiers", "options", "hiddenPreviewsBodyPlaceholder", "summaryFormat",
             "snooze"}
    unknown = set(value) - known
    if unknown:
        raise ValueError(f"unknown category keys: {sorted(unknown)}")
    message = request_pb2.Category(
        identifier=value["identifier"],
        intent_identifiers=list(value.get("intentIdentifiers", ())),
        hidden_previews_body_placeholder=value.get("hiddenPreviewsBodyPlaceholder", ""),
        summary_format=value.get("summaryFormat", ""),
        snooze_seconds=[duration_seconds(d) for d in value.get("snooze", ())])
    for name in value.get("options", ()):
        if name not in _CATEGORY_OPTIONS:
            raise ValueError(f"unknown category option {name!r}")
        setattr(message, _CATEGORY_OPTIONS[name], True)
    for item in value.get("actions", ()):
        action_keys = set(item) - {"identifier", "title", "options", "icon", "textInput"}
        if action_keys:
            raise ValueError(f"unknown action keys: {sorted(action_keys)}")
        action = message.actions.add(identifier=item["identifier"], title=item.get("title", ""), icon=item.get("icon", ""))
        for name in item.get("options", ()):
            if name not in _ACTION_OPTIONS:
                raise ValueError(f"unknown action option {name!r}")
            setattr(action, _ACTION_OPTIONS[name], True)
        if item.get("textInput") is not None:
            text_input = item["textInput"]
            action.text_input.button_title = text_input.get("buttonTitle", "")
            action.text_input.placeholder = text_input.get("placeholder", "")
    return message


def category_json(message: request_pb2.Category) -> dict[str, Any]:
    """The JSON shape of a category, as ``chime categories list --json`` prints it."""
    out: dict[str, Any] = {"identifier": message.identifier, "actions": []}
    for action in message.actions:
        item: dict[str, Any] = {"identifier": action.identifier, "title": action.title}
        options = [name for name, field in _ACTION_OPTIONS.items() if getattr(action, field)]
        if options:
            item["options"] = options
        if action.icon:
            item["icon"] = action.icon
        if action.HasField("text_input"):
            item["textInput"] = {"buttonTitle": action.text_input.button_title,
                                 "placeholder": action.text_input.placeholder}
        out["actions"].append(item)
    options = [name for name, field in _CATEGORY_OPTIONS.items() if getattr(message, field)]
    if options:
        out["options"] = options
    if message.intent_identifiers:
        out["intentIdentifiers"] = list(message.intent_identifiers)
    if message.hidden_previews_body_placeholder:
        out["hiddenPreviewsBodyPlaceholder"] = message.hidden_previews_body_placeholder
    if message.summary_format:
        out["summaryFormat"] = message.summary_format
    if message.snooze_seconds:
        out["snooze"] = [_duration_text(s) for s in message.snooze_seconds]
    return out


def notification_request(identifier: str, title: str = "", body: str = "", subtitle: str = "", *,
                         in_seconds: Optional[float] = None,
                         calendar: Optional[Mapping[str, Any]] = None,
                         repeats: bool = False,
                         rrule: Optional[str] = None,
                         start: str = "",
                         time_zone: str = "",
                         exclusions: Iterable[str] = (),
                         until: Optional[datetime] = None,
                         count: Optional[int] = None,
                         sound: Union[None, str, request_pb2.Sound] = None,
                         badge: Optional[int] = None,
                         user_info: Optional[Mapping[str, Any]] = None,
                         category: str = "",
                         thread: str = "",
                         interruption_level: Union[None, str, int] = None,
                         relevance_score: Optional[float] = None,
                         attachments: Iterable[Union[str, os.PathLike, request_pb2.Attachment]] = (),
                         ring_seconds: Optional[int] = None,
                         auto_snooze: Optional[int] = None
                         ) -> request_pb2.NotificationRequest:
    """Builds a chime.v1.NotificationRequest.

    Trigger: ``in_seconds`` (a time interval; ``repeats`` needs >= 60), or ``calendar``, a
    mapping of DateComponents fields (``{"hour": 9, "minute": 30, "time_zone":
    "Europe/Berlin"}``; ``"weekdays": [2, 3, 4, 5, 6]`` for Monday to Friday), or ``rrule``, an
    RFC 5545 rule (``"FREQ=MONTHLY;BYDAY=-1FR"``) with ``start`` (a local wall time such as
    ``"2026-12-01T17:00"``), ``time_zone`` (empty: floating) and ``exclusions`` (local wall
    times), or none: the request is delivered at once. A repeating interval or calendar trigger
    may end: ``until`` (a datetime, no fire after it) and ``count`` (at most that many fires).
    ``sound`` is "default",
    "none", a sound file name, or a chime.v1.Sound. ``user_info`` is encoded as JSON.
    ``attachments`` are file paths (moved into chimed's store when the request is accepted;
    copied when inside the app's bundle) or chime.v1.Attachment messages with options.
    ``ring_seconds`` (5...1800) makes it an alarm: once delivered its sound repeats until it is
    answered, dismissed or removed, or that many seconds pass (without a sound, the default
    sound rings). ``auto_snooze`` (0...10, with ``ring_seconds``): when the ring runs out
    unanswered, the notification is snoozed (by its category's first snooze duration, else
    10 minutes) and rings again when it comes back, up to that many snoozes.
    """
    if sum(x is not None for x in (in_seconds, calendar, rrule)) > 1:
        raise ValueError("give one of in_seconds, calendar and rrule")
    if (until is not None or count is not None) and not (repeats and (in_seconds is not None or calendar is not None)):
        raise ValueError("until and count end a repeating interval or calendar trigger (repeats=True)")
    content = request_pb2.NotificationContent(title=title, subtitle=subtitle, body=body,
                                              category_identifier=category,
                                              thread_identifier=thread)
    if badge is not None:
        content.badge = badge
    sound_message = _sound(sound)
    if sound_message is not None:
        content.sound.CopyFrom(sound_message)
    if user_info is not None:
        content.user_info_json = json.dumps(user_info, separators=(",", ":"), sort_keys=True)
    if interruption_level is not None:
        if isinstance(interruption_level, str):
            try:
                interruption_level = _INTERRUPTION_LEVELS[interruption_level.lower()]
            except KeyError:
                raise ValueError(f"unknown interruption level {interruption_level!r}") from None
        content.interruption_level = interruption_level
    if relevance_score is not None:
        content.relevance_score = relevance_score
    content.attachments.extend(_attachment(item) for item in attachments)
    if ring_seconds is not None:
        content.ring.seconds = ring_seconds
        if auto_snooze is not None:
            content.ring.auto_snooze = auto_snooze
    elif auto_snooze is not None:
        raise ValueError("auto_snooze needs ring_seconds")

    request = request_pb2.NotificationRequest(identifier=identifier, content=content)
    if in_seconds is not None:
        request.trigger.time_interval.seconds = float(in_seconds)
        request.trigger.time_interval.repeats = repeats
        _set_end(request.trigger.time_interval, until, count)
    elif rrule is not None:
        request.trigger.recurrence.rule = rrule
        request.trigger.recurrence.start = start
        request.trigger.recurrence.time_zone = time_zone
        request.trigger.recurrence.exclusions.extend(exclusions)
    elif calendar is not None:
        unknown = set(calendar) - set(_DATE_COMPONENTS)
        if unknown:
            raise ValueError(f"unknown date components: {', '.join(sorted(unknown))}")
        components = request.trigger.calendar.components
        components.SetInParent()  # an empty set of components is still a calendar trigger
        for name, value in calendar.items():
            if name == "weekdays":
                components.weekdays.extend(value)
            else:
                setattr(components, name, value)
        request.trigger.calendar.repeats = repeats
        _set_end(request.trigger.calendar, until, count)
    elif repeats:
        raise ValueError("repeats needs a trigger (in_seconds or calendar)")
    return request


def _set_end(trigger: Any, until: Optional[datetime], count: Optional[int]) -> None:
    if until is not None:
        trigger.end.until_unix_ms = int(until.timestamp() * 1000)
    if count is not None:
        trigger.end.count = count
