// `greenlight generate PATH:LINE [--apply|--diff] [--json] [--rounds N] [--candidates N]
// [--allow-unverified] [--tests-first] [--yes] [--tests-file F]`: generate → test → refine for
// the comment (or stub) at LINE; with no tests near it, --tests-first proposes tests from the
// comment first (TestsFirst.h), shown and accepted on the terminal before any code is asked for.
// Exit: 0 passing code found (written with --apply), 1 none passed within the budget (nothing
// written), 2 usage/config error (no provider: says how to set one up), 3 no tests found (code
// printed, marked unverified; written only with --allow-unverified --apply), 130 interrupted.
//
// The loop runs on a worker thread; the main thread waits on its completion and on Ctrl-C, which
// cancels the loop (the model call and the sandbox stop at once). Progress goes to stderr: one
// line per round, and on a terminal a live status line (spinner, phase, tokens) above it.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <variant>

#include "cli/Commands.h"
#include "cli/Interrupt.h"
#include "core/providers/ChatClient.h"
#include "core/providers/Resolve.h"
#include "core/refine/Engine.h"
#include "core/refine/Feedback.h"
#include "core/refine/Imports.h"
#include "core/refine/ResultJson.h"
#include "core/testing/Discovery.h"
#include "sandbox/Sandbox.h"
#include "support/Cancellation.h"
#include "support/Log.h"

namespace greenlight::cli {
namespace {

namespace fs = std::filesystem;
using namespace core::refine;

const char kGenerateUsage[] =
    "usage: greenlight generate PATH:LINE [options]\n"
    "\n"
    "Writes the code a comment (or a stub) at LINE asks for with the configured LLM, runs the\n"
    "tests near it in the sandbox, feeds failures back for up to --rounds rounds, and prints the\n"
    "first candidate that passes every test.\n"
    "  --apply              write the passing code into PATH (atomically; refuses when PATH\n"
    "                       changed on disk meanwhile)\n"
    "  --diff               print a unified diff instead of the code\n"
    "  --json               print one JSON object (status, target, code, edit, rounds, summary)\n"
    "  --rounds N           refine rounds (default: refine.maxRounds, 3)\n"
    "  --candidates N       completions asked in round 1 (default: refine.candidates, 1)\n"
    "  --timeout S          the whole loop, in seconds (default: refine.timeoutSeconds, 300)\n"
    "  --allow-unverified   with --apply: also write code that no test could check\n"
    "  --tests-first        with no tests near the target: first ask for tests written from the\n"
    "                       comment alone, show them, and ask to accept, edit ($EDITOR) or cancel\n"
    "  --yes                accept the proposed tests without asking\n"
    "  --tests-file FILE    the accepted tests (the whole test file's text): generate against them\n"
    "                       (--apply writes them with the code)\n"
    "  --provider P, --model M, --base-url URL   override the provider settings\n"
    "  --log-level L        trace, debug, info, warn (default), error\n"
    "exit: 0 passed, 1 no candidate passed (nothing written), 2 usage or configuration error,\n"
    "      3 no tests found (code printed unverified; with --tests-first and no terminal: the\n"
    "      proposed tests printed, nothing written), 130 interrupted\n";

int usage(const std::string& message) {
  std::fprintf(stderr, "greenlight generate: %s\n\n%s", message.c_str(), kGenerateUsage);
  return 2;
}

std::optional<int> positiveInt(const std::string& v, int max) {
  char* end = nullptr;
  errno = 0;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || n < 1 || n > max) return std::nullopt;
  return static_cast<int>(n);
}

std::optional<std::string> readWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return s.str();
}

// Writes `text` over `path` through a temporary file in the same directory and rename(2), so a
// reader sees the old file or the new one, never half of it. Refuses when the file no longer
// holds `expected` (it changed on disk since it was read). A symlink is followed: the file it
// points to is replaced and the link stays a link. Mode and (where permitted) owner are kept.
bool writeAtomically(const std::string& linkPath, const std::string& expected, const std::string& text, std::string* error) {
  auto now = readWhole(linkPath);
  if (!now || *now != expected) {
    *error = linkPath + " changed on disk while the code was being generated; nothing was written (run generate again)";
    return false;
  }
  std::error_code ec;
  const std::string path = fs::canonical(linkPath, ec).string();
  if (ec) {
    *error = "realpath " + linkPath + ": " + ec.message();
    return false;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    *error = "stat " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string tmpl = (fs::path(path).parent_path() / ("." + fs::path(path).filename().string() + ".greenlight-XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    *error = "mkstemp " + tmpl + ": " + std::strerror(errno);
    return false;
  }
  bool ok = true;
  std::size_t done = 0;
  while (ok && done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = "write " + tmpl + ": " + std::strerror(errno);
      ok = false;
    } else {
      done += static_cast<std::size_t>(n);
    }
  }
  if (ok && ::fchmod(fd, st.st_mode & 07777) != 0) {
    *error = "fchmod " + tmpl + ": " + std::strerror(errno);
    ok = false;
  }
  // Someone else's file edited by root stays theirs; an unprivileged user cannot give a file
  // away and keeps the file as their own, which is what writing it in place would do too.
  if (ok && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) && ::fchown(fd, st.st_uid, st.st_gid) != 0) {
    // Best effort: EPERM leaves the new file with the writer's owner.
  }
  if (ok && ::fsync(fd) != 0) {
    *error = "fsync " + tmpl + ": " + std::strerror(errno);
    ok = false;
  }
  ::close(fd);
  if (ok && ::rename(tmpl.c_str(), path.c_str()) != 0) {
    *error = "rename " + tmpl + " -> " + path + ": " + std::strerror(errno);
    ok = false;
  }
  if (!ok) ::unlink(tmpl.c_str());
  return ok;
}

// The live status line on a terminal; plain lines otherwise.
class ProgressPrinter {
 public:
  explicit ProgressPrinter(bool quiet) : quiet_(quiet), tty_(::isatty(2) == 1) {}
  void onEvent(const RefineEvent& e) {
    if (quiet_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (e.phase == Phase::Scored) {
      clearLine();
      std::fprintf(stderr, "%s\n", e.message.c_str());
      return;
    }
    if (!tty_) return;
    static const char* kSpin[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
    clearLine();
    std::fprintf(stderr, "%s %s", kSpin[spin_++ % 10], e.message.c_str());
    std::fflush(stderr);
    live_ = true;
  }
  void finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    clearLine();
  }

 private:
  void clearLine() {
    if (live_) std::fputs("\r\033[K", stderr);
    live_ = false;
  }
  bool quiet_, tty_;
  bool live_ = false;
  unsigned spin_ = 0;
  std::mutex mutex_;
};

// What stdout shows of a result: the import lines the file lacks, a blank line, then the code.
std::string codeWithNewImports(const RefineResult& result, const std::string& original) {
  std::string out;
  if (result.target) {
    for (const auto& i : core::refine::missingImports(result.additions.imports, original, result.target->language)) out += i + "\n";
  }
  if (!out.empty()) out += "\n";
  out += result.code;
  if (out.back() != '\n') out += '\n';
  return out;
}


// One run of the loop on a worker thread; Ctrl-C cancels it (the model call and the sandbox stop
// at once).
RefineResult runLoop(const RefineRequest& request, const core::providers::Endpoint& endpoint, ProgressPrinter& progress) {
  Interrupts interrupts;
  support::CancellationSource cancel, finished;
  RefineResult result;
  core::providers::ChatClient client;
  ProviderModel model(client, endpoint);
  core::testing::TestService::Options options;
  options.workers = 1;
  core::testing::TestService service(options);
  RefineEngine engine(model, service);
  std::thread worker([&] {
    result = engine.run(request, [&](const RefineEvent& e) { progress.onEvent(e); }, cancel.token());
    finished.cancel();
  });
  waitUnlessInterrupted(finished.token().fd(), interrupts, [](void* c) { static_cast<support::CancellationSource*>(c)->cancel(); },
                        &cancel);
  worker.join();
  return result;
}

void printProposalNotes(const TestsProposal& p, const std::string& root) {
  const std::string rel = relativePath(p.path, root);
  for (const auto& f : p.flagged)
    std::fprintf(stderr, "%s:%d: warning: %s: %s\n", rel.c_str(), f.line, f.name.c_str(), f.message.c_str());
  if (!p.error.empty()) std::fprintf(stderr, "%s: error: %s\n", rel.c_str(), p.error.c_str());
}

// The proposal on the terminal: accept, edit in $EDITOR (the edited text is what counts), or
// cancel. The text being edited lives in a private temporary file, never in the workspace.
std::optional<std::string> askOnTerminal(const TestsProposal& proposal, const std::string& root) {
  std::string text = proposal.text;
  const std::string rel = relativePath(proposal.path, root);
  for (;;) {
    std::fprintf(stderr, "--- proposed tests: %s (%s)\n", rel.c_str(), proposal.exists ? "added to the file" : "new file");
    std::fputs(text.c_str(), stderr);
    if (!text.empty() && text.back() != '\n') std::fputc('\n', stderr);
    if (text == proposal.text) printProposalNotes(proposal, root);
    std::fprintf(stderr, "Accept tests and generate [a], edit [e], cancel [c]? ");
    std::fflush(stderr);
    std::string answer;
    if (!std::getline(std::cin, answer)) return std::nullopt;
    if (answer == "a" || answer == "A" || answer == "y" || answer == "yes") return text;
    if (answer == "c" || answer == "C" || answer == "n" || answer == "no") return std::nullopt;
    if (answer != "e" && answer != "E") continue;
    std::string tmpl = (fs::temp_directory_path() / ("greenlight-tests-XXXXXX" + fs::path(proposal.path).extension().string())).string();
    int fd = ::mkstemps(tmpl.data(), static_cast<int>(fs::path(proposal.path).extension().string().size()));
    if (fd < 0) {
      std::fprintf(stderr, "greenlight generate: mkstemps %s: %s\n", tmpl.c_str(), std::strerror(errno));
      continue;
    }
    ::close(fd);
    {
      std::ofstream out(tmpl, std::ios::binary | std::ios::trunc);
      out << text;
    }
    const char* editor = std::getenv("VISUAL");
    if (!editor || !*editor) editor = std::getenv("EDITOR");
    std::string cmd = std::string(editor && *editor ? editor : "vi") + " '" + tmpl + "'";
    int rc = std::system(cmd.c_str());
    if (rc == 0) {
      if (auto edited = readWhole(tmpl)) text = *edited;
    } else {
      std::fprintf(stderr, "greenlight generate: the editor exited with %d; the tests are unchanged\n", rc);
    }
    ::unlink(tmpl.c_str());
  }
}

// Writes the accepted tests: a new file (its folders made) that must not exist yet, or over an
// existing one that must still hold what the proposal was made from.
bool writeTests(const TestsOutcome& tests, std::string* error) {
  std::error_code ec;
  if (tests.isNew) {
    if (fs::exists(tests.path, ec)) {
      *error = tests.path + " appeared on disk while the code was being generated; nothing was written";
      return false;
    }
    fs::create_directories(fs::path(tests.path).parent_path(), ec);
    if (ec) {
      *error = "mkdir " + fs::path(tests.path).parent_path().string() + ": " + ec.message();
      return false;
    }
    int fd = ::open(tests.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      *error = "open " + tests.path + ": " + std::strerror(errno);
      return false;
    }
    std::size_t done = 0;
    while (done < tests.text.size()) {
      ssize_t n = ::write(fd, tests.text.data() + done, tests.text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        *error = "write " + tests.path + ": " + std::strerror(errno);
        ::close(fd);
        ::unlink(tests.path.c_str());
        return false;
      }
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return true;
  }
  return writeAtomically(tests.path, tests.original, tests.text, error);
}

// The command line, parsed.
struct GenerateOptions {
  std::string target, testsFile;
  bool apply = false, diff = false, json = false, allowUnverified = false, testsFirst = false, yes = false;
  int rounds = 0, candidates = 0;
  double timeout = 0;
  nlohmann::json overrides = nlohmann::json::object();
  std::map<std::string, std::string> flagOrigin;
};

// The options, or the exit code when parsing ends the command (--help, a usage error).
std::variant<GenerateOptions, int> parseOptions(const Args& args) {
  GenerateOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kGenerateUsage, stdout);
      return 0;
    } else if (a == "--apply") {
      o.apply = true;
    } else if (a == "--diff") {
      o.diff = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--allow-unverified") {
      o.allowUnverified = true;
    } else if (a == "--tests-first") {
      o.testsFirst = true;
    } else if (a == "--yes" || a == "-y") {
      o.yes = true;
    } else if (a == "--tests-file") {
      auto v = value();
      if (!v) return usage("--tests-file needs a file holding the accepted tests");
      o.testsFile = *v;
    } else if (a == "--rounds" || a == "--candidates" || a == "--timeout" || a == "--provider" || a == "--model" ||
               a == "--base-url" || a == "--log-level") {
      auto v = value();
      if (!v) return usage(a + " needs a value");
      if (a == "--rounds") {
        auto n = positiveInt(*v, 10);
        if (!n) return usage("--rounds needs a number from 1 to 10");
        o.rounds = *n;
      } else if (a == "--candidates") {
        auto n = positiveInt(*v, 8);
        if (!n) return usage("--candidates needs a number from 1 to 8");
        o.candidates = *n;
      } else if (a == "--timeout") {
        char* end = nullptr;
        o.timeout = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end != '\0' || !(o.timeout > 0) || o.timeout > 86400)
          return usage("--timeout needs a positive number of seconds");
      } else if (a == "--provider") {
        if (*v != "auto" && *v != "openai" && *v != "anthropic") return usage("unknown provider '" + *v + "' (auto, openai, anthropic)");
        o.overrides["provider"] = *v;
        o.flagOrigin["provider"] = "--provider";
      } else if (a == "--model") {
        o.overrides["model"] = *v;
        o.flagOrigin["model"] = "--model";
      } else if (a == "--base-url") {
        o.overrides["baseUrl"] = *v;
        o.flagOrigin["baseUrl"] = "--base-url";
      } else {
        auto level = support::parseLogLevel(*v);
        if (!level) return usage("unknown log level '" + *v + "'");
        support::setLogLevel(*level);
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option " + a);
    } else if (o.target.empty()) {
      o.target = a;
    } else {
      return usage("unexpected argument '" + a + "' (one PATH:LINE only)");
    }
  }
  if (o.target.empty()) return usage("missing PATH:LINE");
  if (o.apply && o.diff) return usage("--apply and --diff exclude each other");
  return o;
}

// What the loop is asked and by whom: the file as it is on disk, its workspace, the endpoint.
struct Prepared {
  std::string path, original, root;
  RefineRequest request;
  core::providers::Endpoint endpoint;
};

// PATH:LINE read and checked, the configuration and the provider resolved, the request built;
// or the exit code with the reason on stderr. A wrong LINE is an error whether or not a model is
// configured, so the target is found before the provider.
std::variant<Prepared, int> prepare(const GenerateOptions& o) {
  auto colon = o.target.rfind(':');
  if (colon == std::string::npos || colon + 1 >= o.target.size() ||
      o.target.find_first_not_of("0123456789", colon + 1) != std::string::npos)
    return usage("expected PATH:LINE (the line of the comment or stub), got '" + o.target + "'");
  auto line = positiveInt(o.target.substr(colon + 1), 100000000);
  if (!line) return usage("line must be a positive number in '" + o.target + "'");
  std::error_code ec;
  Prepared p;
  p.path = o.target.substr(0, colon);
  if (!fs::is_regular_file(p.path, ec)) {
    std::fprintf(stderr, "greenlight generate: %s: no such file\n", p.path.c_str());
    return 2;
  }
  p.path = fs::absolute(p.path, ec).lexically_normal().string();
  auto original = readWhole(p.path);
  if (!original) {
    std::fprintf(stderr, "greenlight generate: %s: cannot read the file\n", p.path.c_str());
    return 2;
  }
  p.original = *original;

  p.root = core::testing::findWorkspaceRoot(p.path);
  std::string error;
  auto config = core::providers::configForCommandLine(p.root, o.overrides, o.flagOrigin, &error);
  if (!config) {
    std::fprintf(stderr, "greenlight generate: configuration error: %s\n", error.c_str());
    return 2;
  }
  auto language = core::testing::languageForPath(p.path);
  if (!language || *language == core::testing::Language::Command) {
    std::fprintf(stderr, "greenlight generate: %s: generate supports Python (.py), JavaScript (.js, .mjs, .cjs) and C++ files\n",
                 p.path.c_str());
    return 2;
  }
  if (auto lookup = findTarget(p.original, *line, *language); !lookup.target) {
    std::fprintf(stderr, "greenlight generate: %s:%d: %s\n", p.path.c_str(), *line, lookup.error.c_str());
    return 2;
  }
  auto resolved = core::providers::resolveProvider(*config);
  if (!resolved.found || !resolved.problem.empty()) {
    std::fprintf(stderr, "greenlight generate: %s\n", resolved.found ? resolved.problem.c_str() : "no LLM provider is configured");
    std::fprintf(stderr,
                 "  set one up, for example:\n"
                 "    export OPENAI_API_KEY=...        (OpenAI; or ANTHROPIC_API_KEY=... for Anthropic)\n"
                 "    export GREENLIGHT_BASE_URL=http://127.0.0.1:11434/v1   (Ollama, llama.cpp, vLLM: any OpenAI-compatible server)\n"
                 "    or \"provider\"/\"baseUrl\"/\"model\" in %s/.greenlight.json\n",
                 p.root.c_str());
    if (!resolved.hint.empty()) std::fprintf(stderr, "  hint: %s\n", resolved.hint.c_str());
    for (const auto& t : resolved.tried) std::fprintf(stderr, "  tried %s\n", t.c_str());
    return 2;
  }
  GL_LOG(Info, "generate: " << resolved.endpoint.name << " " << resolved.endpoint.model << " at " << resolved.endpoint.baseUrl);
  p.endpoint = resolved.endpoint;

  RefineRequest& request = p.request;
  request.path = p.path;
  request.text = p.original;
  request.line = *line;
  request.workspaceRoot = p.root;
  request.config = *config;
  request.maxRounds = o.rounds;
  request.candidates = o.candidates;
  request.timeoutSeconds = o.timeout;
  // The terminal asks only when told to (--tests-first, --yes, generate.testsFirst "always"):
  // without, a target with no tests keeps the unverified result.
  request.testsFirst = o.testsFirst || o.yes || config->generate.testsFirst == "always" ? "always" : "never";
  if (!o.testsFile.empty()) {
    auto text = readWhole(o.testsFile);
    if (!text) {
      std::fprintf(stderr, "greenlight generate: --tests-file %s: cannot read the file\n", o.testsFile.c_str());
      return 2;
    }
    request.acceptedTests = AcceptedTests{"", *text};
  }
  return p;
}

// Tests first: the proposal is shown and accepted (with --yes, on the terminal, edited or not)
// or cancelled before any code is asked for; accepted, the loop runs again against that text and
// `result` is its result. The exit code when the command ends here (nothing written).
std::optional<int> settleProposal(const GenerateOptions& o, Prepared& p, ProgressPrinter& progress, RefineResult& result) {
  if (result.status != "tests_proposed" || !result.proposal) return std::nullopt;
  const TestsProposal& proposal = *result.proposal;
  std::optional<std::string> accepted;
  if (o.yes) {
    if (!proposal.error.empty()) {
      std::fprintf(stderr, "greenlight generate: %s; nothing written\n", proposal.error.c_str());
      if (o.json) std::cout << refineResultToJson(result, false).dump() << std::endl;
      return 1;
    }
    for (const auto& f : proposal.flagged)
      std::fprintf(stderr, "greenlight generate: warning: %s:%d: %s: %s\n", relativePath(proposal.path, p.root).c_str(), f.line,
                   f.name.c_str(), f.message.c_str());
    accepted = proposal.text;
  } else if (o.json || ::isatty(0) != 1) {
    if (o.json) {
      std::cout << refineResultToJson(result, false).dump() << std::endl;
    } else {
      std::cout << proposal.text << std::flush;
      printProposalNotes(proposal, p.root);
      std::fprintf(stderr,
                   "greenlight generate: tests proposed for %s in %s; nothing written (accept with --yes, or save them and "
                   "pass --tests-file FILE)\n",
                   result.target ? result.target->name.c_str() : "the target", relativePath(proposal.path, p.root).c_str());
    }
    return 3;
  } else {
    accepted = askOnTerminal(proposal, p.root);
    if (!accepted) {
      std::fprintf(stderr, "greenlight generate: cancelled; nothing written\n");
      return 1;
    }
  }
  p.request.acceptedTests = AcceptedTests{proposal.path, *accepted};
  result = runLoop(p.request, p.endpoint, progress);
  return std::nullopt;
}

// --apply: the accepted tests (tests first) and then the code, each written atomically; false,
// with the reason on stderr, when a write was refused. `applied` says whether the code landed.
bool applyResult(const GenerateOptions& o, const Prepared& p, const RefineResult& result, bool* applied) {
  *applied = false;
  if (!o.apply || !result.edit) return true;
  if (result.status != "passed" && !(result.status == "unverified" && o.allowUnverified)) return true;
  std::string why;
  if (result.tests && result.status == "passed" && !writeTests(*result.tests, &why)) {
    std::fprintf(stderr, "greenlight generate: %s\n", why.c_str());
    return false;
  }
  if (!writeAtomically(p.path, p.original, result.newText, &why)) {
    std::fprintf(stderr, "greenlight generate: %s\n", why.c_str());
    return false;
  }
  *applied = true;
  return true;
}

// The result on stdout (JSON, the code, or a diff) and its headline on stderr; the exit code.
int report(const GenerateOptions& o, const Prepared& p, const RefineResult& result, bool applied) {
  std::error_code ec;
  const std::string cwd = fs::current_path(ec).string();
  const std::string rel = relativePath(p.path, cwd);
  if (o.json) {
    std::cout << refineResultToJson(result, applied).dump() << std::endl;
  } else if (!result.code.empty() && (result.status == "passed" || result.status == "unverified")) {
    // Tests first: the tests land with the code, so the diff shows both (the tests first).
    if (o.diff && result.tests && result.status == "passed")
      std::cout << unifiedDiff(result.tests->original, result.tests->text, relativePath(result.tests->path, cwd));
    if (o.diff) std::cout << unifiedDiff(p.original, result.newText, rel);
    else std::cout << codeWithNewImports(result, p.original);
    std::cout << std::flush;
  }
  if (result.status == "passed") {
    if (!o.json) {
      const std::string both = result.tests ? rel + " and " + relativePath(result.tests->path, cwd) : rel;
      std::string note = applied ? "; written to " + both : o.apply ? "" : result.tests ? "; not written (--apply writes the tests and the code)" : "; not written (--apply writes it)";
      std::fprintf(stderr, "greenlight generate: %s%s\n", resultHeadline(result).c_str(), note.c_str());
    }
    return 0;
  }
  if (result.status == "unverified") {
    if (!o.json) {
      std::fprintf(stderr, "greenlight generate: no tests found near %s and no example in the comment: the code is unverified%s\n",
                   rel.c_str(), applied ? "; written (--allow-unverified)" : "; nothing written (--apply --allow-unverified writes it)");
    }
    return 3;
  }
  if (result.status == "cancelled") {
    if (!o.json) std::fprintf(stderr, "greenlight generate: interrupted; nothing written\n");
    return 130;
  }
  if (result.usageError) {
    if (!o.json) std::fprintf(stderr, "greenlight generate: %s\n", result.error.c_str());
    return 2;
  }
  if (result.status == "failed") {
    if (!o.json) {
      std::fprintf(stderr, "greenlight generate: no candidate passed in %zu round%s: %s; see --json for the failures; nothing written\n",
                   result.rounds.size(), result.rounds.size() == 1 ? "" : "s", result.error.c_str());
    }
    return 1;
  }
  if (!o.json) std::fprintf(stderr, "greenlight generate: %s\n", result.error.c_str());
  return 1;
}

}  // namespace

// Steps: parse the options, prepare the request, run the loop, settle a tests-first proposal,
// apply, report.
int generateCommand(const Args& args) {
  support::setLogLevel(support::LogLevel::Warn);
  auto parsed = parseOptions(args);
  if (const int* exit = std::get_if<int>(&parsed)) return *exit;
  const GenerateOptions& o = std::get<GenerateOptions>(parsed);
  auto prepared = prepare(o);
  if (const int* exit = std::get_if<int>(&prepared)) return *exit;
  Prepared& p = std::get<Prepared>(prepared);

  ProgressPrinter progress(o.json && ::isatty(2) != 1);
  if (p.request.config.sandbox.warmInterpreters) sandbox::keepSpares(true);
  RefineResult result = runLoop(p.request, p.endpoint, progress);
  if (auto exit = settleProposal(o, p, progress, result)) return *exit;
  progress.finish();

  bool applied = false;
  if (!applyResult(o, p, result, &applied)) {
    if (o.json) std::cout << refineResultToJson(result, false).dump() << std::endl;
    return 1;
  }
  return report(o, p, result, applied);
}

}  // namespace greenlight::cli
