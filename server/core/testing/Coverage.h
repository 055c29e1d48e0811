// The coverage of a target (issue 35): from what a run measured (RunResult::coverage, one
// FileCoverage per covered file), which lines of one file's line range are executable, which of
// them ran, which did not. "New lines" of a generation are its target's lines; `run FILE:LINE`
// asks about the function at LINE; `run FILE` about the whole file.
//
// Thread-safety: pure functions over plain values, except coverageEnabled() (reads the process
// environment, which greenlight never writes after start, and this thread's CoverageOff).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/testing/TestTypes.h"

namespace greenlight::core::testing {

// What ran of a target. Only built from a measured file: "not measured" is std::nullopt, never
// an empty TargetCoverage (no coverage is not "0 % covered").
struct TargetCoverage {
  std::string file;
  std::vector<int> lines;   // executable lines of the range, ascending
  std::vector<int> run;     // those that ran at least once
  std::vector<int> notRun;  // those that never ran
  std::vector<std::pair<int, long>> hits;  // line -> count, for the executable lines
  int percent() const;      // run / lines, rounded down; 100 when there is nothing executable
  bool complete() const { return notRun.empty(); }
};

// Coverage is on for every run unless greenlight's own environment says GREENLIGHT_COVERAGE=0
// (the with/without comparisons and the bench), or a CoverageOff is alive on this thread.
bool coverageEnabled();

// Turns coverage off for the runs planned and run on this thread while it lives: a run that
// coverage made too slow is run again without it (adapters/TestJob.h runTests), so that what greenlight adds never
// turns a healthy suite into a timeout.
class CoverageOff {
 public:
  CoverageOff();
  ~CoverageOff();
  CoverageOff(const CoverageOff&) = delete;
  CoverageOff& operator=(const CoverageOff&) = delete;

 private:
  bool was_;
};

// The measured coverage of `file` (a host path, compared lexically normalised), or nullptr.
const FileCoverage* findCoverage(const std::vector<FileCoverage>& coverage, const std::string& file);

// Lines [first, last] (1-based, inclusive; last <= 0: to the end) of `file`, or nullopt when the
// run measured nothing for that file.
std::optional<TargetCoverage> targetCoverage(const std::vector<FileCoverage>& coverage, const std::string& file,
                                             int first = 1, int last = 0);

// Adds `from` into `into`, summing counts per file and line (several runs of one target).
void mergeCoverage(std::vector<FileCoverage>& into, const std::vector<FileCoverage>& from);

// {"lines":[...],"run":[...],"not_run":[...]} (the generate result's `coverage`).
nlohmann::ordered_json targetCoverageToJson(const TargetCoverage& c);

// The lines [def line, last line] of the function defined at `defLine` (Python: up to its last
// more-indented line; C-like: up to the brace that closes its body), best effort: {defLine, 0}
// (to the end) when the end cannot be told.
std::pair<int, int> functionLines(const std::string& text, int defLine, Language language);

// "9/12 new lines run" (`what` = "new lines") or "9/12 lines run".
std::string linesRunText(const TargetCoverage& c, const std::string& what = "lines");

}  // namespace greenlight::core::testing
