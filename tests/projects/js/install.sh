#!/usr/bin/env bash
# Installs the runners of the JavaScript projects under tests/projects/js at the versions their
# package-lock.json files pin: `npm ci` in each project (node_modules stays inside the project
# and is gitignored; a workspaces root installs its packages' hoisted node_modules once).
#
#   tests/projects/js/install.sh [--into DIR] [NAME...]
#     NAME: jest-js jest-ts vitest-ts mocha-js mocha-ts monorepo coverage-ref (default: all of them;
#           coverage-ref is c8, the reference coverage_check.js compares line coverage with), and with --into
#           vitest-ts-pnpm: vitest-ts installed by pnpm (pinned, `npx pnpm@9.15.0`) from its
#           pnpm-lock.yaml, with pnpm's layout (node_modules/.pnpm, packages as symlinks) and its
#           store in DIR/.pnpm-store
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
  into=$(mkdir -p "$2" && cd "$2" && pwd)
  chmod go+rx "$into"  # the sandbox's user (uid 65534 under root) reads the copies
  shift 2
fi
command -v npm >/dev/null || { echo "install.sh: npm is needed (apt-get install npm)" >&2; exit 77; }
pnpm_version=9.15.0
projects=("$@")
if [ ${#projects[@]} -eq 0 ]; then
  projects=(jest-js jest-ts vitest-ts mocha-js mocha-ts monorepo coverage-ref)
  [ -z "$into" ] || projects+=(vitest-ts-pnpm)
fi
for p in "${projects[@]}"; do
  pm=npm lockfile=package-lock.json src="$here/$p"
  if [[ "$p" == *-pnpm ]]; then
    pm=pnpm lockfile=pnpm-lock.yaml src="$here/${p%-pnpm}"
    [ -n "$into" ] || { echo "install.sh: $p needs --into DIR (it would replace ${p%-pnpm}'s node_modules)" >&2; exit 1; }
  fi
  [ -f "$src/$lockfile" ] || { echo "install.sh: $p has no $lockfile" >&2; exit 1; }
  dir="$src"
  if [ -n "$into" ]; then
    dir="$into/$p"
    mkdir -p "$dir"
    # The project's files (not node_modules), fresh: remove what the sources no longer have.
    find "$dir" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
    (cd "$src" && find . -path '*/node_modules' -prune -o -type f -print0 |
      while IFS= read -r -d '' f; do mkdir -p "$dir/$(dirname "$f")" && cp -p "$f" "$dir/$f"; done)
    # Each package manager sees its own lockfile only.
    if [ "$pm" = pnpm ]; then rm -f "$dir/package-lock.json"; else rm -f "$dir/pnpm-lock.yaml"; fi
    # Each copy is a workspace of its own (as a clone with its .git would be).
    echo '{}' > "$dir/.greenlight.json"
    chmod -R go+rX "$dir"
  fi
  stamp="$dir/node_modules/.greenlight-lock"
  lock=$(sha256sum "$dir/$lockfile" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock" ]; then
    echo "install.sh: $p is installed ($dir)"
    continue
  fi
  echo "install.sh: $pm install in $dir"
  if [ "$pm" = pnpm ]; then
    install=(npx -y "pnpm@$pnpm_version" install --frozen-lockfile --ignore-scripts --reporter=silent
             --store-dir "$into/.pnpm-store")
  else
    install=(npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  fi
  if ! (cd "$dir" && "${install[@]}"); then
    if ! npm ping >/dev/null 2>&1; then
      echo "install.sh: the npm registry is unreachable: nothing installed for $p" >&2
      exit 77
    fi
    echo "install.sh: $pm install failed in $dir" >&2
    exit 1
  fi
  echo "$lock" > "$stamp"
  [ -z "$into" ] || chmod -R go+rX "$dir/node_modules"
done
