#include <catch2/catch.hpp>

#include "core/providers/Sse.h"

using namespace greenlight::core::providers;

namespace {

std::vector<SseEvent> parseAll(const std::vector<std::string_view>& pieces, SseParser& p) {
  std::vector<SseEvent> out;
  for (auto piece : pieces)
    REQUIRE(p.feed(piece, [&](const SseEvent& e) {
      out.push_back(e);
      return true;
    }));
  return out;
}

const std::string kStream =
    "\xEF\xBB\xBF: comment line\r\n"
    "event: message_start\r\n"
    "data: {\"a\":1}\r\n"
    "\r\n"
    ":keep-alive\n\n"
    "data: line one\n"
    "data: line two\n"
    "data:no-space\n"
    "id: 7\n"
    "retry: 100\n"
    "\n"
    "event: ping\rdata: {}\r\r"
    "event: skipped-no-data\n\n"
    "data: [DONE]\n\n"
    "data: unterminated";

void checkEvents(const std::vector<SseEvent>& ev) {
  REQUIRE(ev.size() == 4);
  CHECK(ev[0].event == "message_start");
  CHECK(ev[0].data == "{\"a\":1}");
  CHECK(ev[1].event == "message");
  CHECK(ev[1].data == "line one\nline two\nno-space");
  CHECK(ev[1].id == "7");
  CHECK(ev[2].event == "ping");
  CHECK(ev[2].data == "{}");
  CHECK(ev[3].data == "[DONE]");
}

}  // namespace

TEST_CASE("SSE: whole stream in one piece", "[providers][sse]") {
  SseParser p;
  checkEvents(parseAll({kStream}, p));
  CHECK(p.hasPartialEvent());
}

TEST_CASE("SSE: split at every byte boundary (two pieces)", "[providers][sse]") {
  for (std::size_t cut = 0; cut <= kStream.size(); ++cut) {
    INFO("cut at " << cut);
    SseParser p;
    std::string_view s = kStream;
    checkEvents(parseAll({s.substr(0, cut), s.substr(cut)}, p));
  }
}

TEST_CASE("SSE: one byte at a time", "[providers][sse]") {
  SseParser p;
  std::vector<std::string_view> pieces;
  std::string_view s = kStream;
  for (std::size_t i = 0; i < s.size(); ++i) pieces.push_back(s.substr(i, 1));
  checkEvents(parseAll(pieces, p));
}

TEST_CASE("SSE: every three-way split of a CRLF stream", "[providers][sse]") {
  const std::string s = "event: a\r\ndata: x\r\ndata: y\r\n\r\ndata: z\r\n\r\n";
  for (std::size_t i = 0; i <= s.size(); ++i)
    for (std::size_t j = i; j <= s.size(); ++j) {
      SseParser p;
      std::string_view v = s;
      auto ev = parseAll({v.substr(0, i), v.substr(i, j - i), v.substr(j)}, p);
      REQUIRE(ev.size() == 2);
      CHECK(ev[0].event == "a");
      CHECK(ev[0].data == "x\ny");
      CHECK(ev[1].data == "z");
      CHECK_FALSE(p.hasPartialEvent());
    }
}

TEST_CASE("SSE: an over-long line is an error - a callback can stop parsing", "[providers][sse]") {
  SseParser p(16);
  CHECK_FALSE(p.feed("data: 0123456789abcdef", [](const SseEvent&) { return true; }));
  CHECK_THAT(p.error(), Catch::Contains("longer than 16"));
  CHECK_FALSE(p.feed("\n\n", [](const SseEvent&) { return true; }));

  SseParser q;
  int n = 0;
  CHECK_FALSE(q.feed("data: 1\n\ndata: 2\n\n", [&](const SseEvent&) { return ++n < 1; }));
  CHECK(n == 1);
}

TEST_CASE("SSE: binary garbage does not crash", "[providers][sse]") {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk.push_back(static_cast<char>((i * 131) % 256));
  SseParser p;
  p.feed(junk, [](const SseEvent&) { return true; });
  SUCCEED();
}
