#include "visibility.h"
// protocol/ depends on nlohmann/json only.
#if !GL_SEES_PROTOCOL
#error "protocol must see itself"
#endif
#if GL_SEES_SANDBOX || GL_SEES_SUPPORT || GL_SEES_CORE || GL_SEES_LSP
#error "protocol/ may include nothing of ours"
#endif
