#!/usr/bin/env bash
# The second half of ./run.sh: when an LLM provider is reachable, let greenlight write the
# function examples/python/triangle.py's comment asks for, in a throw-away copy of examples/
# (the checked-in examples never change), and show the verified diff. When none is reachable,
# say in one line how to configure one. Exits 0 either way unless greenlight itself is missing:
# the model's answer is not the examples' contract.
# Usage: scripts/run-generate-demo.sh [path/to/greenlight]   (default: build/greenlight)
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/greenlight}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
if [ ! -x "$bin" ]; then
  echo "generate demo: $bin is not an executable (build it first)" >&2
  exit 2
fi
copy=$(mktemp -d "${TMPDIR:-/tmp}/greenlight-demo.XXXXXX")
trap 'rm -rf "$copy"' EXIT
cp -R examples/. "$copy/"
echo "=== greenlight generate python/triangle.py:5 --diff   (in a copy of examples/)"
out=$(cd "$copy" && "$bin" generate python/triangle.py:5 --diff 2>"$copy/.stderr")
rc=$?
err=$(cat "$copy/.stderr")
if [ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "no LLM provider\|no LLM server\|missing"; then
  echo "generate: no LLM provider reachable; set OPENAI_API_KEY or ANTHROPIC_API_KEY, or GREENLIGHT_BASE_URL=http://127.0.0.1:11434/v1 (Ollama) or another OpenAI-compatible server, then run ./run.sh again"
  exit 0
fi
printf '%s\n' "$err" >&2
[ -n "$out" ] && printf '%s\n' "$out"
case "$rc" in
  0) echo "--- generated and verified: the tests of python/test_triangle.py pass (the copy was changed, examples/ was not)" ;;
  1) echo "--- no candidate passed within the rounds; nothing written (see 'greenlight generate ... --json' for the failures)" ;;
  *) echo "--- greenlight generate exited $rc" ;;
esac
exit 0
