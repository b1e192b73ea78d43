#!/usr/bin/env bash
# Builds Chime's libFuzzer binaries and runs every target for a bounded time over its seed corpus.
# Fails if any target crashes.
#
#   Fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      (default 60 s, all targets)
#   Fuzz/run.sh --seeds                               (rewrite Fuzz/corpus/{frame,requests,records})
#
# Two binaries, both standalone swiftc builds (see shared PLATFORM-NOTES: the reliable route for
# libFuzzer) with the same strict settings as the package:
#   chime-fuzz       every source of Sources/ChimeCore as one module (media, sound, text parsers),
#                    with chimed's TOML reader and command line (the ChimeConfig files that
#                    import nothing);
#   chime-fuzz-ical  ChimeCore as a module, ChimeCalendar's item reader and Debian's libical:
#                    calendar items through libical and the alarm planner (`ical`);
#   chime-fuzz-wire  ChimeCore, ChimeRecords and ChimeWire as their own modules, the generated protobuf-c code
#                    (clang -fsanitize=fuzzer-no-link,address) and libprotobuf-c: the frame
#                    decoder, the request decoders and the stored records.
# Work files go to Fuzz/.work (git-ignored); a crash leaves its input in Fuzz/.work/artifacts/.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
write_seeds=0
if [ "${1:-}" = "--seeds" ]; then write_seeds=1; shift; set -- 1 frame requests records; fi
seconds="${1:-60}"
shift || true
core_targets=(png jpeg gif mp3 isobmff riff aiff mpegps caf sound media options push calendar duration instant userinfo tzif toml flags)
wire_targets=(frame requests records dbus)
grpc_targets=(grpc)
ical_targets=(ical)
all_targets=("${core_targets[@]}" "${wire_targets[@]}" "${grpc_targets[@]}" "${ical_targets[@]}")
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
need_core=0
need_wire=0
need_grpc=0
need_ical=0
for t in "${targets[@]}"; do
  case " ${core_targets[*]} " in *" $t "*) need_core=1; continue ;; esac
  case " ${wire_targets[*]} " in *" $t "*) need_wire=1; continue ;; esac
  # The gRPC binary links the wire binary's ChimeCore, ChimeRecords and ChimeWire libraries.
  case " ${grpc_targets[*]} " in *" $t "*) need_grpc=1; need_wire=1; continue ;; esac
  case " ${ical_targets[*]} " in *" $t "*) need_ical=1; continue ;; esac
  echo "unknown target '$t'; targets: ${all_targets[*]}" >&2
  exit 2
done
case "$seconds" in ''|*[!0-9]*|0) echo "SECONDS_PER_TARGET must be a positive number" >&2; exit 2 ;; esac

build="$here/.build"
work="$here/.work"
bin="$build/chime-fuzz"
mkdir -p "$build" "$work/artifacts"

# One package name for every module built here, as SwiftPM gives: ChimeWire uses ChimeRecords'
# `package` declarations.
swift_flags=(-O -g -sanitize=fuzzer,address -swift-version 6 -package-name chime
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility)

# newer OUTPUT INPUT...: true when OUTPUT is missing or older than any input.
newer() {
  local out="$1"; shift
  [ -e "$out" ] || return 0
  local f
  for f in "$@"; do [ "$f" -nt "$out" ] && return 0; done
  return 1
}

# quiet_build LOG COMMAND...: runs the command; on failure shows its log (without the linker's
# noise) and stops.
quiet_build() {
  local log="$1"; shift
  "$@" >"$log" 2>&1 || { grep -v "Cannot export local symbol" "$log" >&2; echo "fuzz build failed: see $log" >&2; exit 1; }
}

core="$root/Sources/ChimeCore"
mapfile -t core_sources < <(find "$core" -name '*.swift' | sort)
config="$root/Sources/ChimeConfig"
mapfile -t config_sources < <(find "$config/TOML" -name '*.swift' | sort)
config_sources+=("$config/ConfigKey.swift" "$config/ChimedOptions.swift" "$config/ChimedCommandLine.swift" "$config/ChimedHelp.swift")

# ChimeZoneFiles, the module ChimeCore reads TZif files through, as a static library both
# binaries link.
zf="$build/zonefiles"
zf_sources=("$root/Sources/ChimeZoneFiles/ZoneFiles.swift")
lib_zf="$zf/libChimeZoneFiles.a"
if [ $need_core -eq 1 ] || [ $need_wire -eq 1 ] || [ $need_ical -eq 1 ]; then
  mkdir -p "$zf"
  if newer "$lib_zf" "${zf_sources[@]}"; then
    echo "building $lib_zf"
    quiet_build "$zf/build.log" swiftc "${swift_flags[@]}" -parse-as-library -module-name ChimeZoneFiles -emit-library -static \
      -emit-module -emit-module-path "$zf/ChimeZoneFiles.swiftmodule" "${zf_sources[@]}" -o "$lib_zf"
  fi
fi

if [ $need_core -eq 1 ]; then
  sources=("$here/FuzzEntry.swift" "${core_sources[@]}" "${config_sources[@]}")
  if newer "$bin" "${sources[@]}" "$lib_zf"; then
    echo "building $bin"
    quiet_build "$work/build.log" swiftc "${swift_flags[@]}" -module-name ChimeFuzz -I "$zf" "${sources[@]}" "$lib_zf" -o "$bin"
  fi
fi

# The wire binary: ChimeCore, ChimeRecords and ChimeWire are separate modules (as in the package:
# file names repeat across them, and each imports the ones before it), each a static library; a module map
# stands in for SwiftPM's one of CChimeProto.
wire_bin="$build/chime-fuzz-wire"
if [ $need_wire -eq 1 ]; then
  wb="$build/wire"
  generated="$root/Sources/CChimeProto/Generated"
  mkdir -p "$wb/mods" "$wb/obj" "$wb/include/CChimeProto"
  modulemap="$wb/include/CChimeProto/module.modulemap"
  {
    echo "module CChimeProto {"
    for h in "$generated"/chime/v1/*.h; do echo "  header \"$h\""; done
    echo '  link "protobuf-c"'
    echo "  export *"
    echo "}"
  } > "$modulemap.new"
  cmp -s "$modulemap.new" "$modulemap" || mv "$modulemap.new" "$modulemap"
  rm -f "$modulemap.new"
  mapfile -t records_sources < <(find "$root/Sources/ChimeRecords" -name '*.swift' | sort)
  mapfile -t wire_sources < <(find "$root/Sources/ChimeWire" -name '*.swift' | sort)
  mapfile -t c_sources < <(find "$generated" -name '*.c' | sort)
  mapfile -t c_headers < <(find "$generated" -name '*.h' | sort)
  lib_core="$wb/libChimeCore.a"
  lib_records="$wb/libChimeRecords.a"
  lib_wire="$wb/libChimeWire.a"
  if newer "$lib_core" "${core_sources[@]}" "$lib_zf"; then
    echo "building $lib_core"
    quiet_build "$wb/core.log" swiftc "${swift_flags[@]}" -parse-as-library -module-name ChimeCore -emit-library -static -I "$zf" \
      -emit-module -emit-module-path "$wb/mods/ChimeCore.swiftmodule" "${core_sources[@]}" -o "$lib_core"
  fi
  if newer "$lib_records" "${records_sources[@]}" "${c_headers[@]}" "$lib_core"; then
    echo "building $lib_records"
    quiet_build "$wb/records.log" swiftc "${swift_flags[@]}" -parse-as-library -module-name ChimeRecords -emit-library -static \
      -I "$wb/mods" -I "$zf" -I "$wb/include/CChimeProto" -Xcc -I"$generated" \
      -emit-module -emit-module-path "$wb/mods/ChimeRecords.swiftmodule" "${records_sources[@]}" -o "$lib_records"
  fi
  if newer "$lib_wire" "${wire_sources[@]}" "${c_headers[@]}" "$lib_core" "$lib_records"; then
    echo "building $lib_wire"
    quiet_build "$wb/wire.log" swiftc "${swift_flags[@]}" -parse-as-library -module-name ChimeWire -emit-library -static \
      -I "$wb/mods" -I "$zf" -I "$wb/include/CChimeProto" -Xcc -I"$generated" \
      -emit-module -emit-module-path "$wb/mods/ChimeWire.swiftmodule" "${wire_sources[@]}" -o "$lib_wire"
  fi
  objects=()
  for c in "${c_sources[@]}"; do
    o="$wb/obj/$(basename "$c" .c).o"
    objects+=("$o")
    if newer "$o" "$c" "${c_headers[@]}"; then
      echo "compiling $(basename "$c")"
      quiet_build "$wb/c.log" clang -O1 -g -fsanitize=fuzzer-no-link,address -I"$generated" -c "$c" -o "$o"
    fi
  done
  # swift-extras-base64 from the package's checkout, for PageToken (with the package's own
  # language features).
  b64_src="$root/.build/checkouts/swift-extras-base64/Sources/ExtrasBase64"
  [ -d "$b64_src" ] || (cd "$root" && swift package resolve >/dev/null)
  mapfile -t b64_sources < <(find "$b64_src" -name '*.swift' | sort)
  lib_b64="$wb/libExtrasBase64.a"
  if newer "$lib_b64" "${b64_sources[@]}"; then
    echo "building $lib_b64"
    quiet_build "$wb/base64.log" swiftc -O -swift-version 6 -parse-as-library -module-name ExtrasBase64 \
      -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature MemberImportVisibility \
      -enable-experimental-feature SuppressedAssociatedTypesWithDefaults -enable-experimental-feature Lifetimes \
      -enable-upcoming-feature LifetimeDependence \
      -emit-library -static -emit-module -emit-module-path "$wb/mods/ExtrasBase64.swiftmodule" "${b64_sources[@]}" -o "$lib_b64"
  fi
  entry=("$here/WireFuzzEntry.swift" "$root/Sources/ChimeStore/Internal/PageToken.swift"
         "$root/Tests/ChimeTestSupport/FullValues.swift" "$here/DBusFuzz.swift")
  # The D-Bus API's argument decoder and records (pure: no sd-bus), for the `dbus` target.
  for f in BusValue BusDictionary DBusArguments DBusRecords DBusNames; do entry+=("$root/Sources/ChimeDBus/$f.swift"); done
  if newer "$wire_bin" "${entry[@]}" "$lib_core" "$lib_records" "$lib_wire" "$lib_b64" "${objects[@]}"; then
    echo "building $wire_bin"
    quiet_build "$wb/link.log" swiftc "${swift_flags[@]}" -module-name ChimeWireFuzz -I "$wb/mods" -I "$zf" -I "$wb/include/CChimeProto" \
      -Xcc -I"$generated" "${entry[@]}" "$lib_wire" "$lib_records" "$lib_core" "$lib_zf" "$lib_b64" "${objects[@]}" -lprotobuf-c -o "$wire_bin"
  fi
fi

# The gRPC binary: the transport module's sources (Sources/ChimeGRPC but the files that drive
# the loop's socket and timers) as one module with the entry, over the wire binary's libraries,
# a stand-in ChimeServer module made of the service's loop-free transport contract (ServerCall,
# StreamConnection), swift-log from the package's checkout, Debian's libnghttp2 and the
# descriptor set.
grpc_bin="$build/chime-fuzz-grpc"
if [ $need_grpc -eq 1 ]; then
  gb="$build/grpc"
  mkdir -p "$gb/mods" "$gb/include/CChimeDescriptors"
  log_src="$root/.build/checkouts/swift-log/Sources/Logging"
  [ -d "$log_src" ] || (cd "$root" && swift package resolve >/dev/null)
  mapfile -t log_sources < <(find "$log_src" -name '*.swift' | sort)
  lib_log="$gb/libLogging.a"
  if newer "$lib_log" "${log_sources[@]}"; then
    echo "building $lib_log"
    quiet_build "$gb/logging.log" swiftc -O -swift-version 5 -package-name swift_log -parse-as-library -module-name Logging \
      -emit-library -static -emit-module -emit-module-path "$gb/mods/Logging.swiftmodule" "${log_sources[@]}" -o "$lib_log"
  fi
  descriptors="$root/Sources/CChimeDescriptors"
  printf 'module CChimeDescriptors {\n  header "%s"\n  export *\n}\n' "$descriptors/include/CChimeDescriptors.h" \
    > "$gb/include/CChimeDescriptors/module.modulemap"
  descriptors_o="$gb/descriptors.o"
  if newer "$descriptors_o" "$descriptors/descriptors.S" "$descriptors/Generated/chime.protoset"; then
    quiet_build "$gb/descriptors.log" clang -c -I"$descriptors/Generated" "$descriptors/descriptors.S" -o "$descriptors_o"
  fi
  server="$root/Sources/ChimeServer"
  contract_sources=("$server/Routing/ServerCall.swift" "$server/Transport/StreamConnection.swift")
  lib_contract="$gb/libChimeServer.a"
  if newer "$lib_contract" "${contract_sources[@]}" "$lib_core" "$lib_wire"; then
    echo "building $lib_contract"
    quiet_build "$gb/contract.log" swiftc "${swift_flags[@]}" -parse-as-library -module-name ChimeServer -emit-library -static \
      -I "$wb/mods" -I "$zf" -I "$wb/include/CChimeProto" -Xcc -I"$generated" \
      -emit-module -emit-module-path "$gb/mods/ChimeServer.swiftmodule" "${contract_sources[@]}" -o "$lib_contract"
  fi
  mapfile -t grpc_sources < <(find "$root/Sources/ChimeGRPC" -name '*.swift' ! -name 'StreamSocket+GRPC.swift' ! -name 'LoopTimer+GRPC.swift' \
    ! -name 'GRPCProtocol.swift' ! -name 'GRPCRefusalWait.swift' | sort)
  grpc_sources+=("$here/GRPCFuzzEntry.swift")
  if newer "$grpc_bin" "${grpc_sources[@]}" "$lib_b64" "$lib_contract" "$lib_core" "$lib_records" "$lib_wire" "$lib_log" "$descriptors_o" "$root/Sources/CNGHTTP2/shim.h"; then
    echo "building $grpc_bin"
    quiet_build "$gb/link.log" swiftc "${swift_flags[@]}" -module-name ChimeGRPCFuzz -I "$wb/mods" -I "$gb/mods" -I "$zf" \
      -I "$wb/include/CChimeProto" -I "$root/Sources/CNGHTTP2" -I "$gb/include/CChimeDescriptors" -Xcc -I"$generated" \
      "${grpc_sources[@]}" "$lib_contract" "$lib_wire" "$lib_records" "$lib_core" "$lib_zf" "$lib_log" "$lib_b64" "${objects[@]}" "$descriptors_o" -lprotobuf-c -lnghttp2 -o "$grpc_bin"
  fi
fi

# The calendar binary (issue 41): ChimeCore as its own module (the wire binary's library, built
# here when that binary is not), ChimeCalendar's reader (the files that do no I/O of their own)
# compiled with the entry, Debian's libical through Sources/CLibical's module map.
ical_bin="$build/chime-fuzz-ical"
if [ $need_ical -eq 1 ]; then
  wb="$build/wire"
  mkdir -p "$wb/mods"
  lib_core="$wb/libChimeCore.a"
  if newer "$lib_core" "${core_sources[@]}" "$lib_zf"; then
    echo "building $lib_core"
    quiet_build "$wb/core.log" swiftc "${swift_flags[@]}" -parse-as-library -module-name ChimeCore -emit-library -static -I "$zf" \
      -emit-module -emit-module-path "$wb/mods/ChimeCore.swiftmodule" "${core_sources[@]}" -o "$lib_core"
  fi
  calendar="$root/Sources/ChimeCalendar"
  ical_sources=("$here/CalendarFuzzEntry.swift" "$calendar/CalendarItemReader.swift" "$calendar/CalendarReadError.swift"
                "$calendar/Internal/LibicalReader.swift" "$calendar/Internal/LibicalLock.swift")
  if newer "$ical_bin" "${ical_sources[@]}" "$lib_core" "$root/Sources/CLibical/shim.h"; then
    echo "building $ical_bin"
    quiet_build "$build/ical.log" swiftc "${swift_flags[@]}" -module-name ChimeCalendarFuzz -I "$wb/mods" -I "$zf" \
      -I "$root/Sources/CLibical" "${ical_sources[@]}" "$lib_core" "$lib_zf" -lical -o "$ical_bin"
  fi
fi

if [ $write_seeds -eq 1 ]; then
  for t in frame requests records; do rm -rf "$here/corpus/$t"; done
  SWIFT_BACKTRACE=enable=no CHIME_FUZZ_WRITE_SEEDS="$here/corpus" "$wire_bin" || { echo "writing seeds failed" >&2; exit 1; }
  for t in "${wire_targets[@]}"; do echo "$t: $(ls "$here/corpus/$t" | wc -l) seeds in Fuzz/corpus/$t"; done
  exit 0
fi

fixtures="$root/Tests/Fixtures/media"
seeds() {
  case "$1" in
    png) ls "$fixtures"/images/*.png "$fixtures"/thumbnails/*.png ;;
    jpeg) ls "$fixtures"/images/*.jpg ;;
    gif) ls "$fixtures"/images/*.gif ;;
    mp3) ls "$fixtures"/audio/*.mp3 ;;
    isobmff) ls "$fixtures"/audio/*.m4a "$fixtures"/movies/*.mp4 ;;
    riff) ls "$fixtures"/audio/*.wav "$fixtures"/sounds/*.wav "$fixtures"/movies/*.avi ;;
    aiff) ls "$fixtures"/audio/*.aiff "$fixtures"/sounds/*.aif* ;;
    mpegps) ls "$fixtures"/movies/*.mpg ;;
    caf) ls "$fixtures"/sounds/*.caf ;;
    sound) ls "$fixtures"/sounds/* ;;
    media) ls "$fixtures"/images/* "$fixtures"/audio/* "$fixtures"/movies/* ;;
    options) ;;
    # A few of the system's zones: a fixed offset, one with DST rules, odd footers.
    tzif) for z in UTC Etc/GMT+5 Europe/Berlin Australia/Lord_Howe America/Nuuk Asia/Jerusalem Antarctica/Troll; do
            [ -f "/usr/share/zoneinfo/$z" ] && echo "/usr/share/zoneinfo/$z"; done ;;
    push|calendar|duration|instant|userinfo|frame|requests|records|grpc|toml|flags|ical) ls "$here/corpus/$1"/* ;;
  esac
}

export SWIFT_BACKTRACE=enable=no
failed=0
summary=""
for t in "${targets[@]}"; do
  corpus="$work/corpus/$t"
  mkdir -p "$corpus"
  for f in $(seeds "$t"); do
    if [ "$t" = media ]; then
      # media targets read a hint selector byte first: 0 = no hint.
      { printf '\000'; cat "$f"; } > "$corpus/seed-$(basename "$f")"
    else
      cp "$f" "$corpus/seed-$(basename "$f")"
    fi
  done
  log="$work/$t.log"
  echo "== $t: ${seconds}s"
  binary="$bin"
  case " ${wire_targets[*]} " in *" $t "*) binary="$wire_bin" ;; esac
  case " ${grpc_targets[*]} " in *" $t "*) binary="$grpc_bin" ;; esac
  case " ${ical_targets[*]} " in *" $t "*) binary="$ical_bin" ;; esac
  CHIME_FUZZ_TARGET="$t" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" "$corpus" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  units=$(ls "$corpus" | wc -l)
  if [ $rc -ne 0 ]; then
    failed=1
    echo "   CRASH (exit $rc): see $log and $work/artifacts/$t-*"
    grep -m5 -E "ERROR|Fatal error|SUMMARY|precondition" "$log" | sed 's/^/   /'
  fi
  line=$(printf "%-8s %5ss %12s execs  cov %6s  ft %6s  corpus %5s  %s" "$t" "$seconds" "${runs:-?}" "${cov:-?}" "${ft:-?}" "$units" "$([ $rc -eq 0 ] && echo ok || echo CRASH)")
  echo "   $line"
  summary+="$line"$'\n'
done
echo
echo "summary (cov: coverage points, ft: features, corpus: units after the run):"
printf "%s" "$summary"
exit $failed
