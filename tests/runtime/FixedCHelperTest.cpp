// flowhls_fixed_c.h (PandA-Bambu's fixed point, C99) against the C-simulation stand-in of
// ap_fixed<W, I, AP_RND_CONV, AP_SAT> (the Vitis code's semantics), on random and edge values of
// many formats: conversions from float (ties, saturation, NaN, infinities, subnormals), to
// float, between formats (rounding, saturation) and wide products. The helpers are compiled as
// C99 (warnings as errors) and, with the stand-in, as C++ under UndefinedBehaviorSanitizer.
#include "TestSupport.h"
#include "support/EmbeddedFiles.h"
#include "support/Process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const char *kProgram = R"(#include <ap_fixed.h>
#include "flowhls_fixed_c.h"
#include <cstdio>
#include <cstring>
#include <random>

static std::mt19937_64 rng(12345);
static long long checked = 0, bad = 0;

static void expect(bool ok, const char *what, int w, int i, long long a, long long b) {
    checked++;
    if (!ok && bad++ < 10) std::printf("MISMATCH %s fixed<%d,%d> %lld %lld\n", what, w, i, a, b);
}

// A random signed integer of `bits` bits (1..64), uniform in its width or an edge.
static int64_t random_int(int bits) {
    uint64_t r = rng();
    int64_t top = (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
    switch (r % 8) {
    case 0: return top;
    case 1: return -top - 1;
    case 2:
        if (bits >= 4) return (int64_t)(r >> 61) - 4;  // small values
        return 0;
    default: return bits == 64 ? (int64_t)rng() : (int64_t)(rng() & ((UINT64_C(1) << bits) - 1)) - top - 1;
    }
}

// A random float: random bits (NaN, infinities, subnormals), a value in or near the range of
// fixed<W,I>, or a tie between two steps.
static float random_float(int w, int i) {
    uint64_t r = rng();
    int f = w - i;
    switch (r % 4) {
    case 0: {
        uint32_t b = (uint32_t)rng();
        float x;
        std::memcpy(&x, &b, sizeof x);
        return x;
    }
    case 1: return std::ldexp((float)(int32_t)rng(), i - 31 + (int)(rng() % 5) - 2);
    case 2: return std::ldexp((float)((int64_t)(rng() % 4096) - 2048) + 0.5f, -f);
    default: return std::ldexp((float)(int32_t)rng(), -(int)(rng() % 60));
    }
}

template <int W, int I>
void check(int n) {
    typedef ap_fixed<W, I, AP_RND_CONV, AP_SAT> T;
    const int F = W - I;
    for (int k = 0; k < n; k++) {
        float x = random_float(W, I);
        T t = x;
        int64_t want = (int64_t)t.exact().raw, got = flowhls_fx_from_f32(x, F, W);
        expect(want == got, "from_f32", W, I, (long long)want, (long long)got);

        int64_t raw = random_int(W);
        float a = T::from_raw(raw).to_float(), b = flowhls_fx_to_f32(raw, F);
        expect(std::memcmp(&a, &b, sizeof a) == 0, "to_f32", W, I, (long long)raw, 0);

        // A value of another format stored into T: rounding (more fraction bits) or shifting.
        int bits = 1 + (int)(rng() % 64), frac = (int)(rng() % 64);
        int64_t v = random_int(bits);
        T q = flowhls_fx_value{v, frac};
        int64_t want_q = (int64_t)q.exact().raw, got_q;
        if (frac > F) got_q = flowhls_fx_rnd_sat(v, frac - F, W);
        else got_q = flowhls_fx_shl_sat(v, F - frac, W);
        expect(want_q == got_q, frac > F ? "rnd_sat" : "shl_sat", W, I, (long long)v, frac);
        if (frac == F) expect(flowhls_fx_sat(v, W) == want_q, "sat", W, I, (long long)v, frac);

        // A product of two values of up to 64 bits, stored into T.
        int fa = (int)(rng() % 48), fb = F + (int)(rng() % 48);
        int64_t pa = random_int(1 + (int)(rng() % 64)), pb = random_int(1 + (int)(rng() % 64));
        T p = flowhls_fx_value{pa, fa} * flowhls_fx_value{pb, fb};
        int64_t want_p = (int64_t)p.exact().raw, got_p = flowhls_fx_mul_rnd_sat(pa, pb, fa + fb - F, W);
        expect(want_p == got_p, "mul_rnd_sat", W, I, (long long)pa, (long long)pb);
    }
}

int main() {
    check<16, 6>(20000);
    check<36, 16>(20000);
    check<8, 4>(20000);
    check<1, 0>(5000);
    check<1, 1>(5000);
    check<5, 3>(10000);
    check<24, 10>(20000);
    check<32, 0>(20000);
    check<32, 32>(10000);
    check<58, 26>(20000);
    check<64, 10>(20000);
    check<64, 64>(10000);
    std::printf("%lld checks, %lld mismatches\n", checked, bad);
    return bad != 0;
}
)";

TEST(FixedCHelpers, MatchTheApFixedStandInBitForBit) {
    test::TempDir dir;
    for (const EmbeddedFile &f : runtime_support_files()) {
        fs::create_directories(fs::path(dir / ("include/" + f.path)).parent_path());
        std::ofstream(dir / ("include/" + f.path)) << f.contents;
    }
    // The header alone is C99 without warnings.
    std::ofstream(dir / "c99.c") << "#include \"flowhls_fixed_c.h\"\nint main(void) { return (int)flowhls_fx_rnd(3, 1) - 2; }\n";
    ProcessResult c99 = run_process({"gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-Iinclude", "c99.c",
                                     "-o", "c99"}, dir.path(), nullptr);
    ASSERT_EQ(c99.status, 0) << c99.output;
    std::ofstream(dir / "main.cpp") << kProgram;
    ProcessResult build = run_process({"g++", "-std=c++14", "-O1", "-Wall", "-Wextra", "-Werror", "-fsanitize=undefined",
                                       "-fno-sanitize-recover=all", "-Iinclude", "-Iinclude/csim", "main.cpp", "-o", "main"},
                                      dir.path(), nullptr);
    ASSERT_EQ(build.status, 0) << build.output.substr(0, 4000);
    ProcessResult run = run_process({"./main"}, dir.path(), nullptr);
    EXPECT_EQ(run.status, 0) << run.output.substr(0, 2000);
    EXPECT_NE(run.output.find(" checks, 0 mismatches"), std::string::npos) << run.output.substr(0, 2000);
}

}  // namespace
}  // namespace flowhls
