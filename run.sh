#!/usr/bin/env bash
# ./run.sh [ARGS]: install what is missing, build build/greenlight (Release), then run it.
# With no ARGS: `greenlight run` over every example in examples/, then, when an LLM provider is
# reachable, `greenlight generate` on the example comment in a copy of examples/.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/deps.sh
greenlight_install_deps run

jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build build --target greenlight -j "$jobs" >&2

if [ $# -gt 0 ]; then
  exec build/greenlight "$@"
fi
status=0
scripts/run-examples.sh build/greenlight || status=$?
echo
scripts/run-generate-demo.sh build/greenlight
exit $status
