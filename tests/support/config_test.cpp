#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/config/Config.h"

using greenlight::core::Config;
using greenlight::core::ConfigLayers;
using nlohmann::json;

TEST_CASE("defaults match DESIGN.md") {
  ConfigLayers layers;
  std::string err;
  auto c = layers.resolve(&err);
  REQUIRE(c);
  CHECK(c->provider == "auto");
  CHECK(c->sandbox.timeLimitSeconds == 10);
  CHECK(c->sandbox.memoryLimitMB == 512);
  CHECK(c->refine.maxRounds == 3);
  CHECK(c->refine.requireCoverage == false);
  CHECK(c->generate.testsFirst == "ask");
  CHECK(c->cxxFlags == std::vector<std::string>{"-std=c++20", "-g", "-O0"});
  CHECK_FALSE(c->testsCommand);
  CHECK(c->origin.at("provider") == "default");
}

TEST_CASE("precedence: defaults < environment < file < initializationOptions < client") {
  char dir[] = "/tmp/gl-config-XXXXXX";
  REQUIRE(::mkdtemp(dir));
  std::string root = dir;
  {
    std::ofstream f(root + "/.greenlight.json");
    f << R"({ // comments are allowed
      "model": "from-file", "temperature": 0.5, "sandbox": {"memoryLimitMB": 256}})";
  }
  ConfigLayers layers;
  layers.setEnvironment({{"GREENLIGHT_MODEL", "from-env"},
                         {"GREENLIGHT_PROVIDER", "openai"},
                         {"OPENAI_API_KEY", "sk-secret"}});
  std::string err;
  REQUIRE(layers.loadWorkspaceFile(root, &err));
  auto c = layers.resolve(&err);
  REQUIRE(c);
  CHECK(c->provider == "openai");
  CHECK(c->origin.at("provider") == "environment");
  CHECK(c->model == "from-file");
  CHECK(c->origin.at("model") == ".greenlight.json");
  CHECK(c->sandbox.memoryLimitMB == 256);
  CHECK(c->sandbox.timeLimitSeconds == 10);  // sibling keys of a merged object survive
  CHECK(c->environment.at("OPENAI_API_KEY") == "sk-secret");

  layers.set(ConfigLayers::InitializationOptions, json{{"model", "from-init"}});
  // An editor sending every key with null defaults must not erase lower layers.
  layers.set(ConfigLayers::Client, json{{"model", nullptr}, {"temperature", 0.9},
                                        {"sandbox", {{"network", nullptr}}}});
  c = layers.resolve(&err);
  REQUIRE(c);
  CHECK(c->model == "from-init");
  CHECK(c->temperature == Approx(0.9));
  CHECK(c->origin.at("temperature") == "workspace/configuration");
  CHECK_FALSE(c->sandbox.network);
  std::remove((root + "/.greenlight.json").c_str());
  ::rmdir(dir);
}

TEST_CASE("type errors name the JSON path and the layer") {
  ConfigLayers layers;
  layers.set(ConfigLayers::Client, json{{"sandbox", {{"timeLimitSeconds", "ten"}}}});
  std::string err;
  CHECK_FALSE(layers.resolve(&err));
  CHECK(err == "greenlight.sandbox.timeLimitSeconds: expected a number (from workspace/configuration)");

  layers.set(ConfigLayers::Client, json{{"cxx", {{"flags", {"-O2", 3}}}}});
  CHECK_FALSE(layers.resolve(&err));
  CHECK(err.find("greenlight.cxx.flags[1]: expected a string") == 0);

  layers.set(ConfigLayers::Client, json{{"provider", "gemini"}});
  CHECK_FALSE(layers.resolve(&err));
  CHECK(err.find("greenlight.provider") == 0);

  layers.set(ConfigLayers::Client, json{{"sandbox", {{"processes", 0}}}});
  CHECK_FALSE(layers.resolve(&err));
  CHECK(err.find("greenlight.sandbox.processes: must be greater than 0") == 0);
}

TEST_CASE("a broken .greenlight.json is reported, a missing one is fine") {
  char dir[] = "/tmp/gl-config-XXXXXX";
  REQUIRE(::mkdtemp(dir));
  std::string root = dir;
  ConfigLayers layers;
  std::string err;
  CHECK(layers.loadWorkspaceFile(root, &err));
  {
    std::ofstream f(root + "/.greenlight.json");
    f << "{ not json";
  }
  CHECK_FALSE(layers.loadWorkspaceFile(root, &err));
  CHECK(err.find(".greenlight.json") != std::string::npos);
  {
    std::ofstream f(root + "/.greenlight.json");
    f << R"({"greenlight": {"tests": {"command": ["make", "test", "{file}"]}}})";
  }
  REQUIRE(layers.loadWorkspaceFile(root, &err));
  auto c = layers.resolve(&err);
  REQUIRE(c);
  REQUIRE(c->testsCommand);
  CHECK(c->testsCommand->at(2) == "{file}");
  std::remove((root + "/.greenlight.json").c_str());
  ::rmdir(dir);
}

TEST_CASE("configToJson round-trips") {
  Config c;
  c.model = "m";
  c.testsCommand = std::vector<std::string>{"x"};
  std::string err;
  auto back = greenlight::core::configFromJson(greenlight::core::configToJson(c), &err);
  REQUIRE(back);
  CHECK(back->model == "m");
  CHECK(greenlight::core::configToJson(*back) == greenlight::core::configToJson(c));
}

TEST_CASE("generate.testsFirst takes ask, always or never, refine.requireCoverage a boolean") {
  std::string err;
  auto c = greenlight::core::configFromJson(json{{"generate", {{"testsFirst", "always"}}}, {"refine", {{"requireCoverage", true}}}}, &err);
  REQUIRE(c);
  CHECK(c->generate.testsFirst == "always");
  CHECK(c->refine.requireCoverage);
  CHECK(greenlight::core::configToJson(*c)["generate"]["testsFirst"] == "always");
  CHECK_FALSE(greenlight::core::configFromJson(json{{"generate", {{"testsFirst", "sometimes"}}}}, &err));
  CHECK(err.find("greenlight.generate.testsFirst") != std::string::npos);
  CHECK_FALSE(greenlight::core::configFromJson(json{{"refine", {{"requireCoverage", "yes"}}}}, &err));
  CHECK(err.find("refine.requireCoverage") != std::string::npos);
}
