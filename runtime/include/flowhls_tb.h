// flowhls_tb.h: testbench support for generated projects: .npy loading and output comparison.
#ifndef FLOWHLS_TB_H
#define FLOWHLS_TB_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace flowhls_tb {

// Reads a little-endian, C-order .npy file into `data`, checking its dtype (`descr`, e.g.
// "<f4") and element count. Exits with a message on any problem.
template <typename T>
void load_npy(const std::string &path, T *data, size_t count, const char *descr) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "ERROR: cannot open %s\n", path.c_str());
        std::exit(2);
    }
    unsigned char magic[8];
    if (std::fread(magic, 1, 8, f) != 8 || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
        std::fprintf(stderr, "ERROR: %s is not a .npy file\n", path.c_str());
        std::exit(2);
    }
    size_t header_len = 0;
    if (magic[6] == 1) {
        unsigned char b[2];
        if (std::fread(b, 1, 2, f) != 2) header_len = 0;
        else header_len = b[0] | (b[1] << 8);
    } else {
        unsigned char b[4];
        if (std::fread(b, 1, 4, f) == 4) {
            header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<size_t>(b[3]) << 24);
        }
    }
    std::string header(header_len, '\0');
    if (header_len == 0 || std::fread(&header[0], 1, header_len, f) != header_len) {
        std::fprintf(stderr, "ERROR: %s has a truncated header\n", path.c_str());
        std::exit(2);
    }
    if (header.find(std::string("'descr': '") + descr + "'") == std::string::npos) {
        std::fprintf(stderr, "ERROR: %s does not hold %s data: %s\n", path.c_str(), descr, header.c_str());
        std::exit(2);
    }
    if (header.find("'fortran_order': False") == std::string::npos) {
        std::fprintf(stderr, "ERROR: %s is in Fortran order\n", path.c_str());
        std::exit(2);
    }
    size_t lp = header.find("'shape': (");
    size_t rp = header.find(')', lp);
    if (lp == std::string::npos || rp == std::string::npos) {
        std::fprintf(stderr, "ERROR: %s has no shape\n", path.c_str());
        std::exit(2);
    }
    size_t elems = 1;
    std::string dims = header.substr(lp + 10, rp - lp - 10);
    for (size_t p = 0; p < dims.size();) {
        while (p < dims.size() && (dims[p] == ' ' || dims[p] == ',')) p++;
        if (p >= dims.size()) break;
        elems *= std::strtoull(dims.c_str() + p, nullptr, 10);
        while (p < dims.size() && dims[p] != ',') p++;
    }
    if (elems != count) {
        std::fprintf(stderr, "ERROR: %s holds %zu values, the kernel expects %zu\n", path.c_str(), elems, count);
        std::exit(2);
    }
    if (std::fread(data, sizeof(T), count, f) != count) {
        std::fprintf(stderr, "ERROR: %s is truncated\n", path.c_str());
        std::exit(2);
    }
    std::fclose(f);
}

// Result of comparing one output with its reference.
struct Comparison {
    size_t count = 0;
    size_t mismatches = 0;  // values outside the tolerance
    size_t bit_diffs = 0;   // values whose bits differ
    double max_abs = 0.0;
    double max_rel = 0.0;
    size_t first_bad = 0;
    double first_got = 0.0, first_want = 0.0;
};

// Compares `got` with `want`: a value matches when both are NaN or
// |got - want| <= atol + rtol * |want|.
template <typename T>
Comparison compare(const T *got, const T *want, size_t count, double atol, double rtol) {
    Comparison c;
    c.count = count;
    for (size_t i = 0; i < count; i++) {
        if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) c.bit_diffs++;
        double g = static_cast<double>(got[i]), w = static_cast<double>(want[i]);
        bool both_nan = std::isnan(g) && std::isnan(w);
        double err = both_nan ? 0.0 : std::fabs(g - w);
        if (std::isnan(err)) err = INFINITY;
        double rel = (err == 0.0) ? 0.0 : err / std::fabs(w);
        if (err > c.max_abs) c.max_abs = err;
        if (rel > c.max_rel) c.max_rel = rel;
        if (!(err <= atol + rtol * std::fabs(w))) {
            if (c.mismatches == 0) {
                c.first_bad = i;
                c.first_got = g;
                c.first_want = w;
            }
            c.mismatches++;
        }
    }
    return c;
}

// Prints one line about an output; returns whether it passed.
inline bool report(const char *name, const Comparison &c) {
    std::printf("  output %s: %zu values, %zu mismatches, max abs error %.6g, max rel error %.6g, %s\n", name,
                c.count, c.mismatches, c.max_abs, c.max_rel,
                c.bit_diffs == 0 ? "bit-exact" : (std::to_string(c.bit_diffs) + " values differ in bits").c_str());
    if (c.mismatches) {
        std::printf("    first mismatch at index %zu: got %.9g, expected %.9g\n", c.first_bad, c.first_got,
                    c.first_want);
    }
    return c.mismatches == 0;
}

// Command line of a testbench: [DATA_DIR] [--atol X] [--rtol Y].
struct Args {
    std::string data_dir = "data";
    double atol = 0.0, rtol = 0.0;
};

inline Args parse_args(int argc, char **argv) {
    Args a;
    for (int i = 1; i < argc; i++) {
        std::string s = argv[i];
        if ((s == "--atol" || s == "--rtol") && i + 1 < argc) {
            double v = std::strtod(argv[++i], nullptr);
            (s == "--atol" ? a.atol : a.rtol) = v;
        } else if (!s.empty() && s[0] != '-') {
            a.data_dir = s;
        } else {
            std::fprintf(stderr, "usage: %s [DATA_DIR] [--atol X] [--rtol Y]\n", argv[0]);
            std::exit(2);
        }
    }
    return a;
}

}  // namespace flowhls_tb

#endif  // FLOWHLS_TB_H
