#!/bin/sh
# Runs one headless Neovim test: run-nvim-test.sh TEST.lua SECONDS [SERVER_BINARY]
# Exit 77 (CTest SKIP_RETURN_CODE) when nvim is not installed (or the 0.10 lane could not be
# downloaded). The environment (set by tests/editors/CMakeLists.txt) names the plugin, the
# tests folder, the fixtures, the server and, for the 0.10 lane, GREENLIGHT_NVIM_010_DIR.
set -eu
test_file=$1
seconds=${2:-60}
if [ -n "${3:-}" ]; then GREENLIGHT_TEST_BIN=$3; export GREENLIGHT_TEST_BIN; fi
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
trap 'rm -rf "$scratch"' EXIT INT TERM
# No user or system configuration, shada or state may leak in (or out).
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" \
       XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_DIRS="$scratch/config" XDG_DATA_DIRS="$scratch/share"
export GREENLIGHT_TEST_SCRATCH="$scratch/work"
mkdir -p "$GREENLIGHT_TEST_SCRATCH"
if [ -n "${GREENLIGHT_TEST_BIN:-}" ]; then
  PATH="$(dirname "$GREENLIGHT_TEST_BIN"):$PATH"
  export PATH
fi
set +e
timeout -k 5 "$seconds" "$nvim" --headless -u "$GREENLIGHT_NVIM_TESTS/init.lua" -i NONE -n \
  -c "luafile $GREENLIGHT_NVIM_TESTS/$test_file" </dev/null
status=$?
if [ "$status" -eq 124 ]; then echo "FAIL: $test_file did not finish within $seconds s"; fi
exit $status
