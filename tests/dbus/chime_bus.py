"""Small helpers over dbus-next for the D-Bus API tests: raw calls (so refusals can be read)
and a fake /proc entry for the calling process (chimed runs with --proc-root)."""
import asyncio
import os

from dbus_next import Message, MessageType, Variant
from dbus_next.aio import MessageBus

NAME = "io.github.chime.Chime1"
PATH = "/io/github/chime/Chime1"
IFACE = "io.github.chime.Chime1"
TIMEOUT = 10

HOST_CGROUP = "0::/user.slice/user@0.service/app.slice/test.scope\n"


def fake_proc(root, pid=None, flatpak=None, cgroup=HOST_CGROUP):
    """Makes ROOT/PID look like a host process, or a Flatpak app when `flatpak` names one."""
    me = os.path.join(root, str(pid or os.getpid()))
    os.makedirs(os.path.join(me, "root"), exist_ok=True)
    with open(os.path.join(me, "cgroup"), "w") as f:
        f.write(cgroup)
    if flatpak:
        with open(os.path.join(me, "root", ".flatpak-info"), "w") as f:
            f.write(f"[Application]\nname={flatpak}\n")


class BusError(Exception):
    def __init__(self, name, text):
        super().__init__(f"{name}: {text}")
        self.name = name
        self.text = text

    @property
    def reason(self):
        prefix = IFACE + ".Error."
        return self.name[len(prefix):] if self.name.startswith(prefix) else None


class Conn:
    """One connection to the bus, with the signals of chimed's interface it received."""

    def __init__(self, bus):
        self.bus = bus
        self.signals = asyncio.Queue()
        bus.add_message_handler(self._on_message)

    @classmethod
    async def open(cls, address):
        bus = await asyncio.wait_for(MessageBus(bus_address=address).connect(), TIMEOUT)
        return cls(bus)

    def _on_message(self, message):
        if message.message_type == MessageType.SIGNAL and message.interface == IFACE:
            self.signals.put_nowait((message.member, message.body, message.destination))

    async def call(self, member, signature="", body=(), interface=IFACE, destination=NAME, path=PATH):
        reply = await asyncio.wait_for(self.bus.call(Message(
            destination=destination, path=path, interface=interface, member=member,
            signature=signature, body=list(body))), TIMEOUT)
        if reply.message_type == MessageType.ERROR:
            raise BusError(reply.error_name, reply.body[0] if reply.body else "")
        return reply.body

    async def refusal(self, member, signature="", body=()):
        try:
            await self.call(member, signature, body)
        except BusError as e:
            return e
        raise AssertionError(f"{member} was not refused")

    async def signal(self, member):
        """The next signal named `member` (others received meanwhile are kept in order)."""
        while True:
            got = await asyncio.wait_for(self.signals.get(), TIMEOUT)
            if got[0] == member:
                return got

    def close(self):
        self.bus.disconnect()


def v(signature, value):
    return Variant(signature, value)


def unwrap(d):
    """An a{sv} as plain Python values."""
    out = {}
    for k, val in d.items():
        val = val.value if isinstance(val, Variant) else val
        if isinstance(val, dict):
            val = unwrap(val)
        elif isinstance(val, list):
            val = [unwrap(x) if isinstance(x, dict) else x for x in val]
        out[k] = val
    return out
