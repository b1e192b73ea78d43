"""The Center's window: a header with the page switcher, the pages in an Adw.ViewStack, toasts
for refusals. Keyboard: Tab moves through every control; Alt+1…5 switch pages; Ctrl+R reads
everything again; Ctrl+W or Ctrl+Q closes."""
import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gio, Gtk  # noqa: E402

from .apps import AppsPage  # noqa: E402
from .calendars import CalendarsPage  # noqa: E402
from .common import labelled  # noqa: E402
from .delivered import DeliveredPage  # noqa: E402
from .dnd import DoNotDisturbPage  # noqa: E402
from .model import ChimeError  # noqa: E402
from .scheduled import ScheduledPage  # noqa: E402


class CenterWindow(Adw.ApplicationWindow):
    def __init__(self, app, chime):
        super().__init__(application=app, title="Chime Center", default_width=720, default_height=640)
        self.chime = chime
        self.toasts = Adw.ToastOverlay()
        self.stack = Adw.ViewStack(vexpand=True)
        pages = [
            ("scheduled", "Scheduled", "alarm-symbolic", ScheduledPage(chime, self.toasts)),
            ("delivered", "Delivered", "preferences-system-notifications-symbolic", DeliveredPage(chime, self.toasts)),
            ("apps", "Apps", "view-app-grid-symbolic", AppsPage(chime, self.toasts)),
            ("dnd", "Do Not Disturb", "notifications-disabled-symbolic", DoNotDisturbPage(chime, self.toasts)),
            ("calendars", "Calendars", "x-office-calendar-symbolic", CalendarsPage(chime, self.toasts, self)),
        ]
        for name, title, icon, page in pages:
            page.update_property([Gtk.AccessibleProperty.LABEL], [f"{title} page"])
            self.stack.add_titled_with_icon(page, name, title, icon)
        self.pages = [name for name, *_ in pages]
        title = Adw.ViewSwitcherTitle(stack=self.stack, title="Chime Center")
        header = Adw.HeaderBar(title_widget=title)
        reload = Gtk.Button(icon_name="view-refresh-symbolic")
        labelled(reload, "Refresh")
        reload.connect("clicked", lambda _b: self.refresh())
        header.pack_start(reload)
        bar = Adw.ViewSwitcherBar(stack=self.stack)
        title.bind_property("title-visible", bar, "reveal", 0)
        self.toasts.set_child(self.stack)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.append(header)
        box.append(self.toasts)
        box.append(bar)
        self.set_content(box)
        self.failure = None
        self._shortcuts(app)
        self.connect("notify::is-active", lambda w, _p: w.is_active() and self.refresh())
        chime.connect("restarted", lambda _c: self.refresh())

    def _shortcuts(self, app):
        for i, name in enumerate(self.pages, start=1):
            action = Gio.SimpleAction(name=f"page-{i}")
            action.connect("activate", lambda _a, _p, n=name: self.stack.set_visible_child_name(n))
            self.add_action(action)
            app.set_accels_for_action(f"win.page-{i}", [f"<Alt>{i}"])
        refresh = Gio.SimpleAction(name="refresh")
        refresh.connect("activate", lambda *_: self.refresh())
        self.add_action(refresh)
        app.set_accels_for_action("win.refresh", ["<Control>r", "F5"])
        close = Gio.SimpleAction(name="close")
        close.connect("activate", lambda *_: self.close())
        self.add_action(close)
        app.set_accels_for_action("win.close", ["<Control>w", "<Control>q"])

    def refresh(self):
        """Reads everything again from chimed (activating it when it is not running)."""
        try:
            self.chime.refresh_apps()
            self.chime.refresh_lists()
            self.chime.refresh_dnd()
            self.chime.refresh_calendars()
        except ChimeError as e:
            self.show_failure(e)
            return
        if self.failure is not None:
            self.set_content(self.failure.content_box)
            self.failure = None

    def show_failure(self, error):
        """chimed could not be reached or refused: say so in place of the pages."""
        if self.failure is None:
            status = Adw.StatusPage(icon_name="dialog-error-symbolic", title="Chime Is Not Answering",
                                    description=str(error))
            retry = Gtk.Button(label="Try Again", halign=Gtk.Align.CENTER)
            retry.add_css_class("pill")
            retry.connect("clicked", lambda _b: self.refresh())
            status.set_child(retry)
            status.content_box = self.get_content()
            self.failure = status
            self.set_content(status)
        else:
            self.failure.set_description(str(error))
