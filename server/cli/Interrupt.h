// Ctrl-C for the one-shot commands that wait on long work (chat, generate): while an
// Interrupts object lives, SIGINT and SIGTERM only write a byte to a self-pipe (async-signal
// safe); the command's main thread polls fd() beside its work and cancels it. The handlers are
// installed with SA_RESETHAND, so a second Ctrl-C kills the process outright. The destructor
// restores the default handlers.
//
// Thread-safety: one Interrupts at a time per process, created and destroyed on the main thread.
#pragma once

#include <string>

namespace greenlight::cli {

class Interrupts {
 public:
  Interrupts();
  ~Interrupts();
  Interrupts(const Interrupts&) = delete;
  Interrupts& operator=(const Interrupts&) = delete;

  bool ok() const { return fd() >= 0; }
  const std::string& error() const { return error_; }  // why ok() is false
  int fd() const;  // readable once SIGINT or SIGTERM arrived

 private:
  std::string error_;
};

// Blocks until `doneFd` or the interrupt fd is readable; returns true when interrupted first.
// `onInterrupt` runs once, on the calling thread, at the first interrupt (then waiting goes on
// until doneFd).
bool waitUnlessInterrupted(int doneFd, const Interrupts& interrupts, void (*onInterrupt)(void*), void* context);

}  // namespace greenlight::cli
