#!/usr/bin/env bash
# Textual half of the dependency rule (the include-path half is visibility_*.cpp):
#  - no "../" in any #include of our sources (it would bypass the per-module include roots);
#  - third-party headers only where DESIGN.md allows them;
#  - server/lsp does not name sandbox/ headers directly.
set -u
root=${1:?usage: include_lint.sh SOURCE_ROOT}
cd "$root" || exit 2
fail=0
report() { echo "include_lint: $1"; fail=1; }

while IFS= read -r hit; do report "relative include escapes its module: $hit"; done \
  < <(grep -rnE '^\s*#\s*include\s*"\.\./' protocol sandbox server 2>/dev/null)

forbid() {  # dir pattern why
  local dir=$1 pat=$2 why=$3
  [ -d "$dir" ] || return 0
  while IFS= read -r hit; do report "$why: $hit"; done \
    < <(grep -rnE "^\s*#\s*include\s*[<\"]($pat)" "$dir" 2>/dev/null)
}
forbid protocol 'boost/|curl/|seccomp|sandbox/|support/|core/|lsp/' "protocol/ depends on nlohmann/json only"
forbid sandbox 'nlohmann/|boost/|curl/|protocol/|support/|core/|lsp/' "sandbox/ depends on libc + libseccomp only"
forbid server/support 'nlohmann/|boost/|curl/|seccomp|protocol/|sandbox/|core/|lsp/' "server/support includes nothing of ours or third-party"
forbid server/core 'boost/|lsp/' "server/core knows nothing of LSP transport or Asio"
forbid server/lsp 'sandbox/|curl/|seccomp' "server/lsp goes through server/core"

# The test adapters (issue 34 item 7): a job flows once through adapters/TestJob.h. Outside the
# adapters nothing names an adapter's header but that one, and the adapters' tools (Discovery,
# Runner, the project readers, cmake/, native/, harness/) name none at all: arrows run down only.
while IFS= read -r hit; do report "reaches into an adapter (only core/testing/adapters/TestJob.h is public): $hit"; done \
  < <(grep -rnE '^\s*#\s*include\s*"core/testing/adapters/' server 2>/dev/null | grep -v '^server/core/testing/adapters/' \
      | grep -v '"core/testing/adapters/TestJob.h"')
while IFS= read -r hit; do report "an adapters' tool includes an adapter (the arrow runs back up): $hit"; done \
  < <(grep -rnE '^\s*#\s*include\s*"core/testing/adapters/' server/core/testing 2>/dev/null \
      | grep -v '^server/core/testing/adapters/' | grep -v '^server/core/testing/TestService\.\(h\|cpp\):')

# Regexes are built by support::regex (breadth-first: a long run in a subject cannot overflow
# the stack, see server/support/Regex.h), never by std::regex's own constructors.
while IFS= read -r hit; do report "<regex> outside server/support/Regex.h (include support/Regex.h): $hit"; done \
  < <(grep -rnE '^\s*#\s*include\s*<regex>' protocol sandbox server 2>/dev/null | grep -v '^server/support/Regex.h:')
while IFS= read -r hit; do report "a std::regex built without support::regex: $hit"; done \
  < <(grep -rnE '(^|[^:[:alnum:]_])std::regex(\s+[[:alnum:]_]+)?\s*[({]' protocol sandbox server 2>/dev/null | grep -v '^server/support/Regex.h:')

# catch_discover_tests cuts a test case's name at ';' (a CMake list): the halves match nothing
# and pass without running it.
while IFS= read -r hit; do report "a Catch2 TEST_CASE name with ';' (ctest splits it in two): $hit"; done \
  < <(grep -rnE 'TEST_CASE\("[^"]*;' tests 2>/dev/null)

if [ $fail -eq 0 ]; then echo "include_lint: ok"; fi
exit $fail
