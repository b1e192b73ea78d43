"""Typed results, next_trigger_dates and per-call timeouts against the real chimed (see conftest.py)."""

from __future__ import annotations

import socket
import time
from datetime import datetime, timezone

import pytest

from chime_client import (AppLayout, AuthorizationStatus, ChimeError, Client, Code, Delivered, FireDate, Pending,
                          ServerInfo, Settings, pb)

NEW_YEAR_2026 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def test_pending_and_delivered_are_dataclasses_with_the_message_behind(client):
    added = client.add("tea", "Tea", "Ready", subtitle="Green", in_seconds=180, category="drinks", thread="t")
    assert isinstance(added, Pending)
    assert (added.identifier, added.title, added.subtitle, added.body) == ("tea", "Tea", "Green", "Ready")
    assert (added.category_identifier, added.thread_identifier, added.interval_seconds, added.repeats) == ("drinks", "t", 180.0, False)
    assert added.next_fire == datetime.fromtimestamp(added.next_fire_unix_ms / 1000, tz=timezone.utc)
    assert added.calendar is None
    assert added.request.content.title == "Tea", "anything else comes from the chime.v1 message"
    assert isinstance(added.raw, pb.request.PendingRequest)
    [listed] = client.pending()
    assert listed == added

    daily = client.add("standup", "Standup", calendar={"hour": 9, "minute": 30, "time_zone": "UTC"}, repeats=True)
    assert daily.calendar == {"hour": 9, "minute": 30, "time_zone": "UTC"} and daily.repeats
    assert daily.next_fire.hour == 9 and daily.next_fire.minute == 30

    client.add("now", "Now", "At once")
    [delivered] = client.delivered()
    assert isinstance(delivered, Delivered)
    assert (delivered.identifier, delivered.title, delivered.body, delivered.missed) == ("now", "Now", "At once", False)
    assert delivered.delivered_at is not None and delivered.due_unix_ms > 0


def test_next_trigger_dates(client):
    dates = client.next_trigger_dates(calendar={"hour": 9, "minute": 30, "time_zone": "UTC"}, repeats=True,
                                      after=NEW_YEAR_2026, count=3)
    assert all(isinstance(d, FireDate) for d in dates)
    assert [d.at for d in dates] == [datetime(2026, 1, day, 9, 30, tzinfo=timezone.utc) for day in (1, 2, 3)]
    assert dates[0].time_zone == "UTC" and dates[0].utc_offset_seconds == 0
    every = client.next_trigger_dates(in_seconds=120, repeats=True, after=int(NEW_YEAR_2026.timestamp() * 1000),
                                      count=2)
    assert every[1].unix_ms - every[0].unix_ms == 120_000
    assert client.pending() == [], "nothing was scheduled"
    with pytest.raises(ChimeError) as caught:
        client.next_trigger_dates(calendar={"month": 13})
    assert caught.value.code == Code.INVALID_ARGUMENT and "month" in caught.value.field
    with pytest.raises(ValueError):
        client.next_trigger_dates()


def test_settings_authorization_and_apps_are_typed(client, tmp_path, app_id):
    granted = client.request_authorization(alert=True, sound=True, badge=True)
    assert granted.granted and isinstance(granted.settings, Settings)
    client.set_badge_count(2)
    settings = client.settings()
    assert settings.authorization_status is AuthorizationStatus.AUTHORIZED
    assert settings.badge_count == 2 and settings.alert
    container = tmp_path / "container"
    container.mkdir()
    layout = client.register_app(container=str(container), display_name="Tea Timer")
    assert isinstance(layout, AppLayout) and layout.registered
    assert (layout.container, layout.display_name, layout.group_containers) == (str(container), "Tea Timer", [])
    assert client.app_layout() == layout
    assert app_id in [app.app_id for app in client.list_apps()]


def test_a_per_call_timeout_raises_deadline_exceeded(tmp_path):
    # A socket that accepts and never answers; that the timeout is sent as the call's
    # grpc-timeout is test_offline.test_what_a_call_sends.
    path = str(tmp_path / "silent.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(1)
        with Client(path, app="org.example.silent", timeout=30) as client:
            started = time.monotonic()
            with pytest.raises(ChimeError) as caught:
                client.pending(timeout=0.2)
            assert time.monotonic() - started < 5
            assert (caught.value.code, caught.value.reason) == (Code.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED")


def test_server_info_says_what_is_serving(daemon, client):
    info = client.server_info()
    assert isinstance(info, ServerInfo)
    assert info.pid == daemon.process.pid
    assert info.version.startswith("0.") and info.socket_path == daemon.socket_path
    assert info.data_directory == str(daemon.data_dir.resolve())
    assert info.started_at <= datetime.now(timezone.utc)
