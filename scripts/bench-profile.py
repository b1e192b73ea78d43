#!/usr/bin/env python3
"""Where an add's instructions go: the functions that cost most per add, from two callgrind
outputs of the same program, one with N adds and one with 2N (scripts/bench-check.sh --profile
writes them). Each function's cost per add is (I(2N) - I(N)) / N, so start-up and shutdown
cancel as they do in the totals.

    scripts/bench-profile.py RUN_N.out RUN_2N.out N [TOP]

Prints the TOP (default 10) functions by self instructions per add with their object file,
then the instructions per add by object file, Swift names demangled when `swift demangle` is
on PATH. (No inclusive costs: Swift's async frames and callbacks form cycles that callgrind
counts many times over.) Reads callgrind_annotate's tables: no callgrind format parsing here."""
import re
import shutil
import subprocess
import sys

ROW = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*)$")


def costs(path):
    """(function, object file) -> self instructions, from callgrind_annotate (every function)."""
    out = subprocess.run(
        ["callgrind_annotate", "--threshold=100", "--auto=no", "--show-percs=no", path],
        check=True, capture_output=True, text=True).stdout
    table = {}
    started = False
    for line in out.splitlines():
        if "file:function" in line:
            started = True
            continue
        if not started:
            continue
        m = ROW.match(line)
        if not m:
            continue
        text = m.group(2)
        obj = re.search(r"\[([^\]]*)\]\s*$", text)  # the object file in brackets
        text = re.sub(r"\s*\[[^\]]*\]\s*$", "", text)
        name = text.split(":", 1)[1] if text.startswith(("???:", "/")) or re.match(r"^[\w./-]+\.\w+:", text) else text
        where = obj.group(1).rsplit("/", 1)[-1] if obj else "?"
        key = (name, where)
        table[key] = table.get(key, 0) + int(m.group(1).replace(",", ""))
    return table


def demangled(names):
    swift = shutil.which("swift")
    if not swift or not names:
        return names
    out = subprocess.run([swift, "demangle", "--simplified"], input="\n".join(names),
                         capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return lines if out.returncode == 0 and len(lines) == len(names) else names


def per_add(one, two, n):
    return {k: (two.get(k, 0) - one.get(k, 0)) / n for k in set(one) | set(two)}


def show(title, table, top, total):
    rows = sorted(table.items(), key=lambda kv: kv[1], reverse=True)[:top]
    names = demangled([name for (name, _), _ in rows])
    print(title)
    for ((_, where), cost), name in zip(rows, names):
        short = name if len(name) <= 100 else name[:97] + "..."
        print(f"  {cost:>9,.0f}  {cost / total * 100:5.1f}%  {short}  [{where}]")


def by_object(table):
    objects = {}
    for (_, where), cost in table.items():
        objects[where] = objects.get(where, 0) + cost
    return {(where, where): cost for where, cost in objects.items()}


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    one, two, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) == 5 else 10
    self_cost = per_add(costs(one), costs(two), n)
    total = sum(self_cost.values())
    print(f"instructions per add: {total:,.0f} (sum of self costs, (I(2N) - I(N)) / N, N={n})")
    show(f"the {top} functions with the most self instructions per add:", self_cost, top, total)
    show("by object file (self instructions per add):", by_object(self_cost), 8, total)


if __name__ == "__main__":
    main()
