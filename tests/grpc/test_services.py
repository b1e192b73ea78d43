"""Reflection, health, the native CLI beside gRPC on one socket, and shutdown."""

from __future__ import annotations

import json

import grpc
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from chime.v1 import notification_center_pb2 as nc
from chime.v1 import notification_center_pb2_grpc as ncg
from chime.v1 import request_pb2 as rq


def test_reflection_lists_and_describes_the_service(channel):
    database = ProtoReflectionDescriptorDatabase(channel)  # v1alpha, as older grpcurl asks
    assert "chime.v1.NotificationCenter" in database.get_services()
    service_file = database.FindFileContainingSymbol("chime.v1.NotificationCenter")
    service = next(s for s in service_file.service if s.name == "NotificationCenter")
    methods = {m.name: m for m in service.method}
    assert methods["Add"].input_type == ".chime.v1.AddRequest"
    assert methods["Subscribe"].server_streaming
    assert "chime/v1/request.proto" in service_file.dependency
    # A message of the imported file, and a nested symbol's file.
    assert database.FindFileContainingSymbol("chime.v1.NotificationRequest").name == "chime/v1/request.proto"
    # The health service chimed serves beside it is described too (grpcurl can call it).
    assert "grpc.health.v1.Health" in database.get_services()
    health = database.FindFileContainingSymbol("grpc.health.v1.Health")
    assert health.name == "grpc/health/v1/health.proto"
    assert {m.name for m in health.service[0].method} == {"Check", "Watch"}


def test_reflection_v1_answers_too(channel):
    """grpc.reflection.v1 has the same messages as v1alpha under another service name."""
    call = channel.stream_stream(
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    requests = [reflection_pb2.ServerReflectionRequest(list_services=""),
                reflection_pb2.ServerReflectionRequest(file_by_filename="chime/v1/notification_center.proto"),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="no.such.Symbol")]
    listed, by_name, missing = list(call(iter(requests), timeout=10))
    assert [s.name for s in listed.list_services_response.service] == ["chime.v1.NotificationCenter", "grpc.health.v1.Health"]
    files = [descriptor_pb2.FileDescriptorProto.FromString(b) for b in by_name.file_descriptor_response.file_descriptor_proto]
    assert [f.name for f in files] == ["chime/v1/notification_center.proto", "chime/v1/request.proto"]
    assert missing.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]


def test_health_answers_serving(channel):
    health = health_pb2_grpc.HealthStub(channel)
    assert health.Check(health_pb2.HealthCheckRequest(), timeout=10).status == health_pb2.HealthCheckResponse.SERVING
    named = health.Check(health_pb2.HealthCheckRequest(service="chime.v1.NotificationCenter"), timeout=10)
    assert named.status == health_pb2.HealthCheckResponse.SERVING
    try:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=10)
        raise AssertionError("an unknown service was reported healthy")
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.NOT_FOUND
    watch = health.Watch(health_pb2.HealthCheckRequest(), timeout=10)
    assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
    watch.cancel()


def test_native_cli_and_grpc_share_the_socket(daemon, stub, app_id):
    m = [("chime-app", app_id)]
    events = stub.Subscribe(nc.SubscribeRequest(), metadata=m, timeout=30)
    assert next(events).kind == nc.EVENT_KIND_SUBSCRIBED
    added = daemon.cli("add", "from-cli", "--title", "CLI", "--in", "10m", app=app_id)
    assert added.returncode == 0, added.stderr
    seen = next(events)
    assert seen.kind == nc.EVENT_KIND_PENDING_ADDED and seen.pending.request.identifier == "from-cli"
    stub.Add(nc.AddRequest(request=rq.NotificationRequest(
        identifier="from-grpc", content=rq.NotificationContent(title="gRPC"),
        trigger=rq.Trigger(time_interval=rq.TimeIntervalTrigger(seconds=600)))), metadata=m, timeout=10)
    listed = daemon.cli("pending", "--json", app=app_id)
    assert listed.returncode == 0, listed.stderr
    assert sorted(p["id"] for p in json.loads(listed.stdout)) == \
        ["from-cli", "from-grpc"]
    events.cancel()


def test_sigterm_reports_not_serving_then_ends_streams(own_daemon):
    with grpc.insecure_channel(own_daemon.target) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        watch = health.Watch(health_pb2.HealthCheckRequest(), timeout=20)
        assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
        stub = ncg.NotificationCenterStub(channel)
        events = stub.Subscribe(nc.SubscribeRequest(), metadata=[("chime-app", "org.example.drain")], timeout=20)
        assert next(events).kind == nc.EVENT_KIND_SUBSCRIBED
        own_daemon.terminate()
        assert next(watch).status == health_pb2.HealthCheckResponse.NOT_SERVING
        try:
            next(events)
            raise AssertionError("the stream went on after shutdown")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.UNAVAILABLE, error
    assert own_daemon.stop() == 0


def test_reflection_describes_a_refusals_details(channel, stub):
    """grpcurl and other reflection clients decode grpc-status-details-bin: google.rpc.Status and
    the ErrorInfo in it are described by reflection too."""
    from google.protobuf import descriptor_pool, message_factory

    database = ProtoReflectionDescriptorDatabase(channel)
    assert database.FindFileContainingSymbol("google.rpc.ErrorInfo").name == "google/rpc/error_details.proto"
    assert database.FindFileContainingSymbol("google.rpc.Status").name == "google/rpc/status.proto"
    # A pool built from reflection alone (not the google.rpc modules this process imported).
    pool = descriptor_pool.DescriptorPool(database)
    status_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("google.rpc.Status"))
    try:
        stub.Add(nc.AddRequest(request=rq.NotificationRequest(
            identifier="short", content=rq.NotificationContent(title="T"),
            trigger=rq.Trigger(time_interval=rq.TimeIntervalTrigger(seconds=30, repeats=True)))),
            metadata=[("chime-app", "org.example.reflected")], timeout=10)
        raise AssertionError("a 30 s repeating interval was accepted")
    except grpc.RpcError as error:
        raw = dict(error.trailing_metadata())["grpc-status-details-bin"]
    status = status_class.FromString(raw)
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    detail = status.details[0]
    info_type = detail.type_url.rsplit("/", 1)[-1]
    assert info_type == "google.rpc.ErrorInfo"
    info = message_factory.GetMessageClass(pool.FindMessageTypeByName(info_type)).FromString(detail.value)
    assert info.reason == "INVALID_INTERVAL" and info.domain == "chime"
    assert info.metadata["field"] == "request.trigger.time_interval.seconds"
