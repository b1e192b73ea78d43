#!/usr/bin/env python3
"""The goals of several `chime-bench --json` runs side by side, as a Markdown table: one row
per goal, one column per run, each cell the figure, its ratio to the run's own floor, the
rounds' spread and the verdict. For comparing builds alternated on one machine:

    scripts/bench-table.py start=/tmp/a.json end=/tmp/b.json start=/tmp/c.json end=/tmp/d.json

A LABEL= before a path names its column (default: the file name)."""
import json
import sys


def number(v):
    if v is None:
        return "–"
    if abs(v) >= 10_000:
        return f"{v / 1000:.1f}k"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    if abs(v) >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def cell(check):
    value = f"{number(check['value'])} {check['unit']}"
    if check.get("ratio") is not None:
        value += f" = {check['ratio']:.2f}×"
    if check.get("rounds"):
        unit = "×" if check.get("ratio") is not None else ""
        value += f" ({number(check['low'])}–{number(check['high'])}{unit})"
    verdict = check.get("verdict") or ("holds" if check.get("holds") else "missed")
    return value + ("" if verdict == "holds" else f" **{verdict}**")


def main():
    runs = []
    for argument in sys.argv[1:]:
        label, _, path = argument.rpartition("=")
        report = json.load(open(path))
        runs.append((label or path.rsplit("/", 1)[-1], report))
    if not runs:
        sys.exit(__doc__)
    names = []
    for _, report in runs:
        for check in report["checks"]:
            if check["name"] not in names:
                names.append(check["name"])
    goals = {}
    for _, report in runs:
        for check in report["checks"]:
            goals.setdefault(check["name"], check["goal"])
    print("| goal | " + " | ".join(label for label, _ in runs) + " | bound |")
    print("|---|" + "---|" * len(runs) + "---|")
    for name in names:
        cells = []
        for _, report in runs:
            found = [c for c in report["checks"] if c["name"] == name]
            cells.append(cell(found[0]) if found else "–")
        print(f"| {name} | " + " | ".join(cells) + f" | {goals[name]} |")
    for label, report in runs:
        held = sum(1 for c in report["checks"] if (c.get("verdict") or ("holds" if c.get("holds") else "")) == "holds")
        print(f"\n{label}: {report.get('daemonVersion', '?')} measured by chime-bench at {report['revision']}, "
              f"{report['date']}, {report['machine']}: {held} of {len(report['checks'])} goals hold")


if __name__ == "__main__":
    main()
