#!/usr/bin/env bash
# The checks of built packages, run by `make deb` (scripts/deb/build.sh) after the build:
#   - lintian (with the overrides in debian/*.lintian-overrides, each with its reason): any
#     error or warning fails; info tags are printed;
#   - each package's file list (the -dbgsym packages aside) (`dpkg-deb --contents`) is exactly the one scripts/deb/contents.txt
#     lists (paths with the version left out; a file added or lost fails until that list says so),
#     and the installed binaries are stripped.
#   scripts/deb/check.sh DIR VERSION
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
version=$2
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
changes="$dir/chime_${version}_${arch}.changes"

echo "== lintian $(lintian --version | awk '{print $2}') on $(basename "$changes")"
report=$(lintian --info --display-info --show-overrides --fail-on none "$changes" 2>&1)
echo "$report" | grep -E '^[EWO]: ' | sed 's/^/   /' || true
# Info tags, one line per tag with how often (spelling-error-in-binary comes from the Swift
# runtime's own strings, linked statically).
echo "$report" | grep -E '^I: ' | awk '{print $3}' | sort | uniq -c | sed 's/^ */   I: /' || true
errors=$(echo "$report" | grep -c '^E: ' || true)
warnings=$(echo "$report" | grep -c '^W: ' || true)
overridden=$(echo "$report" | grep -c '^O: ' || true)
echo "lintian: $errors errors, $warnings warnings, $overridden overridden (debian/*.lintian-overrides)"
[ "$errors" = 0 ] && [ "$warnings" = 0 ] || { echo "FAIL lintian" >&2; exit 1; }

actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
for deb in "$dir"/*_"${version}"_"${arch}".deb "$dir"/*_"${version}"_all.deb; do
  [ -e "$deb" ] || continue
  package=$(dpkg-deb -f "$deb" Package)
  # The -dbgsym packages' files are named by build id, new with each build.
  case $package in *-dbgsym) continue ;; esac
  dpkg-deb --contents "$deb" | awk -v p="$package" '{ path = $6; sub(/^\./, "", path); if (path != "/") print p, path }'
done | sed "s|$multiarch|ARCH-linux-gnu|" | sort > "$actual"
if ! diff -u scripts/deb/contents.txt "$actual"; then
  echo "FAIL the packages' files differ from scripts/deb/contents.txt (- expected, + built)" >&2
  exit 1
fi
echo "ok   the packages hold exactly the $(wc -l < "$actual") entries of scripts/deb/contents.txt"

work=$(mktemp -d)
trap 'rm -f "$actual"; rm -rf "$work"' EXIT
dpkg-deb -x "$dir/chime_${version}_${arch}.deb" "$work"
for binary in usr/bin/chime usr/bin/chimed usr/libexec/chime/chime-thumbnail usr/libexec/chime/chime-calendar; do
  file -b "$work/$binary" | grep -q ', stripped' || { echo "FAIL $binary is not stripped" >&2; exit 1; }
  # SwiftPM links every executable with RUNPATH $ORIGIN (for libraries built beside it); no
  # other path, and no library the package does not depend on, may be searched.
  if readelf -d "$work/$binary" | grep -E 'RPATH|RUNPATH' | grep -vq 'path: \[\$ORIGIN\]'; then
    echo "FAIL $binary carries a library search path: $(readelf -d "$work/$binary" | grep -E 'RPATH|RUNPATH')" >&2
    exit 1
  fi
done
echo "ok   chime, chimed and the helpers are stripped and search no library path but \$ORIGIN"
