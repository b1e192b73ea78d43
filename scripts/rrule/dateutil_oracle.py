#!/usr/bin/env python3
"""Random RFC 5545 recurrences and their expansion by python-dateutil, as JSON lines.

Chime's recurrence engine is checked against this independent implementation
(Tests/ChimeCoreTests/Recurrence/RecurrenceDateutilTests.swift reads the lines; `make test-rrule`
runs thousands, `make test` a few hundred). Each line is one case:

  {"id": 7, "rule": "FREQ=MONTHLY;BYDAY=-1FR", "start": "2026-03-27T02:30:00",
   "zone": "Europe/Berlin", "exclusions": ["2026-05-29T02:30:00"],
   "horizon": "2056-03-27T02:30:00", "until_instant": null,
   "occurrences": [["2026-04-24T02:30:00", 1777...], ...], "complete": false,
   "after": 1790000000, "next": [1790..., ...], "trusted_below": 1800000000}

- `occurrences`: the first ones in wall-time order with the exclusions removed, each as its
  wall time and its instant (UTC seconds). dateutil expands the rule on naive wall times; each
  is read in the zone with zoneinfo and fold=0, which is RFC 5545's rule (a wall time in a gap
  takes the offset before the gap; one in an overlap its first occurrence).
- `horizon`: dateutil is stopped there (a rule that never matches would otherwise walk to year
  9999); Chime's list is cut at the same wall time. `complete`: the rule ended (COUNT or UNTIL)
  before the horizon and before the list was full.
- `next`: the distinct instants after `after`, earliest first, among those below
  `trusted_below` (past it an occurrence not in the list could come earlier).

Known differences from RFC 5545 in dateutil that the generator stays clear of:
- BYDAY mixing plain and numbered weekdays (MO,2TU): dateutil keeps days that are both.
- WEEKLY with BYSETPOS and a start after the week's first day: dateutil counts positions in
  the part of the first week from the start on, RFC 5545 in the whole week.
- BYWEEKNO=52 or 53 on the first days of a year that belong to the last week of the year
  before: dateutil counts that year's weeks from the wrong year's length (1 January 2039 is
  in week 52 of 2038, which has 52 weeks; dateutil takes it for 53 and drops the day).
  Likewise BYWEEKNO=-53 (or -52) on the last days of a year that are in week 1 of the next,
  which dateutil does not look at (its own "TODO: Check -numweeks for next year").
  RecurrenceExpansionTests checks those days against Foundation's ISO 8601 calendar instead.
"""
import argparse
import datetime as dt
import json
import random
import signal
import sys
import warnings
from zoneinfo import ZoneInfo

try:
    from dateutil.rrule import rrulestr, rruleset
except ImportError:  # pragma: no cover - reported to the test
    sys.stderr.write("python-dateutil is missing: install python3-dateutil (scripts/install-deps.sh)\n")
    sys.exit(3)

ZONES = [
    "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Apia", "Antarctica/Troll", "Asia/Kathmandu",
    "America/New_York", "America/Los_Angeles", "America/St_Johns", "America/Sao_Paulo",
    "Europe/Berlin", "Europe/London", "Australia/Sydney", "UTC",
]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
EPOCH = dt.datetime(1970, 1, 1)
LIST_LENGTH = 40
NEXT_COUNT = 5
HORIZON_YEARS = 30
# Every instant is within 15 hours of its wall time (offsets run from -12:00 to +14:00).
MAX_OFFSET = 15 * 3600
# Seconds of CPU time dateutil may take per case (CPU time, not wall time: which rules are
# dropped does not depend on how busy the machine is). Real cases take a few milliseconds.
TIME_LIMIT = 0.25


def wall_text(d):
    return d.strftime("%Y-%m-%dT%H:%M:%S")


def wall_seconds(d):
    return int((d - EPOCH).total_seconds())


def instant(d, zone):
    return int(d.replace(tzinfo=zone, fold=0).timestamp())


def some(rng, values, most):
    return sorted(set(rng.choice(values) for _ in range(rng.randint(1, most))), key=values.index)


def random_rule(rng, start):
    freq = rng.choice(["DAILY", "DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "YEARLY"])
    parts = [f"FREQ={freq}"]
    if rng.random() < 0.4:
        parts.append(f"INTERVAL={rng.choice([2, 2, 3, 4, 5, 7, 12])}")
    by = {}
    if rng.random() < 0.25:
        by["BYMONTH"] = some(rng, list(range(1, 13)), 3)
    if freq == "YEARLY" and rng.random() < 0.12:
        by["BYWEEKNO"] = some(rng, [1, 2, 10, 20, 26, 51, -1, -2, -10, -51], 2)
    if freq == "YEARLY" and "BYWEEKNO" not in by and rng.random() < 0.12:
        by["BYYEARDAY"] = some(rng, [1, 2, 59, 60, 100, 200, 365, 366, -1, -2, -100, -366], 3)
    if freq != "WEEKLY" and rng.random() < 0.3:
        by["BYMONTHDAY"] = some(rng, [1, 2, 13, 15, 28, 29, 30, 31, -1, -2, -7, -31], 3)
    if rng.random() < 0.45:
        numbered = freq in ("MONTHLY", "YEARLY") and "BYWEEKNO" not in by and rng.random() < 0.5
        if numbered:
            span = [1, 2, 3, 4, 5, -1, -2, -5]
            if freq == "YEARLY" and "BYMONTH" not in by:
                span += [10, 20, 52, 53, -10, -53]
            entries = set()
            for _ in range(rng.randint(1, 3)):
                entries.add(f"{rng.choice(span)}{rng.choice(DAYS)}")
            by["BYDAY"] = sorted(entries)
        else:
            by["BYDAY"] = some(rng, DAYS, 5)
    # Hours and minutes near the start's, which is often inside a clock change.
    if rng.random() < 0.25:
        by["BYHOUR"] = sorted(set(some(rng, [0, 1, 2, 3, 4, 9, 12, 17, 23], 2) + [start.hour]))
    if rng.random() < 0.2:
        by["BYMINUTE"] = sorted(set(some(rng, [0, 15, 30, 45, 59], 2) + [start.minute]))
    if rng.random() < 0.1:
        by["BYSECOND"] = some(rng, [0, 1, 30, 59], 2)
    if by and rng.random() < 0.2 and (freq != "DAILY" or len(by.get("BYHOUR", [])) + len(by.get("BYMINUTE", [])) > 2):
        if not (freq == "WEEKLY" and start.weekday() != 0):
            by["BYSETPOS"] = some(rng, [1, 2, 3, -1, -2, 5, -5], 2)
    for name, values in by.items():
        parts.append(f"{name}=" + ",".join(str(v) for v in values))
    wkst = None
    if rng.random() < 0.15:
        wkst = rng.choice(DAYS)
        parts.append(f"WKST={wkst}")
    if freq == "WEEKLY" and "BYSETPOS" in by and wkst not in (None, "MO"):
        # The start must begin its week (see the module's note on WEEKLY with BYSETPOS).
        parts.remove(f"WKST={wkst}")
    return parts


_transitions = {}


def transitions(zone_name, year):
    """The offset changes of a zone in a year: (wall time just before, offset before, offset after)."""
    key = (zone_name, year)
    if key not in _transitions:
        zone = ZoneInfo(zone_name)
        found = []
        t = dt.datetime(year, 1, 1, tzinfo=dt.timezone.utc)
        before = t.astimezone(zone).utcoffset()
        while t.year == year:
            # Daily steps, then halving to the second (offsets never change twice in a day).
            step = t + dt.timedelta(days=1)
            after = step.astimezone(zone).utcoffset()
            if after != before:
                lo, hi = t, step
                while hi - lo > dt.timedelta(seconds=1):
                    mid = lo + (hi - lo) / 2
                    if mid.astimezone(zone).utcoffset() == before:
                        lo = mid
                    else:
                        hi = mid
                # `hi` is the first second with the new offset.
                change = hi.replace(microsecond=0)
                found.append(((change + before).replace(tzinfo=None), before, after))
                before = after
            t = step
        _transitions[key] = found
    return _transitions[key]


def random_start(rng, zone_name):
    """A start, most often a little before one of the zone's clock changes with its time of day
    inside the gap or overlap, so that daily and weekly rules meet it."""
    year = rng.randint(1995, 2035)
    changes = transitions(zone_name, year)
    if changes and rng.random() < 0.7:
        wall, before, after = rng.choice(changes)
        jump = int((after - before).total_seconds())
        # A wall time from the change's start into the span it skips or repeats (or just past).
        # A gap skips the wall times from `wall` on; an overlap repeats those before `wall`.
        into = rng.randint(0, max(abs(jump) // 900 - 1, 0)) * 900
        at = wall + dt.timedelta(seconds=into if jump > 0 else jump + into)
        day = at - dt.timedelta(days=rng.choice([0, 0, 1, 2, 7, 14, 28]))
        second = 0 if rng.random() < 0.9 else rng.randint(0, 59)
        return day.replace(second=second)
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    hour = rng.randint(0, 23)
    minute = rng.choice([0, 0, 30, rng.randint(0, 59)])
    second = 0 if rng.random() < 0.8 else rng.randint(0, 59)
    return dt.datetime(year, month, day, hour, minute, second)


class TooSlow(Exception):
    pass


def _too_slow(signum, frame):
    raise TooSlow()


def expand(rule_text, start, zone, exclusions, until_local, until_instant, horizon):
    """First LIST_LENGTH occurrences (wall, instant) in wall-time order, and whether the rule ended."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # UNTIL is applied below (dateutil takes only a UTC UNTIL with a zone, and a naive one
        # without); the horizon bounds the walk of a rule that never matches.
        text = ";".join(p for p in rule_text.split(";") if not p.startswith("UNTIL="))
        rule = rrulestr(text, dtstart=start)
        bound = horizon if until_local is None else min(until_local, horizon)
        rule = rule.replace(until=bound)
        rules = rruleset()
        rules.rrule(rule)
        for ex in exclusions:
            rules.exdate(ex)
        result = []
        ended = True
        for d in rules:
            t = instant(d, zone)
            if until_instant is not None and t > until_instant:
                break
            result.append((d, t))
            if len(result) == LIST_LENGTH:
                ended = False
                break
    if ended and result and until_local is None and until_instant is None and "COUNT=" not in rule_text:
        ended = False  # stopped by the horizon, not by the rule
    return result, ended


def make_case(rng, index):
    """A case, or None when dateutil took too long: given a rule that matches nothing, it
    walks on to year 9999 (the horizon only stops it at an occurrence). Chime's own handling of
    such rules is checked by RecurrenceNoDateTests."""
    try:
        return _make_case(rng, index)
    except TooSlow:
        return None


def limited(expansion):
    """`expansion()` with TIME_LIMIT seconds of CPU time, else TooSlow."""
    signal.setitimer(signal.ITIMER_VIRTUAL, TIME_LIMIT)
    try:
        return expansion()
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)


def _make_case(rng, index):
    zone_name = rng.choice(ZONES)
    zone = ZoneInfo(zone_name)
    start = random_start(rng, zone_name)
    parts = random_rule(rng, start)
    until_local = None
    until_instant = None
    r = rng.random()
    if r < 0.25:
        parts.append(f"COUNT={rng.randint(1, 30)}")
    elif r < 0.45:
        end = start + dt.timedelta(days=rng.randint(0, 3 * 365), hours=rng.randint(0, 23), minutes=rng.choice([0, 30]))
        if rng.random() < 0.5:
            until_local = end
            parts.append("UNTIL=" + end.strftime("%Y%m%dT%H%M%S"))
        else:
            until_instant = wall_seconds(end)
            parts.append("UNTIL=" + end.strftime("%Y%m%dT%H%M%SZ"))
    rule_text = ";".join(parts)
    horizon = start + dt.timedelta(days=HORIZON_YEARS * 365 + HORIZON_YEARS // 4)
    plain, _ = limited(lambda: expand(rule_text, start, zone, [], until_local, until_instant, horizon))
    exclusions = []
    if plain and rng.random() < 0.3:
        exclusions = sorted(set(rng.choice(plain)[0] for _ in range(rng.randint(1, 3))))
        if rng.random() < 0.3:
            exclusions.append(start + dt.timedelta(days=rng.randint(0, 400), hours=rng.randint(0, 23)))
    occurrences, ended = limited(lambda: expand(rule_text, start, zone, exclusions, until_local, until_instant, horizon))

    if ended:
        trusted_below = None
    else:
        last_wall = occurrences[-1][0] if len(occurrences) == LIST_LENGTH else horizon
        trusted_below = wall_seconds(last_wall) - MAX_OFFSET
    if occurrences and rng.random() < 0.8:
        pick = rng.choice(occurrences)[1]
        after = pick - rng.choice([0, 1, 0, 3600, 86400])
    else:
        after = wall_seconds(start) + rng.randint(-86400, 400 * 86400)
    instants = sorted(set(t for _, t in occurrences if t > after and (trusted_below is None or t < trusted_below)))
    return {
        "id": index,
        "rule": rule_text,
        "start": wall_text(start),
        "zone": zone_name,
        "exclusions": [wall_text(e) for e in exclusions],
        "horizon": wall_text(horizon),
        "until_instant": until_instant,
        "occurrences": [[wall_text(d), t] for d, t in occurrences],
        "complete": ended,
        "after": after,
        "next": instants[:NEXT_COUNT],
        "trusted_below": trusted_below,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5545)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    signal.signal(signal.SIGVTALRM, _too_slow)
    out = sys.stdout
    dropped = 0
    index = 0
    while index < args.cases:
        case = make_case(rng, index)
        if case is None:
            dropped += 1
            continue
        out.write(json.dumps(case) + "\n")
        index += 1
    sys.stderr.write(f"dateutil_oracle: {args.cases} cases; {dropped} rules dropped (dateutil found nothing in {TIME_LIMIT} s of CPU time)\n")


if __name__ == "__main__":
    main()
