"""The words of when.py (pure: run with any python3, `python3 -m unittest discover center/tests`)."""
import os
import sys
import unittest
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from chime_center import when  # noqa: E402

ZONE = timezone(timedelta(hours=1))
NOW = datetime(2026, 11, 30, 14, 0, tzinfo=ZONE)  # a Monday


def ms(t):
    return int(t.timestamp() * 1000)


class WhenWords(unittest.TestCase):
    def test_soon_today_tomorrow_this_week_later(self):
        self.assertEqual(when.when_words(NOW + timedelta(seconds=20), NOW), "in less than a minute")
        self.assertEqual(when.when_words(NOW + timedelta(minutes=1), NOW), "in 1 minute")
        self.assertEqual(when.when_words(NOW + timedelta(minutes=45), NOW), "in 45 minutes")
        self.assertEqual(when.when_words(NOW.replace(hour=18, minute=5), NOW), "today at 18:05")
        self.assertEqual(when.when_words(datetime(2026, 12, 1, 9, 30, tzinfo=ZONE), NOW), "tomorrow at 09:30")
        self.assertEqual(when.when_words(datetime(2026, 12, 4, 8, 0, tzinfo=ZONE), NOW), "on Friday at 08:00")
        self.assertEqual(when.when_words(datetime(2026, 12, 24, 18, 0, 30, tzinfo=ZONE), NOW), "on 24 December at 18:00:30")
        self.assertEqual(when.when_words(datetime(2027, 3, 1, 7, 0, tzinfo=ZONE), NOW), "on 1 March 2027 at 07:00")

    def test_overdue(self):
        self.assertEqual(when.when_words(NOW - timedelta(seconds=10), NOW), "now")
        self.assertEqual(when.when_words(NOW - timedelta(hours=2), NOW), "overdue since 12:00")

    def test_midnight_is_tomorrow_not_in_hours(self):
        late = NOW.replace(hour=23, minute=30)
        self.assertEqual(when.when_words(datetime(2026, 12, 1, 1, 0, tzinfo=ZONE), late), "tomorrow at 01:00")

    def test_calendar_repeats(self):
        weekdays = {"hour": 9, "minute": 30, "weekdays": [2, 3, 4, 5, 6]}
        self.assertEqual(when.calendar_words(weekdays), "every weekday at 09:30")
        self.assertEqual(when.calendar_words({"hour": 10, "minute": 0, "weekdays": [1, 7]}), "every weekend day at 10:00")
        self.assertEqual(when.calendar_words({"hour": 7, "minute": 0, "weekday": 2}), "every Monday at 07:00")
        self.assertEqual(when.calendar_words({"hour": 7, "minute": 0, "weekdays": [2, 4]}), "every Monday and Wednesday at 07:00")
        self.assertEqual(when.calendar_words({"hour": 7, "minute": 0}), "every day at 07:00")
        self.assertEqual(when.calendar_words({"minute": 15}), "every hour at :15")
        self.assertEqual(when.calendar_words({"day": 1, "hour": 8, "minute": 0}), "every month on the 1st at 08:00")
        self.assertEqual(when.calendar_words({"day": 22, "hour": 8, "minute": 0}), "every month on the 22nd at 08:00")
        self.assertEqual(when.calendar_words({"day": 12, "hour": 8, "minute": 0}), "every month on the 12th at 08:00")
        self.assertEqual(when.calendar_words({"month": 3, "day": 5}), "every year on 5 March")

    def test_intervals(self):
        self.assertEqual(when.interval_words(600), "every 10 minutes")
        self.assertEqual(when.interval_words(3600), "every hour")
        self.assertEqual(when.interval_words(7200), "every 2 hours")
        self.assertEqual(when.interval_words(86400), "every day")
        self.assertEqual(when.interval_words(604800), "every week")
        self.assertEqual(when.interval_words(90), "every 90 seconds")

    def test_rules(self):
        self.assertEqual(when.rule_words("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), "every weekday")
        self.assertEqual(when.rule_words("FREQ=DAILY"), "every day")
        self.assertEqual(when.rule_words("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"), "every 2 weeks")
        self.assertEqual(when.rule_words("FREQ=MONTHLY;BYDAY=-1FR"), "every month")
        self.assertEqual(when.rule_words("FREQ=SECONDLY"), "repeats")

    def test_describe(self):
        tomorrow = datetime(2026, 12, 1, 9, 30, tzinfo=ZONE)
        request = {"identifier": "standup", "next-fire": ms(tomorrow), "repeats": True,
                   "calendar": {"hour": 9, "minute": 30, "weekdays": [2, 3, 4, 5, 6]}}
        self.assertEqual(when.describe(request, NOW), "Tomorrow at 09:30 · every weekday")
        once = {"identifier": "tea", "next-fire": ms(NOW + timedelta(minutes=4)), "interval": 240.0, "repeats": False}
        self.assertEqual(when.describe(once, NOW), "In 4 minutes")
        snoozed = {"identifier": "wake", "next-fire": ms(NOW + timedelta(minutes=10)), "snooze-count": 1}
        self.assertEqual(when.describe(snoozed, NOW), "snoozed, back in 10 minutes")
        rule = {"identifier": "r", "next-fire": ms(tomorrow), "recurrence": {"rule": "FREQ=DAILY", "start": "2026-11-01T09:30"}}
        self.assertEqual(when.describe(rule, NOW), "Tomorrow at 09:30 · every day")

    def test_past(self):
        self.assertEqual(when.past_words(NOW - timedelta(seconds=5), NOW), "just now")
        self.assertEqual(when.past_words(NOW - timedelta(minutes=5), NOW), "5 minutes ago")
        self.assertEqual(when.past_words(NOW.replace(hour=8), NOW), "today at 08:00")
        self.assertEqual(when.past_words(datetime(2026, 11, 29, 21, 15, tzinfo=ZONE), NOW), "yesterday at 21:15")
        self.assertEqual(when.past_words(datetime(2026, 11, 27, 8, 0, tzinfo=ZONE), NOW), "on Friday at 08:00")
        self.assertEqual(when.past_words(datetime(2025, 3, 3, 8, 0, tzinfo=ZONE), NOW), "on 3 March 2025 at 08:00")

    def test_until_choices(self):
        labels = [(label, t.strftime("%d %H:%M")) for label, t in when.until_choices(NOW)]
        self.assertEqual(labels, [("For 1 hour", "30 15:00"), ("Until tonight", "30 22:00"),
                                  ("Until tomorrow morning", "01 08:00")])
        late = [label for label, _ in when.until_choices(NOW.replace(hour=21, minute=30))]
        self.assertEqual(late, ["For 1 hour", "Until tomorrow morning"])


if __name__ == "__main__":
    unittest.main()
