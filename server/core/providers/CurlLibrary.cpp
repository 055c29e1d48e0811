#include "core/providers/CurlLibrary.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

namespace greenlight::core::providers {
namespace {

struct Loaded {
  CurlLibrary lib{};
  bool ok = false;
  std::string error;
};

template <typename Fn>
bool resolve(void* handle, const char* name, Fn& out, std::string& error) {
  void* sym = ::dlsym(handle, name);
  if (!sym) {
    error = std::string("dlsym(") + name + ") in libcurl.so.4 failed: the installed libcurl is "
            "too old (greenlight needs 7.68 or newer); install a current libcurl4";
    return false;
  }
  out = reinterpret_cast<Fn>(sym);
  return true;
}

Loaded load() {
  Loaded l;
  // GREENLIGHT_LIBCURL lets packagers (and tests) point at another build of the library.
  const char* override = std::getenv("GREENLIGHT_LIBCURL");
  std::vector<const char*> names = {"libcurl.so.4", "libcurl.so"};
  if (override && *override) names = {override};
  void* handle = nullptr;
  std::string firstError;
  for (const char* name : names) {
    handle = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle) break;
    if (firstError.empty()) {
      const char* e = ::dlerror();
      firstError = e ? e : name;
    }
  }
  if (!handle) {
    l.error = "cannot load libcurl (dlopen: " + firstError +
              "); greenlight talks to LLM providers through libcurl: install it "
              "(Debian/Ubuntu: apt-get install libcurl4)";
    return l;
  }
  CurlLibrary& c = l.lib;
  bool ok = resolve(handle, "curl_global_init", c.globalInit, l.error) &&
            resolve(handle, "curl_easy_init", c.easyInit, l.error) &&
            resolve(handle, "curl_easy_cleanup", c.easyCleanup, l.error) &&
            resolve(handle, "curl_easy_setopt", c.easySetopt, l.error) &&
            resolve(handle, "curl_easy_getinfo", c.easyGetinfo, l.error) &&
            resolve(handle, "curl_easy_strerror", c.easyStrerror, l.error) &&
            resolve(handle, "curl_multi_init", c.multiInit, l.error) &&
            resolve(handle, "curl_multi_cleanup", c.multiCleanup, l.error) &&
            resolve(handle, "curl_multi_add_handle", c.multiAddHandle, l.error) &&
            resolve(handle, "curl_multi_remove_handle", c.multiRemoveHandle, l.error) &&
            resolve(handle, "curl_multi_perform", c.multiPerform, l.error) &&
            resolve(handle, "curl_multi_poll", c.multiPoll, l.error) &&
            resolve(handle, "curl_multi_wakeup", c.multiWakeup, l.error) &&
            resolve(handle, "curl_multi_info_read", c.multiInfoRead, l.error) &&
            resolve(handle, "curl_multi_timeout", c.multiTimeout, l.error) &&
            resolve(handle, "curl_slist_append", c.slistAppend, l.error) &&
            resolve(handle, "curl_slist_free_all", c.slistFreeAll, l.error) &&
            resolve(handle, "curl_version_info", c.versionInfo, l.error);
  if (!ok) return l;  // the handle stays open: dlclose of a half-used library buys nothing
  if (CURLcode rc = c.globalInit(CURL_GLOBAL_DEFAULT); rc != CURLE_OK) {
    l.error = std::string("curl_global_init failed: ") + c.easyStrerror(rc);
    return l;
  }
  if (auto* info = c.versionInfo(CURLVERSION_NOW); info && info->version) c.version = info->version;
  // Never dlclose: libcurl registers OpenSSL atexit handlers.
  l.ok = true;
  return l;
}

}  // namespace

const CurlLibrary* loadCurl(std::string* error) {
  static const Loaded loaded = load();
  if (!loaded.ok) {
    if (error) *error = loaded.error;
    return nullptr;
  }
  return &loaded.lib;
}

}  // namespace greenlight::core::providers
