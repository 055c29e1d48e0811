// Splitting text into words and filtering stop words.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace textstat {

// ASCII lower-casing; other bytes are kept as they are.
std::string to_lower(std::string_view text);

// Words are runs of letters, digits and inner apostrophes ("don't" is one word, "'quoted'" is
// "quoted"). Everything else separates words.
std::vector<std::string> split_words(std::string_view text);

// The built-in English stop words ("the", "a", "and", ...); expects a lower-case word.
bool is_stopword(std::string_view word);

// split_words + to_lower, without the built-in stop words.
std::vector<std::string> content_words(std::string_view text);

class StopwordFilter {
 public:
  StopwordFilter() = default;
  explicit StopwordFilter(const std::vector<std::string>& words);

  void add(std::string_view word);  // stored lower-cased
  bool contains(std::string_view word) const;  // case-insensitive
  std::size_t size() const { return words_.size(); }
  // The words that are not stop words, in order.
  std::vector<std::string> apply(const std::vector<std::string>& words) const;

 private:
  std::unordered_set<std::string> words_;
};

}  // namespace textstat
