// Shared by the visibility probes: each header below is one module's marker. __has_include is
// only valid inside #if, so each probe states its rule with #if/#error.
#pragma once
#define GL_SEES_SUPPORT __has_include("support/Log.h")
#define GL_SEES_SANDBOX __has_include("sandbox/Sandbox.h")
#define GL_SEES_CORE __has_include("core/config/Config.h")
#define GL_SEES_PROTOCOL __has_include("protocol/JsonRpc.h")
#define GL_SEES_LSP __has_include("lsp/Server.h")
