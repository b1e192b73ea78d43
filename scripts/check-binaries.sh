#!/usr/bin/env bash
# What the installed binaries carry, checked on the release build (`make release-installed`):
#   - each one, stripped as `make install` strips it, within its size ceiling (bytes);
#   - none links swift-corelibs Foundation, CoreFoundation or ICU (zones come from the system's
#     TZif files), and chimed not even FoundationEssentials, read from the symbol table of the
#     unstripped binary. chime has FoundationEssentials through ArgumentParser; chime-thumbnail
#     links it and FFmpeg dynamically (a process per thumbnail, off every hot path);
#     chime-calendar links libical (and through it ICU) dynamically, a process per preview;
#   - chime loads no libstdc++.so or libgcc_s.so (they are linked in: one start costs less).
# The helpers carry the Swift runtime statically since the Debian package (issue 42: an installed
# copy must run without the toolchain), about 7.5 MB each over the 2.1 MB they had linked to it.
# The ceilings sit a little above today's sizes: a new dependency or a pulled-in framework
# fails here, not at a user's `make install`. chime's ceiling moved from 18.0 to 18.5 MB when the
# client's reply poller (issue 44) took it to 18.01 MB: 33 KB of its own code, not a dependency;
# the static libstdc++ and libgcc add 95 KB (18.11 MB).
# Issue 27's goal is 15 MB each; bench/NOTES.md ("The CLI") has what the static
# FoundationEssentials and ArgumentParser floor costs.
#
#   scripts/check-binaries.sh            check BUILD_DIR (default .build/release)
# Environment: BUILD_DIR, STRIP (default strip), NM (default nm). readelf reads what chime loads.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${BUILD_DIR:-.build/release}"
strip="${STRIP:-strip}"
nm="${NM:-nm}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# program, its ceiling in bytes (stripped), and whether it may link FoundationEssentials
ceilings=(
  "chime 18500000 essentials"
  "chimed 15000000 none"
  "chime-thumbnail 10500000 essentials"
  "chime-calendar 10500000 none"
)

failed=0
for entry in "${ceilings[@]}"; do
  read -r program ceiling foundation <<<"$entry"
  binary="$build/$program"
  if [ ! -x "$binary" ]; then
    echo "check-binaries: $binary is missing (make release-installed builds it)" >&2
    exit 2
  fi
  "$strip" -o "$work/$program" "$binary"
  size=$(stat -c %s "$work/$program")
  if [ "$size" -gt "$ceiling" ]; then
    echo "FAIL $program: $size bytes stripped, over its ceiling of $ceiling" >&2
    failed=1
  else
    echo "ok   $program: $size bytes stripped (ceiling $ceiling)"
  fi
  # Swift symbols of the module Foundation ($s10Foundation…) or CoreFoundation (CF…), ICU's C
  # API (u_…, ucal_…, ures_…) and its C++ classes (icu_NN::…); FoundationEssentials'
  # ($s20FoundationEssentials…) where the program should not have it.
  forbidden='^(\$s10Foundation|_?CFRunLoop|_?CFString|ucal_[a-z]|ures_[a-z]|u_init|_ZN6icu_[0-9]+)'
  [ "$foundation" = none ] && forbidden='^(\$s10Foundation|\$s20FoundationEssentials|_?CFRunLoop|_?CFString|ucal_[a-z]|ures_[a-z]|u_init|_ZN6icu_[0-9]+)'
  # chime carries libstdc++ and libgcc too (Package.swift, link/libstdc++.so): a start that
  # loads them again shows here.
  if [ "$program" = chime ]; then
    needed=$(readelf -d "$binary" | awk '/NEEDED/ {print $NF}' | grep -E 'libstdc\+\+|libgcc_s' || true)
    if [ -n "$needed" ]; then
      echo "FAIL chime loads $(echo $needed | tr -d '[]') at each start; it should link them statically" >&2
      failed=1
    fi
  fi
  linked=$("$nm" --defined-only "$binary" 2>/dev/null | awk '{print $NF}' | grep -E "$forbidden" | head -3 || true)
  if [ -n "$linked" ]; then
    echo "FAIL $program links what it should not ($forbidden); for example:" >&2
    echo "$linked" | sed 's/^/       /' >&2
    failed=1
  fi
done
exit "$failed"
