"""The sandboxed app's D-Bus side, run inside the bubblewrap sandbox behind xdg-dbus-proxy
(tests/sandbox/run.sh): with --talk=io.github.chime.Chime1 it reaches chimed without Register,
as itself, is refused another app's id (Register and per-call app-id) and the user's settings.
Without the talk permission (argument "denied") it cannot see or call the name at all. Prints one
"ok ..." line per check; a failed check raises."""

import asyncio
import os
import sys

from dbus_next import Message, MessageType, Variant
from dbus_next.aio import MessageBus

NAME, PATH = "io.github.chime.Chime1", "/io/github/chime/Chime1"


async def call(bus, member, signature="", body=(), destination=NAME, path=PATH, interface=NAME):
    return await bus.call(Message(destination=destination, path=path, interface=interface, member=member,
                                  signature=signature, body=list(body)))


def error_name(reply):
    return reply.error_name if reply.message_type == MessageType.ERROR else None


async def driver(bus, member, *args):
    signature = "s" * len(args)
    reply = await call(bus, member, signature, args, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")
    assert reply.message_type == MessageType.METHOD_RETURN, (member, reply.error_name, reply.body)
    return reply.body[0]


async def allowed(bus, me, other):
    assert await driver(bus, "NameHasOwner", NAME), "the proxy hides chimed's name from a talking app"
    reply = await call(bus, "Add", "sa{sv}a{sv}a{sv}", ["dbus-tea", {"title": Variant("s", "Tea")},
                                                       {"interval": Variant("d", 3600.0)}, {}])
    assert error_name(reply) is None, (reply.error_name, reply.body)
    reply = await call(bus, "GetPending", "a{sv}", [{}])
    assert error_name(reply) is None, (reply.error_name, reply.body)
    pending = sorted(p["identifier"].value for p in reply.body[0])
    assert "dbus-tea" in pending and "host-only" not in pending, pending
    print("ok   dbus: reaches chimed through the proxy without Register, as", me, "seeing only its own:", pending)
    # Signals reach the sandbox too: chimed sends them to the proxy's connection, which passes
    # a signal addressed to it from a name the app may talk to.
    delivered = asyncio.get_running_loop().create_future()

    def on_message(message):
        if message.message_type == MessageType.SIGNAL and message.member == "Delivered" and not delivered.done():
            delivered.set_result(message.body[0])

    bus.add_message_handler(on_message)
    reply = await call(bus, "AddMatch", "s", [f"type='signal',interface='{NAME}',member='Delivered'"],
                       "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")
    assert error_name(reply) is None, (reply.error_name, reply.body)
    reply = await call(bus, "Add", "sa{sv}a{sv}a{sv}", ["dbus-now", {"title": Variant("s", "Now")}, {}, {}])
    assert error_name(reply) is None, (reply.error_name, reply.body)
    identifier = await asyncio.wait_for(delivered, 10)
    assert identifier == "dbus-now", identifier
    print("ok   dbus: the Delivered signal reaches the sandboxed app through the proxy")
    reply = await call(bus, "GetPending", "a{sv}", [{"app-id": Variant("s", other)}])
    assert error_name(reply) == NAME + ".Error.APP_ID_MISMATCH", (reply.error_name, reply.body)
    reply = await call(bus, "Register", "sa{sv}", [other, {}])
    assert error_name(reply) == NAME + ".Error.APP_ID_MISMATCH", (reply.error_name, reply.body)
    print("ok   dbus: acting as", other, "(app-id, Register) is APP_ID_MISMATCH")
    reply = await call(bus, "SetDoNotDisturb", "a{sv}", [{"manual": Variant("b", True)}])
    assert error_name(reply) == NAME + ".Error.USER_SETTING_FROM_SANDBOX", (reply.error_name, reply.body)
    print("ok   dbus: Do Not Disturb is USER_SETTING_FROM_SANDBOX")


async def denied(bus):
    assert not await driver(bus, "NameHasOwner", NAME), "the proxy shows chimed's name to an app without --talk"
    assert NAME not in await driver(bus, "ListNames"), "ListNames shows chimed's name"
    assert NAME not in await driver(bus, "ListActivatableNames"), "ListActivatableNames shows chimed's name"
    reply = await call(bus, "GetPending", "a{sv}", [{}])
    assert error_name(reply) is not None, f"a call without --talk reached chimed: {reply.body}"
    print("ok   dbus: without --talk the name is hidden and a call fails:", reply.error_name)


async def main():
    bus = await MessageBus().connect()  # $DBUS_SESSION_BUS_ADDRESS: the proxy's socket
    if sys.argv[1:] == ["denied"]:
        await denied(bus)
    else:
        await allowed(bus, os.environ["FLATPAK_ID"], os.environ["OTHER_APP"])
    bus.disconnect()


asyncio.run(main())
