"""Snooze against the real chimed (see conftest.py): the call, its entry in the pending list,
the snoozed event, refusals, a snooze button answered as a response, and removal. The return
after the duration needs a clock the test can move: the Swift service tests cover it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from chime_client import SNOOZE_ACTION, ChimeError, Code, category, category_json, duration_seconds, pb

from test_client import wait_for

nc = pb.notification_center


def test_duration_text():
    assert [duration_seconds(d) for d in ("10m", "1h30m", "1d", "1w", "90", 120, timedelta(minutes=5))] == [
        600, 5400, 86400, 604800, 90, 120, 300]
    with pytest.raises(ValueError):
        duration_seconds("soon")


def test_snooze_moves_a_delivered_notification_to_the_pending_list(client):
    with client.subscribe() as events:
        wait_for(events, lambda e: e.kind == nc.EVENT_KIND_SUBSCRIBED)
        client.add("tea", title="Tea")
        wait_for(events, lambda e: e.kind == nc.EVENT_KIND_DELIVERED)
        entry = client.snooze("tea", "10m")
        assert entry.snooze_count == 1 and entry.identifier == "tea" and entry.title == "Tea"
        assert entry.next_fire_unix_ms - entry.added_unix_ms == 600_000
        snoozed, _ = wait_for(events, lambda e: e.kind == nc.EVENT_KIND_SNOOZED)
        assert list(snoozed.identifiers) == ["tea"] and snoozed.pending.next_fire_unix_ms == entry.next_fire_unix_ms
    assert client.delivered() == []
    assert [(p.identifier, p.snooze_count) for p in client.pending()] == [("tea", 1)]
    assert client.remove("tea") == ["tea"]
    assert client.pending() == []


def test_refusals(client):
    client.add("tea", title="Tea")
    with pytest.raises(ChimeError) as caught:
        client.snooze("tea", 30)
    assert (caught.value.code, caught.value.reason) == (Code.INVALID_ARGUMENT, "INVALID_SNOOZE_DURATION")
    with pytest.raises(ChimeError) as caught:
        client.snooze("coffee", "5m")
    assert (caught.value.code, caught.value.reason) == (Code.NOT_FOUND, "NOTIFICATION_NOT_DELIVERED")


def test_a_snooze_button_is_a_response(client):
    alarm = {"identifier": "alarm", "actions": [{"identifier": "stop", "title": "Stop"}], "snooze": ["5m", "1h"]}
    client.set_categories([alarm])
    assert category_json(client.categories()[0]) == alarm
    assert list(category(alarm).snooze_seconds) == [300, 3600]
    client.add("wake", title="Wake up", category="alarm")
    with pytest.raises(ChimeError) as caught:
        client.respond("wake", snooze="10m")
    assert caught.value.reason == "SNOOZE_NOT_OFFERED"
    with client.subscribe() as events:
        wait_for(events, lambda e: e.kind == nc.EVENT_KIND_SUBSCRIBED)
        assert client.respond("wake", snooze="5m").removed
        response, _ = wait_for(events, lambda e: e.kind == nc.EVENT_KIND_RESPONSE)
        assert response.response.action_identifier == SNOOZE_ACTION and response.response.snooze_seconds == 300
        wait_for(events, lambda e: e.kind == nc.EVENT_KIND_SNOOZED)
    assert [p.snooze_count for p in client.pending()] == [1]
