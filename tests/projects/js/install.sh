#!/usr/bin/env bash
# Installs the runners of the JavaScript projects under tests/projects/js at the versions their
# package-lock.json files pin: `npm ci` in each project (node_modules stays inside the project
# and is gitignored; a workspaces root installs its packages' hoisted node_modules once).
#
#   tests/projects/js/install.sh [--into DIR] [NAME...]
#     NAME: jest-js jest-ts vitest-ts mocha-js monorepo (default: all of them)
#     --into DIR: copy each project (its files, without node_modules) to DIR/NAME first and
#                 install there; the sources stay untouched (what the ctest checks use: they
#                 inject bugs into the copies). A copy whose lockfile did not change keeps its
#                 node_modules; its other files are refreshed from the sources every time.
#
# Only the npm registry is used (npm's own client, lockfile integrity checked by npm); install
# scripts of dependencies are not run. Nothing outside this folder (or DIR) is written but npm's
# cache. Exit 77 when npm cannot reach its registry (nothing to test then), 1 on other failures.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
into=""
if [ "${1:-}" = "--into" ]; then
  into=$2
  shift 2
fi
command -v npm >/dev/null || { echo "install.sh: npm is needed (apt-get install npm)" >&2; exit 77; }
projects=("$@")
[ ${#projects[@]} -gt 0 ] || projects=(jest-js jest-ts vitest-ts mocha-js monorepo)
for p in "${projects[@]}"; do
  src="$here/$p"
  [ -f "$src/package-lock.json" ] || { echo "install.sh: $p has no package-lock.json" >&2; exit 1; }
  dir="$src"
  if [ -n "$into" ]; then
    dir="$into/$p"
    mkdir -p "$dir"
    # The project's files (not node_modules), fresh: remove what the sources no longer have.
    find "$dir" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
    (cd "$src" && find . -path '*/node_modules' -prune -o -type f -print0 |
      while IFS= read -r -d '' f; do mkdir -p "$dir/$(dirname "$f")" && cp -p "$f" "$dir/$f"; done)
    # Each copy is a workspace of its own (as a clone with its .git would be).
    echo '{}' > "$dir/.greenlight.json"
    chmod -R go+rX "$dir"
  fi
  stamp="$dir/node_modules/.greenlight-lock"
  lock=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock" ]; then
    echo "install.sh: $p is installed ($dir)"
    continue
  fi
  echo "install.sh: npm ci in $dir"
  if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error); then
    if ! npm ping >/dev/null 2>&1; then
      echo "install.sh: the npm registry is unreachable: nothing installed for $p" >&2
      exit 77
    fi
    echo "install.sh: npm ci failed in $dir" >&2
    exit 1
  fi
  echo "$lock" > "$stamp"
  [ -z "$into" ] || chmod -R go+rX "$dir/node_modules"
done
