#include "visibility.h"
// server/support holds no domain code.
#if !GL_SEES_SUPPORT
#error "support must see itself"
#endif
#if GL_SEES_PROTOCOL || GL_SEES_SANDBOX || GL_SEES_CORE || GL_SEES_LSP
#error "server/support may include nothing of ours"
#endif
