// libcurl, loaded at run time.
//
// greenlight must not pay libcurl's start-up cost (about 30 shared libraries) in every process:
// `greenlight sandbox` is benchmarked against bwrap. So libcurl.so.4 is dlopen'ed on the first
// provider use and the few functions we call are resolved into a typed table. <curl/curl.h> is
// used for types and constants only; nothing here references a curl symbol at link time.
//
// Thread-safety: load() is thread-safe (once per process) and the table is immutable after it.
#pragma once

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#include <string>

namespace greenlight::core::providers {

struct CurlLibrary {
  CURLcode (*globalInit)(long flags);
  CURL* (*easyInit)();
  void (*easyCleanup)(CURL*);
  CURLcode (*easySetopt)(CURL*, CURLoption, ...);
  CURLcode (*easyGetinfo)(CURL*, CURLINFO, ...);
  const char* (*easyStrerror)(CURLcode);
  CURLM* (*multiInit)();
  CURLMcode (*multiCleanup)(CURLM*);
  CURLMcode (*multiAddHandle)(CURLM*, CURL*);
  CURLMcode (*multiRemoveHandle)(CURLM*, CURL*);
  CURLMcode (*multiPerform)(CURLM*, int*);
  CURLMcode (*multiPoll)(CURLM*, struct curl_waitfd[], unsigned int, int, int*);
  CURLMcode (*multiWakeup)(CURLM*);
  CURLMsg* (*multiInfoRead)(CURLM*, int*);
  CURLMcode (*multiTimeout)(CURLM*, long*);
  struct curl_slist* (*slistAppend)(struct curl_slist*, const char*);
  void (*slistFreeAll)(struct curl_slist*);
  curl_version_info_data* (*versionInfo)(CURLversion);

  std::string version;  // "7.88.1"
};

// The loaded library, or nullptr with `error` saying which step failed and what to install.
// The first call loads it and runs curl_global_init; later calls return the same table.
// $GREENLIGHT_LIBCURL, when set, names the only library tried (packagers, tests).
const CurlLibrary* loadCurl(std::string* error);

}  // namespace greenlight::core::providers
