#!/usr/bin/env bash
# What coverage (issue 35) adds to a warm run on save of a real pytest project: the module under
# test of tests/projects/python/PROJECT (default: debian-toolz, toolz 0.12.0 as Debian ships it
# with its test suite; its test file runs), with and without coverage, medians side by side and
# the ratio. Goal: with <= 1.15x without.
#
#   bench/runners/bench-coverage.sh BUILD [RUNS] [PROJECT] [FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: bench-coverage.sh BUILD [RUNS] [PROJECT] [FILE]}
runs=${2:-15}
project=${3:-debian-toolz}
file=${4:-toolz/itertoolz.py}
out=$(mktemp -d /tmp/gl-bench-coverage-XXXXXX)
trap 'rm -rf "$out"' EXIT
chmod 0755 "$out"
python3 tests/projects/python/run_project.py prepare "$project" --out "$out" >/dev/null
root="$out/$project/project"
python="$out/$project/venv/bin/python"
[ -x "$python" ] || python=/usr/bin/python3
chmod -R go+rX "$out"
printf '{"python": {"interpreter": "%s"}}\n' "$python" >"$root/.greenlight.json"
echo "project: $project ($root), file: $file, interpreter: $python"
exec "$build/bench/runners/bench_coverage" "$root/$file" "$runs"
