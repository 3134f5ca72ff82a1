// The cleanup on SIGINT/SIGTERM/SIGHUP: a signal handler that only writes to a pipe, and a
// watcher thread that removes the registered paths, stops the registered process groups and
// re-raises the signal.
//
// This is the one piece of process-wide state in flowhls: a signal is delivered to the
// process, not to a compilation, so what is to be cleaned up is registered process-wide.
#include "support/Interrupt.h"

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <thread>
#include <unistd.h>
#include <vector>

namespace flowhls {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<std::string> paths;
    std::vector<pid_t> groups;
    int pipe_write = -1;
};

Registry &registry() {
    static Registry *r = new Registry;  // never destroyed: the watcher may use it during exit
    return *r;
}

void on_signal(int sig) {
    unsigned char byte = static_cast<unsigned char>(sig);
    ssize_t ignored = write(registry().pipe_write, &byte, 1);
    (void)ignored;
}

void watch(int pipe_read) {
    unsigned char sig = 0;
    for (;;) {
        ssize_t n = read(pipe_read, &sig, 1);
        if (n == 1) break;
        if (n < 0 && errno == EINTR) continue;
        return;
    }
    Registry &r = registry();
    // Held until the process is gone: nothing registered is written after the cleanup.
    r.mutex.lock();
    for (pid_t g : r.groups) kill(-g, SIGTERM);
    for (const std::string &p : r.paths) {
        std::error_code ec;
        std::filesystem::remove_all(p, ec);
    }
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
    // The signal may be blocked in this thread; make sure the process ends.
    raise(sig);
    _exit(128 + sig);
}

}  // namespace

void install_interrupt_cleanup() {
    static std::once_flag once;
    std::call_once(once, [] {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) return;
        registry().pipe_write = fds[1];
        std::thread(watch, fds[0]).detach();
        struct sigaction sa = {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    });
}

std::unique_lock<std::mutex> interrupt_lock() { return std::unique_lock<std::mutex>(registry().mutex); }

CleanupPath::CleanupPath(std::string path) : path_(std::move(path)) { registry().paths.push_back(path_); }

CleanupPath::~CleanupPath() {
    std::vector<std::string> &paths = registry().paths;
    auto it = std::find(paths.begin(), paths.end(), path_);
    if (it != paths.end()) paths.erase(it);
}

CleanupProcessGroup::CleanupProcessGroup(pid_t pgid) : pgid_(pgid) {
    std::unique_lock<std::mutex> lock = interrupt_lock();
    registry().groups.push_back(pgid_);
}

CleanupProcessGroup::~CleanupProcessGroup() {
    std::unique_lock<std::mutex> lock = interrupt_lock();
    std::vector<pid_t> &groups = registry().groups;
    auto it = std::find(groups.begin(), groups.end(), pgid_);
    if (it != groups.end()) groups.erase(it);
}

}  // namespace flowhls
