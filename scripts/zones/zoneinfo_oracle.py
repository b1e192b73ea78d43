#!/usr/bin/env python3
"""Checks Chime's zone tables against Python's zoneinfo (an independent TZif reader and POSIX
rule implementation, on the same /usr/share/zoneinfo files).

  zoneinfo_oracle.py --list             every zone Python's zoneinfo knows, one a line
  zoneinfo_oracle.py --check DUMP [--step-days N]

DUMP (written by ZoneinfoOracleTests) holds, per zone, `Z id`, `O offset` (the offset from
1900 on, before the first transition), `T t offset` for each transition (UTC seconds, the
offset from then on) and `P t offset` for instants past the table (read 400 years earlier).
The check compares zoneinfo's offset with the table's at one second before and at each
transition, every N days from 1900 to 2500 at a time of day that moves, and at each P line.
Prints one line per zone that differs (the first few differences) and a summary; exit 1 when
anything differs.
"""
import argparse
import bisect
import datetime
import sys
import zoneinfo

START = -2208988800          # 1900-01-01T00:00:00Z: tables hold the 1900 offset before it
END = 16725225600            # 2500-01-01T00:00:00Z


def offset(zone, t):
    return int(datetime.datetime.fromtimestamp(t, tz=zone).utcoffset().total_seconds())


def check_zone(key, first, transitions, offsets, probes, step):
    zone = zoneinfo.ZoneInfo(key)
    all_offsets = [first] + offsets
    differences = []

    def table(t):
        return all_offsets[bisect.bisect_right(transitions, t)]

    def compare(t, expected=None):
        want = table(t) if expected is None else expected
        got = offset(zone, t)
        if got != want:
            differences.append(f"{datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat()} "
                               f"({t}): chime {want}, zoneinfo {got}")

    for t in transitions:
        if t > START + 1:
            compare(t - 1)
        compare(t)
    t = START + 1
    # A time of day that moves by 7 h 13 min a step, so every hour of the day is met.
    while t < END:
        compare(t)
        t += step * 86400 + 26000
    for t, expected in probes:
        compare(t, expected)
    return differences


def check(path, step):
    zones = 0
    differ = 0
    current = None
    first = 0
    transitions = []
    offsets = []
    probes = []

    def finish():
        nonlocal differ
        if current is None:
            return
        d = check_zone(current, first, transitions, offsets, probes, step)
        if d:
            differ += 1
            print(f"differs: {current}: {len(d)} instants; {'; '.join(d[:3])}")

    with open(path) as f:
        for line in f:
            kind, *rest = line.split()
            if kind == "Z":
                finish()
                zones += 1
                current, first, transitions, offsets, probes = rest[0], 0, [], [], []
            elif kind == "O":
                first = int(rest[0])
            elif kind == "T":
                transitions.append(int(rest[0]))
                offsets.append(int(rest[1]))
            elif kind == "P":
                probes.append((int(rest[0]), int(rest[1])))
    finish()
    print(f"zoneinfo_oracle.py: {zones} zones compared, {differ} differ (tzdata {_version()})")
    return 1 if differ or zones == 0 else 0


def _version():
    try:
        with open("/usr/share/zoneinfo/tzdata.zi") as f:
            return f.readline().split()[-1]
    except OSError:
        return "?"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--list", action="store_true")
    p.add_argument("--check")
    p.add_argument("--step-days", type=int, default=1)
    a = p.parse_args()
    if a.list:
        for key in sorted(zoneinfo.available_timezones()):
            print(key)
        return 0
    if a.check:
        return check(a.check, a.step_days)
    p.error("give --list or --check")


if __name__ == "__main__":
    sys.exit(main())
