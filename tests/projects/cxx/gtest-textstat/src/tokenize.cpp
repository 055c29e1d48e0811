#include "textstat/tokenize.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace textstat {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

constexpr std::array<std::string_view, 24> kStopwords = {
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in",
    "is", "it", "of", "on", "or", "so", "that", "the", "to", "was", "with", "yet"};

}  // namespace

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::string current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool inner_apostrophe = c == '\'' && !current.empty() && i + 1 < text.size() && is_word_char(text[i + 1]);
    if (is_word_char(c) || inner_apostrophe) {
      current += c;
    } else if (!current.empty()) {
      words.push_back(current);
      current.clear();
    }
  }
  if (!current.empty()) words.push_back(current);
  return words;
}

bool is_stopword(std::string_view word) {
  return std::binary_search(kStopwords.begin(), kStopwords.end(), word);
}

std::vector<std::string> content_words(std::string_view text) {
  std::vector<std::string> out;
  for (auto& w : split_words(text)) {
    std::string lower = to_lower(w);
    if (!is_stopword(lower)) out.push_back(std::move(lower));
  }
  return out;
}

StopwordFilter::StopwordFilter(const std::vector<std::string>& words) {
  for (const auto& w : words) add(w);
}

void StopwordFilter::add(std::string_view word) { words_.insert(to_lower(word)); }

bool StopwordFilter::contains(std::string_view word) const { return words_.count(to_lower(word)) > 0; }

std::vector<std::string> StopwordFilter::apply(const std::vector<std::string>& words) const {
  std::vector<std::string> out;
  std::copy_if(words.begin(), words.end(), std::back_inserter(out), [this](const std::string& w) { return !contains(w); });
  return out;
}

}  // namespace textstat
