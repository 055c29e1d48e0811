// Removed once protocol/ has sources (a static library needs at least one).
namespace greenlight::protocol {}
