// End-to-end check of the word-count pipeline without a test framework: exit 0 when every
// expectation holds, 1 (with a message on stderr) otherwise.
#include <iostream>
#include <string>

#include "textstat/stats.h"
#include "textstat/tokenize.h"

namespace {
int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::cerr << "wordcount_check: FAILED: " << what << '\n';
    ++failures;
  }
}
}  // namespace

int main() {
  const std::string text = "The rain in Spain stays mainly in the plain. Rain, rain, go away!";
  const auto words = textstat::content_words(text);
  expect(words.size() == 9, "9 content words, got " + std::to_string(words.size()));
  const auto top = textstat::top_n(textstat::frequencies(words), 2);
  expect(top.size() == 2, "two top words");
  expect(!top.empty() && top[0].first == "rain" && top[0].second == 3, "'rain' is the top word 3 times");
  expect(top.size() > 1 && top[1].first == "away", "'away' comes second (ties alphabetically)");
  if (failures == 0) std::cout << "wordcount_check: all checks passed\n";
  return failures == 0 ? 0 : 1;
}
