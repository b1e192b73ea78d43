"""Real-client tests of chimed's D-Bus API (run by tests/dbus/run.sh against a private
dbus-daemon that activates chimed). Every wait is bounded (chime_bus.TIMEOUT)."""
import asyncio
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

from chime_bus import IFACE, NAME, PATH, BusError, Conn, fake_proc, unwrap, v

ADDRESS = os.environ["DBUS_SESSION_BUS_ADDRESS"]
PROC = os.environ["CHIME_TEST_PROC"]
REPO = os.environ["CHIME_REPO"]
TMP = os.environ["CHIME_TEST_TMP"]
PNG = os.path.join(REPO, "Tests/Fixtures/media/images/png-rgb.png")

tests = []


def test(fn):
    tests.append(fn)
    return fn


async def registered(app):
    conn = await Conn.open(ADDRESS)
    await conn.call("Register", "sa{sv}", [app, {}])
    return conn


@test
async def snooze_takes_a_delivered_notification_to_the_pending_list():
    conn = await registered("org.example.snooze")
    await conn.call("SetCategories", "aa{sv}", [[{"identifier": v("s", "alarm"), "snooze-seconds": v("ai", [300, 600])}]])
    (categories,) = await conn.call("GetCategories")
    assert unwrap(categories[0])["snooze-seconds"] == [300, 600], categories
    await conn.call("Add", "sa{sv}a{sv}a{sv}", ["wake", {"title": v("s", "Wake"), "category": v("s", "alarm")}, {}, {}])
    (entry,) = await conn.call("Snooze", "sua{sv}", ["wake", 600, {}])
    entry = unwrap(entry)
    assert entry["identifier"] == "wake" and entry["snooze-count"] == 1, entry
    assert entry["next-fire"] - entry["snoozed-at"] == 600_000, entry
    (pending,) = await conn.call("GetPending", "a{sv}", [{}])
    assert [unwrap(p)["snooze-count"] for p in pending] == [1], pending
    e = await conn.refusal("Snooze", "sua{sv}", ["wake", 600, {}])
    assert e.reason == "NOTIFICATION_NOT_DELIVERED", e
    e = await conn.refusal("Snooze", "sua{sv}", ["wake", 30, {}])
    assert e.reason == "INVALID_SNOOZE_DURATION", e
    # A snooze button as the user's response.
    await conn.call("Add", "sa{sv}a{sv}a{sv}", ["nap", {"title": v("s", "Nap"), "category": v("s", "alarm")}, {}, {}])
    e = await conn.refusal("Respond", "ssa{sv}", ["nap", "chime.snooze", {"snooze-seconds": v("u", 900)}])
    assert e.reason == "SNOOZE_NOT_OFFERED", e
    (result,) = await conn.call("Respond", "ssa{sv}", ["nap", "chime.snooze", {"snooze-seconds": v("u", 300)}])
    assert unwrap(result)["removed"] is True
    await conn.call("RemoveAllPending")
    conn.close()


@test
async def a_host_app_must_register_first_and_only_once():
    conn = await Conn.open(ADDRESS)
    e = await conn.refusal("GetPending", "a{sv}", [{}])
    assert e.reason == "APP_NOT_REGISTERED", e
    await conn.call("Register", "sa{sv}", ["org.example.tea", {}])
    await conn.call("Register", "sa{sv}", ["org.example.tea", {}])  # the same id again is fine
    e = await conn.refusal("Register", "sa{sv}", ["org.example.other", {}])
    assert e.reason == "APP_ID_MISMATCH", e
    e = await conn.refusal("Register", "sa{sv}", ["not an app id", {}])
    assert e.reason == "INVALID_APP_ID", e
    conn.close()


@test
async def a_registered_connection_may_not_name_another_app_per_call():
    # Each method that takes options, with app-id naming another app: refused before anything
    # runs, so the other app's pending list stays as it was.
    other = await registered("org.example.victim")
    await other.call("Add", "sa{sv}a{sv}a{sv}", ["kept", {"title": v("s", "Kept")}, {"interval": v("d", 3600.0)}, {}])
    conn = await registered("org.example.tea")
    app = {"app-id": v("s", "org.example.victim")}
    calls = [
        ("Add", "sa{sv}a{sv}a{sv}", ["taken", {"title": v("s", "Taken")}, {}, app]),
        ("GetPending", "a{sv}", [app]),
        ("GetDelivered", "a{sv}", [app]),
        ("NextTriggerDates", "a{sv}a{sv}", [{"interval": v("d", 600.0)}, app]),
        ("Respond", "ssa{sv}", ["kept", "chime.default", app]),
        ("Push", "sa{sv}", ['{"aps": {"alert": "Taken"}}', app]),
        ("Snooze", "sua{sv}", ["kept", 600, app]),
        ("GetDoNotDisturb", "a{sv}", [app]),
        ("SetDoNotDisturb", "a{sv}", [{**app, "manual": v("b", True)}]),
    ]
    for member, signature, body in calls:
        e = await conn.refusal(member, signature, body)
        assert e.reason == "APP_ID_MISMATCH", (member, e)
    (pending,) = await other.call("GetPending", "a{sv}", [{}])
    assert [unwrap(p)["identifier"] for p in pending] == ["kept"], pending
    await other.call("RemoveAllPending")
    other.close()
    conn.close()


@test
async def schedules_lists_receives_answers_and_removes():
    conn = await registered("org.example.tea")
    await conn.call("RemoveAllPending")
    attachment = os.path.join(TMP, "leaf.png")
    shutil.copy(PNG, attachment)
    content = {"title": v("s", "Tea"), "body": v("s", "Steeped"), "badge": v("i", 2), "sound": v("s", "default"),
               "interruption-level": v("s", "time-sensitive"), "relevance": v("d", 0.5),
               "user-info": v("s", '{"pot": 1}'),
               "attachments": v("aa{sv}", [{"path": v("s", attachment), "identifier": v("s", "leaf"),
                                             "clip": v("(dddd)", [0.0, 0.0, 1.0, 0.5])}])}
    (added,) = await conn.call("Add", "sa{sv}a{sv}a{sv}", ["interval", content, {"interval": v("d", 3600.0)}, {}])
    added = unwrap(added)
    assert added["identifier"] == "interval" and added["next-fire"] > 0 and "delivered-at" not in added, added
    (cal,) = await conn.call("Add", "sa{sv}a{sv}a{sv}", [
        "calendar", {"title": v("s", "Morning")},
        {"calendar": v("a{sv}", {"hour": v("i", 9), "minute": v("i", 0), "time-zone": v("s", "Europe/Paris")}),
         "repeats": v("b", True)}, {"missed-fire": v("s", "skip")}])
    assert unwrap(cal)["next-fire"] > 0
    (pending,) = await conn.call("GetPending", "a{sv}", [{}])
    pending = {p["identifier"]: p for p in map(unwrap, pending)}
    assert set(pending) == {"interval", "calendar"}, pending
    assert pending["interval"]["interval"] == 3600.0 and pending["interval"]["badge"] == 2
    assert pending["interval"]["attachments"][0]["identifier"] == "leaf"
    assert pending["interval"]["attachments"][0]["clip"] == [0.0, 0.0, 1.0, 0.5]
    assert pending["calendar"]["calendar"]["hour"] == 9 and pending["calendar"]["repeats"] is True
    # No trigger: delivered at once, and the app's connection hears it.
    (now,) = await conn.call("Add", "sa{sv}a{sv}a{sv}", ["now", {"title": v("s", "Now")}, {}, {}])
    assert "delivered-at" in unwrap(now) and "next-fire" not in unwrap(now)
    member, body, destination = await conn.signal("Delivered")
    assert body[0] == "now" and unwrap(body[1])["title"] == "Now" and destination == conn.bus.unique_name, body
    (delivered,) = await conn.call("GetDelivered", "a{sv}", [{}])
    assert "now" in [unwrap(d)["identifier"] for d in delivered]
    (result,) = await conn.call("Respond", "ssa{sv}", ["now", "chime.default", {}])
    assert "removed" in unwrap(result)
    member, body, _ = await conn.signal("Response")
    assert body[0] == "now" and body[1] == "chime.default", body
    (removed,) = await conn.call("RemovePending", "as", [["interval", "missing"]])
    assert removed == ["interval"], removed
    member, body, _ = await conn.signal("PendingRemoved")
    assert body[0] == ["interval"], body
    await conn.call("SetBadgeCount", "i", [3])
    member, body, _ = await conn.signal("BadgeChanged")
    assert body[0] == 3, body
    # An alarm: its content's ring is listed back, and its end is a RingEnded signal.
    await conn.call("Add", "sa{sv}a{sv}a{sv}", ["alarm", {"title": v("s", "Wake"), "ring": v("u", 60)}, {}, {}])
    (delivered,) = await conn.call("GetDelivered", "a{sv}", [{}])
    alarm = next(d for d in map(unwrap, delivered) if d["identifier"] == "alarm")
    assert alarm["ring"] == 60 and alarm["sound"] == "default", alarm
    (removed,) = await conn.call("RemoveDelivered", "as", [["alarm"]])
    assert removed == ["alarm"], removed
    member, body, _ = await conn.signal("RingEnded")
    assert body == ["alarm", "removed"], body
    (removed,) = await conn.call("RemoveAllPending")
    assert removed == ["calendar"], removed
    await conn.call("RemoveAllDelivered")
    conn.close()


@test
async def refusals_carry_chimes_reason_and_field():
    conn = await registered("org.example.tea")
    e = await conn.refusal("Add", "sa{sv}a{sv}a{sv}", ["bad", {"title": v("s", "x")}, {"interval": v("d", -5.0)}, {}])
    assert e.name == IFACE + ".Error.INVALID_INTERVAL", e
    e = await conn.refusal("Add", "sa{sv}a{sv}a{sv}", ["bad", {"title": v("s", "x"), "badge": v("s", "two")}, {}, {}])
    assert e.reason == "INVALID_ARGUMENT" and "[content.badge]" in e.text, e
    e = await conn.refusal("Add", "sa{sv}a{sv}a{sv}", ["bad", {"tilte": v("s", "x")}, {}, {}])
    assert e.reason == "INVALID_ARGUMENT" and "tilte" in e.text, e
    e = await conn.refusal("Add", "sa{sv}a{sv}a{sv}", ["bad", {}, {}, {}])
    assert e.reason == "NOTIFICATION_INVALID_NO_CONTENT", e
    # A wrong signature is the bus's InvalidArgs.
    e = await conn.refusal("Add", "s", ["bad"])
    assert e.name == "org.freedesktop.DBus.Error.InvalidArgs", e
    e = await conn.refusal("SetBadgeCount", "s", ["3"])
    assert e.name == "org.freedesktop.DBus.Error.InvalidArgs", e
    # The daemon serves on.
    (settings,) = await conn.call("GetSettings")
    assert "status" in unwrap(settings)
    conn.close()


@test
async def an_identifier_with_a_nul_never_reaches_chimed():
    # D-Bus strings hold no NUL: the client library or the bus refuses the message (the bus
    # drops a connection that sends one); chimed serves on.
    conn = await registered("org.example.tea")
    try:
        await conn.call("Add", "sa{sv}a{sv}a{sv}", ["a\x00b", {"title": v("s", "x")}, {}, {}])
    except BusError as e:
        assert not e.name.startswith(IFACE), f"chimed saw it: {e}"
    except Exception:
        pass
    else:
        raise AssertionError("an identifier with a NUL was accepted")
    conn.close()
    other = await registered("org.example.tea")
    (settings,) = await other.call("GetSettings")
    assert "status" in unwrap(settings)
    other.close()


@test
async def categories_authorization_previews_and_pushes():
    conn = await registered("org.example.cal")
    await conn.call("SetCategories", "aa{sv}", [[{
        "identifier": v("s", "invite"),
        "actions": v("aa{sv}", [{"identifier": v("s", "accept"), "title": v("s", "Accept"),
                                  "options": v("as", ["foreground"])}]),
        "options": v("as", ["custom-dismiss-action"])}]])
    (cats,) = await conn.call("GetCategories")
    cats = [unwrap(c) for c in cats]
    assert cats[0]["identifier"] == "invite" and cats[0]["actions"][0]["options"] == ["foreground"], cats
    granted, settings = await conn.call("RequestAuthorization", "as", [["alert", "sound"]])
    assert granted is True and unwrap(settings)["alert"] is True
    (dates,) = await conn.call("NextTriggerDates", "a{sv}a{sv}", [
        {"calendar": v("a{sv}", {"hour": v("i", 9), "time-zone": v("s", "UTC")}), "repeats": v("b", True)},
        {"count": v("u", 3), "after": v("x", 0)}])
    dates = [unwrap(d) for d in dates]
    assert [d["at"] for d in dates] == [9 * 3600_000, 33 * 3600_000, 57 * 3600_000], dates
    (pushed,) = await conn.call("Push", "sa{sv}", ['{"aps": {"alert": "Hi"}}', {"identifier": v("s", "p1")}])
    assert unwrap(pushed)["identifier"] == "p1"
    await conn.signal("Delivered")
    (version,) = await conn.call("Get", "ss", [IFACE, "Version"], interface="org.freedesktop.DBus.Properties")
    assert version.value, version
    conn.close()


@test
async def signals_reach_only_their_app():
    tea = await registered("org.example.tea")
    other = await registered("org.example.other")
    # `other` asks for every signal of the interface, as a listener would: a broadcast would
    # reach it too.
    await other.call("AddMatch", "s", [f"type='signal',interface='{IFACE}'"], destination="org.freedesktop.DBus",
                     path="/org/freedesktop/DBus", interface="org.freedesktop.DBus")
    await tea.call("Add", "sa{sv}a{sv}a{sv}", ["tea-only", {"title": v("s", "Tea")}, {}, {}])
    await tea.signal("Delivered")
    await other.call("Add", "sa{sv}a{sv}a{sv}", ["other-only", {"title": v("s", "Other")}, {}, {}])
    # Signals from chimed to one connection arrive in order: had tea's reached `other`, it
    # would come before other's own.
    member, body, _ = await other.signal("Delivered")
    assert body[0] == "other-only", body
    assert other.signals.empty(), "other received more than its own signal"
    tea.close()
    other.close()


SANDBOXED = r"""
import asyncio, sys
sys.path.insert(0, sys.argv[1])
from chime_bus import Conn, fake_proc, v
fake_proc(sys.argv[2], flatpak="org.example.maps")
async def main():
    conn = await Conn.open(sys.argv[3])
    # No Register needed: the sandbox names the app.
    await conn.call("Add", "sa{sv}a{sv}a{sv}", ["route", {"title": v("s", "Route")}, {"interval": v("d", 600.0)}, {}])
    (pending,) = await conn.call("GetPending", "a{sv}", [{}])
    assert [p["identifier"].value for p in pending] == ["route"], pending
    e = await conn.refusal("Register", "sa{sv}", ["org.example.bank", {}])
    assert e.reason == "APP_ID_MISMATCH", e
    await conn.call("Register", "sa{sv}", ["org.example.maps", {}])
    print("sandboxed ok")
asyncio.run(main())
"""


@test
async def a_sandboxed_caller_is_its_own_app():
    out = await asyncio.wait_for(asyncio.create_subprocess_exec(
        sys.executable, "-c", SANDBOXED, os.path.dirname(__file__), PROC, ADDRESS,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE), 10)
    stdout, stderr = await asyncio.wait_for(out.communicate(), 20)
    assert out.returncode == 0 and b"sandboxed ok" in stdout, stderr.decode()
    # The host's view of the bank app has nothing of the maps app's.
    bank = await registered("org.example.maps")
    (pending,) = await bank.call("GetPending", "a{sv}", [{}])
    assert [p["identifier"].value for p in pending] == ["route"]
    await bank.call("RemoveAllPending")
    bank.close()


def interface_shape(xml_text):
    """Chime's interface as comparable data: members, their arguments and annotations."""
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", xml_text))
    (iface,) = [i for i in root.findall("interface") if i.get("name") == IFACE]
    shape = []
    for member in iface:
        args = [(a.get("name"), a.get("type"), a.get("direction", "out" if member.tag == "signal" else "in"))
                for a in member.findall("arg")]
        notes = sorted((n.get("name"), n.get("value")) for n in member.findall("annotation"))
        shape.append((member.tag, member.get("name"), member.get("type"), member.get("access"), args, notes))
    return shape


@test
async def do_not_disturb_is_read_and_set_with_dictionaries():
    # A one-off caller names its app in the dictionary, as gdbus would.
    conn = await Conn.open(ADDRESS)
    (state,) = await conn.call("GetDoNotDisturb", "a{sv}", [{"app-id": v("s", "chime.cli")}])
    state = unwrap(state)
    assert state["active"] is False and state["source"] == "" and state["desktop"] == "", state
    assert state["follow-desktop"] is True and state["summary"] is True and state["schedule"] == "", state
    (state,) = await conn.call("SetDoNotDisturb", "a{sv}", [{
        "app-id": v("s", "chime.cli"), "manual": v("b", True), "schedule": v("s", "22:00-07:00"),
        "days": v("s", "mon-fri"), "follow-desktop": v("b", False), "summary": v("b", False)}])
    state = unwrap(state)
    assert state["active"] is True and state["source"] == "manual" and state["manual"] is True, state
    assert state["schedule"] == "22:00-07:00" and state["days"] == "mon-fri", state
    assert state["follow-desktop"] is False and state["summary"] is False, state
    e = await conn.refusal("SetDoNotDisturb", "a{sv}", [{"app-id": v("s", "chime.cli"), "schedule": v("s", "22:00-22:00")}])
    assert e.reason == "INVALID_DND_SCHEDULE", e
    e = await conn.refusal("SetDoNotDisturb", "a{sv}", [{"app-id": v("s", "chime.cli"), "manul": v("b", True)}])
    assert e.reason == "INVALID_ARGUMENT" and "manul" in str(e), e
    (state,) = await conn.call("SetDoNotDisturb", "a{sv}", [{
        "app-id": v("s", "chime.cli"), "manual": v("b", False), "clear-schedule": v("b", True),
        "follow-desktop": v("b", True), "summary": v("b", True)}])
    state = unwrap(state)
    assert state["active"] is False and state["schedule"] == "" and state["follow-desktop"] is True, state
    conn.close()


@test
async def a_calendar_is_added_listed_synced_and_removed_over_d_bus():
    vdir = os.path.join(TMP, "dbus-calendar")
    os.makedirs(vdir, exist_ok=True)
    with open(os.path.join(vdir, "standup.ics"), "w") as f:
        f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Chime tests//EN\r\nBEGIN:VEVENT\r\nUID:standup\r\n"
                "DTSTAMP:20990101T000000Z\r\nDTSTART:20990101T090000Z\r\nSUMMARY:Standup\r\nBEGIN:VALARM\r\n"
                "ACTION:DISPLAY\r\nDESCRIPTION:x\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    conn = await Conn.open(ADDRESS)
    me = {"app-id": v("s", "org.example.calendars")}
    (added,) = await conn.call("AddCalendar", "ssa{sv}", ["dbus", vdir, me])
    added = unwrap(added)
    assert added["name"] == "dbus" and added["app-id"] == "io.github.chime.calendar.dbus", added
    assert added["items"] == 1 and added["errors"] == [], added
    (listed,) = await conn.call("ListCalendars", "a{sv}", [me])
    assert [unwrap(c)["path"] for c in listed] == [vdir], listed
    (synced,) = await conn.call("SyncCalendars", "sa{sv}", ["", me])
    assert [unwrap(c)["name"] for c in synced] == ["dbus"], synced
    e = await conn.refusal("AddCalendar", "ssa{sv}", ["dbus", vdir, me])
    assert e.reason == "CALENDAR_EXISTS", e
    e = await conn.refusal("AddCalendar", "ssa{sv}", ["no.dots", vdir, me])
    assert e.reason == "INVALID_CALENDAR_NAME", e
    (withdrawn,) = await conn.call("RemoveCalendar", "sa{sv}", ["dbus", me])
    assert withdrawn == 0, withdrawn  # its one alarm is in 2099, past the planning window
    e = await conn.refusal("RemoveCalendar", "sa{sv}", ["dbus", me])
    assert e.reason == "CALENDAR_NOT_FOUND", e
    conn.close()


@test
async def the_user_lists_apps_and_switches_their_settings():
    app = await registered("org.example.center")
    await app.call("RequestAuthorization", "as", [["alert", "sound", "badge"]])
    await app.call("Add", "sa{sv}a{sv}a{sv}", ["later", {"title": v("s", "Later")}, {"interval": v("d", 600.0)}, {}])
    (identifier, request) = (await app.signal("PendingAdded"))[1]
    assert identifier == "later" and unwrap(request)["title"] == "Later", request
    user = await Conn.open(ADDRESS)
    me = {"app-id": v("s", "io.github.chime.Center")}
    (apps,) = await user.call("ListApps", "a{sv}", [me])
    listed = {unwrap(a)["app-id"]: unwrap(a) for a in apps}
    assert listed["org.example.center"]["settings"]["sound"] is True, listed
    assert listed["org.example.center"]["registered"] is False, listed
    (settings,) = await user.call("SetAppSettings", "sa{sv}a{sv}", ["org.example.center", {"sound": v("b", False)}, me])
    assert unwrap(settings)["sound"] is False and unwrap(settings)["alert"] is True, settings
    (mine,) = await app.call("GetSettings")
    assert unwrap(mine)["sound"] is False, mine
    (settings,) = await user.call("SetAppSettings", "sa{sv}a{sv}", ["org.example.center", {"status": v("s", "denied")}, me])
    assert unwrap(settings)["status"] == "denied", settings
    e = await user.refusal("SetAppSettings", "sa{sv}a{sv}", ["org.example.center", {"status": v("s", "provisional")}, me])
    assert e.reason == "INVALID_ARGUMENT", e
    await user.call("SetAppSettings", "sa{sv}a{sv}", ["org.example.center", {"status": v("s", "authorized")}, me])
    await app.call("RemoveAllPending")
    await app.call("Add", "sa{sv}a{sv}a{sv}", ["now", {"title": v("s", "Now")}, {}, {}])
    await app.call("RemoveDelivered", "as", [["now"]])
    (removed,) = (await app.signal("DeliveredRemoved"))[1]
    assert removed == ["now"], removed
    app.close()
    user.close()


@test
async def exported_interface_equals_the_committed_xml():
    conn = await Conn.open(ADDRESS)
    (xml,) = await conn.call("Introspect", interface="org.freedesktop.DBus.Introspectable")
    with open(os.path.join(REPO, "deploy/dbus/io.github.chime.Chime1.xml")) as f:
        committed = f.read()
    assert interface_shape(xml) == interface_shape(committed), (interface_shape(xml), interface_shape(committed))
    conn.close()


async def main():
    fake_proc(PROC)
    loop = asyncio.get_running_loop()
    # dbus-next leaves the EOF of a connection the bus dropped (the NUL test) unretrieved.
    loop.set_exception_handler(lambda l, ctx: None if isinstance(ctx.get("exception"), EOFError)
                               else l.default_exception_handler(ctx))
    failed = 0
    for fn in tests:
        try:
            await fn()
            print(f"ok   {fn.__name__}")
        except Exception as e:  # report every test, then fail
            failed += 1
            print(f"FAIL {fn.__name__}: {type(e).__name__}: {e}")
    print(f"{len(tests) - failed}/{len(tests)} passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
