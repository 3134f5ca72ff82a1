// Nothing left behind: a compile interrupted by SIGINT or SIGTERM removes its staging
// directory and the parents it created; the staging directory of a run killed with SIGKILL is
// removed by the next compile into the same parent; csim runs only what flowhls wrote.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

// Starts flowhls with `args` (output discarded); returns its pid.
pid_t start_flowhls(const std::vector<std::string> &args) {
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        std::vector<char *> argv = {const_cast<char *>(FLOWHLS_BIN)};
        for (const std::string &a : args) argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(FLOWHLS_BIN, argv.data());
        _exit(127);
    }
    return pid;
}

// Whether `dir` holds a staging directory (".NAME.tmp-XXXXXX"); with `marked`, only one that
// already holds its owner marker (".flowhls-staging").
bool has_staging(const std::string &dir, bool marked = false) {
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
        if (e.path().filename().string().find(".tmp-") == std::string::npos) continue;
        if (!marked || fs::exists(e.path() / ".flowhls-staging", ec)) return true;
    }
    return false;
}

// Waits until `dir` holds a staging directory (the compile has started writing); false after
// 60 s. With `marked`, waits for its owner marker too: a run killed between creating the
// directory and writing the marker leaves an empty directory that the next compile removes only
// once it is a minute old.
bool wait_for_staging(const std::string &dir, bool marked = false) {
    for (int i = 0; i < 6000; i++) {
        if (has_staging(dir, marked)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

class Interrupted : public ::testing::TestWithParam<int> {};

TEST_P(Interrupted, CompileRemovesItsStagingAndCreatedParents) {
    test::TempDir dir;
    pid_t pid = start_flowhls({"compile", "-e", "harris", "-o", dir / "a/b/out"});
    ASSERT_TRUE(wait_for_staging(dir / "a/b"));
    kill(pid, GetParam());
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), GetParam());
    EXPECT_TRUE(fs::is_empty(dir.path())) << "left behind under " << dir.path();
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupted, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int> &info) {
                             return info.param == SIGINT ? "SIGINT" : info.param == SIGTERM ? "SIGTERM" : "SIGHUP";
                         });

TEST(Interrupted, StagingOfAKilledRunIsRemovedByTheNextCompile) {
    test::TempDir dir;
    fs::create_directories(dir / "out");
    pid_t pid = start_flowhls({"compile", "-e", "harris", "-o", dir / "out/h"});
    ASSERT_TRUE(wait_for_staging(dir / "out", /*marked=*/true));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    EXPECT_TRUE(has_staging(dir / "out"));
    std::string log;
    ASSERT_EQ(test::run_flowhls("compile -e gemm -o " + (dir / "out/g"), &log), 0) << log;
    EXPECT_FALSE(has_staging(dir / "out"));
    EXPECT_TRUE(fs::exists(dir / "out/g/kernel.cpp"));
}

TEST(Interrupted, AFailedCompileRemovesTheParentsItCreated) {
    test::TempDir dir;
    std::string log;
    EXPECT_EQ(test::run_flowhls("compile -e gemm --device nope -o " + (dir / "x/y/out"), &log), 2) << log;
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CsimTrust, RunsOnlyTheCodeFlowhlsWrote) {
    test::TempDir dir;
    std::string log;
    ASSERT_EQ(test::run_flowhls("compile -e gemm -o " + (dir / "p"), &log), 0) << log;
    std::string kernel = test::read_file(dir / "p/kernel.cpp");
    std::ofstream(dir / "p/kernel.cpp") << kernel << "\n// changed\n";
    EXPECT_EQ(test::run_flowhls("csim " + (dir / "p"), &log), 2) << log;
    EXPECT_NE(log.find("kernel.cpp differs from what flowhls wrote"), std::string::npos) << log;
    std::ofstream(dir / "p/kernel.cpp") << kernel;
    std::ofstream(dir / "p/include/math.h") << "#error shadowing a system header\n";
    EXPECT_EQ(test::run_flowhls("csim " + (dir / "p"), &log), 2) << log;
    EXPECT_NE(log.find("include/math.h was not written by flowhls"), std::string::npos) << log;
    fs::remove(dir / "p/include/math.h");
    EXPECT_EQ(test::run_flowhls("csim " + (dir / "p"), &log), 0) << log;
    std::ofstream(dir / "p/.flowhls-project") << "flowhls project directory; flowhls may replace it.\n";
    EXPECT_EQ(test::run_flowhls("csim " + (dir / "p"), &log), 2) << log;
    EXPECT_NE(log.find("its marker lists no files"), std::string::npos) << log;
}

}  // namespace
}  // namespace flowhls
