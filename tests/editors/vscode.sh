#!/bin/sh
# The VS Code extension's checks, run by CTest (tests/editors/CMakeLists.txt):
#   vscode.sh deps      EXT_DIR          npm ci into EXT_DIR/node_modules (skipped when current)
#   vscode.sh typecheck EXT_DIR          tsc --noEmit, strict
#   vscode.sh compile   EXT_DIR OUT_DIR  compile (strict) into OUT_DIR
#   vscode.sh unit      EXT_DIR OUT_DIR  node --test on the compiled unit tests
#   vscode.sh e2e       EXT_DIR OUT_DIR SERVER [--no-codelens-required]
#                                        the wire contract against SERVER
#   vscode.sh flow      EXT_DIR OUT_DIR  generate/fix/cancel over jsonrpc against the scripted
#                                        server in EXT_DIR/e2e (the extension's side of the wire)
# Exit 77 (CTest SKIP_RETURN_CODE) when node or npm is not installed.
set -eu
mode=$1
ext=$2
out=${3:-}

need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "SKIP: $1 not found on PATH; the VS Code extension checks need node >= 18 and npm (scripts/deps.sh installs nodejs npm for tests)"
    exit 77
  fi
}
need node
need npm
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
  echo "SKIP: node $(node --version) is too old for the extension's tooling (needs >= 18)"
  exit 77
fi

tsc() {
  if [ ! -f "$ext/node_modules/typescript/bin/tsc" ]; then
    echo "FAIL: $ext/node_modules is missing; the editors.vscode.npm_ci test (npm ci) must run first"
    exit 1
  fi
  node "$ext/node_modules/typescript/bin/tsc" "$@"
}

case "$mode" in
  deps)
    # Both build trees (build-test, build-asan) share the source tree's node_modules: serialise
    # npm ci, and skip it when node_modules already matches package-lock.json.
    stamp="$ext/node_modules/.greenlight-stamp"
    want="$(cat "$ext/package-lock.json" | cksum | cut -d' ' -f1) node-$major"
    lock="${TMPDIR:-/tmp}/greenlight-vscode-npm-$(printf '%s' "$ext" | cksum | cut -d' ' -f1).lock"
    run() {
      if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$ext/node_modules/vscode-languageclient" ]; then
        echo "node_modules is up to date with package-lock.json"
        return 0
      fi
      cd "$ext"
      for attempt in 1 2; do
        if npm ci --no-audit --no-fund --loglevel=error; then
          echo "$want" > "$stamp"
          return 0
        fi
        echo "npm ci failed (attempt $attempt)" >&2
        sleep 2
      done
      echo "FAIL: npm ci in $ext failed; the npm registry must be reachable" >&2
      return 1
    }
    if command -v flock >/dev/null 2>&1; then
      exec 9>"$lock"
      flock -w 240 9
    fi
    run
    ;;
  typecheck)
    tsc -p "$ext" --noEmit
    echo "tsc --noEmit (strict): no errors"
    ;;
  compile)
    [ -n "$out" ] || { echo "usage: vscode.sh compile EXT_DIR OUT_DIR" >&2; exit 2; }
    rm -rf "$out"
    tsc -p "$ext" --outDir "$out"
    echo "compiled into $out"
    ;;
  unit|e2e|flow)
    [ -n "$out" ] || { echo "usage: vscode.sh $mode EXT_DIR OUT_DIR [SERVER]" >&2; exit 2; }
    if [ ! -d "$out/test" ]; then
      echo "FAIL: $out has no compiled tests; the editors.vscode.compile test must run first"
      exit 1
    fi
    export GREENLIGHT_VSCODE_DIR="$ext"
    # The compiled tests live in the build tree; their dependencies in the source tree.
    export NODE_PATH="$ext/node_modules"
    case "$mode" in
      unit) node --test "$out/test/" ;;
      flow) node "$out/e2e/workFlow.js" ;;
      e2e) node "$out/e2e/serverContract.js" "${4:?usage: vscode.sh e2e EXT_DIR OUT_DIR SERVER}" ${5:+"$5"} ;;
    esac
    ;;
  *)
    echo "usage: vscode.sh deps|typecheck|compile|unit|e2e|flow EXT_DIR [OUT_DIR [SERVER]]" >&2
    exit 2
    ;;
esac
