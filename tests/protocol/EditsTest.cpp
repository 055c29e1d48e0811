#include <catch2/catch.hpp>

#include "protocol/TextEdits.h"

using namespace greenlight::protocol;

namespace {
TextDocumentContentChangeEvent change(Position a, Position b, std::string text) {
  return {Range{a, b}, std::nullopt, std::move(text)};
}
const std::string kEmoji = "\xF0\x9F\x98\x80";
const std::string kCjk = "\xE4\xB8\xAD\xE6\x96\x87";  // two CJK characters
}  // namespace

TEST_CASE("incremental changes apply in order, each against the previous result") {
  std::string text = "hello world\n";
  LineIndex idx(text);
  std::string error;
  REQUIRE(applyContentChanges(text, idx,
                              {change({0, 0}, {0, 5}, "goodbye"), change({0, 8}, {0, 13}, "moon"),
                               change({1, 0}, {1, 0}, "second line")},
                              PositionEncoding::Utf16, &error));
  REQUIRE(text == "goodbye moon\nsecond line");
}

TEST_CASE("a full-text change replaces the document and resets the index") {
  std::string text = "a\nb\nc";
  LineIndex idx(text);
  std::string error;
  REQUIRE(applyContentChanges(text, idx, {{std::nullopt, std::nullopt, "x\ny"}, change({1, 0}, {1, 1}, "z")},
                              PositionEncoding::Utf16, &error));
  REQUIRE(text == "x\nz");
  REQUIRE(idx.lineCount() == 2);
}

TEST_CASE("edits after emoji and CJK use UTF-16 columns") {
  std::string text = "s = \"" + kEmoji + kCjk + "\"\n";
  LineIndex idx(text);
  std::string error;
  // Column 5 is the emoji (2 units), 7 and 8 the CJK characters, 9 the closing quote.
  REQUIRE(applyContentChanges(text, idx, {change({0, 7}, {0, 8}, "!")}, PositionEncoding::Utf16, &error));
  REQUIRE(text == "s = \"" + kEmoji + "!\xE6\x96\x87\"\n");
  REQUIRE(applyContentChanges(text, idx, {change({0, 5}, {0, 7}, "")}, PositionEncoding::Utf16, &error));
  REQUIRE(text == "s = \"!\xE6\x96\x87\"\n");
}

TEST_CASE("the same edit in UTF-8 mode uses byte columns") {
  std::string text = kEmoji + "x";
  LineIndex idx(text);
  std::string error;
  REQUIRE(applyContentChanges(text, idx, {change({0, 4}, {0, 5}, "y")}, PositionEncoding::Utf8, &error));
  REQUIRE(text == kEmoji + "y");
}

TEST_CASE("ranges past the end clamp instead of failing") {
  std::string text = "ab\ncd";
  LineIndex idx(text);
  std::string error;
  REQUIRE(applyContentChanges(text, idx, {change({0, 50}, {9, 9}, "!")}, PositionEncoding::Utf16, &error));
  REQUIRE(text == "ab!");
}

TEST_CASE("an inverted range is an error naming the change") {
  std::string text = "abc";
  LineIndex idx(text);
  std::string error;
  REQUIRE_FALSE(applyContentChanges(text, idx, {change({0, 2}, {0, 1}, "")}, PositionEncoding::Utf16, &error));
  REQUIRE(error == "contentChanges[0].range: end is before start");
}

TEST_CASE("TextEdits apply against the original text and reject overlaps") {
  std::string text = "one two three";
  std::string error;
  REQUIRE(applyTextEdits(text,
                         {{{{0, 8}, {0, 13}}, "3"}, {{{0, 0}, {0, 3}}, "1"}, {{{0, 4}, {0, 7}}, "2"}},
                         PositionEncoding::Utf16, &error));
  REQUIRE(text == "1 2 3");
  std::string t2 = "abcdef";
  REQUIRE_FALSE(applyTextEdits(t2, {{{{0, 0}, {0, 3}}, "x"}, {{{0, 2}, {0, 4}}, "y"}}, PositionEncoding::Utf16, &error));
  REQUIRE_THAT(error, Catch::Contains("overlaps"));
  REQUIRE(t2 == "abcdef");
}
