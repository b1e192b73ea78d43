"""chime_client against the real chimed (see conftest.py)."""

from __future__ import annotations

import threading
import time

import pytest

from chime_client import ChimeError, Client, Code, pb

EVENT_TIMEOUT = 10.0  # bound on waiting for any one event; nothing here sleeps a fixed time

nc = pb.notification_center
SUBSCRIBED = nc.EVENT_KIND_SUBSCRIBED
DELIVERED = nc.EVENT_KIND_DELIVERED
PENDING_ADDED = nc.EVENT_KIND_PENDING_ADDED
PENDING_REMOVED = nc.EVENT_KIND_PENDING_REMOVED


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def wait_for(subscription, predicate, timeout: float = EVENT_TIMEOUT):
    """Reads events until one matches; returns (match, events read before it)."""
    deadline = time.monotonic() + timeout
    seen = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            kinds = [nc.EventKind.Name(e.kind) for e in seen]
            raise AssertionError(f"no matching event within {timeout} s; saw {kinds}")
        event = subscription.next(timeout=left)
        if predicate(event):
            return event, seen
        seen.append(event)


def ids(requests) -> list[str]:
    return sorted(r.request.identifier for r in requests)


def test_add_pending_remove(client):
    before = now_ms()
    tea = client.add("tea", title="Tea", body="Ready", in_seconds=3600)
    assert tea.request.identifier == "tea"
    assert tea.request.content.title == "Tea"
    assert before + 3_600_000 <= tea.next_fire_unix_ms <= now_ms() + 3_600_000
    client.add("coffee", title="Coffee", in_seconds=7200, repeats=True)

    pending = client.pending()
    assert ids(pending) == ["coffee", "tea"]
    coffee = next(p for p in pending if p.request.identifier == "coffee")
    assert coffee.request.trigger.time_interval.repeats
    assert coffee.request.trigger.time_interval.seconds == 7200

    assert client.remove(["tea", "no-such-request"]) == ["tea"]
    assert ids(client.pending()) == ["coffee"]
    assert client.remove("coffee") == ["coffee"]  # a bare string is one identifier
    assert client.pending() == []
    assert client.remove_all() == []


def test_same_identifier_replaces(client):
    first = client.add_request(pb.request.NotificationRequest(
        identifier="walk", content=pb.request.NotificationContent(title="Walk"),
        trigger=pb.request.Trigger(time_interval=pb.request.TimeIntervalTrigger(seconds=600))))
    assert not first.replaced
    second = client.add_request(pb.request.NotificationRequest(
        identifier="walk", content=pb.request.NotificationContent(title="Walk the dog"),
        trigger=pb.request.Trigger(time_interval=pb.request.TimeIntervalTrigger(seconds=900))))
    assert second.replaced
    [only] = client.pending()
    assert only.request.content.title == "Walk the dog"
    assert client.remove_all() == ["walk"]


def test_pending_pages(client):
    for n in range(7):
        client.add(f"r{n}", title=f"R{n}", in_seconds=1000 + n)
    first = client.pending_page(page_size=3)
    assert len(first.requests) == 3 and first.next_page_token
    assert ids(client.pending(page_size=3)) == [f"r{n}" for n in range(7)]
    assert sorted(client.remove_all()) == [f"r{n}" for n in range(7)]


def test_no_trigger_is_delivered_at_once(client):
    answer = client.add_request(pb.request.NotificationRequest(
        identifier="now", content=pb.request.NotificationContent(title="Right now", body="B")))
    assert answer.HasField("delivered")
    assert answer.delivered.request.identifier == "now"
    assert client.pending() == []

    [delivered] = client.delivered()
    assert delivered.request.identifier == "now"
    assert delivered.request.content.title == "Right now"
    assert not delivered.missed
    assert client.remove_delivered(["now", "never"]) == ["now"]
    assert client.delivered() == []

    client.add("again", title="Again")  # the convenience form delivers at once too
    client.add("and-again", title="And again")
    assert sorted(client.remove_all_delivered()) == ["again", "and-again"]
    assert client.delivered() == []


def test_interval_fires_and_subscriber_sees_it(client):
    with client.subscribe() as events:
        live = events.next(timeout=EVENT_TIMEOUT)
        assert live.kind == SUBSCRIBED

        added_at = now_ms()
        client.add("soon", title="Soon", in_seconds=0.3)
        fired, before = wait_for(events, lambda e: e.kind == DELIVERED)
        assert list(fired.identifiers) == ["soon"] or fired.delivered.request.identifier == "soon"
        assert fired.delivered.request.content.title == "Soon"
        assert fired.delivered.due_unix_ms >= added_at + 300
        assert fired.delivered.delivered_unix_ms >= fired.delivered.due_unix_ms
        assert any(e.kind == PENDING_ADDED for e in before)
        assert all(e.cursor > live.cursor for e in before + [fired])

    assert client.pending() == []
    assert [d.request.identifier for d in client.delivered()] == ["soon"]


def test_subscribe_resumes_after_cursor(client):
    with client.subscribe() as events:
        start = events.next(timeout=EVENT_TIMEOUT)
        assert start.kind == SUBSCRIBED
        client.add("one", title="One", in_seconds=600)
        client.add("two", title="Two", in_seconds=600)
        client.remove("one")
        wait_for(events, lambda e: e.kind == PENDING_REMOVED)

    with client.subscribe(after=start.cursor) as replay:
        replayed = []
        while True:
            event = replay.next(timeout=EVENT_TIMEOUT)
            if event.kind == SUBSCRIBED:
                break
            replayed.append(event)
    assert [(nc.EventKind.Name(e.kind), list(e.identifiers)) for e in replayed] == [
        ("EVENT_KIND_PENDING_ADDED", ["one"]),
        ("EVENT_KIND_PENDING_ADDED", ["two"]),
        ("EVENT_KIND_PENDING_REMOVED", ["one"]),
    ]
    cursors = [e.cursor for e in replayed]
    assert cursors == sorted(cursors) and cursors[0] > start.cursor


def test_apps_are_isolated(daemon):
    with Client(daemon.socket_path, app="org.example.iso-a", timeout=10) as a, \
         Client(daemon.socket_path, app="org.example.iso-b", timeout=10) as b:
        with b.subscribe() as b_events:
            assert b_events.next(timeout=EVENT_TIMEOUT).kind == SUBSCRIBED
            a.add("shared", title="A's", in_seconds=600)
            a.add("a-now", title="A delivered")  # delivered at once, for A only
            assert b.pending() == []
            assert b.delivered() == []
            assert b.remove(["shared"]) == []
            assert b.remove_all_delivered() == []

            b.add("shared", title="B's", in_seconds=600)
            # B's own event comes first: A's earlier events never reach B's stream.
            event, before = wait_for(b_events, lambda e: e.kind == PENDING_ADDED)
            assert list(event.identifiers) == ["shared"] and before == []
            assert event.pending.request.content.title == "B's"

        [a_shared] = a.pending()
        assert a_shared.request.content.title == "A's"
        [b_shared] = b.pending()
        assert b_shared.request.content.title == "B's"
        assert [d.request.identifier for d in a.delivered()] == ["a-now"]
        assert b.remove_all() == ["shared"]
        assert ids(a.pending()) == ["shared"]
        a.remove_all()
        a.remove_all_delivered()


def test_repeating_interval_under_a_minute_is_invalid(client):
    with pytest.raises(ChimeError) as caught:
        client.add("nag", title="Nag", in_seconds=30, repeats=True)
    error = caught.value
    assert error.code == Code.INVALID_ARGUMENT == 3
    assert error.reason == "INVALID_INTERVAL"
    assert error.field.endswith("time_interval.seconds")
    assert error.message
    assert "INVALID_INTERVAL" in str(error)
    assert client.pending() == []  # nothing was added
    # the connection is still good after an error status
    assert client.add("ok", title="Ok", in_seconds=60, repeats=True).request.identifier == "ok"
    assert client.remove_all() == ["ok"]


def test_bad_app_id_is_refused(daemon):
    with Client(daemon.socket_path, app="not a reverse dns id!", timeout=10) as bad:
        with pytest.raises(ChimeError) as caught:
            bad.pending()
    assert caught.value.code == Code.INVALID_ARGUMENT
    assert caught.value.reason == "INVALID_APP_ID"


def test_unimplemented_method(client):
    with pytest.raises(ChimeError) as caught:
        client.call("NoSuchMethod", nc.Empty(), nc.Empty)
    assert caught.value.code == Code.UNIMPLEMENTED
    assert client.pending() == []


def test_calendar_trigger_is_encoded_or_unimplemented(client):
    # Calendar triggers are in the contract; until the daemon implements them it answers
    # UNIMPLEMENTED. Either way the call must come back as a clean answer.
    try:
        stored = client.add("standup", title="Standup", calendar={"hour": 9, "minute": 30}, repeats=True)
    except ChimeError as error:
        assert error.code == Code.UNIMPLEMENTED, error
    else:
        assert stored.next_fire_unix_ms > now_ms()
        assert stored.request.trigger.calendar.components.hour == 9
        client.remove_all()


def test_concurrent_calls_share_one_connection(client):
    failures: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for k in range(10):
                stored = client.add(f"t{n}-{k}", title=f"{n}/{k}", in_seconds=600 + k)
                assert stored.request.identifier == f"t{n}-{k}"
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    assert len(client.pending()) == 80
    assert len(client.remove_all()) == 80


def test_stream_and_unary_calls_interleave(client):
    events = client.subscribe()
    assert events.next(timeout=EVENT_TIMEOUT).kind == SUBSCRIBED
    client.add("x", title="X", in_seconds=600)
    event, _ = wait_for(events, lambda e: e.kind == PENDING_ADDED)
    assert list(event.identifiers) == ["x"]
    events.close()
    events.close()  # idempotent
    with pytest.raises(StopIteration):
        next(events)
    # The daemon's CANCELLED answer to the closed stream must not confuse later calls.
    assert ids(client.pending()) == ["x"]
    assert client.remove_all() == ["x"]


def test_oversized_call_is_refused_locally(client):
    with pytest.raises(ChimeError) as caught:
        client.add("big", body="x" * (2 << 20), in_seconds=600)
    assert caught.value.reason == "FRAME_TOO_LARGE"
    assert client.pending() == []  # connection unharmed


def test_a_message_over_the_daemons_limit_fails_that_call_only(daemon, app_id):
    # The client's own limit raised past chimed's 1 MiB: chimed refuses the message itself.
    with Client(daemon.socket_path, app=app_id, timeout=10, max_frame_bytes=8 << 20) as chime:
        with pytest.raises(ChimeError) as caught:
            chime.add("big", body="x" * (2 << 20), in_seconds=600)
        assert (caught.value.code, caught.value.reason) == (Code.RESOURCE_EXHAUSTED, "FRAME_TOO_LARGE")
        assert chime.pending() == []  # the connection is still good


def test_closed_client_raises(daemon, app_id):
    chime = Client(daemon.socket_path, app=app_id)
    chime.close()
    assert chime.closed
    with pytest.raises(ChimeError) as caught:
        chime.pending()
    assert caught.value.code == Code.UNAVAILABLE
    assert caught.value.reason == "CONNECTION_CLOSED"
    chime.close()  # idempotent


def test_no_daemon(tmp_path):
    with pytest.raises(ChimeError) as caught:
        Client(str(tmp_path / "nobody.sock"), app="org.example.none")
    assert caught.value.code == Code.UNAVAILABLE
    assert caught.value.reason == "DAEMON_UNAVAILABLE"


def test_daemon_shutdown_ends_streams(own_daemon):
    with Client(own_daemon.socket_path, app="org.example.shutdown", timeout=10) as chime:
        chime.add("kept", title="Kept", in_seconds=3600)
        events = chime.subscribe()
        assert events.next(timeout=EVENT_TIMEOUT).kind == SUBSCRIBED
        assert own_daemon.stop() == 0
        with pytest.raises((ChimeError, StopIteration)) as caught:
            events.next(timeout=EVENT_TIMEOUT)
        if isinstance(caught.value, ChimeError):
            assert caught.value.code in (Code.UNAVAILABLE, Code.CANCELLED), caught.value
        with pytest.raises(ChimeError) as caught:
            chime.pending()
        assert caught.value.code == Code.UNAVAILABLE


def test_weekday_sets_recurrence_rules_and_ends(client):
    weekdays = client.add("workdays", title="Work", calendar={"hour": 9, "weekdays": [2, 3, 4, 5, 6]}, repeats=True,
                          count=10)
    assert weekdays.calendar["weekdays"] == [2, 3, 4, 5, 6] and weekdays.repeats
    assert weekdays.raw.request.trigger.calendar.end.count == 10
    rule = client.add("last-friday", title="Report", rrule="FREQ=MONTHLY;BYDAY=-1FR", start="2026-12-01T17:00",
                      time_zone="Europe/Berlin", exclusions=["2026-12-25T17:00"])
    assert rule.recurrence == {"rule": "FREQ=MONTHLY;BYDAY=-1FR", "start": "2026-12-01T17:00",
                               "time_zone": "Europe/Berlin", "exclusions": ["2026-12-25T17:00"]}
    listed = {p.identifier: p for p in client.pending()}
    assert listed["last-friday"].recurrence["rule"] == "FREQ=MONTHLY;BYDAY=-1FR"
    with pytest.raises(ChimeError) as refused:
        client.add("bad-rule", title="x", rrule="FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO", start="2026-12-01T17:00")
    assert refused.value.reason == "INVALID_RECURRENCE_RULE" and "BYSETPOS" in str(refused.value)
    with pytest.raises(ValueError):
        client.add("no-end-without-repeats", title="x", in_seconds=60, count=2)


def test_do_not_disturb_on_until_and_off(client):
    from datetime import datetime, timedelta, timezone

    until = datetime.now(timezone.utc) + timedelta(hours=1)
    state = client.set_do_not_disturb(on=True, until=until)
    assert state.active and state.source == nc.DO_NOT_DISTURB_SOURCE_MANUAL
    assert abs(state.until_unix_ms - int(until.timestamp() * 1000)) < 1000
    assert client.do_not_disturb().active
    with pytest.raises(ChimeError) as refused:
        client.set_do_not_disturb(schedule=(22 * 60, 22 * 60))
    assert refused.value.reason == "INVALID_DND_SCHEDULE"
    assert not client.set_do_not_disturb(on=False).active


def test_do_not_disturb_follow_desktop_and_summary_settings(client):
    state = client.do_not_disturb()
    # Both on by default; the test daemon follows no desktop, so none is named.
    assert state.follow_desktop and state.summary and state.desktop == ""
    state = client.set_do_not_disturb(follow_desktop=False, summary=False)
    assert not state.follow_desktop and not state.summary
    # A part left out is unchanged.
    state = client.set_do_not_disturb(summary=True)
    assert not state.follow_desktop and state.summary
    assert nc.DO_NOT_DISTURB_SOURCE_DESKTOP == 3
