// The greenlight binary: dispatches to one function per subcommand (server/cli/). Nothing runs
// before main beyond what the linked libraries need: `greenlight sandbox` is on a hot path and
// its start-up is benchmarked.
#include <cstdio>
#include <cstring>
#include <string>

#include "Version.h"
#include "cli/Commands.h"

namespace {

const char kUsage[] =
    "usage: greenlight <command> [options]\n"
    "\n"
    "commands:\n"
    "  lsp [--log-file F] [--log-level L]   language server on stdin/stdout (also: --stdio)\n"
    "  run PATH[:LINE] [--json] [--timeout S]\n"
    "                                       run the tests near PATH in the sandbox\n"
    "  sandbox [options] -- CMD [ARGS...]   run any command in the sandbox\n"
    "  generate PATH:LINE [--apply|--diff] [--json] [--rounds N] [--candidates N] [--allow-unverified]\n"
    "                                       write the code a comment or stub asks for, verified by its tests\n"
    "  chat [--provider P] [--model M] PROMPT\n"
    "                                       one prompt to the configured LLM provider\n"
    "  doctor                               check sandbox, toolchains and provider\n"
    "  --version, --help\n"
    "\n"
    "Run 'greenlight <command> --help' for a command's options.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace greenlight::cli;
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::string cmd = argv[1];
  Args rest(argv + 2, argv + argc);
  if (cmd == "--version" || cmd == "version") {
    std::printf("greenlight %s\n", GREENLIGHT_VERSION);
    return 0;
  }
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  // vscode-languageclient appends --stdio; accept it as the command or beside it.
  if (cmd == "lsp" || cmd == "--stdio") return lspCommand(cmd == "--stdio" ? Args(argv + 1, argv + argc) : rest);
  if (cmd == "run") return runCommand(rest);
  if (cmd == "sandbox") return sandboxCommand(rest);
  if (cmd == "chat") return chatCommand(rest);
  if (cmd == "doctor") return doctorCommand(rest);
  if (cmd == "generate") return generateCommand(rest);
  std::fprintf(stderr, "greenlight: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
  return 2;
}
