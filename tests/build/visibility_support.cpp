#include "visibility.h"
// server/support holds no domain code.
static_assert(GL_SEES_SUPPORT, "support must see itself");
static_assert(!GL_SEES_PROTOCOL && !GL_SEES_SANDBOX && !GL_SEES_CORE && !GL_SEES_LSP,
              "server/support may include nothing of ours");
