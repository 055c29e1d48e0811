#!/usr/bin/env bash
# Re-vendors acorn's dist/acorn.js and LICENSE from the npm registry, at the pinned version.
#
#   third_party/acorn/vendor.sh                       re-fetch the version in PIN, verify, write
#   third_party/acorn/vendor.sh VERSION INTEGRITY     move the pin (INTEGRITY: the registry's
#                                                     "sha512-..." for that version, as shown by
#                                                     `npm view acorn@VERSION dist.integrity`)
#   third_party/acorn/vendor.sh --check               verify the vendored files against SHA256SUMS
#
# The tarball comes through npm's own client (`npm pack`), and its SHA-512 is computed here and
# compared with the pin before anything is extracted: a registry or cache that serves other bytes
# stops the script with nothing written. The build never touches the network: it embeds the
# files of this directory (cmake/EmbedText.cmake), and the test `build.acorn_vendored` checks
# them against SHA256SUMS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "vendor.sh: $*" >&2; exit 1; }

read_pin() { sed -n "s/^$1=//p" "$here/PIN"; }
files=(acorn.js LICENSE)

if [ "${1:-}" = "--check" ]; then
  cd "$here" && sha256sum --quiet -c SHA256SUMS || die "vendored files differ from SHA256SUMS (edited by hand? re-run vendor.sh)"
  echo "vendor.sh: acorn $(read_pin version) matches SHA256SUMS"
  exit 0
fi

package=$(read_pin package)
version=${1:-$(read_pin version)}
integrity=${2:-$(read_pin integrity)}
[ -n "$package" ] && [ -n "$version" ] && [ -n "$integrity" ] || die "PIN lacks package, version or integrity"
[ $# -eq 0 ] || [ $# -eq 2 ] || die "usage: vendor.sh [VERSION INTEGRITY | --check]"
case "$integrity" in sha512-*) ;; *) die "integrity must be a sha512-... value, got '$integrity'" ;; esac
for tool in npm tar sha256sum openssl base64; do
  command -v "$tool" >/dev/null || die "$tool is needed"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gl-vendor-acorn.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "vendor.sh: fetching $package@$version with npm pack"
(cd "$work" && npm pack --silent --ignore-scripts "$package@$version" >/dev/null) || die "npm pack $package@$version failed"
tarball="$work/$package-$version.tgz"
[ -f "$tarball" ] || die "npm pack did not write $tarball"

actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
[ "$actual" = "$integrity" ] || die "integrity mismatch for $package@$version: pinned $integrity, got $actual"

mkdir "$work/x"
tar -xzf "$tarball" -C "$work/x" package/dist/acorn.js package/LICENSE package/package.json \
  || die "the tarball lacks package/dist/acorn.js, LICENSE or package.json"
got=$(node -e 'process.stdout.write(require(process.argv[1]).version)' "$work/x/package/package.json" 2>/dev/null \
      || sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$work/x/package/package.json" | head -n1)
[ "$got" = "$version" ] || die "package.json says version '$got', expected $version"
grep -q "var version = \"$version\"" "$work/x/package/dist/acorn.js" || die "dist/acorn.js does not declare version $version"
if grep -q ')GLACORN"' "$work/x/package/dist/acorn.js"; then
  die "dist/acorn.js contains the embedding delimiter )GLACORN\" (change it in cmake/EmbedText.cmake)"
fi

cp "$work/x/package/dist/acorn.js" "$here/acorn.js"
cp "$work/x/package/LICENSE" "$here/LICENSE"
{
  echo "# third_party/acorn/PIN: package, version and the npm registry's integrity of its tarball."
  echo "# vendor.sh reads this file; run it with a new VERSION and INTEGRITY to move the pin."
  echo "package=$package"
  echo "version=$version"
  echo "integrity=$integrity"
} > "$here/PIN"
(cd "$here" && sha256sum "${files[@]}" > SHA256SUMS)
echo "vendor.sh: vendored $package@$version ($(wc -c < "$here/acorn.js") bytes of dist/acorn.js)"
