#!/usr/bin/env bash
# The whole HumanEval corpus through the runner on 2 workers (test_corpus's HumanEval suite
# runs references + variants; this script runs references only via `greenlight run`, two at a
# time) against the same programs run with bare python3 one after another. Prints the ratio.
set -euo pipefail
bin="$(cd "$(dirname "${1:-build/greenlight}")" && pwd)/$(basename "${1:-build/greenlight}")"
shared="${2:-$(dirname "$0")/../../../shared}"
dir=$(mktemp -d /tmp/gl-bench-he-XXXXXX)
trap 'rm -rf "$dir"' EXIT
python3 - "$shared/corpora/humaneval/HumanEval.jsonl.gz" "$dir" <<'PY'
import gzip, json, os, sys
for line in gzip.open(sys.argv[1], "rt"):
    r = json.loads(line)
    d = os.path.join(sys.argv[2], r["task_id"].replace("/", "-"))
    os.makedirs(d)
    open(os.path.join(d, ".greenlight.json"), "w").write("{}\n")
    open(os.path.join(d, "prob.py"), "w").write(r["prompt"] + r["canonical_solution"])
    open(os.path.join(d, "test_prob.py"), "w").write(
        "from prob import *\nimport prob as _p\n\n" + r["test"] + "\n\ndef test_check():\n    check(_p." + r["entry_point"] + ")\n")
    open(os.path.join(d, "bare.py"), "w").write(
        r["prompt"] + r["canonical_solution"] + "\n" + r["test"] + "\ncheck(" + r["entry_point"] + ")\n")
PY
py=$(python3 -c 'import sys; print(sys.executable)')
start=$(date +%s.%N)
for d in "$dir"/*/; do "$py" "$d/bare.py" >/dev/null; done
bare=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
ls -d "$dir"/*/ | xargs -P 2 -I{} sh -c "'$bin' run {}prob.py >/dev/null || echo FAIL {}"
gl=$(echo "$(date +%s.%N) - $start" | bc)
echo "HumanEval 164: greenlight run on 2 workers ${gl}s, bare python3 serially ${bare}s, ratio $(echo "scale=2; $gl / $bare" | bc)x"
