#!/usr/bin/env python3
"""Plants each mutation of a list in the source, one at a time, and checks the tests catch it.

For every entry: the file's `find` text (it must occur exactly once) is replaced by `replace`,
the package is built (incrementally), the entry's tests run (`swift test --filter`, or the
whole suite), and the file is put back. A mutation is caught when the tests fail (or time out);
it survived when they pass. An entry whose text is not found exactly once, or whose mutation
does not compile, is a broken entry of the list. The run exits non-zero when any mutation
survived or any entry is broken.

The original text is always put back: on exit, on Ctrl-C or SIGTERM, and, should this process
be killed outright, at the start of the next run (from the copy in .build/mutations/).

Usage: scripts/mutations/run.py [--list FILE] [--only ID,ID...] [--check] [--no-baseline]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORK = REPO / ".build" / "mutations"
JOURNAL = WORK / "planted.json"
KEYS = {"id", "file", "find", "replace", "notice", "tests"}


class Entry:
    def __init__(self, fields: dict[str, str], line: int) -> None:
        self.line = line
        self.id = fields.get("id", f"line-{line}")
        self.file = fields.get("file", "")
        self.find = fields.get("find", "")
        self.replace = fields.get("replace", "")
        self.notice = fields.get("notice", "")
        self.tests = fields.get("tests", "")


def parse(path: Path) -> list[Entry]:
    """Blocks of `key: value` lines separated by blank lines; `#` starts a comment line."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    start = 0
    for number, raw in enumerate(path.read_text().splitlines() + [""], start=1):
        if raw.strip().startswith("#"):
            continue
        if not raw.strip():
            if fields:
                entries.append(Entry(fields, start))
                fields = {}
            continue
        key, sep, value = raw.partition(": ")
        if not sep or key not in KEYS:
            sys.exit(f"{path}:{number}: expected one of {sorted(KEYS)} as 'key: value', got {raw!r}")
        if not fields:
            start = number
        fields[key] = value
    for e in entries:
        for key in ("id", "file", "find", "replace", "notice"):
            if not getattr(e, key) and key != "replace":
                sys.exit(f"{path}:{e.line}: entry {e.id} has no {key}")
    ids = [e.id for e in entries]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        sys.exit(f"{path}: ids used twice: {sorted(duplicates)}")
    return entries


def restore_from_journal() -> None:
    if not JOURNAL.exists():
        return
    planted = json.loads(JOURNAL.read_text())
    shutil.copyfile(planted["backup"], REPO / planted["file"])
    print(f"mutations: put back {planted['file']} from an interrupted run")
    JOURNAL.unlink()


class Planted:
    """The mutation of one file, put back on exit from the `with` block, whatever ends it."""

    def __init__(self, entry: Entry) -> None:
        self.path = REPO / entry.file
        self.original = self.path.read_bytes()
        self.entry = entry

    def __enter__(self) -> "Planted":
        backup = WORK / "original"
        backup.write_bytes(self.original)
        JOURNAL.write_text(json.dumps({"file": self.entry.file, "backup": str(backup)}))
        text = self.original.decode()
        self.path.write_text(text.replace(self.entry.find, self.entry.replace, 1))
        return self

    def __exit__(self, *exc: object) -> None:
        self.path.write_bytes(self.original)
        JOURNAL.unlink(missing_ok=True)


def descendants(pid: int) -> list[int]:
    """The processes below `pid` (its children, theirs, ...), read from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # The parent is the second field after the command, which is in parentheses.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, queue = [], [pid]
    while queue:
        children = parents.get(queue.pop(), [])
        found += children
        queue += children
    return found


def kill_tree(process: subprocess.Popen) -> None:
    """Kills `process`, its process group and every process below it: `swift test` starts the
    test binary in a process group of its own, which a hung mutant's run would otherwise leave
    behind."""
    for pid in descendants(process.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def run(cmd: list[str], log: Path, timeout: float | None = None) -> tuple[int | None, float]:
    """Runs `cmd` in its own process group, output to `log`; None as the status on timeout."""
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status: int | None = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_tree(process)
            status = None
        except BaseException:
            kill_tree(process)
            raise
    return status, time.monotonic() - started


def build(swift: str, log: Path) -> tuple[int | None, float]:
    return run([swift, "build", "--build-tests"], log)


def test_command(swift: str, tests: str) -> list[str]:
    cmd = [swift, "test", "--skip-build"]
    if tests:
        cmd += ["--filter", tests]
    return cmd


def ran_no_tests(log: Path) -> bool:
    text = log.read_text(errors="replace")
    return re.search(r"Test run with 0 tests", text) is not None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", default=str(REPO / "scripts" / "mutations" / "mutations.txt"))
    parser.add_argument("--only", default="", help="comma-separated ids to run")
    parser.add_argument("--check", action="store_true", help="only check that every entry applies (no build)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run of the tests")
    parser.add_argument("--test-minutes", type=float, default=4, help="bound on one test run (a hang counts as caught)")
    args = parser.parse_args()
    swift = os.environ.get("SWIFT", "swift")

    WORK.mkdir(parents=True, exist_ok=True)
    # One run at a time: another would take the planted file for a leftover and put it back.
    lock = (WORK / "lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit("mutations: another run is in progress (it holds .build/mutations/lock)")
    restore_from_journal()
    # SIGTERM unwinds like Ctrl-C, so the `with` block puts the file back.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))

    entries = parse(Path(args.list))
    if args.only:
        wanted = set(args.only.split(","))
        entries = [e for e in entries if e.id in wanted]
        missing = wanted - {e.id for e in entries}
        if missing:
            sys.exit(f"mutations: no entries {sorted(missing)}")

    broken: list[str] = []
    for e in entries:
        path = REPO / e.file
        count = path.read_text().count(e.find) if path.exists() else -1
        if count != 1:
            where = "the file does not exist" if count < 0 else f"its text is found {count} times, not once"
            broken.append(f"{e.id}: does not apply: {where} ({e.file})")
        elif e.find == e.replace:
            broken.append(f"{e.id}: its replacement is the original text")
    if args.check or broken:
        for b in broken:
            print("BROKEN", b)
        print(f"mutations: {len(entries)} entries, {len(broken)} broken")
        return 1 if broken else 0

    total_started = time.monotonic()
    status, seconds = build(swift, WORK / "baseline.build.log")
    if status != 0:
        print(f"mutations: the unmutated package does not build (see {WORK / 'baseline.build.log'})")
        return 1
    if not args.no_baseline:
        filters = sorted({e.tests for e in entries})
        union = "" if "" in filters else "|".join(f"(?:{f})" for f in filters)
        print(f"baseline: the entries' tests without a mutation ({union or 'the whole suite'})", flush=True)
        status, seconds = run(test_command(swift, union), WORK / "baseline.test.log", args.test_minutes * 60)
        if status != 0:
            print(f"mutations: the tests fail without any mutation (see {WORK / 'baseline.test.log'}): fix that first")
            return 1
        print(f"baseline: passed in {seconds:.0f} s", flush=True)

    results: list[tuple[Entry, str, float]] = []
    try:
        for n, e in enumerate(entries, start=1):
            started = time.monotonic()
            print(f"[{n}/{len(entries)}] {e.id}: {e.file}", flush=True)
            with Planted(e):
                build_log = WORK / f"{e.id}.build.log"
                status, _ = build(swift, build_log)
                if status != 0:
                    verdict = f"BROKEN (does not compile: {build_log})"
                else:
                    test_log = WORK / f"{e.id}.test.log"
                    status, _ = run(test_command(swift, e.tests), test_log, args.test_minutes * 60)
                    if status is None:
                        verdict = "caught (the tests timed out)"
                    elif status != 0:
                        verdict = "caught"
                    elif ran_no_tests(test_log):
                        verdict = f"BROKEN (no test matches {e.tests!r})"
                    else:
                        verdict = "SURVIVED"
            elapsed = time.monotonic() - started
            results.append((e, verdict, elapsed))
            print(f"    {verdict} in {elapsed:.0f} s", flush=True)
    finally:
        # Leave the build matching the source again.
        print("rebuilding the unmutated package", flush=True)
        build(swift, WORK / "final.build.log")

    caught = [r for r in results if r[1].startswith("caught")]
    survived = [r for r in results if r[1] == "SURVIVED"]
    bad = [r for r in results if r[1].startswith("BROKEN")]
    total = time.monotonic() - total_started
    lines = [f"{e.id:40} {verdict:30} {elapsed:5.0f} s   {e.notice}" for e, verdict, elapsed in results]
    lines.append("")
    lines.append(f"mutations: {len(caught)} of {len(results)} caught, {len(survived)} survived, {len(bad)} broken entries; "
                 f"{total / 60:.1f} min in all")
    for e, verdict, _ in survived + bad:
        lines.append(f"  {verdict}: {e.id} ({e.file}): {e.notice}")
    report = "\n".join(lines)
    (WORK / "report.txt").write_text(report + "\n")
    print()
    print(report)
    return 0 if not survived and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
