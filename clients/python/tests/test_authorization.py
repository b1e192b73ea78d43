"""Authorization, settings and badge through chime_client against the real chimed."""

from __future__ import annotations


import pytest

from chime_client import ChimeError, Client, Code, pb
from conftest import Daemon, _stop_cleanly, chimed_binary

nc = pb.notification_center


def test_first_request_records_and_later_ones_return_it(client):
    assert client.settings().authorization_status == nc.AUTHORIZATION_STATUS_NOT_DETERMINED
    first = client.request_authorization(alert=True, sound=True)
    assert first.granted
    assert first.settings.authorization_status == nc.AUTHORIZATION_STATUS_AUTHORIZED
    assert first.settings.sound and not first.settings.badge
    later = client.request_authorization(alert=True, badge=True, critical_alert=True)
    assert later == first
    assert client.settings() == first.settings


def test_badge_set_clear_and_refused(client):
    sub = client.subscribe()
    try:
        while sub.next(timeout=10).kind != nc.EVENT_KIND_SUBSCRIBED:
            pass
        client.set_badge_count(3)
        event = sub.next(timeout=10)
        assert event.kind == nc.EVENT_KIND_BADGE_CHANGED and event.badge_count == 3
        assert client.badge_count() == 3
        client.add("b", title="B", badge=0)
        while True:
            event = sub.next(timeout=10)
            if event.kind == nc.EVENT_KIND_BADGE_CHANGED:
                break
        assert event.badge_count == 0 and list(event.identifiers) == ["b"]
    finally:
        sub.close()
    with pytest.raises(ChimeError) as caught:
        client.set_badge_count(-1)
    assert caught.value.code == Code.INVALID_ARGUMENT
    assert caught.value.reason == "BADGE_INPUT_INVALID"


def test_user_denies_and_allows_another_app(daemon, client, app_id):
    with Client(daemon.socket_path, app="chime.cli", timeout=10) as user:
        denied = user.set_app_settings(app_id, allow=False)
        assert denied.authorization_status == nc.AUTHORIZATION_STATUS_DENIED
        with pytest.raises(ChimeError) as caught:
            client.add("x", title="X", in_seconds=60)
        assert caught.value.code == Code.PERMISSION_DENIED
        assert caught.value.reason == "NOTIFICATIONS_NOT_ALLOWED"
        allowed = user.set_app_settings(app_id, allow=True, sound=False)
        assert allowed.authorization_status == nc.AUTHORIZATION_STATUS_AUTHORIZED
        assert allowed.alert and allowed.badge and not allowed.sound
        client.add("x", title="X", in_seconds=60)
        assert [p.request.identifier for p in client.pending()] == ["x"]


def test_ask_denies_policy():
    daemon = Daemon(chimed_binary(), "--authorization", "ask-denies")
    try:
        with Client(daemon.socket_path, app="org.example.asked", timeout=10) as app:
            assert not app.request_authorization(alert=True).granted
            with pytest.raises(ChimeError) as caught:
                app.add("x", title="X", in_seconds=60)
            assert caught.value.reason == "NOTIFICATIONS_NOT_ALLOWED"
    finally:
        _stop_cleanly(daemon)
