#include "visibility.h"
// protocol/ depends on nlohmann/json only.
static_assert(GL_SEES_PROTOCOL, "protocol must see itself");
static_assert(!GL_SEES_SANDBOX && !GL_SEES_SUPPORT && !GL_SEES_CORE && !GL_SEES_LSP,
              "protocol/ may include nothing of ours");
