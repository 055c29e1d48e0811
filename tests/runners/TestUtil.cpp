#include "TestUtil.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace greenlight::test {
namespace fs = std::filesystem;

TempWorkspace::TempWorkspace() {
  char tmpl[] = "/tmp/gl-runners-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  root_ = tmpl;
  write(".greenlight.json", "{}\n");
}

TempWorkspace::~TempWorkspace() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

std::string TempWorkspace::write(const std::string& rel, const std::string& text) const {
  fs::path p = fs::path(root_) / rel;
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  return p.string();
}

CommandOutput runShell(const std::string& command) {
  CommandOutput r;
  char errTmpl[] = "/tmp/gl-runners-err-XXXXXX";
  int fd = ::mkstemp(errTmpl);
  if (fd >= 0) ::close(fd);
  std::string full = command + " 2>" + errTmpl;
  FILE* p = ::popen(full.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(errTmpl);
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  ::unlink(errTmpl);
  return r;
}

}  // namespace greenlight::test
