// Cleaning up when flowhls is interrupted: staging directories are removed and child
// process groups stopped on SIGINT, SIGTERM and SIGHUP before the process dies of the signal.
#pragma once

#include <mutex>
#include <string>
#include <sys/types.h>

namespace flowhls {

/// Installs handlers for SIGINT, SIGTERM and SIGHUP (once per process; the command-line tool
/// calls it first thing). On such a signal a watcher thread removes every registered path,
/// sends SIGTERM to every registered process group, then lets the signal terminate the
/// process (its exit status shows the signal). Without this call nothing is cleaned up on a
/// signal, and nothing else changes.
void install_interrupt_cleanup();

/// Held while changing what a registered path contains, so that the cleanup never runs in the
/// middle of it (and nothing is written after it).
std::unique_lock<std::mutex> interrupt_lock();

/// Registers `path` (a directory removed recursively) for the cleanup while the object lives.
/// The caller holds interrupt_lock() when constructing and when destroying it (so creating
/// or removing the path and registering it are one step for the cleanup).
class CleanupPath {
public:
    explicit CleanupPath(std::string path);
    ~CleanupPath();
    CleanupPath(const CleanupPath &) = delete;
    CleanupPath &operator=(const CleanupPath &) = delete;

private:
    std::string path_;
};

/// Registers the process group `pgid` (a child run by run_process) to receive SIGTERM on a
/// signal while the object lives.
class CleanupProcessGroup {
public:
    explicit CleanupProcessGroup(pid_t pgid);
    ~CleanupProcessGroup();
    CleanupProcessGroup(const CleanupProcessGroup &) = delete;
    CleanupProcessGroup &operator=(const CleanupProcessGroup &) = delete;

private:
    pid_t pgid_;
};

}  // namespace flowhls
