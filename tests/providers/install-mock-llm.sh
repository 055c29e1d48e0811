#!/bin/sh
# CTest fixture: installs the pinned @dwmkerr/mock-llm (package-lock.json) into DEST with npm ci.
# Without node/npm, or when the registry cannot be reached, it says so and succeeds: the
# mock-llm tests then skip with that reason instead of failing the suite.
set -u
src=$1
dest=$2
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "mock-llm: node/npm not found on PATH; the mock-llm tests will be skipped (apt-get install nodejs npm)"
  exit 0
fi
mkdir -p "$dest"
if [ -f "$dest/node_modules/@dwmkerr/mock-llm/dist/main.js" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  echo "mock-llm: already installed in $dest"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dest/" || exit 1
cd "$dest" || exit 1
if ! npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; then
  rm -rf node_modules package-lock.json
  echo "mock-llm: 'npm ci' failed (is the npm registry reachable?); the mock-llm tests will be skipped"
  exit 0
fi
echo "mock-llm: installed $(node -p "require('./node_modules/@dwmkerr/mock-llm/package.json').version") in $dest"
