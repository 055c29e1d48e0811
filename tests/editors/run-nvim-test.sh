#!/bin/sh
# Runs one headless Neovim test: run-nvim-test.sh TEST.lua SECONDS [SERVER_BINARY [MODEL_SCRIPT]]
# Exit 77 (CTest SKIP_RETURN_CODE) when nvim is not installed (or the 0.10 lane could not be
# downloaded). The environment (set by tests/editors/CMakeLists.txt) names the plugin, the
# tests folder, the fixtures, the server and, for the 0.10 lane, GREENLIGHT_NVIM_010_DIR.
# MODEL_SCRIPT: start tests/fakes/scripted_model.py with it on 127.0.0.1 and point the server
# at it through the environment (GREENLIGHT_BASE_URL, GREENLIGHT_MODEL), the lowest layer of
# DESIGN.md's configuration, so the workspace and the plugin's settings are what the test says.
set -eu
test_file=$1
seconds=${2:-60}
if [ -n "${3:-}" ]; then GREENLIGHT_TEST_BIN=$3; export GREENLIGHT_TEST_BIN; fi
model_script=${4:-}
# GREENLIGHT_NVIM_010_DIR set: the Neovim 0.10 lane (tests/editors/get-nvim-0.10.sh obtained it
# there in the lane's fixture test; skipped with its reason when that was impossible); else
# the nvim on $PATH (Debian's 0.7.2).
if [ -n "${GREENLIGHT_NVIM_010_DIR:-}" ]; then
  set +e
  nvim=$(sh "$(dirname "$0")/get-nvim-0.10.sh" --cached "$GREENLIGHT_NVIM_010_DIR")
  status=$?
  set -e
  if [ "$status" -ne 0 ]; then exit "$status"; fi
elif command -v nvim >/dev/null 2>&1; then
  nvim=$(command -v nvim)
else
  echo "SKIP: nvim not found on PATH (install it: apt-get install -y neovim; scripts/deps.sh lists it for tests)"
  exit 77
fi
"$nvim" --version | head -n 1
if ! command -v timeout >/dev/null 2>&1; then timeout() { shift; "$@"; }; fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/greenlight-nvim.XXXXXX")
model_pid=
cleanup() {
  if [ -n "$model_pid" ]; then
    kill "$model_pid" 2>/dev/null || true
    wait "$model_pid" 2>/dev/null || true
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# No user or system configuration, shada or state may leak in (or out).
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" \
       XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_DIRS="$scratch/config" XDG_DATA_DIRS="$scratch/share"
export GREENLIGHT_TEST_SCRATCH="$scratch/work"
mkdir -p "$GREENLIGHT_TEST_SCRATCH"
if [ -n "${GREENLIGHT_TEST_BIN:-}" ]; then
  PATH="$(dirname "$GREENLIGHT_TEST_BIN"):$PATH"
  export PATH
fi
if [ -n "$model_script" ]; then
  model=${GREENLIGHT_SCRIPTED_MODEL:-$(dirname "$0")/../fakes/scripted_model.py}
  # Where the test releases replies the script holds ("hold_until", H.release_model).
  GREENLIGHT_TEST_MODEL_GATES="$scratch/gates"
  export GREENLIGHT_TEST_MODEL_GATES
  mkdir -p "$GREENLIGHT_TEST_MODEL_GATES"
  # The model dies with this wrapper even when the wrapper itself is killed (CTest's TIMEOUT):
  # PR_SET_PDEATHSIG is set in the child before it execs, and checked against a parent that
  # died before that.
  python3 -c '
import ctypes, os, signal, sys
ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)
os.execvp(sys.argv[2], sys.argv[2:])
' "$$" python3 "$model" --script "$model_script" --port "0" --port-file "$scratch/model.port" \
    --log "$scratch/model.log" >/dev/null &
  model_pid=$!
  # Bounded like every wait in the suite; ends early if the model died.
  tries=0
  while [ ! -s "$scratch/model.port" ]; do
    if ! kill -0 "$model_pid" 2>/dev/null; then echo "FAIL: the scripted model ($model) exited at start"; exit 1; fi
    tries=$((tries + 1))
    if [ "$tries" -gt "$((seconds * 10))" ]; then echo "FAIL: the scripted model did not listen within $seconds s"; exit 1; fi
    sleep 0.1
  done
  # Only the scripted model: nothing from the caller's environment may pick another provider.
  unset OPENAI_API_KEY ANTHROPIC_API_KEY OPENAI_BASE_URL OLLAMA_HOST GREENLIGHT_PROVIDER
  GREENLIGHT_BASE_URL="http://127.0.0.1:$(cat "$scratch/model.port")/v1"
  GREENLIGHT_MODEL=scripted
  GREENLIGHT_TEST_MODEL_LOG="$scratch/model.log"
  export GREENLIGHT_BASE_URL GREENLIGHT_MODEL GREENLIGHT_TEST_MODEL_LOG
  echo "scripted model: $GREENLIGHT_BASE_URL ($model_script)"
fi
set +e
timeout -k 5 "$seconds" "$nvim" --headless -u "$GREENLIGHT_NVIM_TESTS/init.lua" -i NONE -n \
  -c "luafile $GREENLIGHT_NVIM_TESTS/$test_file" </dev/null
status=$?
if [ "$status" -eq 124 ]; then echo "FAIL: $test_file did not finish within $seconds s"; fi
exit $status
