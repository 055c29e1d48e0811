#include "GenerateFixture.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace greenlight::test::refine {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<char*> cstrings(const std::vector<std::string>& v) {
  std::vector<char*> out;
  for (const auto& s : v) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string makeTempDir(const char* prefix) {
  std::string tmpl = std::string("/tmp/") + prefix + "-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  return tmpl;
}

std::string envOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// The direct children of `pid` (from /proc/*/stat).
std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::string stat = slurp(e.path().string() + "/stat");
    auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (ppid == pid) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

}  // namespace

Workspace::Workspace() : root_(makeTempDir("greenlight-gen")) { write(".greenlight.json", "{}\n"); }

Workspace::~Workspace() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

void Workspace::write(const std::string& rel, const std::string& text) const {
  fs::create_directories(fs::path(path(rel)).parent_path());
  std::ofstream(path(rel), std::ios::binary) << text;
}

std::string Workspace::read(const std::string& rel) const { return slurp(path(rel)); }

std::vector<std::string> Workspace::files() const {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root_)) {
    if (e.is_regular_file()) out.push_back(e.path().lexically_relative(root_).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

ScriptedModel::ScriptedModel(const nlohmann::json& script, const std::vector<std::string>& env)
    : dir_(makeTempDir("greenlight-model")) {
  std::ofstream(dir_ + "/script.json") << script.dump(2);
  std::ofstream(dir_ + "/log.jsonl");
  const std::string python = envOr("GREENLIGHT_TEST_PYTHON", "python3");
  std::vector<std::string> argv = {"/usr/bin/env", python, GL_SCRIPTED_MODEL, "--script", dir_ + "/script.json",
                                   "--port-file", dir_ + "/port", "--log", dir_ + "/log.jsonl"};
  std::vector<std::string> environment = {"PATH=" + envOr("PATH", "/usr/bin:/bin"), "HOME=" + envOr("HOME", "/tmp")};
  for (const char* keep : {"PYENV_ROOT", "PYENV_VERSION"})
    if (const char* v = std::getenv(keep)) environment.push_back(std::string(keep) + "=" + v);
  environment.insert(environment.end(), env.begin(), env.end());
  auto args = cstrings(argv);
  auto envp = cstrings(environment);
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    // The server goes when the test process goes, even when it dies without unwinding.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(0);
    int fd = ::open((dir_ + "/server.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  const auto deadline = Clock::now() + scaled(std::chrono::seconds(60));
  while (Clock::now() < deadline) {
    std::string port = slurp(dir_ + "/port");
    if (!port.empty()) {
      port_ = std::stoi(port);
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("scripted model exited: " + slurp(dir_ + "/server.log"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("scripted model did not start within the bound: " + slurp(dir_ + "/server.log"));
}

ScriptedModel::~ScriptedModel() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 250; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string ScriptedModel::baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

std::string ScriptedModel::logText() const { return slurp(dir_ + "/log.jsonl"); }

void ScriptedModel::release(const std::string& name) const { std::ofstream(dir_ + "/" + name) << "go\n"; }

std::vector<nlohmann::json> ScriptedModel::requests() const {
  std::vector<nlohmann::json> out;
  std::istringstream in(logText());
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded()) out.push_back(std::move(j));
  }
  return out;
}

std::string ScriptedModel::lastUser(std::size_t i) const {
  auto all = requests();
  if (i >= all.size()) return "";
  const auto& messages = all[i]["body"]["messages"];
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if ((*it)["role"] == "user" && (*it)["content"].is_string()) return (*it)["content"].get<std::string>();
  }
  return "";
}

GenerateRun generate(const Workspace& ws, const ScriptedModel* model, const std::vector<std::string>& args,
                     const GenerateOptions& options) {
  std::vector<std::string> argv = {GL_GREENLIGHT_BIN, "generate"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env = {"PATH=" + envOr("PATH", "/usr/bin:/bin"), "HOME=" + envOr("HOME", "/tmp"),
                                  "XDG_CACHE_HOME=" + std::string(GL_TEST_CACHE_DIR)};
  for (const char* keep : {"PYENV_ROOT", "PYENV_VERSION", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"})
    if (const char* v = std::getenv(keep)) env.push_back(std::string(keep) + "=" + v);
  if (!options.noProvider && model) {
    env.push_back("GREENLIGHT_PROVIDER=openai");
    env.push_back("OPENAI_BASE_URL=" + model->baseUrl());
    env.push_back(std::string("OPENAI_API_KEY=") + kApiKey);
    env.push_back("GREENLIGHT_MODEL=scripted");
  }
  env.insert(env.end(), options.env.begin(), options.env.end());

  int outPipe[2], errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  auto cargs = cstrings(argv);
  auto cenv = cstrings(env);
  const auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    ::dup2(outPipe[1], 1);
    ::dup2(errPipe[1], 2);
    if (::chdir(ws.root().c_str()) != 0) ::_exit(126);
    ::execve(cargs[0], cargs.data(), cenv.data());
    ::_exit(127);
  }
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  GenerateRun run;
  const auto deadline = start + scaled(options.bound);
  bool outOpen = true, errOpen = true, signalled = false, exited = false;
  int status = 0;
  char buf[65536];
  while (outOpen || errOpen || !exited) {
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      run.timedOut = true;
      break;
    }
    pollfd fds[2] = {{outOpen ? outPipe[0] : -1, POLLIN, 0}, {errOpen ? errPipe[0] : -1, POLLIN, 0}};
    ::poll(fds, 2, 20);
    for (int i = 0; i < 2; ++i) {
      if (!fds[i].revents) continue;
      ssize_t n = ::read(i == 0 ? outPipe[0] : errPipe[0], buf, sizeof buf);
      if (n <= 0) (i == 0 ? outOpen : errOpen) = false;
      else (i == 0 ? run.out : run.err).append(buf, static_cast<std::size_t>(n));
    }
    if (!exited && options.trackChildren) {
      for (pid_t c : childrenOf(pid))
        if (std::find(run.children.begin(), run.children.end(), c) == run.children.end()) run.children.push_back(c);
    }
    if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) exited = true;
    if (!signalled && !exited && options.watch) {
      if (int sig = options.watch(run)) {
        signalled = true;
        if (sig > 0) ::kill(pid, sig);
      }
    }
  }
  if (!exited) ::waitpid(pid, &status, 0);
  run.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  ::close(outPipe[0]);
  ::close(errPipe[0]);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
  auto j = nlohmann::json::parse(run.out, nullptr, false);
  if (!j.is_discarded() && j.is_object()) run.json = std::move(j);
  return run;
}

std::vector<std::vector<std::string>> candidateStatuses(const nlohmann::json& result) {
  std::vector<std::vector<std::string>> out;
  if (!result.is_object() || !result.contains("rounds")) return out;
  for (const auto& round : result["rounds"]) {
    std::vector<std::string> statuses;
    for (const auto& c : round["candidates"]) statuses.push_back(c["status"].get<std::string>());
    out.push_back(statuses);
  }
  return out;
}

std::string fenced(const std::string& language, const std::string& code) {
  return "Here is the code:\n\n```" + language + "\n" + code + "\n```\n";
}

bool processAlive(pid_t pid) {
  std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  if (stat.empty()) return false;
  auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

}  // namespace greenlight::test::refine
