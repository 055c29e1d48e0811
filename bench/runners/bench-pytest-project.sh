#!/usr/bin/env bash
# A run on save of one test file of a real pytest project (tests/projects/python/ledgerline: a
# src/ layout installed editable into a venv, conftest.py at three levels, --doctest-modules),
# as the language server does it: cold, with spares, and warm (pytest started ahead), each
# against `python -m pytest FILE` run bare in the same interleaved blocks. Goal: warm <= 0.5x bare.
#
#   bench/runners/bench-pytest-project.sh BUILD [BLOCKS] [PROJECT] [TEST_FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: bench-pytest-project.sh BUILD [BLOCKS] [PROJECT] [TEST_FILE]}
blocks=${2:-3}
project=${3:-ledgerline}
file=${4:-tests/unit/test_number.py}
out=$(mktemp -d /tmp/gl-bench-pytest-XXXXXX)
trap 'rm -rf "$out"' EXIT
chmod 0755 "$out"
python3 tests/projects/python/run_project.py prepare "$project" --out "$out" >/dev/null
root="$out/$project/project"
python="$out/$project/venv/bin/python"
[ -x "$python" ] || python=/usr/bin/python3
chmod -R go+rX "$out"
printf '{"python": {"interpreter": "%s"}}\n' "$python" >"$root/.greenlight.json"
echo "project: $project ($root), file: $file, interpreter: $python"
exec "$build/bench/runners/bench_spares" "$root/$file" "$blocks" -- "$python" -m pytest -q -p no:cacheprovider "$root/$file"
