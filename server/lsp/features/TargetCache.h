// One refine::TargetFinder per open document version, so that code actions (every cursor move)
// and code lenses (every change) look targets up instead of scanning the file each time. Keeps
// the last few documents only. An entry is reused only when the text is the same too: a
// document closed and opened again starts over at version 1 with whatever text it has now, and
// a finder of an earlier open of that version would put lenses and actions on the old text
// (issue 28: a "✨ Generate" lens over a function already implemented).
//
// Threading: loop only.
#pragma once

#include <list>
#include <memory>
#include <string>

#include "core/documents/DocumentStore.h"
#include "core/refine/Target.h"
#include "core/testing/Discovery.h"

namespace greenlight::lsp {

class TargetCache {
 public:
  // The finder for the document's current version; null when the document is not open or is
  // not Python / JavaScript / C++.
  std::shared_ptr<const core::refine::TargetFinder> get(const core::DocumentStore& documents, const std::string& uri) {
    auto doc = documents.get(uri);
    if (!doc || doc->path.empty()) return nullptr;
    auto language = core::testing::languageForPath(doc->path);
    if (!language || *language == core::testing::Language::Command) return nullptr;
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->uri == uri && it->version == doc->version && it->finder->text() == doc->text) {
        entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().finder;
      }
    }
    auto finder = std::make_shared<const core::refine::TargetFinder>(std::move(doc->text), *language);
    entries_.push_front({uri, doc->version, finder});
    while (entries_.size() > kKeep) entries_.pop_back();
    return finder;
  }

 private:
  static constexpr std::size_t kKeep = 8;
  struct Entry {
    std::string uri;
    std::int64_t version = 0;
    std::shared_ptr<const core::refine::TargetFinder> finder;
  };
  std::list<Entry> entries_;
};

}  // namespace greenlight::lsp
