#!/usr/bin/env bash
# The baseline greenlight's C++ runs are measured against (issue 27): on each project of this
# folder, after a one-function change, the project's own
#     cmake --build <dir> --target <test target>  +  running the test binary (and ctest)
# timed with hyperfine (median of N runs), plus one cold configure and one cold build.
#
#   baseline_bench.sh [WORK_DIR] [RUNS]      (default /tmp/glcxx-bench, 7)
#
# Each run first flips the function between two equivalent bodies (hyperfine --prepare), so
# every timed build recompiles what includes the file, as an edit on save would. Builds use
# -j2 under nice, like everything on the shared machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/glcxx-bench}
runs=${2:-7}
command -v hyperfine >/dev/null || { echo "hyperfine not found (scripts/deps.sh test installs it)"; exit 2; }
mkdir -p "$work"

# project | test target | binary (in the build dir) | file | text A | text B
cases=(
  "gtest-textstat|textstat_tests|tests/textstat_tests|include/textstat/stats.h|  return (static_cast<double>(xs[mid - 1]) + static_cast<double>(xs[mid])) / 2.0;|  return (static_cast<double>(xs[mid - 1]) + static_cast<double>(xs[mid])) * 0.5;"
  "gtest-textstat|textstat_tests|tests/textstat_tests|src/tokenize.cpp|bool is_stopword(std::string_view word) {|bool is_stopword(const std::string_view word) {"
  "catch2-cliopts|cliopts_tests|test/cliopts_tests|include/cliopts/cliopts.hpp|  if (!text.empty() && text.front() == '+') text.remove_prefix(1);|  if (!text.empty() && text[0] == '+') text.remove_prefix(1);"
  "doctest-ringbuf|ringbuf_tests|tests/ringbuf_tests|include/ringbuf/ring_buffer.hpp|  bool empty() const { return size_ == 0; }|  bool empty() const { return !size_; }"
)

for p in gtest-textstat catch2-cliopts doctest-ringbuf; do
  rm -rf "$work/$p"
  cp -r "$here/$p" "$work/$p"
  cfg_start=$(date +%s.%N)
  nice -n 10 cmake -S "$work/$p" -B "$work/$p/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cfg_end=$(date +%s.%N)
  nice -n 10 cmake --build "$work/$p/build" -j2 >/dev/null
  build_end=$(date +%s.%N)
  printf '%s: cold configure %.1f s, cold build (all targets, -j2) %.1f s\n' "$p" \
    "$(echo "$cfg_end - $cfg_start" | bc)" "$(echo "$build_end - $cfg_end" | bc)"
done

for c in "${cases[@]}"; do
  IFS='|' read -r p target binary file a b <<<"$c"
  dir="$work/$p"
  flip="$work/flip-$p.py"
  # The two bodies go through files: they hold quotes that a command line would mangle.
  printf '%s' "$a" >"$work/flip-$p.a"
  printf '%s' "$b" >"$work/flip-$p.b"
  cat >"$flip" <<EOF
import sys
path = sys.argv[1]
a, b = open(sys.argv[2]).read(), open(sys.argv[3]).read()
text = open(path).read()
if a in text: text = text.replace(a, b, 1)
elif b in text: text = text.replace(b, a, 1)
else: sys.exit("neither variant found in " + path)
open(path, "w").write(text)
EOF
  prep="python3 '$flip' '$dir/$file' '$work/flip-$p.a' '$work/flip-$p.b'"
  echo "== $p: one function of $file changed"
  hyperfine --runs "$runs" --warmup 1 --style basic --export-json "$work/$p-$(basename "$file").json" \
    --prepare "$prep" \
    -n "build $target + run binary" "nice -n 10 cmake --build '$dir/build' -j2 --target $target >/dev/null && cd '$dir/build/$(dirname "$binary")' && './$(basename "$binary")' >/dev/null" \
    -n "build $target + ctest" "nice -n 10 cmake --build '$dir/build' -j2 --target $target >/dev/null && ctest --test-dir '$dir/build' -j2 >/dev/null" \
    -n "run binary only" "cd '$dir/build/$(dirname "$binary")' && './$(basename "$binary")' >/dev/null" \
    2>&1 | grep -E "^(Benchmark|  Time|  Range)"
done

echo "== medians (s)"
python3 - "$work" <<'PY'
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    for r in json.load(open(f))["results"]:
        print("%-42s %-34s median %.3f  min %.3f" % (os.path.basename(f)[:-5], r["command"], r["median"], r["min"]))
PY
