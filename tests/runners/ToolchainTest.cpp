#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "TestUtil.h"
#include "core/testing/NodeVersions.h"
#include "core/testing/PythonEnvs.h"
#include "core/testing/Sha256.h"
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

TEST_CASE("SHA-256 and base64url agree with the standard's vectors") {
  auto hex = [](const std::array<std::uint8_t, 32>& d) {
    std::string s;
    char buf[3];
    for (auto b : d) {
      std::snprintf(buf, sizeof buf, "%02x", b);
      s += buf;
    }
    return s;
  };
  CHECK(hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // 1,000 bytes: several blocks, and a tail that needs a second padding block.
  CHECK(hex(sha256(std::string(1000, 'a'))) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  const std::uint8_t bytes[] = {0xfb, 0xff, 0x01};
  CHECK(base64Url(bytes, 3) == "-_8B");
  CHECK(base64Url(bytes, 2) == "-_8=");
  CHECK(base64Url(bytes, 1) == "-w==");
}

TEST_CASE("Poetry's virtualenv of a project is found under its own name") {
  // Poetry names it <canonical name, 42 chars>-<base64url(sha256(realpath(project)))[:8]>-pyX.Y
  // (values computed with Poetry's own generate_env_name).
  CHECK(poetryEnvName("My_Project.Name", "/home/u/proj") == "my-project-name-nAn4BVom");
  CHECK(poetryEnvName("", "/home/u/proj").empty());

  TempWorkspace ws;
  const std::string proj = ws.root() + "/proj";
  ws.write("proj/pyproject.toml", "[tool.poetry]\nname = \"ledger\"\nversion = \"0.1\"\n\n[tool.pytest.ini_options]\n");
  const std::string envName = poetryEnvName("ledger", fs::canonical(proj).string());
  const std::string base = ws.root() + "/cache/pypoetry/virtualenvs";
  ws.write("cache/pypoetry/virtualenvs/" + envName + "-py3.9/pyvenv.cfg", "home = /usr/bin\n");
  ws.write("cache/pypoetry/virtualenvs/" + envName + "-py3.12/pyvenv.cfg", "home = /usr/bin\n");
  ws.write("cache/pypoetry/virtualenvs/ledger-AAAAAAAA-py3.12/pyvenv.cfg", "home = /usr/bin\n");  // another project's
  std::map<std::string, std::string> env = {{"XDG_CACHE_HOME", ws.root() + "/cache"}, {"HOME", ws.root() + "/home"}};
  auto lookup = [&](const std::string& k) { return env.count(k) ? env[k] : std::string(); };
  // The newest Python's, unless envs.toml says which one `poetry env use` made active.
  CHECK(poetryVenv(proj, lookup) == base + "/" + envName + "-py3.12");
  ws.write("cache/pypoetry/virtualenvs/envs.toml", "[" + envName + "]\nminor = \"3.9\"\nfull = \"3.9.18\"\n");
  CHECK(poetryVenv(proj, lookup) == base + "/" + envName + "-py3.9");
  // Listed after the in-project ones, before nothing else.
  ws.write("proj/.venv/pyvenv.cfg", "home = /usr/bin\n");
  env["UV_PROJECT_ENVIRONMENT"] = "envs/uv";
  ws.write("proj/envs/uv/pyvenv.cfg", "home = /usr/bin\n");
  CHECK(projectVenvs(proj, lookup) ==
        std::vector<std::string>{proj + "/envs/uv", proj + "/.venv", base + "/" + envName + "-py3.9"});
  // A project that Poetry does not manage has no Poetry venv.
  ws.write("plain/pyproject.toml", "[project]\nname = \"ledger\"\n");
  CHECK(poetryVenv(ws.root() + "/plain", lookup).empty());
}

TEST_CASE("python3 resolves to the project's Poetry venv") {
  TempWorkspace ws;
  const std::string proj = ws.root() + "/proj";
  ws.write("proj/pyproject.toml", "[tool.poetry]\nname = \"ledger\"\n");
  const std::string venv = ws.root() + "/pv/" + poetryEnvName("ledger", fs::canonical(proj).string()) + "-py3.11";
  ws.write(venv.substr(ws.root().size() + 1) + "/pyvenv.cfg", "home = /usr/bin\n");
  exe(ws, venv.substr(ws.root().size() + 1) + "/bin/python3", "#!/bin/sh\n");
  exe(ws, "sys/python3", "#!/bin/sh\n");
  ToolRequest req;
  req.name = "python3";
  req.workspaceRoot = proj;
  req.environment = {{"PATH", ws.root() + "/sys"}, {"POETRY_VIRTUALENVS_PATH", ws.root() + "/pv"}, {"VIRTUAL_ENV", ""}};
  std::string err;
  clearToolCache();
  auto t = resolveTool(req, &err);
  INFO(err);
  REQUIRE(t);
  CHECK(t->via == "venv");
  CHECK(t->invokedAs == venv + "/bin/python3");
}

TEST_CASE("npm ranges as engines.node writes them") {
  auto v = [](const char* s) { return *parseNodeVersion(s); };
  CHECK(satisfiesRange(v("v20.11.1"), ">=18"));
  CHECK_FALSE(satisfiesRange(v("v16.20.0"), ">=18"));
  CHECK(satisfiesRange(v("20.1.0"), "^20.1"));
  CHECK_FALSE(satisfiesRange(v("21.0.0"), "^20.1"));
  CHECK_FALSE(satisfiesRange(v("20.0.9"), "^20.1"));
  CHECK(satisfiesRange(v("0.2.5"), "^0.2.3"));
  CHECK_FALSE(satisfiesRange(v("0.3.0"), "^0.2.3"));
  CHECK(satisfiesRange(v("18.2.9"), "~18.2.0"));
  CHECK_FALSE(satisfiesRange(v("18.3.0"), "~18.2.0"));
  CHECK(satisfiesRange(v("18.19.0"), "18.x"));
  CHECK_FALSE(satisfiesRange(v("19.0.0"), "18.x"));
  CHECK(satisfiesRange(v("18.0.0"), "16 || 18"));
  CHECK_FALSE(satisfiesRange(v("17.9.0"), "16 || 18"));
  CHECK(satisfiesRange(v("20.5.0"), ">=18 <21"));
  CHECK_FALSE(satisfiesRange(v("21.0.0"), ">=18 <21"));
  CHECK(satisfiesRange(v("20.9.9"), "18 - 20"));
  CHECK_FALSE(satisfiesRange(v("21.0.0"), "18 - 20"));
  CHECK(satisfiesRange(v("22.0.0"), ">= 18"));
  CHECK(satisfiesRange(v("22.0.0"), "*"));
  CHECK(satisfiesRange(v("22.0.0"), "latest"));  // unreadable: pins nothing
}

TEST_CASE("node: the version .nvmrc pins, or one engines.node allows, from nvm") {
  TempWorkspace ws;
  const std::string nvm = ws.root() + "/nvm";
  exe(ws, "nvm/versions/node/v18.19.0/bin/node", "#!/bin/sh\necho v18.19.0\n");
  exe(ws, "nvm/versions/node/v20.11.1/bin/node", "#!/bin/sh\necho v20.11.1\n");
  exe(ws, "nvm/versions/node/v20.9.0/bin/node", "#!/bin/sh\necho v20.9.0\n");
  exe(ws, "sys/node", "#!/bin/sh\necho v16.20.2\n");
  ToolRequest req;
  req.name = "node";
  req.environment = {{"PATH", ws.root() + "/sys"}, {"NVM_DIR", nvm}};
  std::string err;
  // No pin: PATH's node.
  ws.write("plain/package.json", "{}");
  req.workspaceRoot = ws.root() + "/plain";
  clearToolCache();
  auto t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->via == "path");
  // .nvmrc "20": nvm's newest 20.x.
  ws.write("pinned/.nvmrc", "20\n");
  req.workspaceRoot = ws.root() + "/pinned";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->via == "nvmrc");
  CHECK(t->path == fs::canonical(nvm + "/versions/node/v20.11.1/bin/node").string());
  // A pin nvm does not have: PATH's node, as the shell without `nvm install` would.
  ws.write("missing/.node-version", "v22.1.0\n");
  req.workspaceRoot = ws.root() + "/missing";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->via == "path");
  // engines.node that PATH's node (16) misses: the newest nvm version that meets it.
  ws.write("engines/package.json", R"({"engines": {"node": ">=18 <20"}})");
  req.workspaceRoot = ws.root() + "/engines";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->via == "engines");
  CHECK(t->path == fs::canonical(nvm + "/versions/node/v18.19.0/bin/node").string());
  // engines.node that PATH's node meets: PATH's.
  ws.write("enginesok/package.json", R"({"engines": {"node": ">=16"}})");
  req.workspaceRoot = ws.root() + "/enginesok";
  t = resolveTool(req, &err);
  REQUIRE(t);
  CHECK(t->via == "path");
}
