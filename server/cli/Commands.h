// One entry point per subcommand; main.cpp only dispatches. Each receives the arguments after
// the subcommand name and returns the process exit code documented in DESIGN.md.
#pragma once

#include <string>
#include <vector>

namespace greenlight::cli {

using Args = std::vector<std::string>;

int lspCommand(const Args& args);      // cli/LspCommand.cpp
int runCommand(const Args& args);      // cli/RunCommand.cpp
int sandboxCommand(const Args& args);  // cli/SandboxCommand.cpp
int chatCommand(const Args& args);     // cli/ChatCommand.cpp
int doctorCommand(const Args& args);   // cli/DoctorCommand.cpp
int generateCommand(const Args& args); // cli/GenerateCommand.cpp

}  // namespace greenlight::cli
