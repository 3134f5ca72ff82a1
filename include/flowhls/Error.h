// The error type flowhls reports problems with the user's input through.
#pragma once

#include <stdexcept>
#include <string>

namespace flowhls {

/// A problem with the user's input or environment (unsupported schedule, dynamic shape,
/// unwritable output, unknown example, ...). The message names the cause and its location.
/// The command-line tool reports it and exits with code 2.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string &message) : std::runtime_error(message) {}
};

}  // namespace flowhls
