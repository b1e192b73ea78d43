"""Every NotificationCenter method over real gRPC (grpcio from PyPI) against a real chimed."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from chime.v1 import notification_center_pb2 as nc
from chime.v1 import request_pb2 as rq


def md(app: str) -> list[tuple[str, str]]:
    return [("chime-app", app)]


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    """The google.rpc.ErrorInfo of a refusal's grpc-status-details-bin."""
    status = rpc_status.from_call(error)
    assert status is not None, f"no grpc-status-details-bin on {error.code()} {error.details()}"
    assert status.code == error.code().value[0]
    assert status.message == error.details()
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    raise AssertionError(f"no ErrorInfo in {status}")


def tea(identifier: str = "tea", seconds: float = 600, repeats: bool = False) -> rq.NotificationRequest:
    return rq.NotificationRequest(
        identifier=identifier, content=rq.NotificationContent(title="Tea", body="Steeped"),
        trigger=rq.Trigger(time_interval=rq.TimeIntervalTrigger(seconds=seconds, repeats=repeats)))


def test_add_list_and_remove(stub, app_id):
    added = stub.Add(nc.AddRequest(request=tea()), metadata=md(app_id), timeout=10)
    assert added.pending.request.identifier == "tea" and not added.replaced
    assert stub.Add(nc.AddRequest(request=tea()), metadata=md(app_id), timeout=10).replaced
    pending = stub.GetPending(nc.PageRequest(), metadata=md(app_id), timeout=10)
    assert [p.request.identifier for p in pending.requests] == ["tea"]
    assert pending.requests[0].request.content.title == "Tea"
    assert list(stub.RemovePending(nc.IdentifiersRequest(identifiers=["tea"]), metadata=md(app_id), timeout=10).removed) == ["tea"]
    stub.Add(nc.AddRequest(request=tea("a")), metadata=md(app_id), timeout=10)
    assert list(stub.RemoveAllPending(nc.Empty(), metadata=md(app_id), timeout=10).removed) == ["a"]
    assert not stub.GetPending(nc.PageRequest(), metadata=md(app_id), timeout=10).requests


def test_a_refusal_carries_its_reason_and_field_in_error_info(stub, app_id):
    with pytest.raises(grpc.RpcError) as refused:
        stub.Add(nc.AddRequest(request=tea(seconds=30, repeats=True)), metadata=md(app_id), timeout=10)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "at least 60 seconds" in refused.value.details()
    info = error_info(refused.value)
    assert info.reason == "INVALID_INTERVAL"
    assert info.domain == "chime"
    assert info.metadata["field"] == "request.trigger.time_interval.seconds"


def test_grpc_message_survives_non_ascii_text(stub, app_id):
    identifier = "tee-\u00e9t\u00e9-%" + "x" * 300
    with pytest.raises(grpc.RpcError) as refused:
        stub.Add(nc.AddRequest(request=tea(identifier)), metadata=md(app_id), timeout=10)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(refused.value).reason


def test_the_app_id_follows_the_native_rules(stub):
    with pytest.raises(grpc.RpcError) as missing:
        stub.GetPending(nc.PageRequest(), timeout=10)
    assert missing.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(missing.value).reason == "INVALID_APP_ID"
    with pytest.raises(grpc.RpcError) as bad:
        stub.GetPending(nc.PageRequest(), metadata=md("not an app id"), timeout=10)
    assert error_info(bad.value).reason == "INVALID_APP_ID"


def test_apps_do_not_see_each_other(stub, app_id):
    stub.Add(nc.AddRequest(request=tea("mine")), metadata=md(app_id), timeout=10)
    assert not stub.GetPending(nc.PageRequest(), metadata=md(app_id + ".other"), timeout=10).requests


def test_every_other_unary_method_is_served(stub, app_id, tmp_path):
    m = md(app_id)
    info = stub.GetServerInfo(nc.Empty(), metadata=m, timeout=10)
    assert info.pid > 0 and info.version
    assert not stub.GetDelivered(nc.PageRequest(), metadata=m, timeout=10).notifications
    assert not stub.RemoveDelivered(nc.IdentifiersRequest(identifiers=["x"]), metadata=m, timeout=10).removed
    assert not stub.RemoveAllDelivered(nc.Empty(), metadata=m, timeout=10).removed
    dates = stub.NextTriggerDates(nc.NextTriggerDatesRequest(
        trigger=rq.Trigger(time_interval=rq.TimeIntervalTrigger(seconds=60, repeats=True)),
        after_unix_ms=1_000_000, count=3), metadata=m, timeout=10)
    assert [d.unix_ms for d in dates.dates] == [1_060_000, 1_120_000, 1_180_000]
    stub.SetCategories(nc.SetCategoriesRequest(categories=[rq.Category(identifier="invite")]), metadata=m, timeout=10)
    assert [c.identifier for c in stub.GetCategories(nc.Empty(), metadata=m, timeout=10).categories] == ["invite"]
    assert stub.RequestAuthorization(nc.AuthorizationRequest(alert=True, sound=True, badge=True), metadata=m, timeout=10).granted
    stub.SetBadgeCount(nc.SetBadgeCountRequest(count=3), metadata=m, timeout=10)
    assert stub.GetSettings(nc.Empty(), metadata=m, timeout=10).badge_count == 3
    assert stub.SetAppSettings(nc.AppSettingsRequest(app_id=app_id, sound=False), metadata=m, timeout=10).sound is False
    layout = stub.RegisterApp(nc.RegisterAppRequest(display_name="Grpc Test"), metadata=m, timeout=10)
    assert layout.app_id == app_id
    assert stub.GetApp(nc.Empty(), metadata=m, timeout=10).app_id == app_id
    assert app_id in [a.app_id for a in stub.ListApps(nc.Empty(), metadata=m, timeout=10).apps]
    assert app_id in [a.app_id for a in stub.ListKnownApps(nc.Empty(), metadata=m, timeout=10).apps]
    assert stub.CheckSound(nc.CheckSoundRequest(name="missing.wav"), metadata=m, timeout=10).searched
    pushed = stub.Push(nc.PushRequest(payload=b'{"aps": {"alert": {"title": "Hi"}}}', identifier="p1"), metadata=m, timeout=10)
    assert pushed.delivered.request.identifier == "p1"
    snoozed = stub.Snooze(nc.SnoozeRequest(notification_identifier="p1", duration_seconds=600), metadata=m, timeout=10).snoozed
    assert snoozed.snooze_count == 1 and snoozed.next_fire_unix_ms - snoozed.added_unix_ms == 600_000
    added = stub.AddCalendar(nc.AddCalendarRequest(name="grpc", path=str(tmp_path)), metadata=m, timeout=10)
    assert added.app_id == "io.github.chime.calendar.grpc" and added.path == str(tmp_path)
    assert [c.name for c in stub.ListCalendars(nc.Empty(), metadata=m, timeout=10).calendars] == ["grpc"]
    assert [c.name for c in stub.SyncCalendars(nc.SyncCalendarsRequest(), metadata=m, timeout=10).calendars] == ["grpc"]
    assert stub.RemoveCalendar(nc.RemoveCalendarRequest(name="grpc"), metadata=m, timeout=10).withdrawn_alarms == 0
    # Calls that need an extension or a delivery the app does not have: refused by the service,
    # each with Chime's reason, which proves they were routed.
    refusals = [
        (stub.Respond, nc.RespondRequest(response=nc.NotificationResponse(notification_identifier="nope", action_identifier="x"))),
        (stub.AnswerResponse, nc.AnswerResponseRequest(extension_identifier="ext", response_id=1)),
        (stub.PressMediaButton, nc.PressMediaButtonRequest(notification_identifier="nope", command=nc.MEDIA_COMMAND_PLAY)),
        (stub.ReportMediaPlayback, nc.ReportMediaPlaybackRequest(extension_identifier="ext", notification_identifier="nope",
                                                                 playback=rq.MEDIA_PLAYBACK_PLAYING)),
        (stub.AnswerService, nc.AnswerServiceRequest(extension_identifier="ext", request_id=1)),
    ]
    for method, request in refusals:
        try:
            method(request, metadata=m, timeout=10)
        except grpc.RpcError as error:
            assert error.code() not in (grpc.StatusCode.UNIMPLEMENTED, grpc.StatusCode.INTERNAL, grpc.StatusCode.UNAVAILABLE), error
            assert error_info(error).domain == "chime"


def test_subscribe_streams_events_and_cancelling_ends_it(stub, app_id):
    events = stub.Subscribe(nc.SubscribeRequest(), metadata=md(app_id), timeout=30)
    first = next(events)
    assert first.kind == nc.EVENT_KIND_SUBSCRIBED
    stub.Add(nc.AddRequest(request=tea("streamed")), metadata=md(app_id), timeout=10)
    added = next(events)
    assert added.kind == nc.EVENT_KIND_PENDING_ADDED and added.pending.request.identifier == "streamed"
    events.cancel()
    with pytest.raises(grpc.RpcError) as ended:
        next(events)
    assert ended.value.code() == grpc.StatusCode.CANCELLED
    # Resuming after the cursor replays what came after it.
    stub.Add(nc.AddRequest(request=tea("later")), metadata=md(app_id), timeout=10)
    resumed = stub.Subscribe(nc.SubscribeRequest(after_cursor=added.cursor), metadata=md(app_id), timeout=30)
    replay = next(resumed)
    assert replay.kind == nc.EVENT_KIND_PENDING_ADDED and replay.pending.request.identifier == "later"
    resumed.cancel()


def test_register_extension_streams_its_registration(stub, app_id):
    stream = stub.RegisterExtension(nc.RegisterExtensionRequest(extension_identifier="ext", category_identifiers=["c"],
                                                               attributes=rq.ExtensionAttributes(initial_content_size_ratio=0.5)),
                                    metadata=md(app_id), timeout=30)
    assert next(stream).registered
    stream.cancel()


@pytest.mark.parametrize("authority", ["localhost", "SOCKET", "chimed.sock", "a/b:1"])
def test_any_authority_is_accepted(daemon, app_id, authority):
    # grpcurl and grpc-go send the socket's path as :authority on a Unix socket; grpcio sends
    # "localhost". The authority names nothing on a Unix socket, so any is accepted.
    from chime.v1 import notification_center_pb2_grpc as ncg

    value = daemon.socket_path if authority == "SOCKET" else authority
    with grpc.insecure_channel(daemon.target, options=[("grpc.default_authority", value)]) as channel:
        info = ncg.NotificationCenterStub(channel).GetServerInfo(nc.Empty(), metadata=md(app_id), timeout=10)
    assert info.socket_path == daemon.socket_path
