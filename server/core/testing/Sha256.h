#pragma once
// SHA-256 (FIPS 180-4), for names other tools derive from one: Poetry names a project's
// virtualenv after the SHA-256 of the project's path. Not used for anything secret.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace greenlight::core::testing {

std::array<std::uint8_t, 32> sha256(std::string_view data);

// RFC 4648 §5 base64url (with '=' padding, as Python's base64.urlsafe_b64encode writes it).
std::string base64Url(const std::uint8_t* data, std::size_t size);

}  // namespace greenlight::core::testing
