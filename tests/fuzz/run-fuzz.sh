#!/usr/bin/env bash
# Fuzzes framing + dispatch with libFuzzer for SECONDS on the checked-in seed corpus.
#   tests/fuzz/run-fuzz.sh BUILDDIR SECONDS
# Configures BUILDDIR with clang and GREENLIGHT_FUZZ=ON (ASan+UBSan+fuzzer instrumentation),
# builds only the fuzz_lsp target, and runs it. New interesting inputs go to BUILDDIR/fuzz-corpus
# (the checked-in seeds are never modified). On a crash the input is saved under
# tests/fuzz/crashes/ (commit it: the replay ctest then keeps it fixed) and the script fails.
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
echo "=== fuzz: build fuzz_lsp"
cmake --build "$builddir" --target fuzz_lsp -j "${GREENLIGHT_FUZZ_JOBS:-2}"

work="$builddir/fuzz-corpus"
mkdir -p "$work" "$here/crashes"
artifacts=$(mktemp -d)
trap 'rm -rf "$artifacts"' EXIT
echo "=== fuzz: running for ${seconds}s"
set +e
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  "$builddir/tests/fuzz/fuzz_lsp" "$work" "$here/corpus" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$artifacts/" -print_final_stats=1 2>&1 | tail -n 40
rc=${PIPESTATUS[0]}
set -e
found=0
for f in "$artifacts"/*; do
  [ -e "$f" ] || continue
  found=1
  cp "$f" "$here/crashes/"
  echo "run-fuzz.sh: saved $(basename "$f") to tests/fuzz/crashes/"
done
if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
  echo "run-fuzz.sh: FAILED (libFuzzer exit $rc); replay with: $builddir/tests/fuzz/fuzz_lsp tests/fuzz/crashes/<file>" >&2
  exit 1
fi
echo "run-fuzz.sh: no crash in ${seconds}s"
