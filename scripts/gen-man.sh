#!/usr/bin/env bash
# Generates chime.1 and chimed.1 from the binaries' own --help and --version (help2man), so the
# man pages never drift from the flags. chime.1 also gets each subcommand's --help. The pages are
# chime(1) and chimed(1), each with "NAME VERSION" in the footer: help2man would take the first word
# of `--version` (the bare version number) for the program's name, so both are given here.
# Usage: scripts/gen-man.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:-.build/release}
out=${2:-$build/man}
command -v help2man >/dev/null || { echo "gen-man.sh: help2man is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
mkdir -p "$out"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

# The subcommands of chime, from its own help, each as a section of the page.
extra=$(mktemp)
trap 'rm -f "$extra"' EXIT
{
  echo "[COMMANDS]"
  "$build/chime" --help | awk '/^SUBCOMMANDS:/{on=1; next} on && /^  [a-z]/{print $1}' | while read -r sub; do
    echo ".SS \"chime $sub\""
    echo ".nf"
    "$build/chime" help "$sub" 2>&1 | sed -e 's/\\/\\\\/g' -e 's/^\./\\\&./'
    echo ".fi"
  done
  echo "[FILES]"
  echo "\$XDG_CONFIG_HOME/chime/chimed.toml (see chimed(1)); \$XDG_RUNTIME_DIR/chime/chimed.sock, the daemon's socket."
  echo "[SEE ALSO]"
  echo "chimed(1)"
} > "$extra"
help2man --no-info --no-discard-stderr -N -s 1 -n "schedule and manage Chime notifications" \
  --version-string "chime $("$build/chime" --version)" \
  --include "$extra" -o "$out/chime.1" "$build/chime"

{
  echo "[FILES]"
  echo "\$XDG_CONFIG_HOME/chime/chimed.toml or ~/.config/chime/chimed.toml: the configuration file."
  echo ".br"
  echo "\$XDG_STATE_HOME/chime/chime.db: the store."
  echo "[SEE ALSO]"
  echo "chime(1), systemd.socket(5); the units chimed.socket and chimed.service."
} > "$extra"
help2man --no-info --no-discard-stderr -N -s 1 -n "the Chime notification scheduler daemon" \
  --version-string "chimed $("$build/chimed" --version)" \
  --include "$extra" -o "$out/chimed.1" "$build/chimed"
echo "man pages in $out"
