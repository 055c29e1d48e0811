#!/usr/bin/env bash
# Runs `greenlight run` over every example source in examples/ and prints the results.
# Usage: scripts/run-examples.sh [path/to/greenlight]   (default: build/greenlight)
# Some examples fail on purpose (a bug greenlight points at); the script exits 0 when every
# exit code and summary line is exactly the one in examples/expected.txt, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/greenlight}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
if [ ! -x "$bin" ]; then
  echo "run-examples: $bin is not an executable (build it first)" >&2
  exit 2
fi
status=0
while read -r path want_rc want_last; do
  case "$path" in ''|'#'*) continue ;; esac
  echo "=== greenlight run examples/$path"
  out=$(cd examples && "$bin" run "$path" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  last=$(printf '%s\n' "$out" | tail -n 1)
  if [ "$rc" = "$want_rc" ] && [ "$last" = "$want_last" ]; then
    echo "--- as expected (exit $rc)"
  else
    echo "--- UNEXPECTED: exit $rc, last line '$last'; expected exit $want_rc, '$want_last'"
    status=1
  fi
done < examples/expected.txt
if [ $status -eq 0 ]; then
  echo "run-examples: all results as expected"
else
  echo "run-examples: some results differ from examples/expected.txt"
fi
exit $status
