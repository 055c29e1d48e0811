#include "catch.hpp"

#include "cliopts/cliopts.hpp"

namespace {
cliopts::Parser make_parser() {
  cliopts::Parser p;
  p.flag("verbose", 'v', "say more").flag("all", 'a', "everything").option("width", 'w', "80", "line width");
  p.option("output", 'o', "", "output file");
  return p;
}
}  // namespace

TEST_CASE("long options", "[options][long]") {
  const auto parser = make_parser();

  SECTION("a flag is counted") {
    const auto r = parser.parse({"--verbose"});
    REQUIRE(r.has("verbose"));
    CHECK(r.count("verbose") == 1);
    CHECK_FALSE(r.has("all"));
  }
  SECTION("values") {
    SECTION("with an equals sign") {
      const auto r = parser.parse({"--width=100"});
      REQUIRE(r.get_int("width") == 100);
    }
    SECTION("as the next argument") {
      const auto r = parser.parse({"--output", "out.txt", "in.txt"});
      REQUIRE(r.get("output") == "out.txt");
      REQUIRE(r.positional().size() == 1);
      CHECK(r.positional()[0] == "in.txt");
    }
    SECTION("missing at the end") {
      CHECK_THROWS_AS(parser.parse({"--width"}), cliopts::parse_error);
    }
  }
  SECTION("defaults apply when an option is not given") {
    const auto r = parser.parse({});
    CHECK(r.get_int("width") == 80);
    CHECK(r.get("output").empty());
    CHECK_FALSE(r.has("width"));
  }
  SECTION("a flag with a value is an error") {
    CHECK_THROWS_WITH(parser.parse({"--verbose=yes"}), "--verbose takes no value");
  }
}

TEST_CASE("short options", "[options][short]") {
  const auto parser = make_parser();

  SECTION("bundled flags") {
    const auto r = parser.parse({"-vav"});
    CHECK(r.count("verbose") == 2);
    CHECK(r.count("all") == 1);
  }
  SECTION("a value glued to the option") {
    CHECK(parser.parse({"-w42"}).get_int("width") == 42);
  }
  SECTION("a value after a bundle of flags") {
    const auto r = parser.parse({"-vw", "7"});
    CHECK(r.count("verbose") == 1);
    CHECK(r.get_int("width") == 7);
  }
}

TEST_CASE("positional arguments and the -- separator", "[options]") {
  const auto parser = make_parser();
  const auto r = parser.parse({"a", "-v", "--", "-w", "b"});
  REQUIRE(r.positional() == std::vector<std::string>{"a", "-w", "b"});
  CHECK(r.count("verbose") == 1);
}

TEST_CASE("unknown options are rejected", "[options][errors]") {
  const auto parser = make_parser();
  CHECK_THROWS_WITH(parser.parse({"--colour"}), "unknown option: --colour");
  CHECK_THROWS_WITH(parser.parse({"-x"}), "unknown option: -x");
}

TEST_CASE("usage lists every option with its default", "[usage]") {
  const std::string text = make_parser().usage("prog");
  CHECK(text.rfind("usage: prog [options]\n", 0) == 0);
  CHECK_THAT(text, Catch::Matchers::Contains("-w, --width=VALUE") && Catch::Matchers::Contains("(default: 80)"));
  CHECK_THAT(text, !Catch::Matchers::Contains("(default: )"));
}

TEST_CASE("parsing a real argv", "[options][argv]") {
  const char* argv[] = {"prog", "--width", "12", "file"};
  const auto r = make_parser().parse(4, argv);
  CHECK(r.get_int("width") == 12);
  CHECK(r.positional() == std::vector<std::string>{"file"});
}

TEST_CASE("many options stay fast", "[.][slow]") {
  auto parser = make_parser();
  std::vector<std::string> args(100000, "-v");
  CHECK(parser.parse(args).count("verbose") == 100000);
}
