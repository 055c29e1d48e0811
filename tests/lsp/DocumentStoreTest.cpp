#include <catch2/catch.hpp>

#include <thread>

#include "core/documents/DocumentStore.h"

using namespace greenlight;
using protocol::PositionEncoding;

namespace {
protocol::TextDocumentContentChangeEvent edit(std::uint32_t l1, std::uint32_t c1, std::uint32_t l2, std::uint32_t c2,
                                              std::string text) {
  return {protocol::Range{{l1, c1}, {l2, c2}}, std::nullopt, std::move(text)};
}
}  // namespace

TEST_CASE("DocumentStore: open, change, lookups by uri and path, close") {
  core::DocumentStore store;
  store.open({"file:///ws/a%20b/m.py", "python", 1, "one\ntwo\n"});
  REQUIRE(store.isOpen("file:///ws/a%20b/m.py"));
  REQUIRE(store.textForPath("/ws/a b/m.py") == "one\ntwo\n");
  REQUIRE(store.textForPath("/ws/a b/./x/../m.py") == "one\ntwo\n");  // normalised
  REQUIRE_FALSE(store.textForPath("/ws/other.py"));

  std::string error;
  REQUIRE(store.change({"file:///ws/a%20b/m.py", 2}, {edit(1, 0, 1, 3, "TWO")}, PositionEncoding::Utf16, &error));
  auto doc = store.getByPath("/ws/a b/m.py");
  REQUIRE(doc);
  REQUIRE(doc->text == "one\nTWO\n");
  REQUIRE(doc->version == 2);
  REQUIRE(doc->languageId == "python");
  REQUIRE(store.lineText("file:///ws/a%20b/m.py", 1) == "TWO");
  REQUIRE(store.offsetAt("file:///ws/a%20b/m.py", {1, 99}, PositionEncoding::Utf16) == 7u);
  REQUIRE(store.positionAt("file:///ws/a%20b/m.py", 7, PositionEncoding::Utf16) == protocol::Position{1, 3});

  REQUIRE(store.close("file:///ws/a%20b/m.py"));
  REQUIRE_FALSE(store.close("file:///ws/a%20b/m.py"));
  REQUIRE_FALSE(store.textForPath("/ws/a b/m.py"));
  REQUIRE(store.size() == 0);
}

TEST_CASE("DocumentStore: errors leave the document unchanged") {
  core::DocumentStore store;
  std::string error;
  REQUIRE_FALSE(store.change({"file:///x", 2}, {edit(0, 0, 0, 0, "a")}, PositionEncoding::Utf16, &error));
  REQUIRE_THAT(error, Catch::Contains("not open"));
  store.open({"file:///x", "c", 1, "abc"});
  REQUIRE_FALSE(store.change({"file:///x", 2}, {edit(0, 0, 0, 1, "Z"), edit(0, 2, 0, 1, "")}, PositionEncoding::Utf16, &error));
  REQUIRE(error == "contentChanges[1].range: end is before start");
  REQUIRE(store.get("file:///x")->text == "abc");
  REQUIRE(store.version("file:///x") == 1);
  std::string warning;
  REQUIRE(store.change({"file:///x", 1}, {edit(0, 0, 0, 0, "q")}, PositionEncoding::Utf16, &error, &warning));
  REQUIRE_THAT(warning, Catch::Contains("does not increase"));
}

TEST_CASE("DocumentStore: non-file URIs are tracked without a path") {
  core::DocumentStore store;
  store.open({"untitled:Untitled-1", "python", 1, "x"});
  REQUIRE(store.get("untitled:Untitled-1")->path.empty());
  REQUIRE(store.snapshot().size() == 1);
}

TEST_CASE("DocumentStore: reopening replaces the document") {
  core::DocumentStore store;
  store.open({"file:///a", "python", 1, "old"});
  store.open({"file:///a", "python", 5, "new"});
  REQUIRE(store.get("file:///a")->text == "new");
  REQUIRE(store.version("file:///a") == 5);
  REQUIRE(store.size() == 1);
}

TEST_CASE("DocumentStore: readers on other threads see whole versions") {
  core::DocumentStore store;
  store.open({"file:///c", "python", 1, std::string(1000, 'a')});
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    while (!stop) {
      auto doc = store.get("file:///c");
      // Every version v has exactly 1000 + (v - 1) characters.
      if (doc && doc->text.size() != 1000 + static_cast<std::size_t>(doc->version - 1)) ++bad;
      auto all = store.snapshot();
      (void)all;
    }
  });
  std::string error;
  for (int v = 2; v < 2000; ++v)
    REQUIRE(store.change({"file:///c", v}, {edit(0, 0, 0, 0, "b")}, PositionEncoding::Utf16, &error));
  stop = true;
  reader.join();
  REQUIRE(bad == 0);
}

TEST_CASE("DocumentStore: a 20,000-line document edits incrementally and stays consistent") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i) + " \xE4\xB8\xAD\xF0\x9F\x98\x80 end\n";
  core::DocumentStore store;
  store.open({"file:///big.py", "python", 1, text});
  std::string error;
  for (int v = 2; v < 200; ++v) {
    std::uint32_t line = static_cast<std::uint32_t>((v * 7919) % 20000);
    REQUIRE(store.change({"file:///big.py", v}, {edit(line, 5, line, 6, v % 2 ? "\n" : "x")}, PositionEncoding::Utf16, &error));
  }
  auto doc = store.get("file:///big.py");
  protocol::LineIndex fresh(doc->text);
  // Spot-check positions against a rebuilt index.
  for (std::uint32_t line = 0; line < fresh.lineCount(); line += 997) {
    auto off = store.offsetAt("file:///big.py", {line, 7}, PositionEncoding::Utf16);
    REQUIRE(off == fresh.offset(doc->text, {line, 7}, PositionEncoding::Utf16));
  }
}
