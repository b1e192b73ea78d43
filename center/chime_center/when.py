"""When a pending request fires next, in words a person reads at a glance: "in 5 minutes",
"today at 14:00", "tomorrow at 09:30", "on Friday at 08:00", "every weekday at 09:30".

Pure: no GTK, no D-Bus, no clock. The request is the dictionary GetPending answers, unpacked to
plain Python values; times are aware datetimes in the zone the words are for (the caller passes
"now")."""
from datetime import datetime, timedelta

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
# Chime's (Apple's) weekday numbers: 1 is Sunday ... 7 is Saturday.
APPLE_WEEKDAYS = {1: "Sunday", 2: "Monday", 3: "Tuesday", 4: "Wednesday", 5: "Thursday", 6: "Friday", 7: "Saturday"}
RRULE_DAYS = {"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday",
              "SA": "Saturday", "SU": "Sunday"}
WORKWEEK = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
WEEKEND = {"Saturday", "Sunday"}


def clock(t):
    """24-hour wall time, with seconds only when they are not zero."""
    return t.strftime("%H:%M:%S" if t.second else "%H:%M")


def from_millis(ms, zone):
    """An instant (Unix milliseconds, as chimed's x values) as an aware datetime in `zone`."""
    return datetime.fromtimestamp(ms / 1000, zone)


def when_words(fire, now):
    """`fire` relative to `now`, both aware and in the zone meant."""
    delta = fire - now
    if delta < timedelta(0):
        return "now" if delta > timedelta(minutes=-1) else f"overdue since {clock(fire)}"
    if delta < timedelta(minutes=1):
        return "in less than a minute"
    if delta < timedelta(hours=1):
        minutes = int(delta.total_seconds() // 60)
        return f"in {minutes} minute{'s' if minutes != 1 else ''}"
    days = (fire.date() - now.date()).days
    if days == 0:
        return f"today at {clock(fire)}"
    if days == 1:
        return f"tomorrow at {clock(fire)}"
    if days < 7:
        return f"on {WEEKDAYS[fire.weekday()]} at {clock(fire)}"
    year = f" {fire.year}" if fire.year != now.year else ""
    return f"on {fire.day} {MONTHS[fire.month - 1]}{year} at {clock(fire)}"


def past_words(at, now):
    """When something happened, relative to `now`: "just now", "5 minutes ago", "today at 08:00",
    "yesterday at 21:15", "on Friday at 08:00", "on 3 March at 08:00"."""
    delta = now - at
    if delta < timedelta(minutes=1):
        return "just now"
    if delta < timedelta(hours=1):
        minutes = int(delta.total_seconds() // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''} ago"
    days = (now.date() - at.date()).days
    if days == 0:
        return f"today at {clock(at)}"
    if days == 1:
        return f"yesterday at {clock(at)}"
    if days < 7:
        return f"on {WEEKDAYS[at.weekday()]} at {clock(at)}"
    year = f" {at.year}" if at.year != now.year else ""
    return f"on {at.day} {MONTHS[at.month - 1]}{year} at {clock(at)}"


def _every_days(names):
    names = set(names)
    if names == WORKWEEK:
        return "every weekday"
    if names == WEEKEND:
        return "every weekend day"
    if names == WORKWEEK | WEEKEND:
        return "every day"
    order = [d for d in WEEKDAYS if d in names]
    if len(order) == 1:
        return f"every {order[0]}"
    return "every " + ", ".join(order[:-1]) + " and " + order[-1]


def _at(hour, minute, second=None):
    if hour is None and minute is None:
        return ""
    if hour is None:
        return f" at minute {minute}"
    return f" at {hour:02d}:{(minute or 0):02d}" + (f":{second:02d}" if second else "")


def _ordinal(n):
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def interval_words(seconds):
    """A repeating interval: "every 10 minutes", "every hour", "every 2 days"."""
    for unit, size in (("week", 604800), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"every {unit}" if n == 1 else f"every {n} {unit}s"
    return f"every {seconds:g} seconds"


def calendar_words(c):
    """A repeating calendar trigger (its components, as GetPending lists them)."""
    hour, minute, second = c.get("hour"), c.get("minute"), c.get("second")
    at = _at(hour, minute, second)
    days = c.get("weekdays")
    if days is None and c.get("weekday") is not None and c.get("weekday-ordinal") is None:
        days = [c["weekday"]]
    if days:
        return _every_days(APPLE_WEEKDAYS[d] for d in days if d in APPLE_WEEKDAYS) + at
    if c.get("month") is not None and c.get("day") is not None:
        return f"every year on {c['day']} {MONTHS[c['month'] - 1]}" + at
    if c.get("day") is not None:
        return f"every month on the {_ordinal(c['day'])}" + at
    if hour is not None:
        return "every day" + at
    if minute is not None:
        return f"every hour at :{minute:02d}"
    return "repeats"


def rule_words(rule):
    """An RFC 5545 RRULE's common shapes; others say "repeats" with the rule's frequency."""
    parts = dict(p.split("=", 1) for p in rule.split(";") if "=" in p)
    freq = parts.get("FREQ", "")
    interval = int(parts.get("INTERVAL", "1") or 1)
    units = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year", "HOURLY": "hour", "MINUTELY": "minute"}
    byday = parts.get("BYDAY", "")
    plain_days = [d for d in byday.split(",") if d in RRULE_DAYS]
    if interval == 1 and plain_days and len(plain_days) == len(byday.split(",")) and freq in ("DAILY", "WEEKLY"):
        return _every_days(RRULE_DAYS[d] for d in plain_days)
    unit = units.get(freq)
    if unit is None:
        return "repeats"
    return f"every {unit}" if interval == 1 else f"every {interval} {unit}s"


def repeat_words(request):
    """How the request repeats, or None when it fires once."""
    if "recurrence" in request:
        return rule_words(request["recurrence"].get("rule", ""))
    if not request.get("repeats"):
        return None
    if "interval" in request:
        return interval_words(request["interval"])
    if "calendar" in request:
        return calendar_words(request["calendar"])
    return "repeats"


def describe(request, now):
    """The Scheduled page's line for a pending request: its next fire in words, then how it
    repeats ("tomorrow at 09:30 · every weekday"); a snoozed one says when it comes back."""
    fire = from_millis(request["next-fire"], now.tzinfo)
    words = when_words(fire, now)
    if request.get("snooze-count"):
        return f"snoozed, back {words}"
    repeats = repeat_words(request)
    if repeats and repeats.endswith(f" at {clock(fire)}"):
        repeats = repeats[: -len(f" at {clock(fire)}")]  # "tomorrow at 09:30 · every weekday"
    text = words[0].upper() + words[1:]
    return f"{text} · {repeats}" if repeats else text


def until_choices(now):
    """Do Not Disturb's "until" choices at `now`: (label, aware datetime). "Until tonight" (22:00)
    only while it is more than an hour away; "until tomorrow morning" is 08:00 tomorrow."""
    hour = now + timedelta(hours=1)
    if hour.second or hour.microsecond:  # to the next whole minute: a time people say
        hour = hour.replace(second=0, microsecond=0) + timedelta(minutes=1)
    choices = [("For 1 hour", hour)]
    tonight = now.replace(hour=22, minute=0, second=0, microsecond=0)
    if tonight - now > timedelta(hours=1):
        choices.append(("Until tonight", tonight))
    morning = (now + timedelta(days=1)).replace(hour=8, minute=0, second=0, microsecond=0)
    choices.append(("Until tomorrow morning", morning))
    return choices
