#!/usr/bin/env bash
# ChimeClient's CPU per unary call: starts the release chimed on a socket in a temp dir, runs
# scripts/client-cpu/Probe.swift (COUNT sequential calls, getrusage of the client process) and
# stops the daemon. Needs `swift build -c release` first.
#   scripts/client-cpu.sh [add|settings] [COUNT] [TIMEOUT_SECONDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-add} count=${2:-5000} timeout=${3:-} rounds=${4:-1}
rel=${REL:-.build/release}
probe=$rel/client-cpu-probe
objects=$(ls $rel/ChimeClient.build/*.o $rel/ChimeWire.build/*.o $rel/ChimeCore.build/*.o \
  $rel/ChimeSystem.build/*.o $(find $rel/CChimeProto.build -name "*.o") 2>/dev/null || true)
if [ ! -x "$probe" ] || [ -n "$(find $rel/ChimeClient.build $rel/ChimeWire.build scripts/client-cpu -newer "$probe" -name '*.o' -o -newer "$probe" -name '*.swift' | head -1)" ]; then
  swiftc -O -parse-as-library scripts/client-cpu/Probe.swift -o "$probe" -I $rel/Modules \
    -Xcc -fmodule-map-file=$rel/CChimeProto.build/module.modulemap -Xcc -ISources/CChimeProto/Generated \
    -Xcc -fmodule-map-file=Sources/CLinux/module.modulemap \
    $objects -lprotobuf-c
fi
dir=$(mktemp -d /tmp/chime-cpu-XXXXXX)
fifo=$dir/out; mkfifo "$fifo"
$rel/chimed --socket "$dir/chimed.sock" --data-dir "$dir/data" --apps-dir "$dir/apps" --log-level warning >"$fifo" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; rm -rf "$dir"' EXIT
exec 3<"$fifo"; read -r _ <&3
for _ in $(seq "$rounds"); do "$probe" "$dir/chimed.sock" "$kind" "$count" $timeout; done
