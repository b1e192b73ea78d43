#!/usr/bin/env bash
# Builds the real-world media corpus byte for byte from manifest.tsv:
#   scripts/realworld/build.sh [--short] [DIR]      (DIR defaults to .build/realworld)
# Downloads each pinned Debian 12 package of packages.tsv with `apt-get download` (nothing is
# installed) and checks its SHA-256, unpacks it with `dpkg-deb -x`, copies the manifest's files
# to DIR/files/ID and makes its derived files with derive.py (byte operations only), then checks
# every file's SHA-256 against the manifest. Fails, naming the file, on any difference.
# --short: only the packages marked `short` (what `make test` uses).
# The corpus test (RealWorldCorpusTests, run by `make test-realworld`) reads DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/lib.sh"

short=no
if [ "${1:-}" = "--short" ]; then short=yes; shift; fi
dir=${1:-$root/.build/realworld}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

packages=()
while IFS=$'\t' read -r name version arch sha kind; do
  [ "$short" = yes ] && [ "$kind" != short ] && continue
  fetch_deb "$name" "$version" "$arch" "$sha" "$dir"
  packages+=("$name")
done < <(grep -v '^#' "$here/packages.tsv")

rm -rf "$dir/files.partial"
mkdir -p "$dir/files.partial"
count=0
while IFS=$'\t' read -r id package source sha expect; do
  included=no
  for p in "${packages[@]}"; do [ "$p" = "$package" ] && included=yes; done
  [ "$included" = yes ] || continue
  out="$dir/files.partial/$id"
  mkdir -p "$(dirname "$out")"
  if [ "$source" = deb ]; then
    cp "$dir/pkg/$package/${id#"$package"/}" "$out"
  else
    IFS='|' read -r -a step <<< "$source"
    python3 "$here/derive.py" "$out" "${step[1]}" "$dir/files.partial/${step[2]}" "${step[@]:3}"
  fi
  actual=$(sha256sum < "$out" | cut -d' ' -f1)
  if [ "$actual" != "$sha" ]; then
    echo "realworld: $id has SHA-256 $actual, the manifest says $sha" >&2
    exit 1
  fi
  count=$((count + 1))
done < <(grep -v '^#' "$here/manifest.tsv")
rm -rf "$dir/files"
mv "$dir/files.partial" "$dir/files"
# The test checks exactly the files built: the short corpus is not taken for a broken full one.
echo "$short" > "$dir/files/.short"
echo "realworld: $count files from ${#packages[@]} packages in $dir/files"
