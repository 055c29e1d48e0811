#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "TestUtil.h"
#include "core/testing/Toolchain.h"

using namespace greenlight::core::testing;
using greenlight::test::TempWorkspace;
namespace fs = std::filesystem;

namespace {

std::string exe(const TempWorkspace& ws, const std::string& rel, const std::string& text) {
  auto p = ws.write(rel, text);
  ::chmod(p.c_str(), 0755);
  return p;
}

}  // namespace

TEST_CASE("pyenv shims resolve to the selected version's real binary") {
  TempWorkspace ws;
  const std::string root = ws.root() + "/pyenv";
  exe(ws, "pyenv/shims/python3", "#!/usr/bin/env bash\nexec \"/x/libexec/pyenv\" exec \"$program\" \"$@\"\n");
  exe(ws, "pyenv/versions/3.9.1/bin/python3", "#!/bin/sh\necho Python 3.9.1\n");
  exe(ws, "pyenv/versions/3.12.0/bin/python3", "#!/bin/sh\necho Python 3.12.0\n");
  ws.write("pyenv/version", "3.12.0\n");
  exe(ws, "sys/python3", "#!/bin/sh\necho Python 3.0.0-system\n");
  ToolRequest req;
  req.name = "python3";
  req.queryVersion = true;
  req.environment = {{"PATH", root + "/shims:" + ws.root() + "/sys"}, {"PYENV_ROOT", root}, {"PYENV_VERSION", ""}};
  std::string err;
  clearToolCache();
  auto t = resolveTool(req, &err);
  INFO(err);
  REQUIRE(t);
  CHECK(t->via == "pyenv");
  CHECK(t->path == root + "/versions/3.12.0/bin/python3");
  CHECK(t->version == "Python 3.12.0");
  CHECK(!t->fingerprint.empty());  // the run cache's key for the binary (no --version needed)
  CHECK(t->bindPrefixes == std::vector<std::string>{root + "/versions/3.12.0"});
  // PYENV_VERSION wins over the global version file.
  req.environment["PYENV_VERSION"] = "3.9.1";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->path == root + "/versions/3.9.1/bin/python3");
  // A .python-version in the workspace wins over the global file.
  req.environment["PYENV_VERSION"] = "";
  ws.write("proj/.python-version", "3.9.1\n");
  req.workspaceRoot = ws.root() + "/proj";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->path == root + "/versions/3.9.1/bin/python3");
  // "system" continues the PATH search past the shims.
  req.environment["PYENV_VERSION"] = "system";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->path == ws.root() + "/sys/python3");
  // A version that is not installed: an error naming the shim.
  req.environment["PYENV_VERSION"] = "2.1.0";
  req.environment["PATH"] = root + "/shims";
  CHECK_FALSE(resolveTool(req, &err));
  CHECK(err.find("pyenv shim") != std::string::npos);
}

TEST_CASE("a workspace .venv is preferred for python names") {
  TempWorkspace ws;
  ws.write(".venv/pyvenv.cfg", "home = /usr/bin\n");
  fs::create_directories(ws.root() + "/.venv/bin");
  fs::create_symlink("/usr/bin/python3", ws.root() + "/.venv/bin/python3");
  ToolRequest req;
  req.name = "python3";
  req.workspaceRoot = ws.root();
  req.queryVersion = false;
  req.environment = {{"VIRTUAL_ENV", ""}};
  std::string err;
  auto t = resolveTool(req, &err);
  INFO(err);
  REQUIRE(t);
  CHECK(t->via == "venv");
  CHECK(t->invokedAs == ws.root() + "/.venv/bin/python3");
  CHECK(t->path == fs::canonical("/usr/bin/python3").string());
  CHECK(t->bindPrefixes == std::vector<std::string>{fs::canonical(ws.root()).string() + "/.venv"});
  CHECK(t->environment.at(0) == "VIRTUAL_ENV=" + fs::canonical(ws.root()).string() + "/.venv");
}

TEST_CASE("absolute paths, system prefixes and missing tools") {
  std::string err;
  ToolRequest req;
  req.name = "/usr/bin/python3";
  req.queryVersion = true;
  auto t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->via == "absolute");
  CHECK(t->bindPrefixes.empty());
  CHECK(t->version.rfind("Python 3", 0) == 0);
  req.name = "definitely-not-a-tool-xyz";
  CHECK_FALSE(resolveTool(req, &err));
  CHECK(err.find("not found on PATH") != std::string::npos);
  CHECK(isSystemPrefix("/usr/lib"));
  CHECK_FALSE(isSystemPrefix("/usrx"));
  CHECK_FALSE(isSystemPrefix("/root/.pyenv"));
}

TEST_CASE("the real python3 on this machine resolves to a binary, not a shim") {
  std::string err;
  ToolRequest req;
  req.name = "python3";
  req.queryVersion = true;
  auto t = resolveTool(req, &err);
  INFO(err);
  REQUIRE(t);
  CHECK(t->path.find("/shims/") == std::string::npos);
  CHECK(t->version.rfind("Python 3", 0) == 0);
}
