// Running external programs (make, the compiled simulation) and capturing their output.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace flowhls {

/// Result of a finished child process.
struct ProcessResult {
    /// Exit status, or 128 + signal number when it was killed by a signal; -1 if it could
    /// not be started.
    int status = -1;
    /// Standard output and standard error, interleaved.
    std::string output;
};

/// Runs `argv` in directory `cwd` and waits for it. When `echo` is not null, the output is
/// also copied there as it arrives.
ProcessResult run_process(const std::vector<std::string> &argv, const std::string &cwd, std::ostream *echo);

}  // namespace flowhls
