// run_process: fork/exec with a pipe collecting stdout and stderr.
#include "support/Process.h"
#include "support/Interrupt.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <poll.h>
#include <cstring>
#include <ostream>
#include <sys/wait.h>
#include <unistd.h>

namespace flowhls {

ProcessResult run_process(const std::vector<std::string> &argv, const std::string &cwd, std::ostream *echo,
                          double timeout_seconds) {
    ProcessResult result;
    int fds[2];
    if (argv.empty() || pipe(fds) != 0) return result;
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return result;
    }
    if (pid == 0) {
        setpgid(0, 0);  // its own process group: stopped as a whole on a timeout or an interrupt
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
        std::vector<char *> args;
        for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        const char *msg = "flowhls: cannot run program\n";
        ssize_t ignored = write(STDERR_FILENO, msg, std::strlen(msg));
        (void)ignored;
        _exit(127);
    }
    setpgid(pid, pid);  // also here, so that it holds before the group is used
    CleanupProcessGroup interrupt_guard(pid);
    close(fds[1]);
    char buf[4096];
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    for (;;) {
        if (timeout_seconds > 0) {
            auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            pollfd p{fds[0], POLLIN, 0};
            int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                result.timed_out = true;
                kill(-pid, SIGKILL);
                kill(pid, SIGKILL);
                break;
            }
        }
        ssize_t n = read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        result.output.append(buf, static_cast<size_t>(n));
        if (echo) echo->write(buf, n).flush();
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) result.status = 128 + WTERMSIG(status);
    return result;
}

}  // namespace flowhls
