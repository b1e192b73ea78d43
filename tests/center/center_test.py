"""Chime Center used as a person would: through the accessibility tree (AT-SPI) of the real app,
on a private desktop session with a real chimed that the Center's first call activated
(tests/center/run.sh sets it up). Widgets are found by the names a screen reader reads; each
change is checked in chimed through the `chime` CLI. Every wait polls with a deadline."""
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta

import pyatspi

CHIME = os.environ["CHIME"]
DEADLINE = 15


def chime(*args):
    out = subprocess.run([CHIME, *args, "--json"], check=True, capture_output=True, text=True, timeout=20).stdout
    return json.loads(out)


def until(what, fn, timeout=DEADLINE):
    """fn's first true answer within the deadline (its exceptions count as not yet)."""
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            got = fn()
            if got:
                return got
        except Exception as e:  # the tree changes under us while the Center rebuilds a page
            last = e
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}" + (f" (last error: {last})" if last else ""))


def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    for i in range(node.childCount):
        yield from walk(node.getChildAtIndex(i), depth + 1)


def center():
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == "chime-center":
            return app
    return None


def find(role, name, prefix=False, within=()):
    """The first widget of `role` named `name` (or starting with it), inside the widgets named
    by `within` in turn (e.g. ("Apps page", "Tea Timer")): GTK 4.8 keeps every page of a stack
    in the tree and marks none as showing, so a search names its page."""
    node = center()
    for outer in within:
        node = next((n for n in walk(node) if n.name == outer and n.getRoleName() != "label"), None) if node is not None else None
    if node is None:
        return None
    for n in walk(node):
        if n.getRoleName() == role and (n.name.startswith(name) if prefix else n.name == name):
            return n
    return None


def present(role, name, prefix=False, within=()):
    return until(f"{role} {name!r} in {within}", lambda: find(role, name, prefix, within))


def gone(role, name, within=()):
    until(f"{role} {name!r} in {within} to go", lambda: find(role, name, within=within) is None)


def press(node):
    """The widget's first action (a button's click, a switch's toggle), as AT-SPI offers it."""
    for n in walk(node):  # a menu button acts through its inner toggle button, of the same name
        if "Action" in pyatspi.listInterfaces(n) and n.queryAction().nActions > 0:
            n.queryAction().doAction(0)
            return
    raise AssertionError(f"{node.name} offers no action")


def click(node):
    """A left click at the middle of the widget, through the pointer as a person clicks (the
    session has no window manager: the window sits at the screen's origin)."""
    x, y, w, h = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    pyatspi.Registry.generateMouseEvent(x + w // 2, y + h // 2, pyatspi.MOUSE_B1C)


def open_page(title):
    tab = present("page tab", title)
    press(tab)
    until(f"page {title} shown", lambda: tab.getState().contains(pyatspi.STATE_SELECTED))


STARTED = time.monotonic()


def step(text):
    print(f"ok   {text} ({time.monotonic() - STARTED:.1f} s)", flush=True)


def main():
    started = time.monotonic()
    present("frame", "Chime Center")
    assert subprocess.run(["busctl", "--user", "status", "io.github.chime.Chime1"], capture_output=True).returncode == 0
    open_page("Scheduled")
    present("label", "Nothing Scheduled", within=["Scheduled page"])
    open_page("Apps")
    present("label", "No Apps Yet", within=["Apps page"])
    step("the Center opens on empty pages (chimed activated by its first call)")

    # An app asks and schedules, as apps do; the Center reads it all on Refresh.
    chime("authorize", "--alert", "--sound", "--badge", "--app", "org.example.tea")
    chime("add", "steep", "--app", "org.example.tea", "--title", "Steep the tea", "--in", "1h")
    chime("add", "kettle", "--app", "org.example.tea", "--title", "Kettle boiled", "--body", "Pour now")
    press(present("push button", "Refresh"))
    tea = ["Apps page", "Tea Timer"]
    switch = present("check box", "Sounds", within=tea)
    assert switch.getState().contains(pyatspi.STATE_CHECKED), "the sound switch starts on"
    step("Refresh lists the app by its .desktop name, its sound on")

    press(switch)
    until("chimed to have the sound off", lambda: chime("settings", "--app", "org.example.tea")["sound"] is False)
    settings = chime("settings", "--app", "org.example.tea")
    assert settings["alert"] is True and settings["badge"] is True, settings
    until("the switch to show it off", lambda: not find("check box", "Sounds", within=tea)
          .getState().contains(pyatspi.STATE_CHECKED))
    step("switching Tea Timer's sound off: `chime settings` says sound off, alerts and badges on")

    # Live: an add after the Center knows the app shows up without Refresh (PendingAdded).
    scheduled, delivered = ["Scheduled page"], ["Delivered page"]
    open_page("Scheduled")
    present("push button", "Remove Steep the tea", within=scheduled)
    chime("add", "brew", "--app", "org.example.tea", "--title", "Brew again", "--in", "2h")
    present("push button", "Remove Brew again", within=scheduled)
    step("a request added meanwhile appears on Scheduled by itself (the app's signals)")

    open_page("Delivered")
    click(present("list item", "Kettle boiled", within=delivered))  # opens the row: its snooze choices
    ten = present("push button", "Snooze Kettle boiled for 10 minutes", within=delivered)
    # GTK 4.8 reports no expanded state: the opened row's buttons get a size on screen.
    until("the row to open", lambda: ten.queryComponent().getExtents(pyatspi.WINDOW_COORDS)[3] > 0)
    click(ten)
    snoozed = until("kettle to be pending again", lambda: [p for p in chime("pending", "--app", "org.example.tea")
                                                           if p.get("id") == "kettle"])
    assert snoozed[0].get("snooze_count") == 1, snoozed
    assert not [d for d in chime("delivered", "--app", "org.example.tea") if d.get("id") == "kettle"]
    gone("push button", "Remove Kettle boiled", within=delivered)
    present("label", "No Notifications", within=delivered)
    open_page("Scheduled")
    present("push button", "Remove Kettle boiled", within=scheduled)
    present("label", "snoozed, back in", prefix=True, within=scheduled)
    step("snoozing Kettle boiled from Delivered: pending again in chimed, marked snoozed on Scheduled")

    press(present("push button", "Remove Steep the tea", within=scheduled))
    until("steep to leave chimed", lambda: "steep" not in [p.get("id") for p in chime("pending", "--app", "org.example.tea")])
    gone("push button", "Remove Steep the tea", within=scheduled)
    step("removing Steep the tea from Scheduled removes it in chimed")

    open_page("Do Not Disturb")
    press(present("push button", "Turn on until tomorrow morning", within=["Do Not Disturb page"]))
    state = until("Do Not Disturb on", lambda: (lambda s: s if s.get("active") else None)(chime("dnd", "status")))
    tomorrow = (datetime.now().astimezone() + timedelta(days=1)).replace(hour=8, minute=0, second=0, microsecond=0)
    shown = json.dumps(state)
    assert state.get("source") == "manual", state
    until_ms = int(tomorrow.timestamp() * 1000)
    assert str(until_ms) in shown or tomorrow.strftime("%Y-%m-%dT08:00") in shown, state
    present("label", "On, turned on by you", prefix=True, within=["Do Not Disturb page"])
    step("Do Not Disturb on until tomorrow 08:00, in chimed and on the page")

    # The keyboard: Alt+2 opens Delivered (X keycodes of Xvfb's default map: Alt_L 64, "2" 11).
    delivered_tab = present("page tab", "Delivered")
    pyatspi.Registry.generateKeyboardEvent(64, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(11, None, pyatspi.KEY_PRESSRELEASE)
    pyatspi.Registry.generateKeyboardEvent(64, None, pyatspi.KEY_RELEASE)
    until("Alt+2 to open Delivered", lambda: delivered_tab.getState().contains(pyatspi.STATE_SELECTED))
    step("Alt+2 switches to the Delivered page")

    # chimed stops (an upgrade, a crash): the Center's next read starts a new one through the
    # bus, and it follows that one live as before.
    owner = lambda: subprocess.run(  # noqa: E731
        ["busctl", "--user", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
         "GetConnectionUnixProcessID", "s", "io.github.chime.Chime1"], capture_output=True, text=True).stdout.split()[-1:]
    (first,) = owner()
    os.kill(int(first), 15)
    until("chimed to stop", lambda: owner() != [first])
    open_page("Scheduled")
    press(present("push button", "Refresh"))
    until("a new chimed", lambda: owner() and owner() != [first])
    present("push button", "Remove Brew again", within=scheduled)
    chime("add", "again", "--app", "org.example.tea", "--title", "After the restart", "--in", "3h")
    present("push button", "Remove After the restart", within=scheduled)
    step("after chimed stopped, Refresh starts a new one and the Center follows it live")
    print(f"center test took {time.monotonic() - started:.1f} s", flush=True)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAIL {e}", file=sys.stderr)
        sys.exit(1)
