#include "visibility.h"
// server/lsp may use core, protocol and support. (It can reach sandbox/ headers through core's
// public headers; include_lint.sh forbids naming them directly.)
#if !(GL_SEES_LSP && GL_SEES_CORE && GL_SEES_PROTOCOL && GL_SEES_SUPPORT)
#error "lsp must see core, protocol and support"
#endif
