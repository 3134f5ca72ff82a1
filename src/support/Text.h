// Text for messages: one line, printable bytes only.
#pragma once

#include <string>

namespace flowhls {

/// `text` as one printable line: every run of whitespace that contains a line break becomes
/// one space (multi-line text of libraries is folded), trailing whitespace goes, a tab is a
/// space, other control bytes and bytes that are not valid UTF-8 are written as \xNN. Valid
/// UTF-8 is kept.
std::string one_line(const std::string &text);

}  // namespace flowhls
