#!/bin/sh
# The Debian version of the tree at git revision REV: ChimeVersion's release number
# (Sources/ChimeCore/Version.swift) when REV is tagged vNUMBER, else the snapshot
# NUMBER~gitYYYYMMDD.N.HASH (REV's commit date in UTC, its number of commits, its short hash).
#   scripts/deb/version.sh [--base] REV      (--base: the release number alone)
set -eu
base_only=
[ "$1" = --base ] && { base_only=1; shift; }
rev=$1
base=$(git show "$rev:Sources/ChimeCore/Version.swift" | sed -n 's/.*static let string = "\([0-9][0-9.]*\)".*/\1/p')
[ -n "$base" ] || { echo "version.sh: no ChimeVersion.string at $rev" >&2; exit 1; }
if [ -n "$base_only" ] || [ "$(git describe --tags --exact-match "$rev" 2>/dev/null || true)" = "v$base" ]; then
  echo "$base"
else
  echo "$base~git$(TZ=UTC git log -1 --date=format-local:%Y%m%d --format=%cd "$rev").$(git rev-list --count "$rev").$(git rev-parse --short=7 "$rev")"
fi
