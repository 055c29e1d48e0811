// Removed once sandbox/ has sources (a static library needs at least one).
namespace greenlight::sandbox {}
