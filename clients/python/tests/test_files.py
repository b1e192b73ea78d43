"""Attachments, sounds and app layouts through chime_client against the real chimed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from chime_client import ChimeError, Code, pb

FIXTURES = Path(__file__).resolve().parents[3] / "Tests" / "Fixtures" / "media"
nc = pb.notification_center
req = pb.request


def test_attachment_is_moved_into_the_store_and_freed_on_removal(client, tmp_path):
    source = tmp_path / "photo.png"
    shutil.copy(FIXTURES / "images" / "png-rgb.png", source)
    pending = client.add("pic", "Picture", in_seconds=3600, attachments=[source])
    (attachment,) = pending.request.content.attachments
    assert attachment.identifier
    assert attachment.info.type == "public.png"
    assert attachment.info.media_class == "image"
    assert (attachment.info.width, attachment.info.height) == (32, 24)
    stored = Path(attachment.info.store_path)
    assert stored.read_bytes() == (FIXTURES / "images" / "png-rgb.png").read_bytes()
    assert not source.exists()
    assert client.pending()[0].request.content.attachments[0].info.store_path == str(stored)
    assert client.remove("pic") == ["pic"]


def test_corrupt_attachment_is_refused_and_left_alone(client, tmp_path):
    source = tmp_path / "broken.png"
    source.write_bytes((FIXTURES / "images" / "png-rgb.png").read_bytes()[:60])
    with pytest.raises(ChimeError) as caught:
        client.add("bad", "Broken", in_seconds=3600, attachments=[source])
    assert caught.value.code == Code.INVALID_ARGUMENT
    assert caught.value.reason == "ATTACHMENT_CORRUPT"
    assert caught.value.field == "request.content.attachments[0]"
    assert source.exists()
    assert client.pending() == []


def test_attachment_options_are_checked_against_the_file(client, tmp_path):
    source = tmp_path / "still.png"
    shutil.copy(FIXTURES / "images" / "png-rgb.png", source)
    attachment = req.Attachment(path=str(source), options=req.AttachmentOptions(thumbnail_time=1.0))
    with pytest.raises(ChimeError) as caught:
        client.add("t", "Still", in_seconds=3600, attachments=[attachment])
    assert caught.value.reason == "INVALID_THUMBNAIL_TIME"
    assert caught.value.field == "request.content.attachments[0].options.thumbnail_time"
    assert source.exists()


def test_sounds_are_looked_up_in_the_registered_layout(client, tmp_path):
    container, group = tmp_path / "container", tmp_path / "group"
    (container / "Library" / "Sounds").mkdir(parents=True)
    (group / "Library" / "Sounds").mkdir(parents=True)
    shutil.copy(FIXTURES / "sounds" / "wav-ulaw.wav", group / "Library" / "Sounds" / "ding.wav")
    layout = client.register_app(container=str(container), group_containers=[str(group)])
    assert layout.registered
    assert client.app_layout().group_containers == [str(group)]

    check = client.check_sound("ding.wav")
    assert [step.path for step in check.searched] == [
        str(container / "Library" / "Sounds" / "ding.wav"), str(group / "Library" / "Sounds" / "ding.wav")]
    assert check.resolution.plays == "named"
    assert check.resolution.codec == "ulaw"

    pending = client.add("s", "Ding", in_seconds=3600, sound="ding.wav")
    assert pending.sound.plays == "named"
    missing = client.add("m", "Nothing", in_seconds=3600, sound="missing.wav")
    assert (missing.sound.plays, missing.sound.reason) == ("default", "SOUND_NOT_FOUND")


def test_registration_refuses_a_missing_directory(client, tmp_path):
    with pytest.raises(ChimeError) as caught:
        client.register_app(container=str(tmp_path / "nope"))
    assert caught.value.code == Code.INVALID_ARGUMENT
    assert caught.value.reason == "INVALID_APP_DIRECTORY"
    assert caught.value.field == "container"
    assert not client.app_layout().registered


def test_a_nul_inside_a_string_is_refused_naming_the_field(client, tmp_path):
    # Python strings carry NUL; the daemon's C decoder would cut "ding.wav\0../x" short, so it
    # refuses the whole request instead, and keeps serving.
    with pytest.raises(ChimeError) as caught:
        client.add("nul", "Title", in_seconds=3600, sound="ding.wav\x00../../x.wav")
    assert caught.value.code == Code.INVALID_ARGUMENT
    assert caught.value.reason == "FIELD_CONTAINS_NUL"
    assert caught.value.field == "request.content.sound.name"
    with pytest.raises(ChimeError) as removal:
        client.remove("nul\x00other")
    assert removal.value.reason == "FIELD_CONTAINS_NUL"
    assert removal.value.field == "identifiers[0]"
    assert client.pending() == []
    client.add("ok", "Title", in_seconds=3600)
    assert [p.request.identifier for p in client.pending()] == ["ok"]
