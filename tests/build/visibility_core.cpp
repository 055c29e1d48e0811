#include "visibility.h"
// server/core may use protocol value types, sandbox and support; never the LSP layer.
static_assert(GL_SEES_CORE && GL_SEES_PROTOCOL && GL_SEES_SANDBOX && GL_SEES_SUPPORT,
              "core must see protocol, sandbox and support");
static_assert(!GL_SEES_LSP, "server/core may not include server/lsp");
