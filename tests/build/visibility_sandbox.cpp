#include "visibility.h"
// sandbox/ depends on libc + libseccomp only.
static_assert(GL_SEES_SANDBOX, "sandbox must see itself");
static_assert(!GL_SEES_PROTOCOL && !GL_SEES_SUPPORT && !GL_SEES_CORE && !GL_SEES_LSP,
              "sandbox/ may include nothing of ours");
