#!/usr/bin/env bash
# ./test.sh: install what is missing, build, and run every test through ctest twice: a normal
# build (warnings are errors) and an ASan+UBSan build. Where clang is present, also builds the
# libFuzzer target, fuzzes for GREENLIGHT_FUZZ_SECONDS (default 30) and replays its corpus.
set -uo pipefail
cd "$(dirname "$0")"
source scripts/deps.sh
greenlight_install_deps test
exec scripts/test-all.sh "$@"
