#!/usr/bin/env python3
"""Checks `chime calendar alarms --json` against an independent implementation.

For each calendar file, python `recurring-ical-events` (on `icalendar`'s parser) computes the
alarm instants in a window (`of(cal, components=["VALARM"]).between(a, b)`), and `chime
calendar alarms --path FILE` computes them through libical and ChimeCore. Alarms are compared
as (uid, at, action) multisets. A file whose differences are listed in expected-differences.txt
(with the RFC 5545 / RFC 9074 reference that makes Chime right) counts as agreeing when the
differences are exactly those.

The window of each file starts 30 days before its earliest DTSTART and lasts --years years, so
every file's alarms fall inside it whatever year it was written in.

With --inject-alarm, a DISPLAY alarm 15 minutes before the start is added (as text, before each
END:VEVENT line) to every event of a file first: files without alarms then check the
occurrences themselves (recurrence, overrides, zones) through the alarm instants.

Usage: rie_oracle.py --chime PATH [--tz ZONE] [--years N] [--expected FILE] [--inject-alarm] FILE.ics...
Exit status: 0 when every file agrees (or differs only as expected), 1 otherwise.
"""
import argparse
import collections
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
import zoneinfo

import icalendar
import recurring_ical_events

UTC = dt.timezone.utc


def utc_text(t: dt.datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def earliest_start(cal, tz):
    """The earliest DTSTART/DUE of an event or to-do, as an aware datetime (None if none)."""
    best = None
    for c in cal.walk():
        if c.name not in ("VEVENT", "VTODO"):
            continue
        for name in ("DTSTART", "DUE"):
            if name not in c:
                continue
            v = c[name].dt
            if not isinstance(v, dt.datetime):
                v = dt.datetime(v.year, v.month, v.day)
            if v.tzinfo is None:
                v = v.replace(tzinfo=tz)
            if best is None or v < best:
                best = v
    return best


def oracle(cal, after, until, tz):
    """(uid, at, action) of DISPLAY and AUDIO alarms recurring-ical-events finds, active only."""
    found = collections.Counter()
    query = recurring_ical_events.of(cal, components=["VALARM"], skip_bad_series=True)
    # rie looks at occurrences near the window; an alarm inside it may belong to an occurrence
    # outside (an alarm 15 minutes before an event that starts at `until`). The query is
    # widened by 40 days each way and the alarm instants filtered to the window.
    margin = dt.timedelta(days=40)
    for component in query.between(after - margin, until + margin):
        uid = str(component.get("UID", ""))
        # A cancelled occurrence or series has no alarms (issue 41; RFC 5545 section 3.8.1.11):
        # rie returns cancelled occurrences and leaves that to its caller.
        if str(component.get("STATUS", "")).upper() == "CANCELLED":
            continue
        for t in component.alarms.times:
            action = str(t.alarm.get("ACTION", "")).upper()
            if action not in ("DISPLAY", "AUDIO"):
                continue
            trigger = t.trigger
            if not isinstance(trigger, dt.datetime):
                trigger = dt.datetime(trigger.year, trigger.month, trigger.day)
            if trigger.tzinfo is None:
                trigger = trigger.replace(tzinfo=tz)
            if not (after <= trigger < until):
                continue
            # Dismissed: RFC 9074's ACKNOWLEDGED or Thunderbird's X-MOZ-LASTACK at or after the
            # alarm instant. Not icalendar's `t.acknowledged`, which also takes a non-Thunderbird
            # component's DTSTAMP as one (a Google habit): RFC 5545 section 3.8.7.2 makes DTSTAMP
            # the time the object was written, and Chime does not read it as a dismissal.
            acks = [t.alarm.ACKNOWLEDGED, getattr(component, "X_MOZ_LASTACK", None)]
            acks = [a.replace(tzinfo=UTC) if a.tzinfo is None else a for a in acks if isinstance(a, dt.datetime)]
            if acks and max(acks) >= trigger:
                continue
            found[(uid, utc_text(trigger), action)] += 1
    return found


def chime(binary, path, after, until, tz_name):
    run = subprocess.run(
        [binary, "calendar", "alarms", "--path", path, "--after", utc_text(after), "--until", utc_text(until),
         "--tz", tz_name, "--json"],
        capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise RuntimeError(f"chime exited {run.returncode}: {run.stderr.strip()}")
    return collections.Counter((a["uid"], a["at"], a["action"]) for a in json.loads(run.stdout or "[]"))


def load_expected(path):
    """expected-differences.txt: `FILE-NAME  +|-  UID  AT  ACTION  # RFC reference` lines."""
    expected = collections.defaultdict(set)
    if not path:
        return expected
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) == 4:  # an empty UID
                fields.insert(2, "")
            name, sign, uid, at, action = fields
            expected[name].add((sign, uid, at, action))
    return expected


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chime", required=True)
    parser.add_argument("--tz", default="Europe/Berlin")
    parser.add_argument("--years", type=int, default=2)
    parser.add_argument("--expected")
    parser.add_argument("--inject-alarm", action="store_true")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    tz = zoneinfo.ZoneInfo(args.tz)
    expected = load_expected(args.expected)

    files = compared = agreed = 0
    failures = []
    scratch = tempfile.mkdtemp(prefix="rie-oracle-")
    for path in args.files:
        name = path.rsplit("/", 1)[-1]
        try:
            with open(path, "rb") as f:
                data = f.read()
            if args.inject_alarm:
                alarm = b"BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:injected\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
                data = re.sub(rb"(?m)^END:VEVENT\r?$", lambda m: alarm + m.group(0), data)
                path = os.path.join(scratch, name)
                with open(path, "wb") as f:
                    f.write(data)
            cal = icalendar.Calendar.from_ical(data)
            start = earliest_start(cal, tz)
            if start is None:
                continue
            after = (start - dt.timedelta(days=30)).astimezone(UTC).replace(microsecond=0)
            until = after + dt.timedelta(days=366 * args.years)
            want = oracle(cal, after, until, tz)
        except Exception as e:  # the oracle cannot read it: not a comparison
            print(f"skip {name}: recurring-ical-events: {type(e).__name__}: {e}")
            continue
        files += 1
        try:
            got = chime(args.chime, path, after, until, args.tz)
        except Exception as e:
            failures.append(name)
            print(f"FAIL {name}: {e}")
            continue
        compared += sum(want.values())
        diff = {("-",) + k for k in (want - got)} | {("+",) + k for k in (got - want)}
        if not diff:
            agreed += 1
            print(f"ok   {name}: {sum(want.values())} alarms")
        elif diff == expected.get(name, set()):
            agreed += 1
            print(f"ok   {name}: {sum(want.values())} alarms, {len(diff)} expected differences (see expected-differences.txt)")
        else:
            failures.append(name)
            print(f"FAIL {name}: window {utc_text(after)} .. {utc_text(until)}, {args.tz}")
            for d in sorted(diff):
                print(f"       {name} {' '.join(d)}   ({'oracle only' if d[0] == '-' else 'chime only'})")
    print(f"{files} files, {compared} oracle alarms compared, {agreed} agree, {len(failures)} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
