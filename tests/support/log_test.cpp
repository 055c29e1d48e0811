#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/Log.h"

using namespace greenlight::support;

TEST_CASE("log levels parse and filter") {
  CHECK(parseLogLevel("debug") == LogLevel::Debug);
  CHECK(parseLogLevel("warning") == LogLevel::Warn);
  CHECK_FALSE(parseLogLevel("loud").has_value());

  char path[] = "/tmp/gl-log-XXXXXX";
  int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  REQUIRE(setLogFile(path));
  std::vector<std::string> forwarded;
  setLogForwarder([&](LogLevel, const std::string& m) { forwarded.push_back(m); }, LogLevel::Warn);
  setLogLevel(LogLevel::Info);
  int evaluated = 0;
  GL_LOG(Debug, "hidden " << ++evaluated);
  GL_LOG(Info, "shown " << 42);
  GL_LOG(Error, "bad thing");
  setLogForwarder(nullptr);
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  CHECK(evaluated == 0);  // disabled levels do not evaluate their arguments
  CHECK(all.str().find("hidden") == std::string::npos);
  CHECK(all.str().find("info  shown 42") != std::string::npos);
  CHECK(forwarded == std::vector<std::string>{"bad thing"});
  CHECK_FALSE(setLogFile("/nonexistent-dir/x.log"));
  std::remove(path);
}
