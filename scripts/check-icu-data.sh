#!/usr/bin/env bash
# Checks that release chime, which links only the ICU data items in Sources/ChimeICUData/data,
# computes the same fire dates as debug chime, which uses the toolchain's whole ICU data: every
# zone in /usr/share/zoneinfo, on a DST-spring date, a DST-autumn date and a daily time.
# Usage: scripts/check-icu-data.sh [RELEASE_DIR] [DEBUG_DIR]   (make check-icu-data)
set -euo pipefail
release=${1:-.build/release}
debug=${2:-.build/debug}
zones=$(cd /usr/share/zoneinfo && find . -type f -name '[A-Z]*' ! -path './posix/*' ! -path './right/*' | sed 's|^\./||' | sort)
[ -n "$zones" ] || { echo "check-icu-data.sh: no zones in /usr/share/zoneinfo (tzdata)" >&2; exit 1; }
export CHIME_SOCKET=/nonexistent/chimed.sock
checked=0 differ=0
for zone in $zones; do
  for spec in "month=3,day=29,hour=2,minute=30" "month=10,day=25,hour=1,minute=30" "hour=0,minute=15"; do
    a=$("$release/chime" next --calendar "$spec" --tz "$zone" --count 3 --json 2>&1 || true)
    b=$("$debug/chime" next --calendar "$spec" --tz "$zone" --count 3 --json 2>&1 || true)
    checked=$((checked + 1))
    if [ "$a" != "$b" ]; then
      differ=$((differ + 1))
      [ "$differ" -le 5 ] && printf 'differs: %s %s\n  release: %s\n  debug:   %s\n' "$zone" "$spec" "$a" "$b"
    fi
  done
done
echo "check-icu-data.sh: $checked zone and date pairs, $differ differ"
[ "$differ" -eq 0 ]
