#include "visibility.h"
// server/core may use protocol value types, sandbox and support; never the LSP layer.
#if !(GL_SEES_CORE && GL_SEES_PROTOCOL && GL_SEES_SANDBOX && GL_SEES_SUPPORT)
#error "core must see protocol, sandbox and support"
#endif
#if GL_SEES_LSP
#error "server/core may not include server/lsp"
#endif
