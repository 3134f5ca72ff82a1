// shortest_decimal: std::to_chars's shortest round-trip form of floats and doubles.
#include "ir/FloatText.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace flowhls {

namespace {

template <typename T>
std::string shortest(T v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char buf[64];
    std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
    if (r.ec != std::errc()) throw std::logic_error("shortest_decimal: to_chars failed");
    return std::string(buf, r.ptr);
}

}  // namespace

std::string shortest_decimal(float v) { return shortest(v); }
std::string shortest_decimal(double v) { return shortest(v); }

std::string with_point(const std::string &text) {
    if (text.find_first_of(".eEn") != std::string::npos) return text;  // n: inf, nan
    return text + ".0";
}

}  // namespace flowhls
