// flowhls_math.h's integer division and modulo against Halide's definition (div_imp/mod_imp:
// Euclidean, x / 0 == 0, x % 0 == 0, the most negative value / -1 wraps), for every width,
// compiled under UndefinedBehaviorSanitizer so that nothing traps or overflows.
#include "TestSupport.h"
#include "support/EmbeddedFiles.h"
#include "support/Process.h"

#include <Halide.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

// Edge values of T: the extremes, around zero, and a few others.
template <typename T>
std::vector<T> edges() {
    std::vector<int64_t> v = {0, 1, -1, 2, -2, 3, -3, 7, -7};
    std::vector<T> out;
    for (int64_t x : v) {
        if (std::numeric_limits<T>::is_signed || x >= 0) out.push_back(static_cast<T>(x));
    }
    out.push_back(std::numeric_limits<T>::min());
    out.push_back(std::numeric_limits<T>::max());
    out.push_back(static_cast<T>(std::numeric_limits<T>::min() + 1));
    out.push_back(static_cast<T>(std::numeric_limits<T>::max() - 1));
    return out;
}

// C statements printing flowhls_div/mod of every pair of edges, and the expected lines.
template <typename T>
void cases(const std::string &suffix, const std::string &c_type, std::string *code, std::string *expected) {
    for (T a : edges<T>()) {
        for (T b : edges<T>()) {
            // The bit patterns as unsigned literals: -2^63 has no signed literal in C.
            auto literal = [&](T v) {
                return "(" + c_type + ")(" + std::to_string(static_cast<uint64_t>(static_cast<int64_t>(v)) &
                                                            (sizeof(T) == 8 ? ~0ull : (1ull << (8 * sizeof(T))) - 1)) +
                       "ULL)";
            };
            std::string args = literal(a) + ", " + literal(b);
            *code += "    printf(\"%lld %lld\\n\", (long long)flowhls_div_" + suffix + "(" + args +
                     "), (long long)flowhls_mod_" + suffix + "(" + args + "));\n";
            T q = Halide::Internal::div_imp(a, b), r = Halide::Internal::mod_imp(a, b);
            std::ostringstream line;
            line << static_cast<long long>(q) << " " << static_cast<long long>(r) << "\n";
            *expected += line.str();
        }
    }
}

TEST(IntegerDivision, RuntimeHeaderMatchesHalideWithoutTrapping) {
    test::TempDir dir;
    for (const EmbeddedFile &f : runtime_support_files()) {
        fs::create_directories(fs::path(dir / ("include/" + f.path)).parent_path());
        std::ofstream(dir / ("include/" + f.path)) << f.contents;
    }
    std::string code = "#include <stdio.h>\n#include \"flowhls_math.h\"\nint main(void) {\n", expected;
    cases<int8_t>("i8", "int8_t", &code, &expected);
    cases<int16_t>("i16", "int16_t", &code, &expected);
    cases<int32_t>("i32", "int32_t", &code, &expected);
    cases<int64_t>("i64", "int64_t", &code, &expected);
    cases<uint8_t>("u8", "uint8_t", &code, &expected);
    cases<uint32_t>("u32", "uint32_t", &code, &expected);
    code += "    return 0;\n}\n";
    std::ofstream(dir / "main.c") << code;
    ProcessResult build = run_process({"gcc", "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-fsanitize=undefined",
                                       "-fno-sanitize-recover=all", "-Iinclude", "main.c", "-o", "main"},
                                      dir.path(), nullptr);
    ASSERT_EQ(build.status, 0) << build.output;
    ProcessResult run = run_process({"./main"}, dir.path(), nullptr);
    EXPECT_EQ(run.status, 0) << run.output.substr(0, 2000);
    EXPECT_EQ(run.output, expected);
}

}  // namespace
}  // namespace flowhls
