#!/usr/bin/env bash
# Every adapter as root, from a project under a private home (issue 33, item 6).
#
#   tests/projects/root0700.sh GREENLIGHT SOURCE_DIR JS_PROJECTS_DIR
#
# Root's home is 0700 in dev containers and CI images: the sandbox runs the tests as uid 65534,
# which cannot enter it, yet the project's own runner must reach the project there (bound from
# root's side before the drop, sandbox/PlanBuilder.cpp) without any permission widened. This copies
# one small fixture per adapter into /tmp/gl-0700-XXXX/home (mode 0700, HOME for the runs, so the
# private CMake build tree and the runners' caches sit under it too), adds to each a test file
# with one passing and one failing test, and runs `greenlight run` on it: the exit code, the
# summary line and the runner that ran must be the real ones. Nothing's mode is widened (checked
# after the runs). JS_PROJECTS_DIR holds the JavaScript projects with their node_modules
# (tests/projects/js/install.sh --into); a runner not installed there is skipped and named.
# Exit 77 (SKIP) when not root; when nothing failed but a runner was not installed, 77 too.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 GREENLIGHT SOURCE_DIR JS_PROJECTS_DIR" >&2; exit 2; }
gl=$1 src=$2 js=$3
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root (the private-home case is root's: the sandbox drops to uid 65534)"
  exit 77
fi
base=$(mktemp -d /tmp/gl-0700-XXXX) || exit 1
trap 'rm -rf "$base"' EXIT
home=$base/home
mkdir -m 0700 "$home"
failures=0 skipped=()
# The system's interpreters and node (a pyenv shim first on the caller's PATH is another matter).
sys_path=/usr/local/bin:/usr/bin:/bin

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# check NAME DIR FILE EXIT SUMMARY: `greenlight run FILE` in DIR exits EXIT and its last line is
# SUMMARY (a project runner that could not run says so and exits 2; pytest-edges' tests import
# calc.py through its rootdir, which only pytest's own collection gives them).
check() {
  local name=$1 dir=$2 file=$3 want_rc=$4 want_summary=$5 out rc last
  echo "=== $name: greenlight run $file (in ${dir#"$base"/})"
  out=$(cd "$dir" && HOME=$home XDG_CACHE_HOME= PATH=$sys_path "$gl" run "$file" 2>&1)
  rc=$?
  printf '%s\n' "$out" | tail -n 15
  last=$(printf '%s\n' "$out" | tail -n 1)
  [ "$rc" = "$want_rc" ] || fail "$name: exit $rc, expected $want_rc"
  [ "$last" = "$want_summary" ] || fail "$name: last line '$last', expected '$want_summary'"
}

# The built-in harnesses: examples/ (a passing and a failing example each).
cp -r "$src/examples" "$home/examples"
check "python harness" "$home/examples" python/textutil.py 1 "1 passed, 1 failed"
check "node harness (pass)" "$home/examples" javascript/mathutil.js 0 "2 passed, 0 failed"
check "node harness (fail)" "$home/examples" javascript/strutil.js 1 "0 passed, 1 failed"
check "c++ (pass)" "$home/examples" cpp/mathutil.cpp 0 "1 passed, 0 failed"
check "c++ (fail)" "$home/examples" cpp/strutil.cpp 1 "0 passed, 1 failed"

# pytest: pytest-edges (pytest.ini, conftest.py) with a test file of its own.
p=$home/pytest-edges
cp -r "$src/tests/projects/python/pytest-edges" "$p"
git init -q "$p"  # a project is a repository: its root is found by it
cat > "$p/tests/test_root0700.py" <<'EOF'
from calc import add


def test_adds():
    assert add(1, 2) == 3


def test_adds_wrong():
    assert add(1, 2) == 4
EOF
check pytest "$p" tests/test_root0700.py 1 "1 passed, 1 failed"

# unittest: unittest-edges (load_tests, a package).
p=$home/unittest-edges
cp -r "$src/tests/projects/python/unittest-edges" "$p"
git init -q "$p"
cat > "$p/tests/test_root0700.py" <<'EOF'
import unittest

from pkg.mod import double


class TestRoot(unittest.TestCase):
    def test_doubles(self):
        self.assertEqual(double(2), 4)

    def test_doubles_wrong(self):
        self.assertEqual(double(2), 5)
EOF
check unittest "$p" tests/test_root0700.py 1 "1 passed, 1 failed"

# jest, vitest, mocha: the installed copies, with their node_modules, into the home.
js_case() {
  local runner=$1 project=$2 file=$3 text=$4
  if [ ! -d "$js/$project/node_modules/$runner" ]; then
    echo "=== $runner: not installed in $js/$project (tests/projects/js/install.sh): skipped"
    skipped+=("$runner")
    return
  fi
  # The project's files copied; node_modules (never written) hard-linked when it can be.
  mkdir "$home/$project"
  (cd "$js/$project" && find . -mindepth 1 -maxdepth 1 ! -name node_modules -exec cp -r {} "$home/$project/" \;)
  cp -al "$js/$project/node_modules" "$home/$project/" 2>/dev/null || cp -a "$js/$project/node_modules" "$home/$project/"
  printf '%s\n' "$text" > "$home/$project/$file"
  check "$runner" "$home/$project" "$file" 1 "1 passed, 1 failed"
}
js_case jest jest-js __tests__/root0700.test.js "'use strict';
const {Money} = require('../src/money');
test('keeps cents', () => { expect(new Money(150).cents).toBe(150); });
test('keeps cents wrong', () => { expect(new Money(150).cents).toBe(151); });"
js_case vitest vitest-ts src/utils/root0700.test.ts "import { expect, it } from 'vitest';
import { getPath } from './path.js';
it('reads a key', () => { expect(getPath({ a: 1 }, 'a')).toBe(1); });
it('reads a key wrong', () => { expect(getPath({ a: 1 }, 'a')).toBe(2); });"
js_case mocha mocha-js test/root0700.js "'use strict';
const assert = require('node:assert/strict');
const {encode} = require('../lib/utils');
describe('root0700', function () {
  it('encodes', function () { assert.equal(encode('a b'), 'a%20b'); });
  it('encodes wrong', function () { assert.equal(encode('a b'), 'a b'); });
});"

# CMake/CTest: doctest-ringbuf, configured and built in the private build tree under
# \$HOME/.cache/greenlight/cmake (inside the 0700 home).
p=$home/doctest-ringbuf
cp -r "$src/tests/projects/cxx/doctest-ringbuf" "$p"
cat > "$p/tests/test_root0700.cpp" <<'EOF'
#include <doctest/doctest.h>

#include "ringbuf/ring_buffer.hpp"

TEST_CASE("root0700 holds what was pushed") {
  ringbuf::RingBuffer<int> b(2);
  b.push(1);
  CHECK(b.size() == 1);
}

TEST_CASE("root0700 holds what was pushed, wrong") {
  ringbuf::RingBuffer<int> b(2);
  b.push(1);
  CHECK(b.size() == 2);
}
EOF
sed -i 's/test_moving_stats.cpp)/test_moving_stats.cpp test_root0700.cpp)/' "$p/tests/CMakeLists.txt"
check cmake "$p" tests/test_root0700.cpp 1 "1 passed, 1 failed"

# The workspace is the private home itself (its .greenlight.json; an editor opened on ~): it is
# bound, and each project inside is bound again on its own, the sandbox covering the private home
# on the way in with an empty read-only stand-in (sandbox/PrivateParents.cpp).
ws=$base/workspace
mkdir -m 0700 "$ws"
echo '{}' > "$ws/.greenlight.json"
cp -r "$home/pytest-edges" "$ws/pytest-edges"
rm -rf "$ws/pytest-edges/.git"
check "pytest in a private workspace" "$ws/pytest-edges" tests/test_root0700.py 1 "1 passed, 1 failed"
if [ -d "$home/mocha-js" ]; then
  cp -a "$home/mocha-js" "$ws/mocha-js"
  check "mocha in a private workspace" "$ws/mocha-js" test/root0700.js 1 "1 passed, 1 failed"
fi

# A project directory that is itself private stays refused, in a sentence (nothing is widened).
p=$home/private-project
cp -r "$src/tests/projects/python/unittest-edges" "$p"
git init -q "$p"
chmod 0700 "$p"
echo "=== a 0700 project directory: refused"
out=$(cd "$p" && HOME=$home PATH=$sys_path "$gl" run tests/test_a.py 2>&1)
rc=$?
printf '%s\n' "$out" | tail -n 1
[ "$rc" = 2 ] || fail "0700 project: exit $rc, expected 2"
case "$out" in *"cannot read the project directory $p (mode 0700)"*) ;; *) fail "0700 project: no sentence naming it" ;; esac

# Nothing was widened: the home is still 0700.
mode=$(stat -c %a "$home")
[ "$mode" = 700 ] || fail "the home's mode is now $mode (was 700)"
mode=$(stat -c %a "$ws")
[ "$mode" = 700 ] || fail "the workspace's mode is now $mode (was 700)"

if [ "$failures" -gt 0 ]; then
  echo "root0700: $failures failure(s)"
  exit 1
fi
if [ ${#skipped[@]} -gt 0 ]; then
  echo "SKIP: not installed: ${skipped[*]} (every other adapter passed)"
  exit 77
fi
echo "root0700: every adapter ran as root under a 0700 home"
