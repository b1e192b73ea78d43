"""The Center's view of chimed, through its D-Bus API only (Gio.DBusProxy, no client library).

One unregistered connection makes the user-side calls (ListApps, SetAppSettings, Do Not
Disturb, calendars), naming the Center as the caller with `app-id`. Each app shown gets a
connection of its own registered as that app: its pending and delivered lists, removals and
snoozes go through it, and chimed sends it that app's signals, so the lists follow chimed live.
The first call activates chimed when it is not running (the bus starts it from its service
file)."""
import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib, GObject  # noqa: E402

from . import APP_ID  # noqa: E402

NAME = "io.github.chime.Chime1"
PATH = "/io/github/chime/Chime1"
IFACE = "io.github.chime.Chime1"
TIMEOUT_MS = 10000
ERROR_PREFIX = "GDBus.Error:" + IFACE + ".Error."
APP_SIGNALS = {"Delivered", "PendingRemoved", "PendingAdded", "DeliveredRemoved", "BadgeChanged", "Response",
               "AuthorizationChanged"}


class ChimeError(Exception):
    """A refused call: `reason` is chimed's (README "Reasons") when it gave one."""

    def __init__(self, error):
        text = error.message if isinstance(error, GLib.Error) else str(error)
        self.reason = None
        if text.startswith(ERROR_PREFIX):
            self.reason, _, text = text[len(ERROR_PREFIX):].partition(": ")
        super().__init__(text)


def _variant_dict(values):
    """A{sv} from plain values: bool, int (x), float (d), str; Variants are kept."""
    out = {}
    for key, value in values.items():
        if isinstance(value, GLib.Variant):
            out[key] = value
        elif isinstance(value, bool):
            out[key] = GLib.Variant("b", value)
        elif isinstance(value, int):
            out[key] = GLib.Variant("x", value)
        elif isinstance(value, float):
            out[key] = GLib.Variant("d", value)
        else:
            out[key] = GLib.Variant("s", str(value))
    return out


def _proxy(connection):
    return Gio.DBusProxy.new_sync(connection, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None, NAME, PATH, IFACE, None)


def _call(proxy, method, signature=None, args=()):
    try:
        params = GLib.Variant(signature, tuple(args)) if signature else None
        reply = proxy.call_sync(method, params, Gio.DBusCallFlags.NONE, TIMEOUT_MS, None)
    except GLib.Error as e:
        raise ChimeError(e) from None
    return reply.unpack() if reply is not None else ()


class Chime(GObject.Object):
    """chimed as the Center sees it. Signals: `apps-changed` (the app list or an app's settings),
    `lists-changed` (an app's pending or delivered list), `dnd-changed`, `calendars-changed`."""

    __gsignals__ = {
        "apps-changed": (GObject.SignalFlags.RUN_FIRST, None, ()),
        "lists-changed": (GObject.SignalFlags.RUN_FIRST, None, ()),
        "dnd-changed": (GObject.SignalFlags.RUN_FIRST, None, ()),
        "calendars-changed": (GObject.SignalFlags.RUN_FIRST, None, ()),
        # chimed stopped, or another one took its place: what was read may be stale.
        "restarted": (GObject.SignalFlags.RUN_FIRST, None, ()),
    }

    def __init__(self):
        super().__init__()
        self.address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
        self.user = _proxy(self._connect())
        self.me = {"app-id": GLib.Variant("s", APP_ID)}
        self.apps = {}        # app id -> ListApps' entry
        self.pending = {}     # app id -> [GetPending's entries]
        self.delivered = {}   # app id -> [GetDelivered's entries]
        self.dnd = {}
        self.calendars = []
        self._app_proxies = {}
        self.user.connect("notify::g-name-owner", self._owner_changed)

    def _owner_changed(self, proxy, _pspec):
        """A registration lives as long as the chimed that took it: when chimed goes (stopped,
        restarted, upgraded), each app's connection is dropped and made again on next use, and
        the window reads everything again from the new one (started by that read if none runs)."""
        self.close()
        if proxy.get_name_owner() is not None:
            self.emit("restarted")

    def _connect(self):
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        return Gio.DBusConnection.new_for_address_sync(self.address, flags, None, None)

    # --- Apps -----------------------------------------------------------------------------
    def refresh_apps(self):
        (listed,) = _call(self.user, "ListApps", "(a{sv})", [self.me])
        self.apps = {a["app-id"]: a for a in listed if a["app-id"] != APP_ID}
        for app in self.apps:
            self._app(app)
        self.emit("apps-changed")

    def set_app_settings(self, app, **change):
        keys = {k.replace("_", "-"): v for k, v in change.items()}
        (settings,) = _call(self.user, "SetAppSettings", "(sa{sv}a{sv})", [app, _variant_dict(keys), self.me])
        if app in self.apps:
            self.apps[app]["settings"] = settings
        self.emit("apps-changed")
        return settings

    # --- Each app's lists, through its own registered connection ----------------------------
    def _app(self, app):
        proxy = self._app_proxies.get(app)
        if proxy is None:
            proxy = _proxy(self._connect())
            _call(proxy, "Register", "(sa{sv})", [app, {}])
            proxy.connect("g-signal", self._on_app_signal, app)
            self._app_proxies[app] = proxy
        return proxy

    def _on_app_signal(self, _proxy, _sender, member, _params, app):
        if member not in APP_SIGNALS:
            return
        # An app's badge or its allow/deny (answered on an "Allow notifications?" prompt) changed.
        if member in ("BadgeChanged", "AuthorizationChanged"):
            GLib.idle_add(self._quietly, self.refresh_apps)
        else:
            GLib.idle_add(self._quietly, lambda: self.refresh_lists(app))

    @staticmethod
    def _quietly(fn):
        try:
            fn()
        except ChimeError:
            pass
        return GLib.SOURCE_REMOVE

    def refresh_lists(self, app=None):
        for one in [app] if app else list(self.apps):
            proxy = self._app(one)
            (self.pending[one],) = _call(proxy, "GetPending", "(a{sv})", [{}])
            (self.delivered[one],) = _call(proxy, "GetDelivered", "(a{sv})", [{}])
        self.emit("lists-changed")

    def remove_pending(self, app, identifiers):
        return _call(self._app(app), "RemovePending", "(as)", [identifiers])[0]

    def remove_all_pending(self, app):
        return _call(self._app(app), "RemoveAllPending")[0]

    def remove_delivered(self, app, identifiers):
        return _call(self._app(app), "RemoveDelivered", "(as)", [identifiers])[0]

    def snooze(self, app, identifier, seconds):
        return _call(self._app(app), "Snooze", "(sua{sv})", [identifier, int(seconds), {}])[0]

    # --- Do Not Disturb -------------------------------------------------------------------
    def refresh_dnd(self):
        (self.dnd,) = _call(self.user, "GetDoNotDisturb", "(a{sv})", [self.me])
        self.emit("dnd-changed")

    def set_dnd(self, **change):
        keys = {k.replace("_", "-"): v for k, v in change.items()}
        keys.update(self.me)
        (self.dnd,) = _call(self.user, "SetDoNotDisturb", "(a{sv})", [_variant_dict(keys)])
        self.emit("dnd-changed")
        return self.dnd

    # --- Calendars ------------------------------------------------------------------------
    def refresh_calendars(self):
        (self.calendars,) = _call(self.user, "ListCalendars", "(a{sv})", [self.me])
        self.emit("calendars-changed")

    def add_calendar(self, name, path):
        (calendar,) = _call(self.user, "AddCalendar", "(ssa{sv})", [name, path, self.me])
        self.refresh_calendars()
        return calendar

    def remove_calendar(self, name):
        (withdrawn,) = _call(self.user, "RemoveCalendar", "(sa{sv})", [name, self.me])
        self.refresh_calendars()
        return withdrawn

    def close(self):
        for proxy in self._app_proxies.values():
            proxy.get_connection().close_sync(None)
        self._app_proxies.clear()
