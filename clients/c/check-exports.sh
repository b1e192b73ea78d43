#!/bin/sh
# Checks that libchime-client.so exports exactly its public API: every dynamic symbol it defines
# is a function declared in <chime/chime.h> or <chime/chime-proto.h>, or the generated
# protobuf-c code (chime__v1__*) that chime-proto.h's users call; and every declared function is
# exported (libchime-client.map is complete).
#   check-exports.sh LIBRARY.so CC CPPFLAGS...
set -eu
library=$1
cc=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/chime-exports-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Declared: every chime_* name called like a function in the preprocessed public headers.
"$cc" -E -P "$@" "$here/include/chime/chime-proto.h" | grep -oE '\bchime_[a-z0-9][a-z0-9_]* *\(' |
  sed 's/ *($//' | sort -u >"$work/declared"
# Exported: defined dynamic symbols, without their version suffix; CHIME_CLIENT_1 is the
# version node the map defines, not a symbol of code.
nm -D --defined-only "$library" | awk '{print $3}' | sed 's/@.*//' | grep -vx 'CHIME_CLIENT_1' | sort -u >"$work/exported"

status=0
if grep -v '^chime_' "$work/exported" >"$work/foreign"; then
  echo "check-exports: $library exports symbols outside the chime_ namespace:" >&2
  sed 's/^/  /' "$work/foreign" >&2
  status=1
fi
grep -v '^chime__v1__' "$work/exported" >"$work/api" || true
if ! cmp -s "$work/declared" "$work/api"; then
  echo "check-exports: exported functions (>) differ from those the public headers declare (<):" >&2
  diff "$work/declared" "$work/api" | grep '^[<>]' | sed 's/^/  /' >&2
  status=1
fi
if [ "$status" -eq 0 ]; then
  echo "check-exports: $(wc -l <"$work/api") public functions and $(grep -c '^chime__v1__' "$work/exported") generated protobuf-c symbols exported, nothing else"
fi
exit $status
