#include "core/testing/PythonCoverTracer.h"

#include "core/testing/PythonBytecode.h"
#include "core/testing/harness/Harnesses.h"

namespace greenlight::core::testing {
namespace {

// Reads the C source on stdin, prints base64 of the shared object. Exit 3: an interpreter the
// tracer is not for; 4: no headers; 5: no compiler built it.
constexpr const char* kBuildScript = R"PY(
import base64, os, shlex, subprocess, sys, sysconfig, tempfile
if sys.implementation.name != "cpython" or not ((3, 8) <= sys.version_info[:2] < (3, 12)):
    sys.exit(3)
include = sysconfig.get_paths().get("include") or sysconfig.get_config_var("INCLUDEPY") or ""
if not os.path.isfile(os.path.join(include, "Python.h")):
    sys.exit(4)
work = tempfile.mkdtemp()
source, shared = os.path.join(work, "ctrace.c"), os.path.join(work, "ctrace.so")
with open(source, "wb") as f:
    f.write(sys.stdin.buffer.read())
compilers = [shlex.split(sysconfig.get_config_var("CC") or "")] + [[c] for c in ("cc", "gcc", "clang")]
for cc in compilers:
    if not cc:
        continue
    try:
        done = subprocess.run(cc + ["-shared", "-fPIC", "-O2", "-I", include, "-o", shared, source],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.SubprocessError):
        continue
    if done.returncode == 0:
        with open(shared, "rb") as f:
            sys.stdout.write(base64.b64encode(f.read()).decode("ascii"))
        sys.exit(0)
sys.exit(5)
)PY";

bool looksLikeElf(const std::string& bytes) { return bytes.size() > 64 && bytes.compare(0, 4, "\x7f" "ELF") == 0; }

}  // namespace

std::optional<std::string> pythonCoverTracer(const Tool& tool, const sandbox::Policy& policy) {
  return cachedPythonProduct(
      tool, {"python-ctrace", kBuildScript, std::string(harness::pythonCTrace()), "", ".so", looksLikeElf}, policy);
}

void stagePythonCoverTracer(const Tool& tool, const sandbox::Policy& policy, Staging& staging, nlohmann::json& config) {
  if (!config.contains("cover")) return;
  auto shared = pythonCoverTracer(tool, policy);
  if (!shared) return;
  config["cover_tracer"] = staging.addHarnessFile("_greenlight_ctrace.so", *shared);
}

}  // namespace greenlight::core::testing
