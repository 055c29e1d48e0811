#!/bin/sh
# Obtains Neovim 0.10.4 from Debian trixie for the second Neovim test lane, without changing the
# system: apt-get runs against a private lists/cache/state directory and a trixie-only sources
# file (the mirror host is taken from the machine's own apt sources), `apt-get download` fetches
# the .debs (~10.5 MB), `dpkg -x` unpacks them into DEST, and DEST/bin/nvim runs trixie's nvim
# through trixie's own loader with --library-path, so neither the system's libc nor its
# libraries are replaced (and processes nvim starts, such as the language server, see the
# system's libraries as usual).
#
#   get-nvim-0.10.sh DEST      prints DEST/bin/nvim on stdout; exit 0
#                              exit 77 with "SKIP: why" when the download is impossible
#                              (no apt-get/dpkg, no Debian keyring, mirror unreachable);
#                              the reason is kept in DEST/unavailable
#                              exit 1 on any other failure (those are bugs to see, not skips)
#   get-nvim-0.10.sh --cached DEST
#                              only what is already there: the wrapper, or exit 77 with the
#                              reason the download was impossible (each test of the lane calls
#                              this; only the lane's fixture test downloads)
#
# Cached: a DEST whose nvim reports the wanted version is used as is; downloaded .debs are kept
# in DEST/debs. Concurrent callers (ctest -j) serialise on DEST/.lock.
# Environment: GREENLIGHT_TRIXIE_MIRROR overrides the mirror (e.g. http://host/debian).
set -eu

# The lane is Neovim 0.10 as Debian ships it (0.10.4 in trixie); a point release moving to
# another 0.10.x is still the lane.
want_version=0.10.4
want_series=0.10.
# nvim's direct dependencies in trixie that bookworm lacks or has too old (libuv 1.44, luv 1.44,
# lpeg 1.0, tree-sitter 0.20, vterm 0.1, msgpack-c under another soname), and trixie's libc
# (nvim needs glibc >= 2.38). libgcc-s1 comes from the system; libutf8proc3 is not needed.
packages="neovim neovim-runtime libc6 libluajit-5.1-2 libmsgpack-c2 libtree-sitter0.22
libunibilium4 libuv1t64 libvterm0 lua-lpeg lua-luv"

cached_only=false
if [ "${1:-}" = --cached ]; then cached_only=true; shift; fi
dest=${1:?usage: get-nvim-0.10.sh [--cached] DEST}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
wrapper="$dest/bin/nvim"

skip() {
  echo "SKIP: Neovim $want_version lane: $*" >&2
  if [ "$cached_only" = false ]; then echo "$*" > "$dest/unavailable"; fi
  exit 77
}
fail() { echo "FAIL: get-nvim-0.10.sh: $*" >&2; exit 1; }

cached() {
  [ -x "$wrapper" ] && "$wrapper" --version 2>/dev/null | head -n 1 | grep -q "^NVIM v$want_series"
}

# Serialise concurrent callers; flock is util-linux (always on Debian), but do without it.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$dest/.lock"
  flock 9
fi
if cached; then echo "$wrapper"; exit 0; fi
if [ "$cached_only" = true ]; then
  if [ -r "$dest/unavailable" ]; then skip "$(cat "$dest/unavailable")"; fi
  skip "not downloaded yet into $dest (the editors.nvim010.obtain test does that: ctest -R nvim010)"
fi
rm -f "$dest/unavailable"

arch=$(dpkg --print-architecture 2>/dev/null) || skip "dpkg not found (not a Debian-based system)"
command -v apt-get >/dev/null 2>&1 || skip "apt-get not found (not a Debian-based system)"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || skip "$keyring not found (install debian-archive-keyring)"
case $arch in
  amd64) triplet=x86_64-linux-gnu loader=ld-linux-x86-64.so.2 ;;
  arm64) triplet=aarch64-linux-gnu loader=ld-linux-aarch64.so.1 ;;
  *) skip "architecture $arch is not supported by this script" ;;
esac

# The mirror: the first Debian archive URI in the machine's own sources (one-line or deb822
# format), not the security archive; deb.debian.org when there is none.
mirror=${GREENLIGHT_TRIXIE_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n -e 's/^[[:space:]]*URIs:[[:space:]]*//p' \
           -e 's/^[[:space:]]*deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\2/p' |
    tr ' ' '\n' | grep -E '^(https?|file)://[^[:space:]]*/debian/?$' | head -n 1) || true
  mirror=${mirror:-http://deb.debian.org/debian}
fi
mirror=${mirror%/}

apt="$dest/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/etc/sources.list.d" \
  "$apt/etc/apt.conf.d" "$apt/etc/preferences.d" "$dest/debs"
echo "deb [signed-by=$keyring] $mirror trixie main" > "$apt/etc/sources.list"
: > "$apt/status"
# Every path apt would otherwise take from /etc/apt or /var/lib/apt points into $apt: the
# machine's own lists, sources, preferences and dpkg status are neither read nor written.
set -- -o "Dir::Etc=$apt/etc" -o "Dir::Etc::SourceList=$apt/etc/sources.list" \
  -o "Dir::Etc::SourceParts=$apt/etc/sources.list.d" -o "Dir::Etc::Parts=$apt/etc/apt.conf.d" \
  -o "Dir::Etc::PreferencesParts=$apt/etc/preferences.d" -o "Dir::State=$apt" \
  -o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status" -o "Dir::Cache=$apt/cache" \
  -o "APT::Architecture=$arch" -o "APT::Architectures=$arch" -o Acquire::Languages=none \
  -o Debug::NoLocking=1 -o Acquire::Retries=2 -o Acquire::http::Timeout=30
# As root apt drops to the _apt user to download, which cannot write into a private directory.
if [ "$(id -u)" -eq 0 ]; then set -- "$@" -o APT::Sandbox::User=root; fi

have_debs() {
  for p in $packages; do
    ls "$dest/debs/${p}_"*"_$arch.deb" "$dest/debs/${p}_"*"_all.deb" 2>/dev/null | grep -q . || return 1
  done
}

if ! have_debs; then
  echo "get-nvim-0.10.sh: downloading Neovim $want_version from $mirror trixie into $dest" >&2
  # --error-on=any: apt-get update otherwise exits 0 when it could fetch nothing.
  if ! apt-get "$@" -q --error-on=any update >"$apt/update.log" 2>&1; then
    cat "$apt/update.log" >&2
    skip "apt-get update of $mirror trixie failed (offline, or the mirror is unreachable)"
  fi
  # The candidate must be the version this lane is about.
  version=$(apt-cache "$@" show neovim 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
  case $version in
    "$want_series"*) ;;
    "") skip "$mirror trixie lists no neovim package" ;;
    *) fail "trixie's neovim is \"$version\", not $want_series*" ;;
  esac
  rm -f "$dest/debs/"*.deb
  if ! (cd "$dest/debs" && apt-get "$@" -q download $packages) >"$apt/download.log" 2>&1; then
    cat "$apt/download.log" >&2
    skip "apt-get download from $mirror failed"
  fi
  have_debs || fail "apt-get download did not leave every package in $dest/debs: $(ls "$dest/debs")"
  # The trixie lists (~20 MB) are only needed to download; the .debs are the cache.
  rm -rf "$apt/lists" "$apt/cache"
fi

root="$dest/root"
rm -rf "$root" "$dest/bin"
mkdir -p "$root" "$dest/bin"
for deb in "$dest/debs/"*.deb; do
  dpkg -x "$deb" "$root" || fail "dpkg -x $deb"
done
libdir="$root/usr/lib/$triplet"
[ -x "$root/usr/bin/nvim" ] || fail "$root/usr/bin/nvim missing after dpkg -x"
[ -e "$libdir/$loader" ] || fail "$libdir/$loader missing after dpkg -x"
# nvim derives its library directory (where trixie keeps the tree-sitter parsers,
# usr/lib/nvim) from /proc/self/exe, which is the loader when run through it: a hard link of
# the loader beside nvim makes that usr/bin, as for an installed nvim. (A copy if the hard link
# is refused.)
ln "$libdir/$loader" "$root/usr/bin/$loader" 2>/dev/null || cp "$libdir/$loader" "$root/usr/bin/$loader"

cat > "$wrapper" <<EOF
#!/bin/sh
# Neovim $want_version from Debian trixie, unpacked by tests/editors/get-nvim-0.10.sh; runs
# through trixie's loader so the system's libc stays untouched.
VIMRUNTIME="$root/usr/share/nvim/runtime"
VIM="$root/usr/share/nvim"
export VIMRUNTIME VIM
exec "$root/usr/bin/$loader" --argv0 nvim --library-path "$libdir" "$root/usr/bin/nvim" "\$@"
EOF
chmod +x "$wrapper"
cached || fail "$wrapper --version does not report $want_series*: $("$wrapper" --version 2>&1 | head -n 3)"
echo "$wrapper"
