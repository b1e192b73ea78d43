"""Calendars: the calendars whose alarms Chime schedules (a vdir folder, as vdirsyncer keeps
them, or one .ics file), their counts and the files it could not read; add a folder, remove one."""
import os
import re

import gi

gi.require_version("Adw", "1")
from gi.repository import Adw, Gtk  # noqa: E402

from .common import ListPage, icon_button, report, text_button  # noqa: E402
from .model import ChimeError  # noqa: E402


def calendar_name(path):
    """A calendar name from a folder: its last part, letters, digits, '-' and '_' kept."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", os.path.basename(os.path.normpath(path))).strip("-")
    return name or "calendar"


class CalendarsPage(Gtk.Box):
    def __init__(self, chime, toasts, window):
        super().__init__(orientation=Gtk.Orientation.VERTICAL)
        self.chime, self.toasts, self.window = chime, toasts, window
        self.list = ListPage("x-office-calendar-symbolic", "No Calendars",
                             "Add a calendar folder (as vdirsyncer keeps it) and its alarms become notifications.")
        self.list.set_vexpand(True)
        add = text_button("Add Calendar Folder…", self.choose, css="suggested-action")
        add.set_halign(Gtk.Align.CENTER)
        add.set_margin_top(12)
        add.set_margin_bottom(12)
        self.append(self.list)
        self.append(add)
        chime.connect("calendars-changed", lambda _c: self.rebuild())

    def rebuild(self):
        self.list.reset()
        for calendar in self.chime.calendars:
            group = Adw.PreferencesGroup(title=calendar["name"], description=calendar["path"])
            group.set_header_suffix(icon_button("user-trash-symbolic", f"Remove calendar {calendar['name']}",
                                                self.remove_calendar, calendar["name"]))
            alarms, items = calendar["alarms"], calendar["items"]
            counts = Adw.ActionRow(title=f"{alarms} alarm{'s' if alarms != 1 else ''} scheduled",
                                   subtitle=f"{items} item{'s' if items != 1 else ''} · posts as {calendar['app-id']}")
            group.add(counts)
            for error in calendar.get("errors", []):
                row = Adw.ActionRow(title=os.path.basename(error["file"]), subtitle=error["message"])
                row.add_prefix(Gtk.Image(icon_name="dialog-warning-symbolic"))
                group.add(row)
            self.list.add_group(group)
        self.list.show_result()

    def choose(self):
        chooser = Gtk.FileChooserNative(title="Add Calendar Folder", transient_for=self.window,
                                        action=Gtk.FileChooserAction.SELECT_FOLDER, accept_label="Add")
        chooser.connect("response", self._chosen)
        chooser.show()
        self._chooser = chooser  # kept alive while shown

    def _chosen(self, chooser, response):
        if response == Gtk.ResponseType.ACCEPT and chooser.get_file() is not None:
            path = chooser.get_file().get_path()
            try:
                self.chime.add_calendar(calendar_name(path), path)
            except ChimeError as e:
                report(self.toasts, e)
        self._chooser = None

    def remove_calendar(self, name):
        try:
            withdrawn = self.chime.remove_calendar(name)
            self.toasts.add_toast(Adw.Toast(title=f"Removed {name} ({withdrawn} alarms withdrawn)", timeout=3))
        except ChimeError as e:
            report(self.toasts, e)
