// Where a project test's exception or crash came from: the events harness/cxx_trace.cc.inc
// appends to $GREENLIGHT_TRACE_FILE (one "GLTRACE" line per throw or fatal signal, frames as
// object@offset), which of them a failed test is about, and addr2line's answer for their frames.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/testing/TestTypes.h"

namespace greenlight::core::testing::cmake {

struct TraceFrame {
  std::string object;  // the loaded object's path (the test binary, a shared library)
  unsigned long offset = 0;
};

struct TraceEvent {
  std::string kind;  // "throw" | "signal"
  std::string what;  // what() of a std::exception ("" otherwise); the signal's name
  std::vector<TraceFrame> frames;  // innermost first
};

std::vector<TraceEvent> parseTrace(std::string_view text);

// The event a failed test is about: the last fatal signal when the test crashed (outcome
// "crashed", or its message names a signal), else the throws whose what() its message quotes
// (the last of them). nullptr: none.
const TraceEvent* eventFor(const TestResult& result, const std::string& outcome, const std::vector<TraceEvent>& events);

// Whether a failed test's message says an exception or a crash ended it (worth a trace).
bool wantsTrace(const TestResult& result, const std::string& outcome);

// `addr2line -a -f -C -i` output for the offsets asked, in order: per address, its frames
// innermost first (inlined calls expanded); "??" locations dropped.
std::vector<std::vector<Frame>> parseAddr2line(std::string_view text);

// Whether a path is a test framework's own header (catch.hpp, catch2/..., doctest.h, gtest/...).
bool frameworkHeader(const std::string& path);

}  // namespace greenlight::core::testing::cmake
