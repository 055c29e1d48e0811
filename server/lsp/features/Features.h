// The list of features (one file each under server/lsp/features/). Adding a feature: write
// features/MyFeature.cpp with `void registerMyFeature(Server&)`, declare it below and call it
// from registerAllFeatures() in Features.cpp. (Registration is explicit because gl_lsp is a
// static library: a self-registering object file that nothing references would not be linked.)
#pragma once

namespace greenlight::lsp {

class Server;

void registerCodeActions(Server& server);  // features/CodeActions.cpp

// Registers every feature on `server`; call before Server::start().
void registerAllFeatures(Server& server);

}  // namespace greenlight::lsp
