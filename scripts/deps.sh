#!/usr/bin/env bash
# Installs the system packages greenlight needs, when missing. Sourced by run.sh and test.sh.
#   as root: apt-get directly; else via sudo (non-interactive); else prints the exact
#   apt-get line and exits 2.
# GREENLIGHT_DEPS=test adds what the test suite needs (node/npm, clang for the fuzzer, ...).

greenlight_packages() {
  local pkgs=(g++ cmake ninja-build ccache pkg-config libboost1.81-dev nlohmann-json3-dev
              libcurl4-openssl-dev libseccomp-dev catch2 python3)
  if [ "${1:-}" = test ]; then
    # node/npm: JavaScript runner and the mock-llm peer; clang + libclang-rt: libFuzzer;
    # libssl-dev: HumanEval-X CPP/162; bubblewrap + hyperfine: benchmarks; passwd: useradd;
    # neovim: the Neovim plugin's end-to-end tests; chromium + libkrb5-dev: the real-VS-Code
    # lane (code-server's kerberos module builds against libkrb5; tests/editors/vscode-real);
    # libgtest-dev + doctest-dev: the real CMake projects of tests/projects/cxx (catch2 is above);
    # meson, bear, libboost-test1.81-dev: its Meson, compile_commands.json-only and Boost.Test
    # projects (libboost-test-dev would pull Boost 1.74 against the 1.81 headers above)
    pkgs+=(nodejs npm clang libclang-rt-14-dev libssl-dev bubblewrap hyperfine passwd neovim chromium libkrb5-dev
           libgtest-dev doctest-dev meson bear libboost-test1.81-dev)
    # Python projects (tests/projects/python): pytest, freezegun (also the warm freezegun test)
    # and pytest-mock (an installed plugin) for the written ones, venv/pip/setuptools/wheel for
    # the editable install, and two real projects whose packages ship their test suites (toolz:
    # pytest, isodate: unittest).
    # python3-coverage: coverage.py, the reference greenlight's own line coverage is checked
    # against (tests/projects/python/check_coverage.py, issue 35); libpython3-dev: the headers the
    # C line tracer is built with for Debian's python3 (tests/projects/python/check_ctrace.py).
    pkgs+=(python3-pytest python3-freezegun python3-venv python3-pip python3-setuptools python3-wheel
           python3-pytest-mock python3-toolz python3-isodate python3-coverage libpython3-dev)
  fi
  printf '%s\n' "${pkgs[@]}"
}

greenlight_install_deps() {
  local mode="${1:-run}" missing=() p
  command -v dpkg-query >/dev/null 2>&1 || {
    echo "deps: not a Debian/Ubuntu system; install the equivalents of: $(greenlight_packages "$mode" | tr '\n' ' ')" >&2
    return 0
  }
  while read -r p; do
    # node and npm may come from elsewhere (nvm, NodeSource): accept them on PATH.
    case "$p" in
      nodejs) command -v node >/dev/null 2>&1 && continue ;;
      npm) command -v npm >/dev/null 2>&1 && continue ;;
      python3) command -v python3 >/dev/null 2>&1 && continue ;;
    esac
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done < <(greenlight_packages "$mode")
  [ ${#missing[@]} -eq 0 ] && return 0
  local line="apt-get install -y ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo -n"
    else
      echo "greenlight needs these packages; run as root:" >&2
      echo "  apt-get update && $line" >&2
      exit 2
    fi
  fi
  echo "deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >&2 || true
  if ! $sudo apt-get install -y -qq "${missing[@]}" >&2; then
    echo "deps: apt-get failed; run: apt-get update && $line" >&2
    exit 2
  fi
}
