// SHA-256 of a byte string (FIPS 180-4), for the manifest of generated projects.
#pragma once

#include <string>

namespace flowhls {

/// The SHA-256 digest of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(const std::string &bytes);

}  // namespace flowhls
