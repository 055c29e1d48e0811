#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

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
  // The expected text is kept independently, as lines: every edit replaces the character at
  // column 5 (an ASCII digit, so the UTF-16 column is the byte offset) by "x" or a line break.
  std::vector<std::string> lines;
  for (int i = 0; i < 20000; ++i) lines.push_back("line " + std::to_string(i) + " \xE4\xB8\xAD\xF0\x9F\x98\x80 end");
  lines.push_back("");  // after the last newline
  auto join = [](const std::vector<std::string>& ls) {
    std::string out;
    for (std::size_t i = 0; i < ls.size(); ++i) out += (i ? "\n" : "") + ls[i];
    return out;
  };
  core::DocumentStore store;
  store.open({"file:///big.py", "python", 1, join(lines)});
  std::string error;
  for (int v = 2; v < 200; ++v) {
    std::uint32_t line = static_cast<std::uint32_t>((v * 7919) % 20000);
    const std::string replacement = v % 2 ? "\n" : "x";
    REQUIRE(store.change({"file:///big.py", v}, {edit(line, 5, line, 6, replacement)}, PositionEncoding::Utf16, &error));
    const std::string old = lines[line];
    REQUIRE(old.size() > 6);
    REQUIRE(static_cast<unsigned char>(old[5]) < 0x80);
    if (replacement == "\n") {
      lines[line] = old.substr(0, 5);
      lines.insert(lines.begin() + line + 1, old.substr(6));
    } else {
      lines[line] = old.substr(0, 5) + "x" + old.substr(6);
    }
  }
  auto doc = store.get("file:///big.py");
  REQUIRE(doc->version == 199);
  REQUIRE(doc->text == join(lines));
  REQUIRE(lines.size() == 20000 + 1 + 99);  // 99 of the 198 edits broke a line
  // Positions: the offset of (line, 7) counted from the expected lines, and back. Column 7 is
  // past the ASCII prefix on some lines: count its UTF-16 units from the UTF-8 text by hand.
  std::size_t lineStart = 0;
  for (std::uint32_t line = 0; line < lines.size(); ++line) {
    if (line % 997 == 0 || line + 1 == lines.size()) {
      const std::string& l = lines[line];
      std::size_t bytes = 0, units = 0;
      while (bytes < l.size() && units < 7) {
        const auto c = static_cast<unsigned char>(l[bytes]);
        const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (units + (n == 4 ? 2 : 1) > 7) break;  // (line, 7) inside a surrogate pair: not checked
        units += n == 4 ? 2 : 1;
        bytes += n;
      }
      if (units == 7 || bytes == l.size()) {
        INFO("line " << line << ": " << l);
        REQUIRE(store.offsetAt("file:///big.py", {line, 7}, PositionEncoding::Utf16) == lineStart + bytes);
        REQUIRE(store.positionAt("file:///big.py", lineStart + bytes, PositionEncoding::Utf16) ==
                protocol::Position{line, static_cast<std::uint32_t>(units)});
        REQUIRE(store.lineText("file:///big.py", line) == l);
      }
    }
    lineStart += lines[line].size() + 1;
  }
}
