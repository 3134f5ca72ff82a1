// Tests of the support headers copied into generated projects (runtime/include).
#include "TestSupport.h"
#include "support/EmbeddedFiles.h"
#include "support/Process.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

// Writes the embedded headers and `program` into `dir`, builds it with g++ and runs it.
ProcessResult build_and_run(const test::TempDir &dir, const std::string &program) {
    for (const EmbeddedFile &f : runtime_support_files()) {
        fs::create_directories(fs::path(dir / ("include/" + f.path)).parent_path());
        std::ofstream(dir / ("include/" + f.path)) << f.contents;
    }
    std::ofstream(dir / "main.cpp") << program;
    ProcessResult build = run_process({"g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-Iinclude/csim", "-Iinclude",
                                       "main.cpp", "-o", "main"},
                                      dir.path(), nullptr);
    if (build.status != 0) return build;
    return run_process({"./main"}, dir.path(), nullptr);
}

TEST(HlsStreamShim, PassesDataInOrder) {
    test::TempDir dir;
    ProcessResult r = build_and_run(dir, R"(#include <hls_stream.h>
#include <cstdio>
int main() {
    hls::stream<int> s("s");
    for (int i = 0; i < 4; i++) s.write(i * 3);
    int sum = 0;
    for (int i = 0; i < 4; i++) sum = sum * 10 + s.read() / 3;
    std::printf("%d %d\n", sum, (int)s.empty());
    return 0;
}
)");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output, "123 1\n");
}

TEST(HlsStreamShim, ReadingAnEmptyStreamFailsTheSimulation) {
    test::TempDir dir;
    ProcessResult r = build_and_run(dir, R"(#include <hls_stream.h>
int main() {
    hls::stream<float> s("pixels");
    s.write(1.0f);
    s.read();
    return (int)s.read();
}
)");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("FAIL: hls::stream 'pixels': read from an empty stream"), std::string::npos) << r.output;
}

TEST(HlsStreamShim, DataLeftUnreadFailsTheSimulation) {
    test::TempDir dir;
    ProcessResult r = build_and_run(dir, R"(#include <hls_stream.h>
int main() {
    hls::stream<int> s("leftover");
    s.write(1);
    s.write(2);
    s.read();
    return 0;
}
)");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("FAIL: hls::stream 'leftover': 1 element(s) left unread"), std::string::npos) << r.output;
}

TEST(GeneratedScripts, BambuScriptIsValidShell) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile -e gemm -t bambu -o " + (dir / "b"), &out), 0) << out;
    ProcessResult r = run_process({"sh", "-n", "run_bambu.sh"}, dir / "b", nullptr);
    EXPECT_EQ(r.status, 0) << r.output;
    // Without bambu on PATH the script says so instead of failing obscurely.
    ProcessResult run = run_process({"env", "PATH=/nonexistent", "/bin/sh", "run_bambu.sh"}, dir / "b", nullptr);
    EXPECT_EQ(run.status, 127) << run.output;
    EXPECT_NE(run.output.find("PandA-Bambu (bambu) not found: put bambu on PATH"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace flowhls
