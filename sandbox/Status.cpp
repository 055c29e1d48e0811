#include "sandbox/Sandbox.h"

namespace greenlight::sandbox {

std::string_view statusName(Status status) {
  switch (status) {
    case Status::Ok: return "ok";
    case Status::ExitNonzero: return "exit_nonzero";
    case Status::Signaled: return "signaled";
    case Status::Timeout: return "timeout";
    case Status::CpuLimit: return "cpu_limit";
    case Status::MemoryLimit: return "memory_limit";
    case Status::OutputLimit: return "output_limit";
    case Status::ProcessLimit: return "process_limit";
    case Status::FileSizeLimit: return "file_size_limit";
    case Status::SyscallViolation: return "syscall_violation";
    case Status::SetupError: return "setup_error";
  }
  return "setup_error";
}

}  // namespace greenlight::sandbox
