"""Delivered: what fired and is still in the list, newest first, with Snooze (a few durations)
and Remove; missed ones and quiet ones (delivered under Do Not Disturb) marked."""
from datetime import datetime

import gi

gi.require_version("Adw", "1")
from gi.repository import Adw, Gtk  # noqa: E402

from . import when  # noqa: E402
from .common import ListPage, app_name_and_icon, icon_button, labelled, report  # noqa: E402
from .model import ChimeError  # noqa: E402

SNOOZES = [("10 minutes", 600), ("1 hour", 3600), ("1 day", 86400)]


class DeliveredPage(ListPage):
    def __init__(self, chime, toasts):
        super().__init__("preferences-system-notifications-symbolic", "No Notifications",
                         "Notifications stay here after they appear, until you remove them.")
        self.chime, self.toasts = chime, toasts
        chime.connect("lists-changed", lambda _c: self.rebuild())

    def rebuild(self):
        self.reset()
        now = datetime.now().astimezone()
        entries = [(app, n) for app, items in self.chime.delivered.items() for n in items]
        entries.sort(key=lambda e: e[1].get("delivered-at", 0), reverse=True)
        if entries:
            group = Adw.PreferencesGroup(title="Delivered", description="Newest first")
            for app, notification in entries:
                group.add(self.row(app, notification, now))
            self.add_group(group)
        self.show_result()

    def row(self, app, notification, now):
        name, icon = app_name_and_icon(app, self.chime.apps.get(app))
        title = notification.get("title") or notification["identifier"]
        at = when.from_millis(notification["delivered-at"], now.tzinfo)
        marks = [name, when.past_words(at, now)]
        if notification.get("missed"):
            marks.append("missed")
        if notification.get("quiet"):
            marks.append("quiet (Do Not Disturb)")
        body = notification.get("body")
        # An expander row: its header shows the notification, Remove beside it; opened, it
        # offers the snooze durations as plain buttons (no popover: each is one Tab stop).
        row = Adw.ExpanderRow(title=title, subtitle=" · ".join(marks) + (f"\n{body}" if body else ""))
        image = Gtk.Image.new_from_gicon(icon)
        image.set_pixel_size(32)
        row.add_prefix(image)
        row.add_action(icon_button("user-trash-symbolic", f"Remove {title}", self.remove_notification, app, notification["identifier"]))
        snooze = Adw.ActionRow(title="Snooze", subtitle="Take it off the list and deliver it again later")
        for text, seconds in SNOOZES:
            button = Gtk.Button(label=text, valign=Gtk.Align.CENTER)
            labelled(button, f"Snooze {title} for {text}")
            button.connect("clicked", lambda _b, s=seconds, t=text: self.snooze(app, notification["identifier"], title, s, t))
            snooze.add_suffix(button)
        row.add_row(snooze)
        return row

    def snooze(self, app, identifier, title, seconds, text):
        try:
            self.chime.snooze(app, identifier, seconds)
            self.chime.refresh_lists(app)
            self.toasts.add_toast(Adw.Toast(title=f"{title} snoozed for {text}", timeout=3))
        except ChimeError as e:
            report(self.toasts, e)

    def remove_notification(self, app, identifier):
        try:
            self.chime.remove_delivered(app, [identifier])
            self.chime.refresh_lists(app)
        except ChimeError as e:
            report(self.toasts, e)
