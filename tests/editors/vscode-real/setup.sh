#!/usr/bin/env bash
# Installs what the real-VS-Code lane needs and packages the extension, into CACHE (under the
# build tree), reusing what a previous run left there:
#   setup.sh EXT_DIR CACHE
# - apt: chromium (the browser playwright drives) and libkrb5-dev (code-server's kerberos module
#   builds against it); as root directly, else through `sudo -n`.
# - npm, into CACHE/code-server: code-server 4.100.3 (VS Code 1.100.3), the newest release whose
#   postinstall accepts node 20. Its postinstall runs `npm install` in lib/vscode, whose
#   @vscode/ripgrep downloads rg from outside the npm registry: we hand it the binary from the
#   npm package @vscode/ripgrep-linux-x64 where it looks for a cached download.
# - npm, into CACHE/tools: playwright-core (no browser download: Debian's chromium is used) and
#   @vscode/vsce.
# - CACHE/greenlight.vsix: the extension compiled and packaged from a copy of EXT_DIR (its
#   node_modules come from the editors.vscode.npm_ci fixture).
# Exit 77 (skip) only when something cannot be downloaded: no apt/npm registry, or no way to
# install system packages; any other failure is a failure.
set -euo pipefail
ext=$1
cache=$2
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "[setup $(date +%T)] $*"; }

# Pinned: the ripgrep tag below is what @vscode/ripgrep 1.15.11 (code-server 4.100.3's
# lib/vscode/npm-shrinkwrap.json) asks for in its lib/postinstall.js.
kCodeServer=4.100.3
kRipgrepTag=v13.0.0-10
kRipgrepPkg=@vscode/ripgrep-linux-x64@1.18.0
kPlaywright=playwright-core@1.65.2
kVsce=@vscode/vsce@3.9.2

[ "$(uname -m)" = x86_64 ] || skip "the lane's pinned ripgrep and chromium setup is for x86_64 Linux, not $(uname -m)"
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are needed (scripts/deps.sh installs them)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || skip "code-server $kCodeServer requires node 20 (its postinstall refuses node $node_major; 4.103+ want 22 or 24)"

# --- system packages ---------------------------------------------------------------------------
missing=()
for p in chromium libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null || skip "needs: apt-get install ${missing[*]} (not root, no sudo -n)"
    sudo="sudo -n"
  fi
  step "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || true
  # Downloading first tells an unreachable archive (skip) from a broken install (fail).
  $sudo apt-get install -y -qq --download-only "${missing[@]}" >/dev/null || skip "apt-get could not download ${missing[*]}"
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null || fail "apt-get install ${missing[*]} failed"
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing after installing chromium"

# --- npm packages --------------------------------------------------------------------------------
npm_reachable() {
  npm view "code-server@$kCodeServer" version >/dev/null 2>&1 || skip "the npm registry is unreachable (npm view code-server@$kCodeServer failed)"
}

cs="$cache/code-server"
if [ "$(cat "$cs/.stamp" 2>/dev/null)" != "$kCodeServer" ] || [ ! -x "$cs/node_modules/.bin/code-server" ]; then
  npm_reachable
  step "npm install code-server@$kCodeServer (builds native modules; about a minute)"
  rm -rf "$cs"
  mkdir -p "$cs/tmp"
  # The cached "download" @vscode/ripgrep's postinstall looks for in $TMPDIR.
  rgdir="$cs/tmp/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rgdir" "$cs/rg"
  (cd "$cs/rg" && npm pack --silent "$kRipgrepPkg" >/dev/null) || skip "npm pack $kRipgrepPkg failed"
  tar xzf "$cs/rg"/*.tgz -C "$cs/rg"
  tar czf "$rgdir/ripgrep-$kRipgrepTag-x86_64-unknown-linux-musl.tar.gz" -C "$cs/rg/package/bin" rg
  echo '{"private": true}' >"$cs/package.json"
  # node-pty's postinstall runs `npx node-gyp` (yes: no prompt); root needs unsafe_perm;
  # headers from /usr/include/node (Debian's nodejs) instead of a download.
  nodedir=()
  [ -f /usr/include/node/node.h ] && nodedir=(npm_config_nodedir=/usr)
  if ! (cd "$cs" && env TMPDIR="$cs/tmp" npm_config_yes=true npm_config_unsafe_perm=true "${nodedir[@]}" \
        npm install --no-audit --no-fund --loglevel=error "code-server@$kCodeServer" >"$cs/install.log" 2>&1); then
    tail -40 "$cs/install.log" >&2
    fail "npm install code-server@$kCodeServer failed (log: $cs/install.log)"
  fi
  [ -x "$cs/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] || fail "code-server's ripgrep binary is missing"
  echo "$kCodeServer" >"$cs/.stamp"
fi

tools="$cache/tools"
want_tools="$kPlaywright $kVsce"
if [ "$(cat "$tools/.stamp" 2>/dev/null)" != "$want_tools" ] || [ ! -d "$tools/node_modules/playwright-core" ]; then
  npm_reachable
  step "npm install $want_tools"
  rm -rf "$tools"
  mkdir -p "$tools"
  echo '{"private": true}' >"$tools/package.json"
  # vsce's optional keytar (native, for publishing tokens) is not needed to package.
  if ! (cd "$tools" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --omit=optional \
        --loglevel=error $want_tools >"$tools/install.log" 2>&1); then
    tail -40 "$tools/install.log" >&2
    fail "npm install $want_tools failed (log: $tools/install.log)"
  fi
  echo "$want_tools" >"$tools/.stamp"
fi

# --- the extension -------------------------------------------------------------------------------
# Packaged from a copy so nothing (out/, the .vsix) is written into the source tree; repackaged
# whenever a source file of the extension is newer than the package.
vsix="$cache/greenlight.vsix"
[ -d "$ext/node_modules/vscode-languageclient" ] || fail "$ext/node_modules is missing; the editors.vscode.npm_ci test (npm ci) must run first"
if [ ! -f "$vsix" ] || [ -n "$(find "$ext" -path "$ext/node_modules" -prune -o -path "$ext/out" -prune -o -type f -newer "$vsix" -print -quit)" ]; then
  step "packaging the extension with vsce"
  stage="$cache/ext"
  rm -rf "$stage"
  mkdir -p "$stage"
  (cd "$ext" && tar cf - --exclude=./node_modules --exclude=./out --exclude='./*.vsix' .) | tar xf - -C "$stage"
  cp -a "$ext/node_modules" "$stage/node_modules"
  if ! (cd "$stage" && node "$tools/node_modules/@vscode/vsce/vsce" package --allow-missing-repository --skip-license \
        --no-rewrite-relative-links --out "$vsix.tmp" >"$cache/vsce.log" 2>&1); then
    cat "$cache/vsce.log" >&2
    fail "vsce package failed"
  fi
  mv "$vsix.tmp" "$vsix"
fi
step "ready: $vsix"
