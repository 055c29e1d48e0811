// Removed once server/lsp/ has sources (a static library needs at least one).
namespace greenlight::lsp {}
