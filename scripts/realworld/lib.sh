# Shared by the real-world corpus scripts: fetch one pinned Debian package and unpack it.
# Sourced, not run.

# fetch_deb NAME VERSION ARCH SHA256 DIR: DIR/debs/NAME.deb with exactly that SHA-256 (from
# `apt-get download NAME=VERSION`, nothing installed), unpacked by `dpkg-deb -x` into
# DIR/pkg/NAME. Fails, naming both hashes, when the download differs.
fetch_deb() {
  local name=$1 version=$2 arch=$3 sha=$4 dir=$5
  local deb="$dir/debs/$name.deb"
  mkdir -p "$dir/debs" "$dir/pkg"
  if [ ! -f "$deb" ] || [ "$(sha256sum < "$deb" | cut -d' ' -f1)" != "$sha" ]; then
    rm -f "$deb"
    local tmp
    tmp=$(mktemp -d "$dir/debs/download.XXXXXX")
    # apt-get download writes into the current directory; _apt cannot write to a private
    # temporary directory, so the download runs unsandboxed (as apt-get itself notes).
    if ! (cd "$tmp" && apt-get download -q "$name=$version" >/dev/null 2>"$tmp/err"); then
      # Package lists that were never fetched (a fresh machine) know no version: fetch them
      # once and try again.
      if [ "$(id -u)" = 0 ] && [ -z "${REALWORLD_APT_UPDATED:-}" ]; then
        REALWORLD_APT_UPDATED=1
        apt-get update -qq >/dev/null 2>&1 || true
      fi
    fi
    if [ ! -f "$(ls "$tmp"/*.deb 2>/dev/null | head -1)" ] && ! (cd "$tmp" && apt-get download -q "$name=$version" >/dev/null 2>"$tmp/err"); then
      echo "realworld: apt-get download $name=$version failed:" >&2
      grep -v "unsandboxed" "$tmp/err" >&2 || true
      echo "realworld: (run 'apt-get update' first; the package must still be in Debian 12's archive)" >&2
      rm -rf "$tmp"
      return 1
    fi
    local got
    got=$(ls "$tmp"/*.deb)
    local actual
    actual=$(sha256sum < "$got" | cut -d' ' -f1)
    if [ "$actual" != "$sha" ]; then
      echo "realworld: $name $version downloaded with SHA-256 $actual, the manifest pins $sha" >&2
      echo "realworld: the archive's package changed; the corpus cannot be rebuilt byte for byte" >&2
      rm -rf "$tmp"
      return 1
    fi
    mv "$got" "$deb"
    rm -rf "$tmp"
    rm -rf "$dir/pkg/$name"
  fi
  if [ ! -d "$dir/pkg/$name" ]; then
    dpkg-deb -x "$deb" "$dir/pkg/$name.partial"
    mv "$dir/pkg/$name.partial" "$dir/pkg/$name"
  fi
}
