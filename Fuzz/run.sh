#!/usr/bin/env bash
# Builds the libFuzzer binary for Chime's media and sound inspectors and runs every target for a
# bounded time over a seed corpus copied from Tests/Fixtures/media. Fails if any target crashes.
#
#   Fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      (default 60 s, all targets)
#
# Standalone swiftc build (see shared PLATFORM-NOTES: the reliable route for libFuzzer), with
# the same strict settings as the package. Work files go to Fuzz/.work (git-ignored); a crash
# leaves its input in Fuzz/.work/artifacts/.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
seconds="${1:-60}"
shift || true
all_targets=(png jpeg gif mp3 isobmff riff aiff mpegps caf sound media options push calendar duration instant userinfo)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  case " ${all_targets[*]} " in
    *" $t "*) ;;
    *) echo "unknown target '$t'; targets: ${all_targets[*]}" >&2; exit 2 ;;
  esac
done

build="$here/.build"
work="$here/.work"
bin="$build/chime-fuzz"
mkdir -p "$build" "$work/artifacts"

core="$root/Sources/ChimeCore"
mapfile -t core_sources < <(find "$core" -name '*.swift' | sort)
sources=("$here/FuzzEntry.swift" "${core_sources[@]}")

needs_build=0
[ -x "$bin" ] || needs_build=1
for s in "${sources[@]}"; do [ "$s" -nt "$bin" ] && needs_build=1; done
if [ $needs_build -eq 1 ]; then
  echo "building $bin"
  swiftc -O -g -sanitize=fuzzer,address -module-name ChimeFuzz -swift-version 6 \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -enable-upcoming-feature MemberImportVisibility \
    "${sources[@]}" -o "$bin" >"$work/build.log" 2>&1 || { grep -v "Cannot export local symbol" "$work/build.log" >&2; echo "fuzz build failed" >&2; exit 1; }
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
    push|calendar|duration|instant|userinfo) ls "$here/corpus/$1"/* ;;
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
  CHIME_FUZZ_TARGET="$t" "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" "$corpus" >"$log" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  units=$(ls "$corpus" | wc -l)
  if [ $rc -ne 0 ]; then
    failed=1
    echo "   CRASH (exit $rc): see $log and $work/artifacts/$t-*"
    grep -m5 -E "ERROR|Fatal error|SUMMARY|precondition" "$log" | sed 's/^/   /'
  fi
  line=$(printf "%-8s %5ss %12s execs  cov %6s  corpus %5s  %s" "$t" "$seconds" "${runs:-?}" "${cov:-?}" "$units" "$([ $rc -eq 0 ] && echo ok || echo CRASH)")
  echo "   $line"
  summary+="$line"$'\n'
done
echo
echo "target   time          execs         coverage  corpus  result"
printf "%s" "$summary"
exit $failed
