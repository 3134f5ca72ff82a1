// Exact decimal text of floating-point values, for generated C/C++ and the graph text form.
#pragma once

#include <string>

namespace flowhls {

/// The shortest decimal that reads back as exactly `v` (strtof, or a C/C++ compiler parsing
/// a float literal): std::to_chars's shortest round-trip form ("0.1", "1e-45", "-0", "100").
/// Non-finite values are "inf", "-inf" and "nan".
std::string shortest_decimal(float v);
/// The same for a double (strtod, an unsuffixed C literal).
std::string shortest_decimal(double v);

/// `text` (from shortest_decimal) made a floating literal: ".0" appended when it has neither a
/// point nor an exponent ("100" -> "100.0"; "1e-45" and "0.5" stay as they are).
std::string with_point(const std::string &text);

}  // namespace flowhls
