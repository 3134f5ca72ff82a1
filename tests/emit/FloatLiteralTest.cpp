// Float constants in generated code read back bit for bit, in C99 and C++11/14/17.
#include "TestSupport.h"
#include "emit/CPrinter.h"
#include "ir/FloatText.h"
#include "support/Process.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

using Halide::Expr;

uint64_t splitmix(uint64_t &state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float float_of(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}
double double_of(uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}
uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
uint64_t bits_of(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

// Edge cases (zeros, denormals, the normal range's ends, powers of ten, integers at the end of
// the exact range, infinities), every exponent with a random mantissa, then random bit
// patterns; no NaN (it has no exact literal).
std::vector<uint32_t> float_cases() {
    std::vector<uint32_t> v = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x00000002u, 0x007fffffu,
                               0x807fffffu, 0x00400000u, 0x00800000u, 0x80800000u, 0x00800001u, 0x7f7fffffu,
                               0xff7fffffu, 0x7f800000u, 0xff800000u, 0x3f800000u, 0x3f800001u, 0x3f7fffffu};
    for (float f : {0.1f, 0.2f, 0.3f, 1.0f / 3.0f, 3.14159265f, 2.71828183f, 16777216.0f, 16777215.0f, 1e-38f, 1e-40f,
                    1e-45f, 1e38f, 123456789.0f, 0.000123f, 65504.0f, 1e10f})
        v.push_back(bits_of(f));
    uint64_t state = 42;
    for (uint32_t e = 0; e < 255; e++) v.push_back(e << 23 | static_cast<uint32_t>(splitmix(state) & 0x7fffff));
    while (v.size() < 20000) {
        uint32_t b = static_cast<uint32_t>(splitmix(state));
        if (!std::isnan(float_of(b))) v.push_back(b);
    }
    return v;
}

std::vector<uint64_t> double_cases() {
    std::vector<uint64_t> v = {0, 0x8000000000000000ull, 1, 0x000fffffffffffffull, 0x0010000000000000ull,
                               0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull,
                               0xfff0000000000000ull, 0x3ff0000000000000ull, 0x3ff0000000000001ull};
    for (double d : {0.1, 1.0 / 3.0, 9007199254740993.0, 1e-308, 4.9e-324, 1e308, 0.1f + 0.0})
        v.push_back(bits_of(d));
    uint64_t state = 7;
    for (uint64_t e = 0; e < 2047; e++) v.push_back(e << 52 | (splitmix(state) & 0xfffffffffffffull));
    while (v.size() < 10000) {
        uint64_t b = splitmix(state);
        if (!std::isnan(double_of(b))) v.push_back(b);
    }
    return v;
}

// The literal without the parentheses around a negative value and without the f suffix.
std::string bare(std::string s) {
    if (s.front() == '(') s = s.substr(1, s.size() - 2);
    if (s.back() == 'f') s.pop_back();
    return s;
}

TEST(FloatLiterals, ShortestDecimalReadsBackExactly) {
    for (uint32_t b : float_cases()) {
        float f = float_of(b);
        std::string text = shortest_decimal(f);
        if (std::isinf(f)) continue;
        EXPECT_EQ(bits_of(std::strtof(text.c_str(), nullptr)), b) << text;
    }
    for (uint64_t b : double_cases()) {
        double d = double_of(b);
        std::string text = shortest_decimal(d);
        if (std::isinf(d)) continue;
        EXPECT_EQ(bits_of(std::strtod(text.c_str(), nullptr)), b) << text;
    }
    EXPECT_EQ(shortest_decimal(0.1f), "0.1");
    EXPECT_EQ(shortest_decimal(float_of(1)), "1e-45");
    EXPECT_EQ(shortest_decimal(-0.0f), "-0");
    EXPECT_EQ(with_point("-0"), "-0.0");
    EXPECT_EQ(with_point("1e-45"), "1e-45");
    EXPECT_EQ(shortest_decimal(double_of(0x7ff8000000000000ull)), "nan");
}

TEST(FloatLiterals, CLiteralsReadBackExactly) {
    for (uint32_t b : float_cases()) {
        float f = float_of(b);
        if (std::isinf(f)) continue;
        std::string lit = c_literal(Expr(f));
        EXPECT_EQ(lit.find('x'), std::string::npos) << lit;
        EXPECT_EQ(bits_of(std::strtof(bare(lit).c_str(), nullptr)), b) << lit;
        EXPECT_EQ(bits_of(std::strtof(bare(c_literal(Expr(f), FloatLiteralForm::Hex)).c_str(), nullptr)), b);
    }
}

// A C file holding every case as a literal of `form` and its bit pattern; it prints the
// number of mismatches and exits non-zero if there are any.
std::string literal_program(FloatLiteralForm form) {
    std::vector<uint32_t> fs = float_cases();
    std::vector<uint64_t> ds = double_cases();
    std::ostringstream os;
    os << "#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <string.h>\n";
    os << "static const float f[] = {\n";
    for (uint32_t b : fs) os << "    " << c_literal(Expr(float_of(b)), form) << ",\n";
    os << "};\nstatic const uint32_t fb[] = {\n";
    for (uint32_t b : fs) os << "    " << b << "u,\n";
    os << "};\nstatic const double d[] = {\n";
    for (uint64_t b : ds) os << "    " << c_literal(Halide::Internal::make_const(Halide::Float(64), double_of(b)), form) << ",\n";
    os << "};\nstatic const uint64_t db[] = {\n";
    for (uint64_t b : ds) os << "    " << b << "ull,\n";
    os << "};\n"
       << "int main(void) {\n"
       << "    int bad = 0;\n"
       << "    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {\n"
       << "        uint32_t b;\n"
       << "        memcpy(&b, &f[i], sizeof b);\n"
       << "        if (b != fb[i]) bad++;\n"
       << "    }\n"
       << "    for (unsigned i = 0; i < sizeof d / sizeof d[0]; i++) {\n"
       << "        uint64_t b;\n"
       << "        memcpy(&b, &d[i], sizeof b);\n"
       << "        if (b != db[i]) bad++;\n"
       << "    }\n"
       << "    printf(\"%d mismatches\\n\", bad);\n"
       << "    return bad != 0;\n"
       << "}\n";
    return os.str();
}

// Compiles `source` (as `file`) with `compiler` and `standard` (-pedantic-errors), runs it.
ProcessResult compile_and_run(const std::string &compiler, const std::string &standard, const std::string &file,
                              const std::string &source) {
    test::TempDir dir;
    std::ofstream(dir / file) << source;
    ProcessResult build = run_process({compiler, "-std=" + standard, "-Wall", "-Wextra", "-Werror", "-pedantic-errors",
                                       file, "-o", "literals"},
                                      dir.path(), nullptr);
    if (build.status != 0) return build;
    return run_process({"./literals"}, dir.path(), nullptr);
}

TEST(FloatLiterals, DecimalLiteralsCompileExactlyInC99AndCxx11To17) {
    std::string source = literal_program(FloatLiteralForm::Decimal);
    ProcessResult c99 = compile_and_run("gcc", "c99", "literals.c", source);
    EXPECT_EQ(c99.status, 0) << c99.output.substr(0, 2000);
    EXPECT_EQ(c99.output, "0 mismatches\n");
    for (const char *standard : {"c++11", "c++14", "c++17"}) {
        ProcessResult cxx = compile_and_run("g++", standard, "literals.cpp", source);
        EXPECT_EQ(cxx.status, 0) << standard << ": " << cxx.output.substr(0, 2000);
        EXPECT_EQ(cxx.output, "0 mismatches\n") << standard;
    }
}

TEST(FloatLiterals, HexLiteralsCompileExactlyInC99ButNotCxx14) {
    std::string source = literal_program(FloatLiteralForm::Hex);
    ProcessResult c99 = compile_and_run("gcc", "c99", "literals.c", source);
    EXPECT_EQ(c99.status, 0) << c99.output.substr(0, 2000);
    EXPECT_EQ(c99.output, "0 mismatches\n");
    // Why Vitis gets decimals: C++14 has no hexadecimal floating literals.
    std::string one = "static const float f = " + c_literal(Expr(0.1f), FloatLiteralForm::Hex) + ";\nint main() { return f == 0; }\n";
    EXPECT_NE(compile_and_run("g++", "c++14", "literals.cpp", one).status, 0);
}

}  // namespace
}  // namespace flowhls
