"""Scheduled: every app's pending requests, grouped by app, each with its next fire in words;
snoozed ones marked. Remove one, or all of an app's."""
from datetime import datetime

import gi

gi.require_version("Adw", "1")
from gi.repository import Adw, Gtk  # noqa: E402

from . import when  # noqa: E402
from .common import ListPage, app_name_and_icon, icon_button, report, text_button  # noqa: E402
from .model import ChimeError  # noqa: E402


class ScheduledPage(ListPage):
    def __init__(self, chime, toasts):
        super().__init__("alarm-symbolic", "Nothing Scheduled",
                         "Notifications apps schedule for later appear here.")
        self.chime, self.toasts = chime, toasts
        chime.connect("lists-changed", lambda _c: self.rebuild())

    def rebuild(self):
        self.reset()
        now = datetime.now().astimezone()
        for app in sorted(self.chime.pending, key=lambda a: app_name_and_icon(a, self.chime.apps.get(a))[0].lower()):
            requests = self.chime.pending[app]
            if not requests:
                continue
            name, icon = app_name_and_icon(app, self.chime.apps.get(app))
            group = Adw.PreferencesGroup(title=name, description=f"{len(requests)} scheduled")
            group.set_header_suffix(text_button("Remove All", self.remove_all, app, name, css="flat"))
            group.get_header_suffix().update_property([Gtk.AccessibleProperty.LABEL], [f"Remove all of {name}"])
            for request in sorted(requests, key=lambda r: r.get("next-fire", 0)):
                group.add(self.row(app, request, now, icon))
            self.add_group(group)
        self.show_result()

    def row(self, app, request, now, icon):
        title = request.get("title") or request["identifier"]
        row = Adw.ActionRow(title=title, subtitle=when.describe(request, now))
        row.set_title_lines(1)
        image = Gtk.Image.new_from_gicon(icon)
        image.set_pixel_size(32)
        row.add_prefix(image)
        if request.get("snooze-count"):
            snoozed = Gtk.Label(label="Snoozed", valign=Gtk.Align.CENTER)
            snoozed.add_css_class("dim-label")
            row.add_suffix(snoozed)
        row.add_suffix(icon_button("user-trash-symbolic", f"Remove {title}", self.remove_request, app, request["identifier"]))
        return row

    def remove_request(self, app, identifier):
        try:
            self.chime.remove_pending(app, [identifier])
            self.chime.refresh_lists(app)
        except ChimeError as e:
            report(self.toasts, e)

    def remove_all(self, app, name):
        try:
            removed = self.chime.remove_all_pending(app)
            self.chime.refresh_lists(app)
            self.toasts.add_toast(Adw.Toast(title=f"Removed {len(removed)} from {name}", timeout=3))
        except ChimeError as e:
            report(self.toasts, e)
