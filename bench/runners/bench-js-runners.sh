#!/usr/bin/env bash
# A run on save of one test file of a real JS/TS project (tests/projects/js, installed from npm at
# the pinned versions into BUILD/tests/projects/js/installed; the ctest fixture uses /tmp/greenlight-js-projects-HASH) through the TestService as the language server runs it
# (bench_spares: cold, with spare sandboxes, with a warm runner: js_warm.js on a warm spare),
# against the runner's own CLI on that file outside any sandbox (`jest FILE`, `vitest run FILE`,
# `mocha FILE`, with the runner's own cache as a user has it), interleaved. Goal: warm ≤ 0.5x the
# runner's CLI.
#
#   bench/runners/bench-js-runners.sh BUILD [BLOCKS] [PROJECT FILE]...
#   (default: jest-js __tests__/cart.test.js, jest-ts test/set.spec.ts,
#             vitest-ts test/template.spec.ts, monorepo/packages/core test/scheduler.test.ts,
#             mocha-js test/parse.js)
# BUILD holds bench/runners/bench_spares (cmake --build BUILD --target bench_spares). Each block
# is 10 runs per mode; the figures are medians, wall clock, on the machine as loaded as it is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: bench-js-runners.sh BUILD [BLOCKS] [PROJECT FILE]...}" && pwd)
shift
blocks=1
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then blocks=$1; shift; fi
picks=("$@")
[ ${#picks[@]} -gt 0 ] || picks=(jest-js __tests__/cart.test.js jest-ts test/set.spec.ts vitest-ts test/template.spec.ts
                                monorepo/packages/core test/scheduler.test.ts mocha-js test/parse.js)
bench="$build/bench/runners/bench_spares"
[ -x "$bench" ] || { echo "bench-js-runners.sh: build $bench first (cmake --build $build --target bench_spares)" >&2; exit 2; }
dest="$build/tests/projects/js/installed"
"$here/../../tests/projects/js/install.sh" --into "$dest" >/dev/null
for ((i = 0; i < ${#picks[@]}; i += 2)); do
  project=${picks[i]} file=${picks[i + 1]}
  root="$dest/$project"
  runner=$(node -e '
    const p = require(process.argv[1] + "/package.json");
    const m = /\b(vitest|jest|mocha)\b/.exec((p.scripts || {}).test || "");
    console.log(m ? m[1] : "");' "$root")
  bin=$(node -e 'console.log(require(process.argv[1]).runnerBin(process.argv[2], process.argv[3]) || "")' \
    "$here/../../tests/projects/js/runjs.js" "$runner" "$root")
  [ -n "$bin" ] || { echo "bench-js-runners.sh: no $runner installed for $project" >&2; exit 2; }
  case "$runner" in
    vitest) cli=("$bin" run "$file") ;;
    *) cli=("$bin" "$file") ;;
  esac
  echo "== $project $file ($runner; its CLI: node ${cli[*]#$root/})"
  "$bench" "$root/$file" "$blocks" -- sh -c 'cd "$0" && exec node "$@" >/dev/null 2>&1' "$root" "${cli[@]}" | sed 's/^/   /'
done
