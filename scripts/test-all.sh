#!/usr/bin/env bash
# The body of ./test.sh (after the install step). Options:
#   --quick     normal build only (no ASan, no fuzzing): for the edit-test loop
#   -L LABEL    pass a label filter to ctest (e.g. -L unit)
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    -L|-R|-E|-LE) ctest_args+=("$1" "$2"); shift ;;
    *) echo "test.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

jobs=$(nproc 2>/dev/null || echo 2)
status=0
summaries=()

run_suite() {  # name builddir cmake-args...
  local name=$1 dir=$2; shift 2
  echo "=== $name: configure + build ($dir)"
  if ! cmake -S . -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1; then
    cat "$dir.configure.log"; echo "=== $name: configure FAILED"; status=1; return
  fi
  if ! cmake --build "$dir" -j "$jobs"; then
    echo "=== $name: build FAILED"; status=1; summaries+=("$name: build failed"); return
  fi
  echo "=== $name: ctest"
  local log="$dir/ctest.log"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 1500 "${ctest_args[@]}") 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || status=1
  summaries+=("$name: $(grep -E 'tests passed|tests failed' "$log" | tail -n 1)")
}

mkdir -p build-test build-asan
run_suite "normal" build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGREENLIGHT_WERROR=ON

if [ "$quick" -eq 0 ]; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    run_suite "asan+ubsan" build-asan -DCMAKE_BUILD_TYPE=Debug -DGREENLIGHT_WERROR=ON -DGREENLIGHT_SANITIZE=ON
  if command -v clang++ >/dev/null 2>&1 && [ -x tests/fuzz/run-fuzz.sh ]; then
    echo "=== fuzz"
    if tests/fuzz/run-fuzz.sh build-fuzz "${GREENLIGHT_FUZZ_SECONDS:-30}"; then
      summaries+=("fuzz: passed")
    else
      status=1; summaries+=("fuzz: FAILED")
    fi
  else
    summaries+=("fuzz: skipped (clang++ not found)")
  fi
fi

echo
echo "=== summary"
for s in "${summaries[@]}"; do echo "$s"; done
exit $status
