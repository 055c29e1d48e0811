#!/usr/bin/env bash
# The refine loop over HumanEval (a benchmark: prints figures, asserts nothing).
#   bench/refine/bench-refine.sh [--bin PATH] [--real] [--problems N] [--repeat N] [--rounds N]
# Without --bin, builds the Release binary build/greenlight first (as ./run.sh does).
# Default mode: a scripted model (wrong first, right on evidence); prints the per-round overhead
# (everything but the model's time) against a bare python3 run of the same tests, medians in one
# run, and the ratio (goal <= 1.5x). --real: the provider from the environment (skipped with a
# message when there is none); prints pass@1 after round 1 and after the last round.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ -z "$bin" ]; then
  if [ ! -f "$root/build/build.ninja" ]; then
    cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
  fi
  cmake --build "$root/build" --target greenlight -j "$(nproc 2>/dev/null || echo 2)" >&2
  bin="$root/build/greenlight"
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
exec python3 "$root/bench/refine/bench_refine.py" --bin "$bin" --shared "${GREENLIGHT_SHARED_DIR:-$root/../shared}" "${args[@]}"
