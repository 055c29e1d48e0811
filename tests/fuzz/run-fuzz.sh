#!/usr/bin/env bash
# Fuzzes with libFuzzer for SECONDS in all, shared between the two targets: framing + dispatch
# (fuzz_lsp, seeds in corpus/) and a model's reply -> code extraction -> normalise -> splice plus
# target finding on arbitrary text (fuzz_refine, seeds in corpus-refine/).
#   tests/fuzz/run-fuzz.sh BUILDDIR SECONDS
# Configures BUILDDIR with clang and GREENLIGHT_FUZZ=ON (ASan+UBSan+fuzzer instrumentation),
# builds only the fuzz targets, and runs them. New interesting inputs go to
# BUILDDIR/fuzz-corpus-TARGET (the checked-in seeds are never modified). On a crash the input is
# saved under tests/fuzz/crashes/ (fuzz_lsp) or tests/fuzz/crashes-refine/ (fuzz_refine): commit
# it, the replay ctests then keep it fixed. The script fails.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILDDIR SECONDS" >&2
  exit 2
fi
builddir=$1
seconds=$2
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "run-fuzz.sh: SECONDS must be a positive integer" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/fuzz"
command -v clang++ >/dev/null || { echo "run-fuzz.sh: clang++ not found" >&2; exit 2; }

echo "=== fuzz: configure $builddir (clang, GREENLIGHT_FUZZ=ON)"
CC=clang CXX=clang++ cmake -S "$root" -B "$builddir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DGREENLIGHT_FUZZ=ON -DGREENLIGHT_TESTS=ON -DGREENLIGHT_WERROR=OFF >"$builddir.configure.log" 2>&1 \
  || { cat "$builddir.configure.log"; exit 1; }
echo "=== fuzz: build fuzz_lsp fuzz_refine (log: $builddir/fuzz-build.log)"
# Quiet unless it fails: clang's warnings on libseccomp's macros (C99 compound literals) and a
# hundred progress lines would push the failures at the end of a CI log out of sight.
cmake --build "$builddir" --target fuzz_lsp fuzz_refine -j "${GREENLIGHT_FUZZ_JOBS:-2}" >"$builddir/fuzz-build.log" 2>&1 \
  || { tail -n 60 "$builddir/fuzz-build.log"; echo "run-fuzz.sh: the build failed" >&2; exit 1; }

# The time budget is shared: framing + dispatch gets half, the refine target the rest.
failed=0
run_target() {  # target seed-corpus crash-dir seconds
  local target=$1 seeds=$2 crashes=$3 secs=$4
  local work="$builddir/fuzz-corpus-$target"
  mkdir -p "$work" "$crashes"
  local artifacts
  artifacts=$(mktemp -d)
  echo "=== fuzz: $target for ${secs}s"
  set +e
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$builddir/tests/fuzz/$target" "$work" "$seeds" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | tail -n 40
  local rc=${PIPESTATUS[0]}
  set -e
  local found=0
  for f in "$artifacts"/*; do
    [ -e "$f" ] || continue
    found=1
    cp "$f" "$crashes/"
    echo "run-fuzz.sh: saved $(basename "$f") to ${crashes#"$root"/}/"
  done
  rm -rf "$artifacts"
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "run-fuzz.sh: $target FAILED (libFuzzer exit $rc); replay with: $builddir/tests/fuzz/$target ${crashes#"$root"/}/<file>" >&2
    failed=1
  fi
}
lsp_seconds=$(( seconds / 2 > 0 ? seconds / 2 : 1 ))
refine_seconds=$(( seconds - lsp_seconds > 0 ? seconds - lsp_seconds : 1 ))
run_target fuzz_lsp "$here/corpus" "$here/crashes" "$lsp_seconds"
run_target fuzz_refine "$here/corpus-refine" "$here/crashes-refine" "$refine_seconds"
if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "run-fuzz.sh: no crash in ${seconds}s"
