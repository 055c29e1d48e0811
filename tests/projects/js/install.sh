#!/usr/bin/env bash
# Installs the runners of the JavaScript projects under tests/projects/js at the versions their
# package-lock.json files pin: `npm ci` in each project (node_modules stays inside the project
# and is gitignored; a workspaces root installs its packages' hoisted node_modules once).
#
#   tests/projects/js/install.sh            every project
#   tests/projects/js/install.sh NAME...    these (jest-js jest-ts vitest-ts mocha-js monorepo)
#
# Only the npm registry is used (npm's own client, lockfile integrity checked by npm); install
# scripts of dependencies are not run. Nothing outside this folder is written but npm's cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v npm >/dev/null || { echo "install.sh: npm is needed (apt-get install npm)" >&2; exit 1; }
projects=("$@")
[ ${#projects[@]} -gt 0 ] || projects=(jest-js jest-ts vitest-ts mocha-js monorepo)
for p in "${projects[@]}"; do
  dir="$here/$p"
  [ -f "$dir/package-lock.json" ] || { echo "install.sh: $p has no package-lock.json" >&2; exit 1; }
  echo "install.sh: npm ci in $p"
  (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
done
