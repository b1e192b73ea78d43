"""Categories, actions and responses against the real chimed (see conftest.py)."""

from __future__ import annotations

import threading

import pytest

from chime_client import DEFAULT_ACTION, DISMISS_ACTION, ChimeError, Client, Code, category, category_json, pb

from test_client import EVENT_TIMEOUT, wait_for

nc = pb.notification_center
request_pb2 = pb.request

INVITE = {
    "identifier": "event-invite",
    "actions": [
        {"identifier": "accept", "title": "Accept"},
        {"identifier": "decline", "title": "Decline", "options": ["destructive"]},
        {"identifier": "comment", "title": "Comment", "textInput": {"buttonTitle": "Send", "placeholder": "Type here..."}},
    ],
    "options": ["customDismissAction"],
}


def test_set_get_replace_and_json_round_trip(client):
    assert client.categories() == []
    client.set_categories([INVITE, {"identifier": "reminder", "actions": [{"identifier": "snooze", "title": "Snooze"}]}])
    got = client.categories()
    assert [c.identifier for c in got] == ["event-invite", "reminder"]
    assert category_json(got[0]) == INVITE
    assert got[0].actions[1].destructive and got[0].custom_dismiss_action
    assert got[0].actions[2].text_input.button_title == "Send"
    client.set_categories([category(INVITE)])
    assert [c.identifier for c in client.categories()] == ["event-invite"]
    client.set_categories([])
    assert client.categories() == []


def test_refusals_name_their_field(client):
    bad = {"identifier": "x", "actions": [{"identifier": "a", "title": "A"}, {"identifier": "a", "title": "B"}]}
    with pytest.raises(ChimeError) as caught:
        client.set_categories([bad])
    assert (caught.value.code, caught.value.reason, caught.value.field) == (
        Code.INVALID_ARGUMENT, "DUPLICATE_ACTION_IDENTIFIER", "categories[0].actions[1].identifier")
    with pytest.raises(ChimeError) as caught:
        client.set_categories([{"identifier": "x", "actions": [{"identifier": DISMISS_ACTION, "title": "A"}]}])
    assert caught.value.reason == "RESERVED_ACTION_IDENTIFIER"
    with pytest.raises(ValueError):
        category({"identifier": "x", "options": ["loud"]})


def test_responses_reach_subscribers_and_remove_the_notification(client):
    client.set_categories([INVITE])
    for identifier in ("lunch", "team", "party", "opened"):
        client.add(identifier, title=identifier.title(), category="event-invite")
    with client.subscribe() as events:
        wait_for(events, lambda e: e.kind == nc.EVENT_KIND_SUBSCRIBED)
        assert client.respond("lunch", "comment", "Running late").removed
        client.respond("team", "accept")
        client.respond("party", DISMISS_ACTION)
        client.respond("opened")
        seen = []
        for _ in range(4):
            event, _ = wait_for(events, lambda e: e.kind == nc.EVENT_KIND_RESPONSE, EVENT_TIMEOUT)
            seen.append((event.response.notification_identifier, event.response.action_identifier, event.response.user_text))
    assert seen == [("lunch", "comment", "Running late"), ("team", "accept", ""), ("party", DISMISS_ACTION, ""),
                    ("opened", DEFAULT_ACTION, "")]
    assert client.delivered() == []


def test_response_refusals(client):
    client.set_categories([INVITE])
    client.add("lunch", title="Lunch", category="event-invite")
    client.add("plain", title="Plain")
    cases = [
        (("nope",), Code.NOT_FOUND, "NOTIFICATION_NOT_DELIVERED", "response.notification_identifier"),
        (("lunch", "maybe"), Code.INVALID_ARGUMENT, "UNKNOWN_ACTION", "response.action_identifier"),
        (("lunch", "comment"), Code.INVALID_ARGUMENT, "TEXT_REQUIRED", "response.user_text"),
        (("lunch", "accept", "hi"), Code.INVALID_ARGUMENT, "TEXT_NOT_ACCEPTED", "response.user_text"),
        (("plain", DISMISS_ACTION), Code.FAILED_PRECONDITION, "DISMISS_NOT_ENABLED", "response.action_identifier"),
    ]
    for args, code, reason, field in cases:
        with pytest.raises(ChimeError) as caught:
            client.respond(*args)
        assert (caught.value.code, caught.value.reason, caught.value.field) == (code, reason, field), args
    assert sorted(d.request.identifier for d in client.delivered()) == ["lunch", "plain"]


def test_snapshot_holds_after_categories_change(client):
    client.set_categories([INVITE])
    client.add("lunch", title="Lunch", category="event-invite")
    client.set_categories([])
    delivered = client.delivered()[0]
    assert delivered.category.identifier == "event-invite"
    assert [a.identifier for a in delivered.category.actions] == ["accept", "decline", "comment"]
    client.respond("lunch", "decline")


def test_apps_cannot_answer_each_other(daemon, app_id):
    with Client(daemon.socket_path, app=app_id, timeout=10.0) as a, \
            Client(daemon.socket_path, app=app_id + "other", timeout=10.0) as b:
        a.set_categories([INVITE])
        a.add("lunch", title="Lunch", category="event-invite")
        assert b.categories() == []
        with pytest.raises(ChimeError) as caught:
            b.respond("lunch", "accept")
        assert caught.value.reason == "NOTIFICATION_NOT_DELIVERED"
        a.respond("lunch", "accept")


def test_content_extension_sees_its_categorys_deliveries_and_responses(daemon, app_id):
    with Client(daemon.socket_path, app=app_id, timeout=10.0) as app, \
            Client(daemon.socket_path, app=app_id, timeout=10.0) as ext:
        app.set_categories([INVITE])
        with ext.register_extension("invite-ui", ["event-invite"], 0.5) as events:
            assert events.next(timeout=EVENT_TIMEOUT).registered
            with pytest.raises(ChimeError) as caught:
                with app.register_extension("invite-ui", ["event-invite"], 0.5) as twice:
                    twice.next(timeout=EVENT_TIMEOUT)
            assert caught.value.reason == "EXTENSION_ALREADY_REGISTERED"
            app.add("plain", title="Plain")
            app.add("lunch", title="Lunch", category="event-invite")
            shown = events.next(timeout=EVENT_TIMEOUT)
            assert shown.delivered.request.identifier == "lunch"
            # The response waits for the extension's answer (asked on another thread here).
            result = {}
            responder = threading.Thread(target=lambda: result.update(answer=app.respond("lunch", "accept")))
            responder.start()
            asked = events.next(timeout=EVENT_TIMEOUT)
            assert asked.response.action_identifier == "accept" and asked.response_id != 0
            ext.answer_response("invite-ui", asked.response_id, nc.EXTENSION_RESPONSE_OPTION_DO_NOT_DISMISS)
            responder.join(EVENT_TIMEOUT)
            assert list(result["answer"].routed_to) == ["invite-ui"]
            assert not result["answer"].removed
            assert sorted(d.request.identifier for d in app.delivered()) == ["lunch", "plain"]
            with pytest.raises(ChimeError) as caught:
                ext.answer_response("invite-ui", asked.response_id, nc.EXTENSION_RESPONSE_OPTION_DISMISS)
            assert caught.value.reason == "RESPONSE_NOT_AWAITED"


def test_content_extension_attributes_are_required_and_checked(daemon, app_id):
    with Client(daemon.socket_path, app=app_id, timeout=10.0) as ext:
        # What a client older than the attributes sends: no ratio.
        old = nc.RegisterExtensionRequest(extension_identifier="old", category_identifiers=["a"])
        with pytest.raises(ChimeError) as caught:
            with ext.stream("RegisterExtension", old, nc.ExtensionEvent) as events:
                events.next(timeout=EVENT_TIMEOUT)
        assert caught.value.reason == "CONTENT_SIZE_RATIO_REQUIRED"
        assert caught.value.field == "attributes.initial_content_size_ratio"
        button = request_pb2.MediaPlayPauseButton(
            type=request_pb2.MEDIA_PLAY_PAUSE_BUTTON_TYPE_OVERLAY,
            frame=request_pb2.MediaButtonFrame(x=0, y=0, width=44, height=44), tint_color="orange")
        with pytest.raises(ChimeError) as caught:
            with ext.register_extension("tinted", ["a"], 1.0, media_button=button) as events:
                events.next(timeout=EVENT_TIMEOUT)
        assert caught.value.reason == "INVALID_TINT_COLOR"
        button.tint_color = "#FF8800"
        with ext.register_extension("tinted", ["a"], 1.0, user_interaction_enabled=True, media_button=button) as events:
            assert events.next(timeout=EVENT_TIMEOUT).registered


def test_media_button_presses_reach_the_extension_and_reports_are_kept(daemon, app_id):
    with Client(daemon.socket_path, app=app_id, timeout=10.0) as app, \
            Client(daemon.socket_path, app=app_id, timeout=10.0) as ext:
        button = request_pb2.MediaPlayPauseButton(
            type=request_pb2.MEDIA_PLAY_PAUSE_BUTTON_TYPE_DEFAULT,
            frame=request_pb2.MediaButtonFrame(x=4, y=4, width=44, height=44))
        with ext.register_extension("player", ["music"], 0.5, media_button=button) as events:
            assert events.next(timeout=EVENT_TIMEOUT).registered
            app.add("song", title="Song", category="music")
            assert events.next(timeout=EVENT_TIMEOUT).delivered.request.identifier == "song"
            assert app.press_media_button("song", nc.MEDIA_COMMAND_PLAY) == "player"
            pressed = events.next(timeout=EVENT_TIMEOUT)
            assert pressed.media.notification_identifier == "song"
            assert pressed.media.command == nc.MEDIA_COMMAND_PLAY
            ext.report_media_playback("player", "song", request_pb2.MEDIA_PLAYBACK_PLAYING)
            [delivered] = app.delivered()
            assert delivered.media_playback == request_pb2.MEDIA_PLAYBACK_PLAYING
            assert delivered.extension_attributes.initial_content_size_ratio == 0.5
            with pytest.raises(ChimeError) as caught:
                app.press_media_button("nothing", nc.MEDIA_COMMAND_PAUSE)
            assert caught.value.reason == "NOTIFICATION_NOT_DELIVERED"
