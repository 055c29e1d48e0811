#include "lsp/features/FixLocation.h"


#include "core/testing/Discovery.h"
#include "lsp/features/RunTestsSourceFor.h"
#include "support/Regex.h"

namespace greenlight::lsp {

namespace ct = core::testing;

std::string calleeInMessage(const std::string& message) {
  static const std::regex kReturned = support::regex(R"(([A-Za-z_$][\w$.]*)\s*\(.*\)\s+returned\b)");
  std::smatch m;
  if (std::regex_search(message, m, kReturned)) {
    std::string name = m[1].str();
    auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(dot + 1);
  }
  return "";
}

std::optional<FixLocation> locateFix(const std::string& path, int line0, const protocol::Json& diagnostic,
                                     const std::function<std::optional<std::string>(const std::string&)>& readText,
                                     const std::function<bool(const std::string&)>& exists, std::string* error) {
  FixLocation out;
  const protocol::Json* data = diagnostic.is_object() && diagnostic.contains("data") ? &diagnostic["data"] : nullptr;
  std::string message = diagnostic.is_object() ? diagnostic.value("message", "") : "";
  if (data && data->is_object()) out.test = data->value("test", "");
  // 1. The traced origin names the function and its file exactly.
  if (data && data->is_object() && data->contains("origin") && (*data)["origin"].is_object()) {
    const auto& o = (*data)["origin"];
    std::string file = o.value("file", "");
    int defLine = o.value("def_line", 0);
    if (!file.empty() && defLine > 0 && exists(file)) {
      out.path = file;
      out.line = defLine;
      out.function = o.value("function", "");
      if (auto dot = out.function.rfind('.'); dot != std::string::npos) out.function = out.function.substr(dot + 1);
      return out;
    }
  }
  // 2. A diagnostic in a test file: the callee its message names, in the source it tests.
  if (auto source = sourceFor(path, exists)) {
    std::string name = calleeInMessage(message);
    auto language = ct::languageForPath(*source);
    auto text = readText(*source);
    if (name.empty() || !language || !text) {
      *error = "cannot tell which function of " + *source + " this failure is about; run greenlight.fix on the diagnostic in " + *source;
      return std::nullopt;
    }
    auto fn = ct::findFunction(*text, name, *language);
    if (!fn) {
      *error = name + " is not defined in " + *source;
      return std::nullopt;
    }
    out.path = *source;
    out.line = fn->line;
    out.function = name;
    return out;
  }
  // 3. A diagnostic in the source itself (the definition or the line that returned the value).
  out.path = path;
  out.line = line0 + 1;
  out.function = calleeInMessage(message);
  return out;
}

}  // namespace greenlight::lsp
