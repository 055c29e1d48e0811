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
# Python start-up here is bimodal (runs cluster ~15 ms apart) and drifts with the machine's load,
# so hyperfine's back-to-back blocks can land in different modes: also measure interleaved
# (A B B A ...) and compare medians, which is the figure to quote.
hyperfine -N --warmup 3 --runs 30 --export-json "$dir/h.json" \
  "$bin run $dir/calc.py" "$py $dir/test_calc.py" >/dev/null
python3 - "$dir/h.json" "$bin" "$dir" "$py" "${RUNS:-60}" <<'PY'
import json, statistics, subprocess, sys, time
r = json.load(open(sys.argv[1]))["results"]
g, p = r[0]["mean"], r[1]["mean"]
print(f"hyperfine means:     greenlight run {g*1000:.1f} ms   bare python3 {p*1000:.1f} ms   ratio {g/p:.2f}x")
bin_, d, py, runs = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
cmds = {"gl": [bin_, "run", d + "/calc.py"], "py": [py, d + "/test_calc.py"]}
def once(k):
    t = time.perf_counter()
    subprocess.run(cmds[k], cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t
for k in ("gl", "py", "gl", "py"):  # warm-up, not counted
    once(k)
times = {"gl": [], "py": []}
for i in range(runs):
    for k in (("gl", "py") if i % 2 == 0 else ("py", "gl")):
        times[k].append(once(k))
mg, mp = statistics.median(times["gl"]), statistics.median(times["py"])
print(f"interleaved medians: greenlight run {mg*1000:.1f} ms   bare python3 {mp*1000:.1f} ms   "
      f"ratio {mg/mp:.2f}x over {runs} pairs (goal <= 1.3x)")
PY
# Inside a long-lived process (the language server): the same file through TestService cold,
# with spare sandboxes, and with warm interpreters (goal: warm <= 0.3x bare python3), then a
# node file of 10 tests the same way (goal: warm <= 0.3x bare node), then what the kept
# interpreters cost while idle (goal: under 60 MB with one Python and one node).
spares="$(dirname "$bin")/bench/runners/bench_spares"
idle="$(dirname "$bin")/bench/runners/bench_idle_memory"
if [ -x "$spares" ] && [ -x "$idle" ]; then
  "$spares" "$dir/calc.py" "${BLOCKS:-4}" -- "$py" "$dir/test_calc.py"
  cat > "$dir/calc.js" <<'JS'
function add(a, b) {
  return a + b;
}

function fib(n) {
  let a = 0, b = 1;
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

module.exports = {add, fib};
JS
  {
    echo "const test = require('node:test');"
    echo "const assert = require('node:assert');"
    echo "const {add, fib} = require('./calc.js');"
    for i in $(seq 1 10); do
      printf "\ntest('t%d', () => {\n  assert.strictEqual(add(%d, 1), %d);\n  assert.ok(fib(%d) >= 0);\n});\n" "$i" "$i" "$((i + 1))" "$i"
    done
  } > "$dir/calc.test.js"
  "$spares" "$dir/calc.js" "${BLOCKS:-4}" -- node "$dir/calc.test.js"
  "$idle" "$dir/calc.py" "$dir/calc.js"
else
  echo "($spares or $idle not built: skipping the in-process comparison)"
fi
