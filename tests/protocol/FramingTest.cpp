#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "protocol/Framing.h"

using greenlight::protocol::encodeFrame;
using greenlight::protocol::FrameDecoder;
using Status = FrameDecoder::Status;

namespace {

struct Decoded {
  std::vector<std::string> bodies;
  std::vector<std::string> errors;
};

Decoded drain(FrameDecoder& d) {
  Decoded out;
  while (true) {
    Status s = d.next();
    if (s == Status::NeedMore) break;
    if (s == Status::Frame) out.bodies.emplace_back(d.body());
    if (s == Status::Error) out.errors.push_back(d.error());
  }
  return out;
}

Decoded decodeAll(const std::string& bytes) {
  FrameDecoder d;
  d.feed(bytes);
  return drain(d);
}

}  // namespace

TEST_CASE("a well-formed frame decodes to its body") {
  auto r = decodeAll("Content-Length: 7\r\n\r\n{\"a\":1}");
  REQUIRE(r.errors.empty());
  REQUIRE(r.bodies == std::vector<std::string>{"{\"a\":1}"});
}

TEST_CASE("encodeFrame round-trips") {
  std::string body = "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"\xF0\x9F\x98\x80\"}}";
  auto r = decodeAll(encodeFrame(body) + encodeFrame("{}"));
  REQUIRE(r.bodies == std::vector<std::string>{body, "{}"});
}

TEST_CASE("frames fed one byte at a time decode the same") {
  std::string stream = encodeFrame("{\"a\":1}") + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" +
                       "Content-Length: 2\r\n\r\n{}";
  FrameDecoder d;
  std::vector<std::string> bodies;
  for (char c : stream) {
    d.feed(std::string(1, c));
    auto r = drain(d);
    REQUIRE(r.errors.empty());
    bodies.insert(bodies.end(), r.bodies.begin(), r.bodies.end());
  }
  REQUIRE(bodies == std::vector<std::string>{"{\"a\":1}", "{}"});
  REQUIRE(d.atBoundary());
}

TEST_CASE("header names are case-insensitive and whitespace is tolerated") {
  auto r = decodeAll("content-length:   2  \r\nCONTENT-TYPE: x\r\n\r\n{}");
  REQUIRE(r.errors.empty());
  REQUIRE(r.bodies == std::vector<std::string>{"{}"});
  r = decodeAll("Content-Length: 2\n\n{}");  // bare LF line endings
  REQUIRE(r.bodies == std::vector<std::string>{"{}"});
  r = decodeAll("Content-Type: text/x\r\ncOnTeNt-LeNgTh:2\r\n\r\n[]");
  REQUIRE(r.bodies == std::vector<std::string>{"[]"});
}

TEST_CASE("a zero-length body is a frame") {
  auto r = decodeAll("Content-Length: 0\r\n\r\n");
  REQUIRE(r.errors.empty());
  REQUIRE(r.bodies == std::vector<std::string>{""});
}

TEST_CASE("bad Content-Length values are rejected with a clear error") {
  struct Case {
    const char* header;
    const char* expect;
  } cases[] = {
      {"Content-Type: x\r\n\r\n", "missing Content-Length"},
      {"Content-Length: abc\r\n\r\n", "not a decimal integer"},
      {"Content-Length: 12x\r\n\r\n", "not a decimal integer"},
      {"Content-Length: -5\r\n\r\n", "negative"},
      {"Content-Length: \r\n\r\n", "empty value"},
      {"Content-Length: 99999999999999999999999999\r\n\r\n", "exceeds"},
      {"Content-Length: 67108865\r\n\r\n", "exceeds"},
      {"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "duplicate"},
      {"garbage line\r\n\r\n", "malformed header line"},
  };
  for (const auto& c : cases) {
    INFO(c.header);
    auto r = decodeAll(c.header);
    REQUIRE(r.bodies.empty());
    REQUIRE(r.errors.size() == 1);
    REQUIRE_THAT(r.errors[0], Catch::Contains(c.expect));
  }
}

TEST_CASE("the 64 MiB limit itself is accepted") {
  FrameDecoder d;
  d.feed("Content-Length: 67108864\r\n\r\n");
  REQUIRE(d.next() == Status::NeedMore);  // waits for the body, does not fail
}

TEST_CASE("a huge Content-Length is rejected without allocating it") {
  FrameDecoder d;
  d.feed("Content-Length: 999999999999\r\n\r\n{}");
  REQUIRE(d.next() == Status::Error);
  REQUIRE_THAT(d.error(), Catch::Contains("999999999999"));
  // The decoder holds only what was fed, never the announced size.
  REQUIRE(d.bufferedBytes() < 64);
}

TEST_CASE("a large legal Content-Length does not reserve memory before the bytes arrive") {
  FrameDecoder d;
  d.feed("Content-Length: 60000000\r\n\r\n");
  REQUIRE(d.next() == Status::NeedMore);
  REQUIRE(d.bufferedBytes() == 0);
}

TEST_CASE("after a framing error the decoder resynchronises on the next Content-Length") {
  std::string stream = "Content-Length: 999999999999\r\n\r\n{\"lost\":1}" + encodeFrame("{\"a\":1}") +
                       "xx garbage xx\r\n" + encodeFrame("{\"b\":2}");
  auto r = decodeAll(stream);
  REQUIRE(r.errors.size() == 2);
  REQUIRE(r.bodies == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"});
}

TEST_CASE("resync finds a header split across chunks") {
  FrameDecoder d;
  d.feed("Content-Length: x\r\n\r\nnoise Conte");
  auto r = drain(d);
  REQUIRE(r.errors.size() == 1);
  d.feed("nt-Length: 2\r\n\r\n{}");
  r = drain(d);
  REQUIRE(r.errors.empty());
  REQUIRE(r.bodies == std::vector<std::string>{"{}"});
}

TEST_CASE("a header section without an end is bounded") {
  FrameDecoder d;
  std::string junk(100 * 1024, 'a');
  d.feed(junk);
  auto r = drain(d);
  REQUIRE(r.errors.size() == 1);
  REQUIRE_THAT(r.errors[0], Catch::Contains("header section exceeds"));
  REQUIRE(d.bufferedBytes() < 64);
  d.feed(encodeFrame("{}"));
  r = drain(d);
  REQUIRE(r.bodies == std::vector<std::string>{"{}"});
}

TEST_CASE("blank lines between messages are skipped") {
  auto r = decodeAll("\r\n\r\n" + encodeFrame("{}") + "\r\n" + encodeFrame("[]"));
  REQUIRE(r.errors.empty());
  REQUIRE(r.bodies == std::vector<std::string>{"{}", "[]"});
}

TEST_CASE("a partial body waits and reports where it stopped") {
  FrameDecoder d;
  d.feed("Content-Length: 10\r\n\r\n12345");
  REQUIRE(d.next() == Status::NeedMore);
  REQUIRE_FALSE(d.atBoundary());
  d.feed("67890");
  REQUIRE(d.next() == Status::Frame);
  REQUIRE(d.body() == "1234567890");
  REQUIRE(d.atBoundary());
}

TEST_CASE("many frames in one long session do not grow the buffer") {
  FrameDecoder d;
  std::string frame = encodeFrame(std::string(1000, 'x'));
  for (int i = 0; i < 2000; ++i) {
    d.feed(frame);
    REQUIRE(d.next() == Status::Frame);
  }
  REQUIRE(d.bufferedBytes() == 0);
}
