#!/usr/bin/env bash
# The body of ./test.sh (after the install step). Options:
#   --quick     normal build only (no ASan, no fuzzing): for the edit-test loop
#   -L LABEL    pass a label filter to ctest (e.g. -L unit)
# The log of a CI run is thousands of lines, and ctest's --output-on-failure blocks scroll away
# in it: so the run ends with, per lane, each failed test's name, why it failed and the last
# GREENLIGHT_FAIL_TAIL (default 40) lines of its output, read back from ctest's own log
# (Testing/Temporary/LastTest.log: nothing is rerun), then a summary with each lane's time and,
# under each failed test, the first lines where it reported its failure. The summary also names
# every test that did not run (skipped through SKIP_RETURN_CODE 77, or disabled) with the reason
# it printed, and every lane that did not run with why.
# Disk: each lane says the free space it starts with, and refuses to start below
# GREENLIGHT_MIN_FREE_GB (default 12: the ASan lane took 9 GB) with that
# reason instead of a compiler's "No space left on device" halfway through. With
# GREENLIGHT_PRUNE_BUILDS=1 (set by .ci/run, whose clone is thrown away) a lane's build directory
# is emptied once its results are read, all but its logs, so the lanes need the disk of the
# largest one, not of all three.
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
# ccache keyed by paths relative to the clone (and not by the build directory's own path), so a
# fresh clone in another folder (CI's) hits what an earlier build compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
tail_lines=${GREENLIGHT_FAIL_TAIL:-40}
digest_lines=${GREENLIGHT_FAIL_DIGEST:-8}  # lines after the first failure mark, in the summary
fail_marks='^not ok|^FAIL |FAILED|[Ee]rror:|ERROR:|runtime error|Sanitizer|timed out|did not'
status=0
summaries=()
reports=()  # files holding the failure details of a lane, printed at the end
skips=0    # tests that did not run, over all lanes
run_start=$SECONDS

duration() {  # seconds -> "12m34s"
  printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# The output of test `name` in ctest's LastTest.log (the last block for it, when --repeat ran
# it several times), between "Output:" and "<end of output>".
test_output() {  # lasttest.log name
  awk -v t="$2" '
    /^[0-9]+\/[0-9]+ Test: / {
      inblock = (substr($0, index($0, " Test: ") + 7) == t)
      if (inblock) { n = 0; capturing = 0 }
      next
    }
    inblock && !capturing && $0 == "Output:" { capturing = 1; getline; next }
    inblock && capturing && $0 == "<end of output>" { capturing = 0; inblock = 0; next }
    inblock && capturing { lines[n++] = $0 }
    END { for (i = 0; i < n; i++) print lines[i] }
  ' "$1"
}

# Writes the failure details of one lane to $dir/failures.txt and remembers the file; the
# failed tests are the lines "  <n> - <name> (<why>)" ctest prints after "The following tests FAILED:".
collect_failures() {  # lane builddir ctest.log
  local lane=$1 dir=$2 log=$3 out="$2/failures.txt" lasttest="$2/Testing/Temporary/LastTest.log"
  local line name why output digest marks lines=()
  : >"$out"
  while IFS= read -r line; do
    [[ "$line" =~ ^[[:space:]]*[0-9]+[[:space:]]-[[:space:]](.*)[[:space:]]\((.*)\)$ ]] || continue
    name=${BASH_REMATCH[1]} why=${BASH_REMATCH[2]}
    lines+=("    failed: $name ($why)")
    output=""
    [ -f "$lasttest" ] && output=$(test_output "$lasttest" "$name")
    # The summary is the one part of a CI log sure to be seen (a viewer that keeps the log's
    # head and tail cuts the middle): under each failed test, its first reported failure.
    digest=$(grep -m 1 -A "$digest_lines" -E "$fail_marks" <<<"$output" | head -n $((digest_lines + 1)) |
      cut -c 1-240 | sed 's/^/        | /')
    [ -z "$digest" ] || lines+=("$digest")
    # Where the failure was reported, which may lie above the tail (TAP "not ok", Catch2's
    # "FAILED:" and the expansion under it, a sanitizer's report): the first 10 such lines,
    # numbered, each with the 6 lines that follow it.
    marks=$(grep -n -m 10 -A 6 -E "$fail_marks" <<<"$output" | head -n 70)
    {
      echo "--- $lane: $name ($why): last $tail_lines lines of its output"
      [ -z "$marks" ] || printf '%s\n%s\n  (...)\n' "  (where it reports the failure)" "$marks"
      [ -z "$output" ] || tail -n "$tail_lines" <<<"$output"
      echo
    } >>"$out"
  done < <(sed -n '/^The following tests FAILED:/,$p' "$log")
  if [ ${#lines[@]} -gt 0 ]; then
    reports+=("$out")
    summaries+=("${lines[@]}")
  fi
}

# The tests ctest did not run (the lines "  <n> - <name> (<why>)" after "The following tests did
# not run:": "Skipped" through SKIP_RETURN_CODE, or "Disabled"), into skip_lines, each with the
# reason the test printed: its last "SKIP: ..." line (the convention here), else its last line
# that mentions skipping, else its last line.
skip_lines=()
collect_skips() {  # builddir ctest.log
  local lasttest="$1/Testing/Temporary/LastTest.log" line name why output reason
  skip_lines=()
  while IFS= read -r line; do
    [[ "$line" =~ ^[[:space:]]*[0-9]+[[:space:]]-[[:space:]](.*)[[:space:]]\((.*)\)$ ]] || continue
    name=${BASH_REMATCH[1]} why=${BASH_REMATCH[2]}
    output=""
    [ -f "$lasttest" ] && output=$(test_output "$lasttest" "$name")
    reason=$(grep -E '^SKIP(PED)?:' <<<"$output" | tail -n 1 | sed -E 's/^SKIP(PED)?:[[:space:]]*//')
    [ -n "$reason" ] || reason=$(grep -i 'skip' <<<"$output" | tail -n 1)
    [ -n "$reason" ] || reason=$(grep -v '^[[:space:]]*$' <<<"$output" | tail -n 1)
    [ -n "$reason" ] || reason="it printed no reason"
    skip_lines+=("    skipped: $name ($why): $(cut -c 1-240 <<<"$reason")")
  done < <(sed -n '/^The following tests did not run:/,/^$/p' "$2")
  skips=$((skips + ${#skip_lines[@]}))
}

free_gb() {  # free space where the builds go, in whole GB
  df -Pk . | awk 'NR == 2 { print int($4 / 1048576) }'
}

# Refuses a lane that would run out of disk; true when there is room.
room_for() {  # lane
  local free min=${GREENLIGHT_MIN_FREE_GB:-12}
  free=$(free_gb)
  if [ -n "$free" ] && [ "$free" -lt "$min" ]; then
    echo "=== $1: NOT STARTED: ${free} GB free on $(df -P . | awk 'NR == 2 { print $6 }'), it needs ${min} GB (GREENLIGHT_MIN_FREE_GB)"
    status=1
    summaries+=("$1: not started: only ${free} GB of disk free, ${min} GB needed (free some, or set GREENLIGHT_MIN_FREE_GB)")
    return 1
  fi
  return 0
}

prune_build() {  # builddir: all but the logs and failure reports, when GREENLIGHT_PRUNE_BUILDS=1
  [ "${GREENLIGHT_PRUNE_BUILDS:-0}" = 1 ] || return 0
  find "$1" -mindepth 1 -maxdepth 1 ! -name ctest.log ! -name failures.txt ! -name build.log \
    ! -name Testing ! -name run-fuzz.log -exec rm -rf {} +
}

run_suite() {  # name builddir cmake-args...
  local name=$1 dir=$2; shift 2
  local start=$SECONDS
  room_for "$name" || return
  echo "=== $name: configure + build ($dir; $(free_gb) GB of disk free)"
  if ! cmake -S . -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1; then
    cat "$dir.configure.log"; echo "=== $name: configure FAILED"; status=1
    summaries+=("$name: configure failed (see $dir.configure.log)"); return
  fi
  if ! cmake --build "$dir" -j "$jobs" 2>&1 | tee "$dir/build.log"; then
    echo "=== $name: build FAILED"; status=1
    { echo "--- $name: build failed: its last $tail_lines lines"; tail -n "$tail_lines" "$dir/build.log"; echo; } >"$dir/failures.txt"
    reports+=("$dir/failures.txt")
    summaries+=("$name: build failed [$(duration $((SECONDS - start)))]"); return
  fi
  local built=$SECONDS
  echo "=== $name: ctest"
  local log="$dir/ctest.log"
  rm -f "$dir/Testing/Temporary/LastTest.log"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" --timeout 1500 "${ctest_args[@]}") 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || status=1
  local result
  result=$(grep -E 'tests passed|tests failed|No tests were found' "$log" | tail -n 1)
  [ -n "$result" ] || result="ctest exited with $rc"
  collect_skips "$dir" "$log"
  [ ${#skip_lines[@]} -eq 0 ] || result="$result; ${#skip_lines[@]} did not run"
  summaries+=("$name: $result [build $(duration $((built - start))), ctest $(duration $((SECONDS - built)))]")
  [ ${#skip_lines[@]} -eq 0 ] || summaries+=("${skip_lines[@]}")
  [ "$rc" -eq 0 ] || collect_failures "$name" "$dir" "$log"
  prune_build "$dir"
}

mkdir -p build-test build-asan
run_suite "normal" build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGREENLIGHT_WERROR=ON

if [ "$quick" -eq 0 ]; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    run_suite "asan+ubsan" build-asan -DCMAKE_BUILD_TYPE=Debug -DGREENLIGHT_WERROR=ON -DGREENLIGHT_SANITIZE=ON
  if command -v clang++ >/dev/null 2>&1 && [ -x tests/fuzz/run-fuzz.sh ]; then
    fuzz_start=$SECONDS
    if room_for fuzz; then
      echo "=== fuzz ($(free_gb) GB of disk free)"
      mkdir -p build-fuzz
      fuzz_log=build-fuzz/run-fuzz.log
      if tests/fuzz/run-fuzz.sh build-fuzz "${GREENLIGHT_FUZZ_SECONDS:-30}" 2>&1 | tee "$fuzz_log"; then
        summaries+=("fuzz: passed [$(duration $((SECONDS - fuzz_start)))]")
      else
        status=1; summaries+=("fuzz: FAILED [$(duration $((SECONDS - fuzz_start)))]")
        { echo "--- fuzz: FAILED: the last $tail_lines lines of run-fuzz.sh"; tail -n "$tail_lines" "$fuzz_log"; echo; } >build-fuzz/failures.txt
        reports+=("build-fuzz/failures.txt")
      fi
      prune_build build-fuzz
    fi
  elif [ ! -x tests/fuzz/run-fuzz.sh ]; then
    summaries+=("fuzz: skipped (tests/fuzz/run-fuzz.sh is missing or not executable)")
  else
    summaries+=("fuzz: skipped (clang++ not found)")
  fi
else
  summaries+=("asan+ubsan: skipped (--quick)" "fuzz: skipped (--quick)")
fi

if [ ${#reports[@]} -gt 0 ]; then
  echo
  echo "=== failures (full logs: build-*/ctest.log, build-*/Testing/Temporary/LastTest.log)"
  for r in "${reports[@]}"; do cat "$r"; done
fi
echo
echo "=== summary"
for s in "${summaries[@]}"; do echo "$s"; done
if [ "$skips" -gt 0 ]; then
  echo "tests that did not run: $skips (each named above with why)"
fi
echo "total: $(duration $((SECONDS - run_start)))"
exit $status
