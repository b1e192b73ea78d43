"""What the pages share: an app's name and icon (from its .desktop file when it has one),
accessible labels, and a page that is a list or, when the list is empty, a status page."""
import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Adw", "1")
from gi.repository import Adw, Gio, GLib, Gtk  # noqa: E402

FALLBACK_ICON = "application-x-executable"
# Each calendar posts under an app id of its own (README "Calendars").
CALENDAR_APPS = "io.github.chime.calendar."


def app_name_and_icon(app_id, entry=None):
    """The app's name and icon: its .desktop file's (the desktop-entry it registered, else one
    named after its id), else its registered display name, else its id."""
    entry = entry or {}
    if app_id.startswith(CALENDAR_APPS) and not entry.get("desktop-entry"):
        return f"Calendar “{app_id[len(CALENDAR_APPS):]}”", Gio.ThemedIcon.new("x-office-calendar")
    candidates = [entry.get("desktop-entry") or "", app_id]
    for desktop in candidates:
        if not desktop:
            continue
        try:
            info = Gio.DesktopAppInfo.new(desktop + ".desktop")
        except TypeError:
            info = None
        if info is not None:
            return info.get_name(), info.get_icon() or Gio.ThemedIcon.new(FALLBACK_ICON)
    return entry.get("display-name") or app_id, Gio.ThemedIcon.new(FALLBACK_ICON)


def labelled(widget, text):
    """Gives `widget` the name a screen reader reads (and the same tooltip)."""
    widget.set_tooltip_text(text)
    widget.update_property([Gtk.AccessibleProperty.LABEL], [text])
    return widget


def icon_button(icon, text, callback, *args):
    button = Gtk.Button(icon_name=icon, valign=Gtk.Align.CENTER)
    button.add_css_class("flat")
    labelled(button, text)
    button.connect("clicked", lambda _b: callback(*args))
    return button


def text_button(text, callback, *args, css=None, **kwargs):
    button = Gtk.Button(label=text, valign=Gtk.Align.CENTER)
    if css:
        button.add_css_class(css)
    button.connect("clicked", lambda _b: callback(*args, **kwargs))
    return button


def switch_row(title, subtitle, active, on_change, tooltip):
    """An Adw.ActionRow with a switch (libadwaita 1.2 has no SwitchRow): the row activates the
    switch, and labels it, so a screen reader reads the row's title as the switch's name (its
    group names the app)."""
    row = Adw.ActionRow(title=title, subtitle=subtitle or "")
    switch = Gtk.Switch(active=bool(active), valign=Gtk.Align.CENTER, tooltip_text=tooltip)
    switch.connect("notify::active", lambda s, _p: on_change(s.get_active()))
    row.add_suffix(switch)
    row.set_activatable_widget(switch)
    return row, switch


class ListPage(Gtk.Stack):
    """A page of groups, or its empty state (an Adw.StatusPage) when it has none."""

    def __init__(self, icon, empty_title, empty_text):
        super().__init__(transition_type=Gtk.StackTransitionType.CROSSFADE)
        self.empty = Adw.StatusPage(icon_name=icon, title=empty_title, description=empty_text)
        self.add_named(self.empty, "empty")
        self.page = None
        self.reset()

    def reset(self):
        """A new, empty list (the old one is dropped whole: simpler than diffing rows)."""
        if self.page is not None:
            Gtk.Stack.remove(self, self.page)
        self.page = Adw.PreferencesPage()
        self.add_named(self.page, "list")
        self.groups = 0

    def add_group(self, group):
        self.page.add(group)
        self.groups += 1

    def show_result(self, extra_content=False):
        self.set_visible_child_name("list" if self.groups or extra_content else "empty")


def report(toasts, error):
    """Shows a refused call as a toast (chimed's message, which says what to change)."""
    toasts.add_toast(Adw.Toast(title=GLib.markup_escape_text(str(error)), timeout=6))
