#include "core/testing/native/Gcov.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "core/testing/Coverage.h"
#include "core/testing/RunnerSteps.h"
#include "core/testing/cmake/PrivateBuild.h"
#include "support/Log.h"
#include "support/Regex.h"

namespace greenlight::core::testing::native {
namespace fs = std::filesystem;

namespace {

// A project of thousands of objects still reports in one gcov step; past this the run goes
// without coverage rather than without a bound.
constexpr std::size_t kMaxDataFiles = 4000;
constexpr double kGcovSeconds = 60;

bool endsWith(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool coverageEnabled() { return testing::coverageEnabled(); }

std::string gcovFor(const std::string& compilerId, const std::string& version) {
  if (!compilerId.empty() && compilerId != "GNU") return "";
  if (compilerId.empty() && (version.find("clang") != std::string::npos || version.find("Clang") != std::string::npos))
    return "";
  // The last x.y.z of the version text is GCC's own (Debian prefixes its package version).
  static const std::regex number = support::regex(R"((\d+)\.\d+(\.\d+)?)");
  std::string major;
  for (std::sregex_iterator it(version.begin(), version.end(), number), end; it != end; ++it) major = (*it)[1].str();
  if (!major.empty() && cmake::sandboxHasProgram("gcov-" + major)) return "gcov-" + major;
  return cmake::sandboxHasProgram("gcov") ? "gcov" : "";
}

std::string gcovForCommand(const std::string& compiler) {
  fs::path path = compiler;
  std::error_code ec;
  if (!path.is_absolute())
    for (const char* dir : {"/usr/local/bin/", "/usr/bin/", "/bin/"})
      if (fs::exists(dir + compiler, ec)) {
        path = dir + compiler;
        break;
      }
  const fs::path real = fs::canonical(path, ec);
  const std::string name = (ec ? path : real).filename().string();
  if (name.find("clang") != std::string::npos) return "";
  if (name.find("g++") == std::string::npos && name.find("gcc") == std::string::npos && name != "c++" && name != "cc") return "";
  static const std::regex suffix = support::regex(R"(-(\d+)$)");
  std::smatch m;
  return gcovFor("GNU", std::regex_search(name, m, suffix) ? m[1].str() + ".0" : "");
}

std::vector<std::string> gcovEnvironment(const std::string& sandboxDir) {
  // Strip nothing: the object's absolute path under the prefix (no two objects collide).
  return {"GCOV_PREFIX=" + sandboxDir, "GCOV_PREFIX_STRIP=0"};
}

std::vector<FileCoverage> parseGcovJson(std::string_view text, const std::function<bool(const std::string&)>& wanted) {
  std::map<std::string, std::map<int, long>> byFile;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto doc = nlohmann::json::parse(line, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("files") || !doc["files"].is_array()) continue;
    const std::string cwd = doc.value("current_working_directory", "");
    for (const auto& f : doc["files"]) {
      if (!f.is_object() || !f.contains("file") || !f["file"].is_string() || !f.contains("lines") || !f["lines"].is_array())
        continue;
      fs::path p = f["file"].get<std::string>();
      if (p.is_relative() && !cwd.empty()) p = fs::path(cwd) / p;
      const std::string file = p.lexically_normal().string();
      if (!wanted(file)) continue;
      auto& hits = byFile[file];
      for (const auto& l : f["lines"]) {
        if (!l.is_object()) continue;
        auto n = l.find("line_number");
        auto c = l.find("count");
        if (n == l.end() || c == l.end() || !n->is_number_integer() || !c->is_number()) continue;
        const int ln = n->get<int>();
        if (ln < 1) continue;
        hits[ln] += std::max(0L, static_cast<long>(c->get<double>()));
      }
    }
  }
  std::vector<FileCoverage> out;
  for (auto& [file, hits] : byFile) out.push_back({file, std::move(hits)});
  return out;
}

std::vector<FileCoverage> collectGcov(const GcovRun& run, const RunOptions& options) {
  if (run.gcov.empty() || run.files.empty() || run.dataDir.empty()) return {};
  std::error_code ec;
  std::vector<std::string> data;  // sandbox paths of the .gcda
  for (fs::recursive_directory_iterator it(run.dataDir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string host = it->path().string();
    if (!it->is_regular_file(ec) || !endsWith(host, ".gcda")) continue;
    if (data.size() >= kMaxDataFiles) {
      GL_LOG(Info, "coverage: more than " << kMaxDataFiles << " .gcda files under " << run.dataDir << ": not measured");
      return {};
    }
    const std::string rel = host.substr(run.dataDir.size());  // "/abs/object/dir/x.cpp.gcda"
    const std::string stem = host.substr(0, host.size() - 5);
    if (run.relevant && !run.relevant(run.prefixed ? rel.substr(0, rel.size() - 5) : stem)) continue;
    if (run.prefixed) {
      // gcov reads the notes beside the counts: copy the object's .gcno there.
      const std::string notes = rel.substr(0, rel.size() - 5) + ".gcno";
      if (!fs::copy_file(notes, stem + ".gcno", fs::copy_options::overwrite_existing, ec)) {
        ec.clear();
        continue;
      }
    } else if (!fs::exists(stem + ".gcno", ec)) {
      continue;
    }
    data.push_back(run.sandboxDataDir + rel);
  }
  if (data.empty()) return {};
  std::sort(data.begin(), data.end());
  sandbox::Policy p = run.policy;
  p.argv = {run.gcov, "--json-format", "--stdout"};
  p.argv.insert(p.argv.end(), data.begin(), data.end());
  p.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C"};
  p.workdir = run.sandboxDataDir;  // the runner's /work/src may not be staged (project builds)
  p.timeLimitSec = p.cpuLimitSec = kGcovSeconds;
  p.outputLimitBytes = std::max<std::size_t>(p.outputLimitBytes, 256u << 20);
  p.memoryLimitMb = std::max<std::size_t>(p.memoryLimitMb, 1024);
  p.profile = sandbox::Profile::Native;
  StepOutput out = executeStep(p, options, nullptr);
  if (out.verdict.status != sandbox::Status::Ok) {
    GL_LOG(Info, "coverage: " << run.gcov << " failed (" << sandbox::statusName(out.verdict.status) << " " << out.verdict.setupError << "): "
                              << out.stderrText.substr(0, 600));
    return {};
  }
  std::vector<std::string> wanted;
  for (const auto& f : run.files) wanted.push_back(fs::path(f).lexically_normal().string());
  auto toHost = run.toHost ? run.toHost : [](const std::string& s) { return s; };
  auto coverage = parseGcovJson(out.stdoutText, [&](const std::string& file) {
    return std::find(wanted.begin(), wanted.end(), toHost(file)) != wanted.end();
  });
  for (auto& c : coverage) c.file = toHost(c.file);
  return coverage;
}

}  // namespace greenlight::core::testing::native
