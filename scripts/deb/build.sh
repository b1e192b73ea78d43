#!/usr/bin/env bash
# `make deb`: the Debian packages chime, libchime-client1 and libchime-client-dev (debian/),
# built with `dpkg-buildpackage -us -uc -b` from this tree, into OUT_DIR (default .build/deb),
# then lintian on them (an error, or a warning that debian/*.lintian-overrides does not justify,
# fails) and the file list of each package checked against scripts/deb/contents.txt.
#
# The version is the project's (ChimeVersion in Sources/ChimeCore/Version.swift, which must be
# the top entry of debian/changelog) when HEAD is tagged vVERSION; otherwise a snapshot,
# VERSION~gitYYYYMMDD.N.REV (scripts/deb/version.sh): HEAD's commit date, its number of commits
# (so two snapshots of one day still sort in the order they were made) and short hash; `~` sorts
# it below the release it leads to. For a snapshot the build writes that entry on top of debian/changelog and puts the
# file back afterwards (scripts/git-revision.sh does not count it as a change to the tree).
#   scripts/deb/build.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mkdir -p "${1:-.build/deb}" && cd "${1:-.build/deb}" && pwd)

command -v swift >/dev/null || { echo "make deb: swift is not on PATH (the toolchain is not a Debian package)" >&2; exit 1; }
scripts/install-deps.sh --deb

base=$(scripts/deb/version.sh --base HEAD)
top=$(dpkg-parsechangelog -S Version)
[ -n "$base" ] && [ "$top" = "$base" ] || {
  echo "make deb: debian/changelog's top entry is $top, the project's version is ${base:-unknown}: add an entry for $base" >&2
  exit 1
}
version=$(scripts/deb/version.sh HEAD)
if [ -n "$(git status --porcelain --untracked-files=no -- . ':!debian/changelog')" ]; then
  version="$version+dirty"
fi

saved=$(mktemp)
cp debian/changelog "$saved"
restore() { cp "$saved" debian/changelog; rm -f "$saved"; }
trap restore EXIT
if [ "$version" != "$top" ]; then
  maintainer=$(dpkg-parsechangelog -S Maintainer)
  {
    echo "chime ($version) unstable; urgency=medium"
    echo
    echo "  * Snapshot of commit $(git rev-parse HEAD)."
    echo
    echo " -- $maintainer  $(git log -1 --format=%cD)"
    echo
    cat "$saved"
  } > debian/changelog
fi

rm -f "$out"/*.deb "$out"/*.ddeb "$out"/*.buildinfo "$out"/*.changes
arch=$(dpkg --print-architecture)
CHIME_DEB_DIR=$out dpkg-buildpackage -us -uc -b \
  --buildinfo-option=-u"$out" --changes-option=-u"$out" \
  --buildinfo-file="$out/chime_${version}_${arch}.buildinfo" --changes-file="$out/chime_${version}_${arch}.changes"
restore; trap - EXIT

echo "== packages in $out:"
for deb in "$out"/*.deb; do
  printf '%-60s %9d bytes\n' "$(basename "$deb")" "$(stat -c %s "$deb")"
done
dpkg-deb -f "$out/chime_${version}_${arch}.deb" Depends | sed 's/^/chime Depends: /'
scripts/deb/check.sh "$out" "$version"
