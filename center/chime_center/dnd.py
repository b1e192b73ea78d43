"""Do Not Disturb: on or off, "until" choices (1 hour, tonight, tomorrow morning), the weekly
schedule, following the desktop, the summary."""
from datetime import datetime

import gi

gi.require_version("Adw", "1")
from gi.repository import Adw, Gtk  # noqa: E402

from . import when  # noqa: E402
from .common import labelled, report, switch_row, text_button  # noqa: E402
from .model import ChimeError  # noqa: E402

DAYS = [("Every day", "all"), ("Weekdays", "mon-fri"), ("Weekends", "sat,sun")]
SOURCES = {"manual": "turned on by you", "schedule": "by the schedule", "desktop": "the desktop is quiet"}


def state_words(state, now):
    if not state.get("active"):
        start = state.get("next-start") or 0
        return "Off" + (f" · the schedule starts it {when.when_words(when.from_millis(start, now.tzinfo), now)}" if start else "")
    words = "On, " + SOURCES.get(state.get("source", ""), state.get("source", ""))
    until = state.get("until") or 0
    if until:
        words += f" · until {when.when_words(when.from_millis(until, now.tzinfo), now).removeprefix('on ')}"
    if state.get("desktop"):
        words += f" ({state['desktop']})"
    return words


class DoNotDisturbPage(Gtk.Box):
    def __init__(self, chime, toasts):
        super().__init__(orientation=Gtk.Orientation.VERTICAL)
        self.chime, self.toasts = chime, toasts
        self._building = False
        self.page = None
        chime.connect("dnd-changed", lambda _c: self.rebuild())

    def rebuild(self):
        self._building = True
        if self.page is not None:
            Gtk.Box.remove(self, self.page)
        self.page = Adw.PreferencesPage(vexpand=True)
        self.append(self.page)
        state, now = self.chime.dnd, datetime.now().astimezone()
        now_group = Adw.PreferencesGroup(title="Do Not Disturb", description=state_words(state, now))
        row, _ = switch_row("Do Not Disturb", "Notifications are kept quiet and listed as delivered", state.get("manual"),
                            lambda on: self.change(manual=on), "Do Not Disturb")
        now_group.add(row)
        for label, until in when.until_choices(now):
            ms = int(until.timestamp() * 1000)
            choice = Adw.ActionRow(title=label, subtitle=when.when_words(until, now))
            button = labelled(text_button("Turn On", self.change, manual=True, manual_until=ms, css="flat"),
                              f"Turn on {label[0].lower()}{label[1:]}")
            choice.add_suffix(button)
            now_group.add(choice)
        self.page.add(now_group)
        self.page.add(self.schedule_group(state))
        more = Adw.PreferencesGroup(title="More")
        row, _ = switch_row("Follow the Desktop", "Quiet while the desktop's own Do Not Disturb is on",
                            state.get("follow-desktop"), lambda on: self.change(follow_desktop=on), "Follow the desktop")
        more.add(row)
        row, _ = switch_row("Summary", "List what came in while it was on, once it ends", state.get("summary"),
                            lambda on: self.change(summary=on), "Summary when Do Not Disturb ends")
        more.add(row)
        self.page.add(more)
        self._building = False

    def schedule_group(self, state):
        group = Adw.PreferencesGroup(title="Schedule", description="Quiet every week at these hours")
        self.window = Adw.EntryRow(title="Hours (e.g. 22:00-07:00)", text=state.get("schedule", ""))
        group.add(self.window)
        model = Gtk.StringList.new([label for label, _ in DAYS])
        self.days = Adw.ComboRow(title="Days", model=model)
        current = state.get("days") or "all"
        self.days.set_selected(next((i for i, (_, d) in enumerate(DAYS) if d == current), 0))
        group.add(self.days)
        buttons = Gtk.Box(spacing=6, halign=Gtk.Align.END, margin_top=6)
        buttons.append(text_button("Clear Schedule", self.clear_schedule))
        buttons.append(text_button("Save Schedule", self.save_schedule, css="suggested-action"))
        group.add(buttons)
        return group

    def save_schedule(self):
        self.change(schedule=self.window.get_text().strip(), days=DAYS[self.days.get_selected()][1])

    def clear_schedule(self):
        self.change(clear_schedule=True)

    def change(self, **change):
        if self._building:
            return
        try:
            self.chime.set_dnd(**change)
        except ChimeError as e:
            report(self.toasts, e)
            self.chime.emit("dnd-changed")
