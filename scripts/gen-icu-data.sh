#!/usr/bin/env bash
# Writes Sources/ChimeICUData/data/: the items of the toolchain's ICU data that Chime needs
# (items.txt), as an ICU common-data package, and the name of ICU's data symbol. Run it when the
# toolchain's ICU version changes (ICUDataTests says so). Static release builds of chimed
# then link this 1.2 MB package instead of the toolchain's whole one (34 MB).
# Usage: scripts/gen-icu-data.sh [SWIFT_STATIC_LIB_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
swift_bin=$(readlink -f "$(command -v "${SWIFT:-swift}")")
lib=${1:-$(dirname "$swift_bin")/../lib/swift_static/linux}
archive=$lib/lib_FoundationICU.a
out=Sources/ChimeICUData/data
[ -f "$archive" ] || { echo "gen-icu-data.sh: no $archive" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && ar x "$archive" icu_packaged_data.cpp.o)
symbol=$(nm "$work/icu_packaged_data.cpp.o" | awk '$3 ~ /^icudt[0-9]+_dat$/ {print $3}')
[ -n "$symbol" ] || { echo "gen-icu-data.sh: no icudtNN_dat in $archive" >&2; exit 1; }
# The package is the symbol's bytes: the object's only data section, from offset 0.
python3 - "$work/icu_packaged_data.cpp.o" "$work/full.dat" <<'PY'
import subprocess, sys
obj, target = sys.argv[1:]
for line in subprocess.check_output(['readelf', '-S', '-W', obj]).decode().splitlines():
    fields = line.split(']')[-1].split()
    if len(fields) > 4 and fields[0] == '.rodata':
        offset, size = int(fields[3], 16), int(fields[4], 16)
        with open(obj, 'rb') as f:
            f.seek(offset)
            open(target, 'wb').write(f.read(size))
        break
else:
    sys.exit('no .rodata section in ' + obj)
PY
grep -v -e '^#' -e '^$' "$out/items.txt" | xargs python3 scripts/icu-data-subset.py "$work/full.dat" "$out/icudata-subset.dat"
printf '// Written by scripts/gen-icu-data.sh: the toolchain ICU'"'"'s data symbol.\n#define CHIME_ICU_DATA_SYMBOL %s\n' "$symbol" > "$out/icudata-symbol.h"
touch Sources/ChimeICUData/icudata.S
echo "gen-icu-data.sh: $out/icudata-subset.dat ($(stat -c %s "$out/icudata-subset.dat") bytes) as $symbol"
