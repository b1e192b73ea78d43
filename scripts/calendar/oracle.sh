#!/usr/bin/env bash
# The calendar corpus against an independent implementation (issue 41): every calendar the
# pinned PyPI packages of requirements.txt ship as test data (recurring-ical-events 3.8.2's
# test calendars, LGPL-3.0; icalendar 7.0.3's, BSD-2-Clause: exports of Thunderbird, Google,
# Outlook, Apple, Nextcloud, Etar among them) is read by `chime calendar alarms` and by
# recurring-ical-events (rie_oracle.py), and their alarm instants compared. Nothing of the
# corpus is committed: the packages are installed into a virtualenv and read where they are.
#
#   scripts/calendar/oracle.sh           the short run: the files that hold a VALARM, 2 years each
#   scripts/calendar/oracle.sh --long    every .ics file of both packages, 5 years each
#   scripts/calendar/oracle.sh --prepare the virtualenv with the packages, nothing run
# Environment: CHIME (default .build/debug/chime), TZ_NAME (default Europe/Berlin).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build/calendar-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import recurring_ical_events, icalendar" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r scripts/calendar/requirements.txt
fi
# --prepare: the virtualenv only (scripts/test-build.sh makes it during the build).
[ "${1:-}" = --prepare ] && exit 0
site=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
dirs=("$site/recurring_ical_events/test/calendars" "$site/icalendar/tests/calendars")

years=2
inject=()
files=()
if [ "${1:-}" = "--long" ]; then
  years=5
  inject=(--inject-alarm)
  for d in "${dirs[@]}"; do files+=("$d"/*.ics); done
else
  while IFS= read -r f; do files+=("$f"); done < <(grep -l "BEGIN:VALARM" "${dirs[0]}"/*.ics "${dirs[1]}"/*.ics)
fi
exec "$venv/bin/python" scripts/calendar/rie_oracle.py --chime "${CHIME:-.build/debug/chime}" --tz "${TZ_NAME:-Europe/Berlin}" \
  --years "$years" --expected scripts/calendar/expected-differences.txt ${inject[@]+"${inject[@]}"} "${files[@]}"
