"""Apps: every app that asked or posted, with Allow and a switch per permission (alerts,
sounds, badges, time-sensitive, critical alerts), and its badge count."""
import gi

gi.require_version("Adw", "1")
from gi.repository import Adw, Gtk  # noqa: E402

from .common import ListPage, app_name_and_icon, report, switch_row  # noqa: E402
from .model import ChimeError  # noqa: E402

PERMISSIONS = [
    ("alert", "Alerts", "Shown on the screen"),
    ("sound", "Sounds", "Play the notification's sound"),
    ("badge", "Badges", "Show a count on the app"),
    ("time-sensitive", "Time-Sensitive", "Come through Do Not Disturb"),
    ("critical-alert", "Critical Alerts", "Always sound, even when quiet"),
]
STATUS_WORDS = {"authorized": "Allowed", "denied": "Not allowed", "provisional": "Delivered quietly",
                "not-determined": "Has not asked yet"}


class AppsPage(ListPage):
    def __init__(self, chime, toasts):
        super().__init__("view-app-grid-symbolic", "No Apps Yet",
                         "Apps appear here once they ask to send notifications or schedule one.")
        self.chime, self.toasts = chime, toasts
        self._building = False
        chime.connect("apps-changed", lambda _c: self.rebuild())

    def rebuild(self):
        self._building = True
        self.reset()
        for app in sorted(self.chime.apps, key=lambda a: app_name_and_icon(a, self.chime.apps[a])[0].lower()):
            self.add_group(self.group(app, self.chime.apps[app]))
        self.show_result()
        self._building = False

    def group(self, app, entry):
        settings = entry.get("settings", {})
        name, icon = app_name_and_icon(app, entry)
        status = settings.get("status", "not-determined")
        badge = settings.get("badge-count", 0)
        description = STATUS_WORDS.get(status, status) + (f" · badge {badge}" if badge else "")
        group = Adw.PreferencesGroup(title=name, description=description)
        image = Gtk.Image.new_from_gicon(icon)
        image.set_pixel_size(32)
        group.set_header_suffix(image)
        # An app that has not asked may still post when chimed's policy lets it (chimed
        # --authorization allow): its effective settings say so.
        allowed = status in ("authorized", "provisional") or (
            status == "not-determined" and any(settings.get(k) for k in ("alert", "sound", "badge")))
        if status == "not-determined" and allowed:
            description = "Has not asked · allowed by Chime's policy" + (f" · badge {badge}" if badge else "")
            group.set_description(description)
        row, _ = switch_row("Allow Notifications", app, allowed,
                            lambda on: self.change(app, status="authorized" if on else "denied"),
                            f"Allow notifications from {name}")
        group.add(row)
        for key, title, subtitle in PERMISSIONS:
            row, switch = switch_row(title, subtitle, settings.get(key), lambda on, k=key: self.change(app, **{k: on}),
                                     f"{title} for {name}")
            row.set_sensitive(allowed)
            group.add(row)
        return group

    def change(self, app, **change):
        if self._building:
            return
        try:
            self.chime.set_app_settings(app, **change)
        except ChimeError as e:
            report(self.toasts, e)
            self.chime.emit("apps-changed")
