// Text for messages (one line, printable bytes only) and splitting text into fields.
#pragma once

#include <string>
#include <vector>

namespace flowhls {

/// `text` as one printable line: every run of whitespace that contains a line break becomes
/// one space (multi-line text of libraries is folded), trailing whitespace goes, a tab is a
/// space, other control bytes and bytes that are not valid UTF-8 are written as \xNN. Valid
/// UTF-8 is kept.
std::string one_line(const std::string &text);

/// The fields of `text` between the separators `sep`: n separators give n + 1 fields, empty
/// ones included ("a,,b" -> a, "", b; "" -> one empty field).
std::vector<std::string> split_fields(const std::string &text, char sep);

/// `v` printed with the printf `format` (one double conversion, at most 63 characters).
std::string format_number(double v, const char *format);

/// `s` padded with spaces to `width` characters, on the left (right-aligned) unless `left`.
std::string pad_text(const std::string &s, size_t width, bool left = false);

}  // namespace flowhls
