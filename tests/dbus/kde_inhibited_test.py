"""Following KDE Plasma's Do Not Disturb: a fake org.freedesktop.Notifications server with
Plasma's `Inhibited` property, on a private bus of its own, and a chimed presenting on it
(--presenter freedesktop). chimed must read the property at start and follow its
PropertiesChanged, with the value or only invalidated. Run by tests/dbus/run.sh; every wait is
bounded (TIMEOUT); only the processes started here are stopped, by pid."""
import asyncio
import json
import logging
import os
import subprocess
import sys
import tempfile

from dbus_next.aio import MessageBus
from dbus_next.service import PropertyAccess, ServiceInterface, dbus_property, method

BIN = os.environ["CHIME_BIN_DIR"]
TIMEOUT = 10


class FakePlasma(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.Notifications")
        self.inhibited = True
        self.notified = []

    @method()
    def GetCapabilities(self) -> "as":
        return ["body", "actions", "inhibitions"]

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s", actions: "as",
               hints: "a{sv}", expire_timeout: "i") -> "u":
        self.notified.append((summary, body))
        return len(self.notified)

    @method()
    def CloseNotification(self, id: "u"):
        pass

    @dbus_property(access=PropertyAccess.READ)
    def Inhibited(self) -> "b":
        return self.inhibited

    def set(self, inhibited, send_value=True):
        self.inhibited = inhibited
        if send_value:
            self.emit_properties_changed({"Inhibited": inhibited})
        else:
            self.emit_properties_changed({}, ["Inhibited"])


def dnd(tmp):
    out = subprocess.run([os.path.join(BIN, "chime"), "dnd", "--json"], capture_output=True, text=True, timeout=TIMEOUT,
                         env={**os.environ, "CHIME_SOCKET": os.path.join(tmp, "chimed.sock")})
    return json.loads(out.stdout) if out.returncode == 0 else {}


async def until(tmp, predicate, what):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    state = {}
    while loop.time() < deadline:
        state = dnd(tmp)
        if predicate(state):
            return state
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what}: {state}")


async def main():
    # dbus-next logs a traceback for each Get of dunst's property, which this fake does not
    # have: the error reply is what chimed should see, and the log is noise.
    logging.disable(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="chime-kde-") as tmp:
        with open(os.path.join(tmp, "bus.conf"), "w") as f:
            f.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path={tmp}/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
        bus_daemon = subprocess.Popen(["dbus-daemon", "--config-file", os.path.join(tmp, "bus.conf"), "--nofork", "--nosyslog"],
                                      stderr=subprocess.DEVNULL)
        chimed = None
        try:
            address = f"unix:path={tmp}/bus"
            for _ in range(TIMEOUT * 100):
                if os.path.exists(os.path.join(tmp, "bus")):
                    break
                await asyncio.sleep(0.01)
            bus = await MessageBus(bus_address=address).connect()
            plasma = FakePlasma()
            bus.export("/org/freedesktop/Notifications", plasma)
            await bus.request_name("org.freedesktop.Notifications")
            log = open(os.path.join(tmp, "chimed.log"), "w")
            chimed = subprocess.Popen([os.path.join(BIN, "chimed"), "--socket", os.path.join(tmp, "chimed.sock"),
                                       "--data-dir", os.path.join(tmp, "data"), "--presenter", "freedesktop",
                                       "--sound-player", "none", "--log-level", "debug"],
                                      env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": address},
                                      stdout=subprocess.DEVNULL, stderr=log)
            try:
                # Inhibited before chimed started: read at start.
                state = await until(tmp, lambda s: s.get("source") == "desktop", "inhibited at start")
                assert state["desktop"] == "KDE inhibited" and state["active"] is True, state
                # PropertiesChanged with the value.
                plasma.set(False)
                state = await until(tmp, lambda s: s.get("active") is False, "resumed")
                assert state["desktop"] is None, state
                # PropertiesChanged naming it invalidated only: chimed asks for the value.
                plasma.set(True, send_value=False)
                state = await until(tmp, lambda s: s.get("source") == "desktop", "inhibited, invalidated only")
                assert state["desktop"] == "KDE inhibited", state
                print("ok   KDE's Inhibited is read at start and followed (value and invalidated)")
            except AssertionError:
                log.flush()
                with open(os.path.join(tmp, "chimed.log")) as f:
                    print(f.read()[-3000:], file=sys.stderr)
                raise
            finally:
                bus.disconnect()
        finally:
            if chimed is not None:
                chimed.terminate()
                chimed.wait(timeout=TIMEOUT)
            bus_daemon.terminate()
            bus_daemon.wait(timeout=TIMEOUT)


asyncio.run(main())
