// one_line: folding and escaping text for one-line messages; split_fields.
#include "support/Text.h"

#include <cstdio>

namespace flowhls {

namespace {

// Length of the valid UTF-8 sequence of two or more bytes starting at s[i], or 0.
size_t utf8_length(const std::string &s, size_t i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 0;
    if (n == 0 || c >= 0xf5 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
    }
    unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 >= 0x90)) {
        return 0;  // overlong, surrogate or beyond U+10FFFF
    }
    return n;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::string one_line(const std::string &text) {
    std::string out;
    size_t i = 0;
    while (i < text.size()) {
        char c = text[i];
        if (is_space(c)) {
            size_t j = i;
            bool breaks = false;
            while (j < text.size() && is_space(text[j])) breaks |= text[j] == '\n' || text[j] == '\r', j++;
            if (breaks) {
                if (!out.empty() && j < text.size()) out += ' ';
            } else if (j < text.size()) {
                for (size_t k = i; k < j; k++) {
                    char s = text[k];
                    if (s == ' ' || s == '\t') {
                        out += ' ';
                    } else {
                        char hex[8];
                        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s));
                        out += hex;
                    }
                }
            }
            i = j;
            continue;
        }
        unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            out += c;
            i++;
            continue;
        }
        size_t n = u >= 0x80 ? utf8_length(text, i) : 0;
        if (n) {
            out.append(text, i, n);
            i += n;
            continue;
        }
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", u);
        out += hex;
        i++;
    }
    return out;
}

std::vector<std::string> split_fields(const std::string &text, char sep) {
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t at; (at = text.find(sep, start)) != std::string::npos; start = at + 1) {
        fields.push_back(text.substr(start, at - start));
    }
    fields.push_back(text.substr(start));
    return fields;
}

std::string format_number(double v, const char *format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string pad_text(const std::string &s, size_t width, bool left) {
    if (s.size() >= width) return s;
    return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

}  // namespace flowhls
