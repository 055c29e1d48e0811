#include <catch2/catch.hpp>

#include "protocol/Positions.h"

using namespace greenlight::protocol;

namespace {
constexpr auto U16 = PositionEncoding::Utf16;
constexpr auto U8 = PositionEncoding::Utf8;
constexpr auto U32 = PositionEncoding::Utf32;

const std::string kEmoji = "\xF0\x9F\x98\x80";  // U+1F600, 4 bytes, 2 UTF-16 units
const std::string kCjk = "\xE4\xB8\xAD";         // U+4E2D, 3 bytes, 1 unit
const std::string kE = "\xC3\xA9";               // U+00E9, 2 bytes, 1 unit
}  // namespace

TEST_CASE("ASCII positions map to bytes in every encoding") {
  std::string text = "abc\ndef\n";
  LineIndex idx(text);
  REQUIRE(idx.lineCount() == 3);
  for (auto enc : {U8, U16, U32}) {
    REQUIRE(idx.offset(text, {1, 2}, enc) == 6);
    REQUIRE(idx.position(text, 6, enc) == Position{1, 2});
  }
}

TEST_CASE("emoji count as two UTF-16 units and four UTF-8 bytes") {
  std::string text = "a" + kEmoji + "b";
  LineIndex idx(text);
  REQUIRE(idx.offset(text, {0, 3}, U16) == 5);  // after a, emoji
  REQUIRE(idx.offset(text, {0, 5}, U8) == 5);
  REQUIRE(idx.offset(text, {0, 2}, U32) == 5);
  REQUIRE(idx.position(text, 5, U16) == Position{0, 3});
  REQUIRE(idx.position(text, 5, U8) == Position{0, 5});
  REQUIRE(idx.position(text, 6, U16) == Position{0, 4});
  REQUIRE(measure(text, U16) == 4);
}

TEST_CASE("a UTF-16 column inside a surrogate pair rounds down to the character start") {
  std::string text = "a" + kEmoji + "b";
  LineIndex idx(text);
  REQUIRE(idx.offset(text, {0, 2}, U16) == 1);
  // A byte offset inside a multi-byte character also rounds down.
  REQUIRE(idx.position(text, 3, U16) == Position{0, 1});
  REQUIRE(idx.offset(text, {0, 3}, U8) == 1);  // utf-8 column 3 is mid-emoji
}

TEST_CASE("CJK and accented characters are one UTF-16 unit") {
  std::string text = kCjk + kCjk + "x" + kE + "\n" + kCjk;
  LineIndex idx(text);
  REQUIRE(idx.offset(text, {0, 2}, U16) == 6);
  REQUIRE(idx.offset(text, {0, 4}, U16) == 9);
  REQUIRE(idx.offset(text, {1, 1}, U16) == 13);
  REQUIRE(idx.position(text, 9, U16) == Position{0, 4});
  REQUIRE(idx.position(text, 9, U8) == Position{0, 9});
}

TEST_CASE("a character past the line end clamps to the line end") {
  std::string text = "abc\r\nde\nlast";
  LineIndex idx(text);
  REQUIRE(idx.offset(text, {0, 99}, U16) == 3);  // before \r\n
  REQUIRE(idx.offset(text, {1, 99}, U16) == 7);
  REQUIRE(idx.offset(text, {2, 99}, U16) == text.size());
  REQUIRE(idx.lineEnd(text, 0) == 3);
}

TEST_CASE("a line past the end clamps to the document end") {
  std::string text = "abc\ndef";
  LineIndex idx(text);
  REQUIRE(idx.offset(text, {2, 0}, U16) == text.size());
  REQUIRE(idx.offset(text, {100000, 5}, U8) == text.size());
  REQUIRE(idx.position(text, 1000, U16) == Position{1, 3});
  LineIndex empty("");
  REQUIRE(empty.offset("", {0, 5}, U16) == 0);
  REQUIRE(empty.offset("", {3, 0}, U16) == 0);
}

TEST_CASE("a trailing newline opens an empty last line") {
  std::string text = "abc\n";
  LineIndex idx(text);
  REQUIRE(idx.lineCount() == 2);
  REQUIRE(idx.offset(text, {1, 0}, U16) == 4);
  REQUIRE(idx.position(text, 4, U16) == Position{1, 0});
}

TEST_CASE("invalid UTF-8 never crashes and counts one unit per bad byte") {
  std::string text = "a\xFF\xC3(b\xED\xA0\x80z\xF0\x9F";  // stray, truncated, surrogate, truncated 4-byte
  LineIndex idx(text);
  REQUIRE(measure(text, U16) == text.size());
  for (std::uint32_t c = 0; c < 20; ++c) {
    std::size_t off = idx.offset(text, {0, c}, U16);
    REQUIRE(off <= text.size());
    REQUIRE(idx.position(text, off, U16).character <= c);
  }
  REQUIRE(utf8SequenceLength("\xC0\x80", 0) == 1);  // overlong
  REQUIRE(utf8SequenceLength("\xF4\x90\x80\x80", 0) == 1);  // > U+10FFFF
  REQUIRE(utf8SequenceLength(kEmoji, 0) == 4);
}

TEST_CASE("encoding names parse and print") {
  REQUIRE(parseEncoding("utf-8") == U8);
  REQUIRE(parseEncoding("utf-16") == U16);
  REQUIRE_FALSE(parseEncoding("latin1"));
  REQUIRE(encodingName(U16) == "utf-16");
}

TEST_CASE("incremental index updates match a rebuilt index") {
  std::string text = "line0\nline1\nline2\nline3\n";
  LineIndex idx(text);
  struct Edit {
    std::size_t start, end;
    std::string insert;
  } edits[] = {
      {2, 2, "X"}, {6, 12, ""}, {0, 0, "a\nb\nc\n"}, {3, 9, "\n\n"}, {0, 3, ""}, {5, 5, kEmoji + "\n" + kCjk},
  };
  for (const auto& e : edits) {
    std::size_t end = std::min(e.end, text.size());
    std::size_t start = std::min(e.start, end);
    text.replace(start, end - start, e.insert);
    idx.applyEdit(start, end, e.insert);
    LineIndex fresh(text);
    REQUIRE(idx.lineCount() == fresh.lineCount());
    for (std::size_t l = 0; l < fresh.lineCount(); ++l) REQUIRE(idx.lineStart(l) == fresh.lineStart(l));
  }
}
