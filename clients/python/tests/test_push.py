"""Pushed notifications and service extensions against the real chimed (see conftest.py)."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from chime_client import ChimeError, Client, Code, pb

from conftest import Daemon, chimed_binary
from test_client import EVENT_TIMEOUT

nc = pb.notification_center
request_pb2 = pb.request

MUTABLE = {"aps": {"alert": {"title": "New picture", "body": "Someone posted"}, "mutable-content": 1},
           "media-url": "https://example.com/cat.png"}
REPO = Path(__file__).resolve().parents[3]


def test_push_delivers_at_once_and_the_collapse_id_replaces(client):
    first = client.push({"aps": {"alert": {"title": "Score", "body": "1-0"}, "badge": 2}, "match": 9}, identifier="score")
    assert first.delivered.request.identifier == "score"
    assert first.delivered.request.content.title == "Score"
    assert first.delivered.request.content.user_info_json == '{"match": 9}'
    assert first.delivered.push.content == "original" and not first.delivered.push.mutable_content
    client.push(b'{"aps":{"alert":"2-0"}}', identifier="score")
    assert [d.request.content.body for d in client.delivered()] == ["2-0"]


def test_refusals_name_the_field(client):
    for payload, reason, field in [("nope", "INVALID_PUSH_PAYLOAD", "payload"),
                                   ({"aps": {"alert": {"title": 1}}}, "INVALID_PUSH_PAYLOAD", "aps.alert.title"),
                                   ({"aps": {"alert": "x", "interruption-level": "loud"}}, "UNKNOWN_INTERRUPTION_LEVEL",
                                    "aps.interruption-level"),
                                   ({"aps": {"alert": "x" * 5000}}, "PUSH_PAYLOAD_TOO_LARGE", "payload")]:
        with pytest.raises(ChimeError) as caught:
            client.push(payload)
        assert (caught.value.code, caught.value.reason, caught.value.field) == (Code.INVALID_ARGUMENT, reason, field)


def test_mutable_without_an_extension_delivers_the_original(client):
    result = client.push(MUTABLE)
    assert result.delivered.push.reason == "SERVICE_EXTENSION_NOT_RUNNING"
    assert result.delivered.request.content.title == "New picture"


def test_the_helper_replaces_the_content_and_attaches_a_file(daemon, app_id, tmp_path):
    source = REPO / "Tests" / "Fixtures" / "media" / "images" / "png-rgb.png"

    def rewrite(request):
        content = request_pb2.NotificationContent()
        content.CopyFrom(request.content)
        content.title = "A new cat"
        downloaded = tmp_path / "cat.png"  # what the extension "downloaded" from media-url
        shutil.copy(source, downloaded)
        content.attachments.add(path=str(downloaded))
        return content

    with Client(daemon.socket_path, app=app_id, timeout=10.0) as ext, Client(daemon.socket_path, app=app_id, timeout=40.0) as app:
        live = threading.Event()
        worker = threading.Thread(target=lambda: ext.run_service_extension("svc", rewrite, requests=1, ready=live.set))
        worker.start()
        assert live.wait(EVENT_TIMEOUT)
        result = app.push(MUTABLE)
        worker.join(EVENT_TIMEOUT)
        delivered = result.delivered
        assert delivered.request.content.title == "A new cat"
        assert [a.info.type for a in delivered.request.content.attachments] == ["public.png"]
        assert delivered.push.content == "extension" and delivered.push.extension_identifier == "svc"
        assert not (tmp_path / "cat.png").exists(), "moved into the store"


def test_a_failing_callback_delivers_the_original_and_two_extensions_are_refused(daemon, app_id):
    def broken(request):
        raise RuntimeError("no network")

    with Client(daemon.socket_path, app=app_id, timeout=10.0) as ext, Client(daemon.socket_path, app=app_id, timeout=40.0) as app:
        live = threading.Event()
        worker = threading.Thread(target=lambda: ext.run_service_extension("svc", broken, requests=1, ready=live.set))
        worker.start()
        assert live.wait(EVENT_TIMEOUT)
        with pytest.raises(ChimeError) as caught:
            with app.register_service_extension("second") as twice:
                twice.next(timeout=EVENT_TIMEOUT)
        assert (caught.value.reason, caught.value.field) == ("EXTENSION_ALREADY_REGISTERED", "service")
        result = app.push(MUTABLE)
        worker.join(EVENT_TIMEOUT)
        assert result.delivered.push.reason == "SERVICE_EXTENSION_FAILED"
        assert "no network" in result.delivered.push.message
        assert result.delivered.request.content.title == "New picture"


def test_a_slow_extension_is_told_time_will_expire_and_its_best_attempt_is_delivered():
    daemon = Daemon(chimed_binary(), "--service-extension-timeout", "0.5", "--service-extension-grace", "5")
    try:
        with Client(daemon.socket_path, app="org.example.slow", timeout=10.0) as ext, \
                Client(daemon.socket_path, app="org.example.slow", timeout=20.0) as app:
            with ext.register_service_extension("svc") as events:
                assert events.next(timeout=EVENT_TIMEOUT).registered
                result = {}
                pusher = threading.Thread(target=lambda: result.update(answer=app.push(MUTABLE)))
                pusher.start()
                asked = events.next(timeout=EVENT_TIMEOUT).service_request
                assert asked.request.content.title == "New picture" and asked.deadline_unix_ms > 0
                # Working too long: chimed says time will expire; the best attempt goes at once.
                assert events.next(timeout=EVENT_TIMEOUT).service_time_will_expire == asked.id
                best = request_pb2.NotificationContent(title="Best so far", body="still downloading")
                ext.answer_service("svc", asked.id, best)
                pusher.join(EVENT_TIMEOUT)
                delivered = result["answer"].delivered
                assert delivered.push.content == "best-attempt" and delivered.request.content.title == "Best so far"
                with pytest.raises(ChimeError) as caught:
                    ext.answer_service("svc", asked.id, best)
                assert caught.value.reason == "SERVICE_REQUEST_NOT_AWAITED"
    finally:
        assert daemon.stop() == 0
