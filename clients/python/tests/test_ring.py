"""Alarms that ring (content.ring) through the Python client, against the real chimed."""

from __future__ import annotations

import pytest

from chime_client import ChimeError, Code, pb

from test_client import wait_for

nc = pb.notification_center
req = pb.request


def test_ring_is_kept_with_the_request_and_the_default_sound_fills_in(client):
    added = client.add("wake", title="Wake up", in_seconds=3600, ring_seconds=300)
    assert added.request.content.ring.seconds == 300
    (pending,) = client.pending()
    assert pending.request.content.ring.seconds == 300
    # A ring with no sound rings the default one.
    assert pending.request.content.sound.kind == req.SOUND_KIND_DEFAULT


def test_a_removed_ringing_notification_ends_its_ring(client):
    with client.subscribe() as events:
        wait_for(events, lambda e: e.kind == nc.EVENT_KIND_SUBSCRIBED)
        client.add("alarm", title="Alarm", ring_seconds=60)
        delivered = wait_for(events, lambda e: e.kind == nc.EVENT_KIND_DELIVERED)[0]
        assert delivered.delivered.request.content.ring.seconds == 60
        assert delivered.delivered.ring_ended == ""
        assert client.remove_delivered("alarm") == ["alarm"]
        ended = wait_for(events, lambda e: e.kind == nc.EVENT_KIND_RING_ENDED)[0]
        assert list(ended.identifiers) == ["alarm"]
        assert ended.note == "removed"


@pytest.mark.parametrize("seconds, sound", [(2, None), (1801, None), (60, "none")])
def test_a_ring_out_of_range_or_silent_is_refused(client, seconds, sound):
    with pytest.raises(ChimeError) as caught:
        client.add("bad", title="Bad", in_seconds=60, ring_seconds=seconds, sound=sound)
    assert (caught.value.code, caught.value.reason) == (Code.INVALID_ARGUMENT, "INVALID_RING")


def test_auto_snooze_is_kept_and_bounded(client):
    added = client.add("nap", title="Up", in_seconds=3600, ring_seconds=120, auto_snooze=3)
    assert added.request.content.ring.auto_snooze == 3
    with pytest.raises(ChimeError) as caught:
        client.add("nap", title="Up", in_seconds=3600, ring_seconds=120, auto_snooze=11)
    assert (caught.value.code, caught.value.reason) == (Code.INVALID_ARGUMENT, "INVALID_RING")
    with pytest.raises(ValueError):
        client.add("nap", title="Up", in_seconds=3600, auto_snooze=2)
