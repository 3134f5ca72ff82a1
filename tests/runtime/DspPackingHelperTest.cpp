// flowhls_pack.h (two MACs in one DSP multiply, WP486) checked exhaustively: for every pair of
// int8 "packed" operands and every int8 and uint8 shared operand, flowhls_pack_lo/hi of
// flowhls_pack_mul give the two exact products. Built with flowhls's ap_int stand-in (under
// the sanitizers) and with AMD's own ap_int.h (skipped without it, failing in CI), as C++14.
// Also the ap_int stand-in against AMD's: wrapping on construction, exact mixed arithmetic.
#include "TestSupport.h"
#include "support/EmbeddedFiles.h"
#include "support/Process.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const char *kExhaustive = R"(#include <stdio.h>
#include "flowhls_pack.h"
int main() {
    long long checked = 0, wrong = 0;
    for (int hi = -128; hi <= 127; hi++) {
        for (int lo = -128; lo <= 127; lo++) {
            for (int x = -128; x <= 255; x++) {  // int8 and uint8 shared operands
                const int64_t p = flowhls_pack_mul(hi, lo, x);
                if (flowhls_pack_lo(p) != lo * x || flowhls_pack_hi(p) != hi * x) {
                    if (wrong++ < 5) printf("hi %d lo %d x %d: %d %d\n", hi, lo, x, flowhls_pack_hi(p), flowhls_pack_lo(p));
                }
                checked++;
            }
        }
    }
    // The extremes the packing accepts (operands in [-255, 255], |lo * x| < 2^17).
    const int edge[][3] = {{255, 255, 255}, {-255, -255, 255}, {-255, 255, -255}, {255, -255, -255}, {-255, -1, 513}};
    for (const auto &e : edge) {
        const int64_t p = flowhls_pack_mul(e[0], e[1], e[2]);
        if (flowhls_pack_lo(p) != e[1] * e[2] || flowhls_pack_hi(p) != e[0] * e[2]) wrong++;
        checked++;
    }
    printf("%s: %lld products checked, %lld wrong\n", wrong ? "FAIL" : "PASS", checked, wrong);
    return wrong != 0;
}
)";

// Values flowhls's generated code relies on, printed the same with either ap_int.h.
const char *kApInt = R"(#include <stdio.h>
#include <stdint.h>
#include <ap_int.h>
int main() {
    const ap_int<9> a = 300;            // wraps to 300 - 512
    const ap_uint<8> b = 300;           // wraps to 44
    const ap_int<5> c = -17;            // wraps to 15
    const ap_int<20> s = (a * b) + c;   // exact: -212 * 44 + 15
    const ap_uint<3> u = (uint8_t)5;
    const int64_t w = ((int64_t)s) * INT64_C(1559548008);
    const ap_int<17> m = (b > u ? (int32_t)b : (int32_t)u) - 70000;  // wraps to 61116
    printf("%lld %lld %lld %lld %lld %lld %lld\n", (long long)a.to_int64(), (long long)b.to_int64(),
           (long long)c.to_int64(), (long long)s.to_int64(), (long long)u.to_int64(), (long long)w,
           (long long)m.to_int64());
    return 0;
}
)";

void write_runtime(const std::string &dir) {
    for (const EmbeddedFile &f : runtime_support_files()) {
        fs::create_directories(fs::path(dir + "/include/" + f.path).parent_path());
        std::ofstream(dir + "/include/" + f.path) << f.contents;
    }
}

// Builds main.cpp in `dir` with the stand-in (amd empty) or AMD's headers and runs it.
ProcessResult build_and_run(const std::string &dir, const std::string &amd) {
    std::vector<std::string> cmd = {"g++", "-std=c++14", "-O1", "-Wall", "-Wextra", "-Werror", "-Iinclude"};
    if (amd.empty()) {
        for (const char *f : {"-Iinclude/csim", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"}) cmd.push_back(f);
    } else {  // as tests/emit/vendor-csim.sh: GCC flags AMD's operators' internal temporaries
        for (const std::string &f : {std::string("-Wno-uninitialized"), std::string("-Wno-maybe-uninitialized"),
                                     std::string("-isystem"), amd}) {
            cmd.push_back(f);
        }
    }
    for (const char *f : {"main.cpp", "-o", "main"}) cmd.push_back(f);
    ProcessResult build = run_process(cmd, dir, nullptr);
    if (build.status != 0) return build;
    return run_process({"./main"}, dir, nullptr);
}

bool amd_headers(std::string *why) {
    if (fs::exists(std::string(FLOWHLS_TEST_XILINX_HLS) + "/ap_int.h")) return true;
    *why = "AMD's HLS headers not found (CMake FLOWHLS_XILINX_HLS_INCLUDE)";
    return false;
}

TEST(DspPackingHelper, ExhaustiveOverInt8PairsWithTheApIntStandIn) {
    test::TempDir dir;
    write_runtime(dir.path());
    std::ofstream(dir / "main.cpp") << kExhaustive;
    ProcessResult r = build_and_run(dir.path(), "");
    EXPECT_EQ(r.status, 0) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("PASS: 25165829 products checked, 0 wrong"), std::string::npos) << r.output;
}

TEST(DspPackingHelper, ExhaustiveOverInt8PairsWithAmdApInt) {
    std::string why;
    if (!amd_headers(&why)) {
        if (std::getenv("FLOWHLS_CI")) FAIL() << why;
        GTEST_SKIP() << why;
    }
    test::TempDir dir;
    write_runtime(dir.path());
    std::ofstream(dir / "main.cpp") << kExhaustive;
    ProcessResult r = build_and_run(dir.path(), FLOWHLS_TEST_XILINX_HLS);
    EXPECT_EQ(r.status, 0) << r.output.substr(0, 2000);
    EXPECT_NE(r.output.find("PASS: 25165829 products checked, 0 wrong"), std::string::npos) << r.output;
}

TEST(ApIntStandIn, AgreesWithAmdApInt) {
    test::TempDir dir;
    write_runtime(dir.path());
    std::ofstream(dir / "main.cpp") << kApInt;
    ProcessResult ours = build_and_run(dir.path(), "");
    ASSERT_EQ(ours.status, 0) << ours.output;
    const std::string expected = "-212 44 15 -9313 5 -14524070598504 61116\n";
    EXPECT_EQ(ours.output, expected);
    std::string why;
    if (!amd_headers(&why)) {
        if (std::getenv("FLOWHLS_CI")) FAIL() << why;
        GTEST_SKIP() << why;
    }
    ProcessResult amd = build_and_run(dir.path(), FLOWHLS_TEST_XILINX_HLS);
    ASSERT_EQ(amd.status, 0) << amd.output;
    EXPECT_EQ(amd.output, expected);
}

}  // namespace
}  // namespace flowhls
