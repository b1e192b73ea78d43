"""Calendars against the real chimed (see conftest.py): a vdir registered with add_calendar, its
alarm pending under the calendar's own app, a sync, refusals and removal."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from chime_client import ChimeError, Client


def item(uid: str, start: datetime) -> str:
    stamp = start.strftime("%Y%m%dT%H%M%SZ")
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Chime tests//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:{stamp}\r\nSUMMARY:Planning\r\nBEGIN:VALARM\r\n"
            "ACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def test_a_calendar_is_added_listed_synced_and_removed(client, daemon, tmp_path):
    vdir = tmp_path / "work"
    vdir.mkdir()
    start = (datetime.now(timezone.utc) + timedelta(hours=3)).replace(microsecond=0)
    (vdir / "planning.ics").write_text(item("planning", start), newline="")
    added = client.add_calendar("py-work", str(vdir))
    assert (added.name, added.path, added.app_id) == ("py-work", str(vdir), "io.github.chime.calendar.py-work")
    assert (added.item_count, added.alarm_count, list(added.errors)) == (1, 1, [])
    # The alarm is a pending request of the calendar's own app, ten minutes before the start.
    with Client(daemon.socket_path, app="io.github.chime.calendar.py-work", timeout=10.0) as calendar_app:
        (alarm,) = calendar_app.pending()
        assert alarm.title == "Planning"
        assert alarm.next_fire_unix_ms == int((start - timedelta(minutes=10)).timestamp() * 1000)
    assert [c.name for c in client.calendars()] == ["py-work"]
    assert [c.item_count for c in client.sync_calendars("py-work")] == [1]
    with pytest.raises(ChimeError) as refused:
        client.add_calendar("py-work", str(vdir))
    assert refused.value.reason == "CALENDAR_EXISTS"
    with pytest.raises(ChimeError) as refused:
        client.add_calendar("elsewhere", str(tmp_path / "missing"))
    assert refused.value.reason == "INVALID_CALENDAR_PATH"
    assert client.remove_calendar("py-work") == 1
    assert client.calendars() == []
    with pytest.raises(ChimeError) as refused:
        client.sync_calendars("py-work")
    assert refused.value.reason == "CALENDAR_NOT_FOUND"
