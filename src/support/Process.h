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
    /// It ran longer than the timeout and was killed (with its process group).
    bool timed_out = false;
};

/// Runs `argv` in directory `cwd` and waits for it. When `echo` is not null, the output is
/// also copied there as it arrives. The child runs in a process group of its own: with
/// `timeout_seconds` > 0 the group is killed when it runs longer, and an interrupt of flowhls
/// (install_interrupt_cleanup) sends it SIGTERM.
ProcessResult run_process(const std::vector<std::string> &argv, const std::string &cwd, std::ostream *echo,
                          double timeout_seconds = 0.0);

}  // namespace flowhls
