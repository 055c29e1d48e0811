#!/usr/bin/env bash
# Re-vendors amaro's dist/internal.js (as amaro.js.gz: 3.7 MB of text, kept gzipped) and its licenses from the npm registry, at
# the pinned version.
#
#   third_party/amaro/vendor.sh                       re-fetch the version in PIN, verify, write
#   third_party/amaro/vendor.sh VERSION INTEGRITY     move the pin (INTEGRITY: the registry's
#                                                     "sha512-..." for that version, as shown by
#                                                     `npm view amaro@VERSION dist.integrity`)
#   third_party/amaro/vendor.sh --check               verify the vendored files against SHA256SUMS
#
# The tarball comes through npm's own client (`npm pack`), and its SHA-512 is computed here and
# compared with the pin before anything is extracted: a registry or cache that serves other bytes
# stops the script with nothing written. The build never touches the network: it embeds the
# files of this directory (cmake/EmbedText.cmake).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "vendor.sh: $*" >&2; exit 1; }

read_pin() { sed -n "s/^$1=//p" "$here/PIN"; }
files=(amaro.js.gz LICENSE.md LICENSE.swc)

if [ "${1:-}" = "--check" ]; then
  cd "$here" && sha256sum --quiet -c SHA256SUMS || die "vendored files differ from SHA256SUMS (edited by hand? re-run vendor.sh)"
  echo "vendor.sh: amaro $(read_pin version) matches SHA256SUMS"
  exit 0
fi

package=$(read_pin package)
version=${1:-$(read_pin version)}
integrity=${2:-$(read_pin integrity)}
[ -n "$package" ] && [ -n "$version" ] && [ -n "$integrity" ] || die "PIN lacks package, version or integrity"
[ $# -eq 0 ] || [ $# -eq 2 ] || die "usage: vendor.sh [VERSION INTEGRITY | --check]"
case "$integrity" in sha512-*) ;; *) die "integrity must be a sha512-... value, got '$integrity'" ;; esac
for tool in npm tar sha256sum openssl base64 node; do
  command -v "$tool" >/dev/null || die "$tool is needed"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gl-vendor-amaro.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "vendor.sh: fetching $package@$version with npm pack"
(cd "$work" && npm pack --silent --ignore-scripts "$package@$version" >/dev/null) || die "npm pack $package@$version failed"
tarball="$work/$package-$version.tgz"
[ -f "$tarball" ] || die "npm pack did not write $tarball"

actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
[ "$actual" = "$integrity" ] || die "integrity mismatch for $package@$version: pinned $integrity, got $actual"

mkdir "$work/x"
tar -xzf "$tarball" -C "$work/x" package/dist/internal.js package/dist/LICENSE package/LICENSE.md package/package.json \
  || die "the tarball lacks package/dist/internal.js, dist/LICENSE, LICENSE.md or package.json"
got=$(node -e 'process.stdout.write(require(process.argv[1]).version)' "$work/x/package/package.json")
[ "$got" = "$version" ] || die "package.json says version '$got', expected $version"
# The bundle must stand alone: it is written to /work/.gl without the rest of the package.
node -e '
  const src = require("fs").readFileSync(process.argv[1], "utf8");
  const reqs = [...src.matchAll(/require\(("[^"]*"|\x27[^\x27]*\x27)\)/g)].map((m) => m[1].slice(1, -1));
  const bad = reqs.filter((r) => !/^(node:)?(buffer|util)$/.test(r));
  if (bad.length) { console.error("requires more than node built-ins: " + bad.join(", ")); process.exit(1); }
  const m = require(process.argv[1]);
  const out = m.transformSync("const x: number = 1;", {mode: "strip-only"}).code;
  if (out !== "const x         = 1;") { console.error("unexpected strip-only output: " + JSON.stringify(out)); process.exit(1); }
' "$work/x/package/dist/internal.js" || die "dist/internal.js is not the self-contained transformSync bundle expected"
if grep -q ')GLAMARO"' "$work/x/package/dist/internal.js"; then
  die "dist/internal.js contains the embedding delimiter )GLAMARO\" (change it in CMakeLists.txt)"
fi

gzip -9 -n -c "$work/x/package/dist/internal.js" > "$here/amaro.js.gz"
cp "$work/x/package/LICENSE.md" "$here/LICENSE.md"
cp "$work/x/package/dist/LICENSE" "$here/LICENSE.swc"
{
  echo "# third_party/amaro/PIN: package, version and the npm registry's integrity of its tarball."
  echo "# vendor.sh reads this file; run it with a new VERSION and INTEGRITY to move the pin."
  echo "package=$package"
  echo "version=$version"
  echo "integrity=$integrity"
} > "$here/PIN"
(cd "$here" && sha256sum "${files[@]}" > SHA256SUMS)
echo "vendor.sh: vendored $package@$version ($(wc -c < "$work/x/package/dist/internal.js") bytes of dist/internal.js, $(wc -c < "$here/amaro.js.gz") gzipped)"
