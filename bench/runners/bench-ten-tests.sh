#!/usr/bin/env bash
# A Python file with 10 tests: `greenlight run` (sandboxed, harness) vs the same tests run by a
# bare `python3` outside any sandbox, side by side with hyperfine. Goal: within 1.3x.
set -euo pipefail
bin="$(cd "$(dirname "${1:-build/greenlight}")" && pwd)/$(basename "${1:-build/greenlight}")"
dir=$(mktemp -d /tmp/gl-bench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
echo '{}' > "$dir/.greenlight.json"
cat > "$dir/calc.py" <<'PY'
def add(a, b):
    return a + b


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
PY
{
  echo "from calc import add, fib"
  for i in $(seq 1 10); do
    printf '\n\ndef test_%d():\n    assert add(%d, 1) == %d\n    assert fib(%d) >= 0\n' "$i" "$i" "$((i + 1))" "$i"
  done
  printf '\n\nif __name__ == "__main__":\n    for name, fn in list(globals().items()):\n        if name.startswith("test_"):\n            fn()\n'
} > "$dir/test_calc.py"
py=$(python3 -c 'import sys; print(sys.executable)')
cd "$dir"
"$bin" run calc.py
hyperfine -N --warmup 3 --runs 30 --export-json "$dir/h.json" \
  "$bin run $dir/calc.py" "$py $dir/test_calc.py"
python3 - "$dir/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
g, p = r[0]["mean"], r[1]["mean"]
print(f"greenlight run: {g*1000:.1f} ms   bare python3: {p*1000:.1f} ms   ratio {g/p:.2f}x (goal <= 1.3x)")
PY
