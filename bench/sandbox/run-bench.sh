#!/usr/bin/env bash
# Sandbox spawn benchmark. Prints:
#  - the in-process API (sandbox::run) median spawn-to-exit time vs bare fork+exec of
#    /bin/true, and the overhead (target <= 1.0 ms), plus CPU per run (load-independent):
#    cold (each run builds its sandbox) and with spares (keepSpares(true), as the language
#    server runs: the sandbox was built ahead and the run only sends its request);
#  - `greenlight sandbox -- /bin/true` vs
#    `bwrap --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev /bin/true`,
#    measured side by side in one hyperfine run, with medians and the ratio.
#   bench/sandbox/run-bench.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build="${1:-build}"
runs="${2:-200}"
bench="$build/bench/sandbox/sandbox_bench"
gl="$build/greenlight"
for f in "$bench" "$gl"; do
  [ -x "$f" ] || { echo "run-bench.sh: $f not built (cmake --build $build --target sandbox_bench greenlight)" >&2; exit 2; }
done
echo "== in-process API"
"$bench" -n "$runs"
echo
echo "== greenlight sandbox vs bwrap (hyperfine, interleaved)"
command -v hyperfine >/dev/null || { echo "hyperfine not installed" >&2; exit 2; }
command -v bwrap >/dev/null || { echo "bwrap not installed" >&2; exit 2; }
json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N -w 10 -r "$runs" --export-json "$json" \
  "$gl sandbox -- /bin/true" \
  "bwrap --unshare-all --die-with-parent --ro-bind / / --proc /proc --dev /dev /bin/true" \
  "/bin/true" >/dev/null
python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
med = {x["command"].split()[0].rsplit("/", 1)[-1]: x["median"] * 1000 for x in r}
g, b, t = med["greenlight"], med["bwrap"], med["true"]
print(f"/bin/true                median {t:.3f} ms")
print(f"greenlight sandbox       median {g:.3f} ms  (overhead {g - t:.3f} ms)")
print(f"bwrap                    median {b:.3f} ms  (overhead {b - t:.3f} ms)")
print(f"ratio greenlight/bwrap   {g / b:.2f}  ({'faster' if g < b else 'SLOWER'} than bwrap)")
PY
