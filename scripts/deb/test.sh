#!/usr/bin/env bash
# `make test-deb`: the packages `make deb` built (DIR, default .build/deb) installed for real in a
# throwaway Debian 12 root made by mmdebstrap from this machine's Debian mirror
# (/etc/apt/sources.list.d/debian.sources, so the root has the same bookworm, -updates and
# -security the packages were built against), nothing preinstalled but Debian's essential
# packages and apt:
#   1. apt-get install ./chime_*.deb ./libchime-client1_*.deb ./libchime-client-dev_*.deb
#      (dependencies from the mirror); chime --version, chimed --version, the helpers start;
#      the user socket is enabled for every user; chimed runs in the root and the packaged CLI
#      adds, lists and removes; the C library's pkg-config file names the multiarch directory;
#   2. apt-get purge of the three (and autoremove --purge of what they pulled in, then a purge of
#      whatever apt would not autoremove): no file of the packages is left, and the root holds
#      exactly the files it held before the install but for apt's and dpkg's own records and the
#      user's store in ~/.local/state/chime, which stays (what piuparts checks);
#   3. with DEB_OLD_REV=REV (a git revision; see scripts/deb/old.sh): a package of that
#      revision's chime and chimed is installed, its chimed writes a user's store, then this
#      tree's package is installed over it, and its chimed opens that store, migrates it and
#      lists the old request;
#   4. piuparts, on the same base root, on the three packages.
# The root runs under bubblewrap (the root's own /, /proc, /dev, the host's network and
# resolv.conf). mmdebstrap runs in its root mode (this needs root; as a user it takes
# --mode=unshare). The base root is kept as DIR/bookworm-apt.tar between runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(cd "${1:-.build/deb}" && pwd)
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
scripts/install-deps.sh --test-deb
command -v bwrap >/dev/null || scripts/install-deps.sh

new=$(ls -t "$dir"/chime_*_"$arch".deb 2>/dev/null | head -1)
[ -n "$new" ] || { echo "test-deb: no chime_*_$arch.deb in $dir: run make deb" >&2; exit 1; }
version=$(dpkg-deb -f "$new" Version)
debs=("$new" "$dir/libchime-client1_${version}_$arch.deb" "$dir/libchime-client-dev_${version}_$arch.deb")

base=$dir/bookworm-apt.tar
if [ ! -f "$base" ]; then
  mode=root; [ "$(id -u)" = 0 ] || mode=unshare
  mmdebstrap --mode=$mode --variant=apt --format=tar bookworm "$base.part" /etc/apt/sources.list.d/debian.sources
  mv "$base.part" "$base"
fi

work=$(mktemp -d /tmp/chime-test-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*" >&2; exit 1; }

# A fresh root from the base tarball; in_root runs a shell script in it as root.
new_root() {
  rm -rf "$work/root"
  mkdir -p "$work/root"
  tar -C "$work/root" -xf "$base"
  mkdir -p "$work/root/debs"
}
in_root() {
  bwrap --bind "$work/root" / --proc /proc --dev /dev --perms 1777 --tmpfs /tmp --tmpfs /run \
    --ro-bind /etc/resolv.conf /etc/resolv.conf --unshare-pid --unshare-ipc --die-with-parent \
    --clearenv --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin --setenv HOME /root --setenv LANG C.UTF-8 \
    --setenv DEBIAN_FRONTEND noninteractive \
    -- /bin/sh -euc "$1"
}
# Every path in the root but the pseudo file systems and apt's and dpkg's own records.
tree() {
  (cd "$work/root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./run -o -path ./debs \
    -o -path ./var/cache -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log \) -prune -o -print | sort)
}
# chimed started in the root (its output to /tmp/chimed.log), waited for, and the script ($1) run.
with_chimed() {
  in_root "
    mkdir -p /run/user/0 && chmod 700 /run/user/0
    export XDG_RUNTIME_DIR=/run/user/0
    chimed --presenter none --sound-player none >/tmp/chimed.log 2>&1 & pid=\$!
    i=0; until grep -qs 'chimed listening on' /tmp/chimed.log; do
      i=\$((i + 1)); [ \$i -lt 300 ] || { cat /tmp/chimed.log >&2; exit 1; }
      kill -0 \$pid || { cat /tmp/chimed.log >&2; exit 1; }; sleep 0.1
    done
    $1
    kill -TERM \$pid; wait \$pid
  "
}

packages() { in_root "dpkg-query -W -f '\${Package}\n'" | sort; }

# 1. Install, run.
new_root
tree > "$work/before"
packages > "$work/packages-before"
cp "${debs[@]}" "$work/root/debs/"
in_root "apt-get update -qq && apt-get install -y -qq $(printf '/debs/%s ' "${debs[@]##*/}") >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }" \
  || fail "apt-get install of the packages"
ok "apt-get install ./chime_${version}_$arch.deb and the C library's packages, dependencies from the mirror"
out=$(in_root 'chime --version; chimed --version') || fail "--version: $out"
[ "$(echo "$out" | grep -c "^${version%%~*}")" = 2 ] || fail "--version printed: $out"
in_root '/usr/libexec/chime/chime-thumbnail --help >/dev/null 2>&1 || [ $? -lt 126 ]; /usr/libexec/chime/chime-calendar --help >/dev/null 2>&1 || [ $? -lt 126 ]
  ! ldd /usr/libexec/chime/chime-thumbnail /usr/libexec/chime/chime-calendar /usr/bin/chime /usr/bin/chimed | grep "not found"' \
  || fail "the helpers do not start, or a library is missing"
ok "chime --version and chimed --version print $(echo "$out" | head -1); every binary finds its libraries"
# deb-systemd-helper links it as /lib/systemd/user/chimed.socket (the merged /usr's other name).
readlink "$work/root/etc/systemd/user/sockets.target.wants/chimed.socket" | grep -Eqx '(/usr)?/lib/systemd/user/chimed.socket' \
  || fail "chimed.socket is not enabled for every user: $(ls -l "$work/root/etc/systemd/user/sockets.target.wants" 2>&1)"
grep -qx "Exec=/usr/bin/chimed" "$work/root/usr/share/dbus-1/services/io.github.chime.Chime1.service" || fail "the D-Bus service's Exec="
grep -qx "libdir=\${prefix}/lib/$multiarch" "$work/root/usr/lib/$multiarch/pkgconfig/chime-client.pc" || fail "chime-client.pc's libdir"
ok "chimed.socket enabled for every user, the D-Bus service runs /usr/bin/chimed, chime-client.pc names the multiarch directory"
out=$(with_chimed '
    chime add tea --title Tea --in 1h --app org.example.tea >/dev/null
    chime pending --app org.example.tea
    chime remove tea --app org.example.tea >/dev/null
    chime pending --app org.example.tea --json') || fail "the round trip: $out"
echo "$out" | grep -q tea && echo "$out" | tail -1 | grep -q '^\[\]$\|"requests" *: *\[\]\|^{}$\|\[ *\]' || fail "the round trip printed: $out"
# chimed and chime find their helpers in /usr/libexec/chime (../libexec/chime beside /usr/bin):
# chimed says at start when it finds none, and `chime calendar alarms` runs chime-calendar.
out=$(with_chimed 'cat /tmp/chimed.log') || fail "chimed's start: $out"
echo "$out" | grep -q "helper found" && fail "chimed does not find its helpers: $out"
printf 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//chime//test//EN\r\nBEGIN:VEVENT\r\nUID:tea@test\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20300101T120000Z\r\nSUMMARY:Tea\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Tea\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n' > "$work/root/debs/tea.ics"
out=$(in_root 'chime calendar alarms --path /debs/tea.ics --after 2030-01-01T00:00Z --tz UTC 2>&1') || fail "chime calendar alarms: $out"
echo "$out" | grep -q "11:50" || fail "chime calendar alarms printed: $out"
ok "chimed runs in the root; the packaged chime adds, lists and removes; chimed and chime find their helpers"

# 2. Purge: nothing of the packages is left, and nothing else either.
in_root 'apt-get purge -y -qq chime libchime-client1 libchime-client-dev >/tmp/apt.log 2>&1 && apt-get autoremove --purge -y -qq >>/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }' \
  || fail "apt-get purge"
# What apt kept of the dependencies it pulled in (tzdata, Priority required, is never
# autoremoved) goes too, as piuparts purges them, so the root can be compared whole.
packages > "$work/packages-after"
extra=$(comm -13 "$work/packages-before" "$work/packages-after" | paste -sd' ' -)
[ -z "$extra" ] || in_root "apt-get purge -y -qq $extra >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }" || fail "purging $extra"
left=""
for deb in "${debs[@]}"; do
  while read -r path; do
    [ -e "$work/root$path" ] && [ ! -d "$work/root$path" ] && left="$left $path"
  done < <(dpkg-deb --contents "$deb" | awk '{ sub(/^\./, "", $6); print $6 }')
done
[ -z "$left" ] || fail "files of the packages left after purge:$left"
# The user's store stays: a package never removes its users' data.
[ -f "$work/root/root/.local/state/chime/chime.db" ] || fail "the user's store went with the package"
tree | grep -v '^\./root/\.local' > "$work/after"
diff -u "$work/before" "$work/after" > "$work/tree.diff" || fail "the root after purge differs from before the install: $(cat "$work/tree.diff")"
ok "apt-get purge leaves no file of the packages, the root as it was ($(wc -l < "$work/before") paths; purged with them: ${extra:-nothing else}), the user's store in place"

# 3. Upgrade from an older package, keeping the user's store.
if [ -n "${DEB_OLD_REV:-}" ]; then
  old=$(scripts/deb/old.sh "$DEB_OLD_REV" "$dir/old")
  new_root
  cp "$old" "${debs[@]}" "$work/root/debs/"
  in_root "apt-get update -qq && apt-get install -y -qq /debs/${old##*/} >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }" || fail "installing $old"
  out=$(with_chimed 'chime --version; chime add old-tea --title "Tea from before" --in 2h --app org.example.tea >/dev/null') \
    || fail "the old chimed: $out"
  in_root "apt-get install -y -qq /debs/${new##*/} >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }" || fail "the upgrade"
  out=$(with_chimed 'chime --version; chime pending --app org.example.tea; cat /tmp/chimed.log') || fail "the new chimed on the old store: $out"
  echo "$out" | grep -q old-tea || fail "the old request is gone after the upgrade: $out"
  # ChimeDatabase copies a store aside before it migrates it, and says from which migration.
  migrated=$(echo "$out" | grep "copied the store before migrating it") || fail "the new chimed did not migrate the old store: $out"
  ok "upgrade from $(dpkg-deb -f "$old" Version) to $version: the new chimed migrates the old store (from $(echo "$migrated" | sed 's/.*from=\(.*\) \[.*/\1/')) and lists its request"
fi
# 4. piuparts, Debian's own install/purge check, on the same base root: installs the three
#    packages with their dependencies, removes and purges them, and compares the root's files,
#    diversions and running processes before and after.
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
gzip -1 -c "$base" > "$work/base.tgz"
piuparts --basetgz="$work/base.tgz" -d bookworm -m "$mirror main" --no-upgrade-test \
  "${debs[@]}" > "$work/piuparts.log" 2>&1 || { tail -40 "$work/piuparts.log"; fail "piuparts"; }
grep -q "PASS: All tests" "$work/piuparts.log" || fail "piuparts did not pass: $(tail -5 "$work/piuparts.log")"
ok "piuparts: $(grep -E 'PASS: ' "$work/piuparts.log" | sed 's/.*PASS: //' | paste -sd' ' -)"
echo "test-deb: $passed passed, 0 failed"
