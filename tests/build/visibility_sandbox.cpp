#include "visibility.h"
// sandbox/ depends on libc + libseccomp only.
#if !GL_SEES_SANDBOX
#error "sandbox must see itself"
#endif
#if GL_SEES_PROTOCOL || GL_SEES_SUPPORT || GL_SEES_CORE || GL_SEES_LSP
#error "sandbox/ may include nothing of ours"
#endif
