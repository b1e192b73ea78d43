#!/usr/bin/env bash
# An older chime package for `make test-deb`'s upgrade check: chime and chimed of git revision
# REV, built in release in a worktree of their own (.build/deb-old/REV; a cold release build,
# ~8 minutes here, once: the package is kept in OUT_DIR), packaged as `chime` at REV's version
# (scripts/deb/version.sh) with Depends from dpkg-shlibdeps. Revisions before debian/ existed
# had no package of their own, so only the two programs that write and read the user's store
# are in it: what the upgrade check needs is a store written by an older chimed. Prints the
# package's path.
#   scripts/deb/old.sh REV OUT_DIR
# e.g. 84ffbe2, the last revision with the store at schema 12 (13 added calendars).
set -euo pipefail
cd "$(dirname "$0")/../.."
rev=$(git rev-parse --short=12 "$1^{commit}")
out=$(mkdir -p "$2" && cd "$2" && pwd)
arch=$(dpkg --print-architecture)
version=$(scripts/deb/version.sh "$rev")
deb=$out/chime_${version}_$arch.deb
if [ -f "$deb" ]; then echo "$deb"; exit 0; fi

src=$PWD/.build/deb-old/$rev
[ -d "$src" ] || git worktree add --detach "$src" "$rev" >&2
{
  (cd "$src" && swift build -c release --product chimed && swift build -c release --product chime)
} >&2

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/pkg/DEBIAN" "$stage/pkg/usr/bin" "$stage/debian"
install -m 755 -s "$src/.build/release/chime" "$src/.build/release/chimed" "$stage/pkg/usr/bin/"
printf 'Source: chime\n\nPackage: chime\nArchitecture: any\n' > "$stage/debian/control"
(cd "$stage" && dpkg-shlibdeps -O -e pkg/usr/bin/chime -e pkg/usr/bin/chimed) | sed -n 's/^shlibs:Depends=//p' > "$stage/depends"
cat > "$stage/pkg/DEBIAN/control" <<CONTROL
Package: chime
Version: $version
Architecture: $arch
Maintainer: Chime developers <chime@users.noreply.github.com>
Depends: $(cat "$stage/depends")
Section: utils
Priority: optional
Description: per-user notification scheduling service (revision $rev, for upgrade tests)
 chime and chimed of an older revision, to test an upgrade keeps the user's store.
CONTROL
dpkg-deb --root-owner-group --build "$stage/pkg" "$deb.part" >&2
mv "$deb.part" "$deb"
echo "$deb"
