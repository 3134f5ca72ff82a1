// Overflow-checked tensor sizes, byte counts as text, the machine's memory.
#include "support/Sizes.h"

#include <cstdio>
#include <limits>
#include <unistd.h>

namespace flowhls {

bool checked_multiply(int64_t a, int64_t b, int64_t *out) {
    if (a < 0 || b < 0) return false;
    if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) return false;
    *out = a * b;
    return true;
}

int64_t checked_bytes(const std::vector<int64_t> &dims, int64_t element_bytes, int64_t limit) {
    if (element_bytes < 0) return -1;
    for (int64_t d : dims) {
        if (d < 0) return -1;
    }
    for (int64_t d : dims) {
        if (d == 0) return 0;
    }
    int64_t bytes = element_bytes;
    for (int64_t d : dims) {
        if (!checked_multiply(bytes, d, &bytes) || bytes > limit) return -1;
    }
    return bytes > limit ? -1 : bytes;
}

std::string byte_size_text(int64_t bytes) {
    const char *units[] = {"KB", "MB", "GB", "TB", "PB", "EB"};
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    double v = static_cast<double>(bytes);
    int u = -1;
    while (v >= 1024.0 && u < 5) v /= 1024.0, u++;
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", v, units[u]);
    return text;
}

int64_t parse_byte_size(const std::string &text) {
    if (text.empty()) return -1;
    size_t digits = text.find_first_not_of("0123456789");
    if (digits == 0) return -1;
    std::string number = text.substr(0, digits), suffix = digits == std::string::npos ? "" : text.substr(digits);
    if (number.size() > 18) return -1;
    int64_t value = std::stoll(number);
    int shift = 0;
    if (suffix == "K" || suffix == "k") shift = 10;
    else if (suffix == "M" || suffix == "m") shift = 20;
    else if (suffix == "G" || suffix == "g") shift = 30;
    else if (suffix == "T" || suffix == "t") shift = 40;
    else if (!suffix.empty()) return -1;
    int64_t out;
    return checked_multiply(value, int64_t(1) << shift, &out) ? out : -1;
}

int64_t physical_memory_bytes() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    int64_t bytes;
    if (pages <= 0 || page <= 0 || !checked_multiply(pages, page, &bytes)) return 0;
    return bytes;
}

int64_t default_memory_budget() {
    int64_t physical = physical_memory_bytes();
    return physical > 0 ? physical / 2 : int64_t(8) << 30;
}

}  // namespace flowhls
