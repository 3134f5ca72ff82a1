// The pb_* examples compute what PolyBench/C 4.2 computes: the Halide JIT's outputs equal, bit
// for bit, those of the PolyBench loop nests written here in plain C++ on the same inputs.
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "frontend/halide/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>

namespace flowhls {
namespace {

// A dense row-major view of a Halide buffer: at(i, j) is C's A[i][j] (Halide's A(j, i)).
struct View {
    float *data;
    int cols, rows;
    explicit View(Halide::Buffer<> &b)
        : data(reinterpret_cast<float *>(b.raw_buffer()->host)), cols(b.dim(0).extent()),
          rows(static_cast<int>(b.number_of_elements()) / b.dim(0).extent()) {}
    float &operator()(int i, int j) const { return data[static_cast<size_t>(i) * cols + j]; }
    float &operator[](int i) const { return data[i]; }
};

// A float array of `n` elements initialized from `src` (or zero).
std::vector<float> copy_of(const View &v) { return std::vector<float>(v.data, v.data + static_cast<size_t>(v.cols) * v.rows); }

const float alpha = 1.5f, beta = 1.2f;

// Runs the example's baseline with the JIT, then `reference` on copies of the same inputs;
// `reference` returns the expected outputs in program order.
using Reference = std::function<std::vector<std::vector<float>>(std::vector<Halide::Buffer<>> &)>;

void expect_polybench(const std::string &kernel, const std::string &size, const Reference &reference) {
    HalideProgram p = build_example("pb_" + kernel, "baseline", size);
    std::vector<Halide::Buffer<>> inputs = random_inputs(p, 7);
    ReferenceData jit = run_reference(p, inputs);
    std::vector<Halide::Buffer<>> copies;
    for (const Halide::Buffer<> &b : inputs) copies.push_back(b.copy());
    std::vector<std::vector<float>> expected = reference(copies);
    ASSERT_EQ(expected.size(), jit.outputs.size());
    for (size_t o = 0; o < expected.size(); o++) {
        View got(jit.outputs[o]);
        ASSERT_EQ(expected[o].size(), static_cast<size_t>(got.cols) * got.rows) << "output " << o;
        size_t differ = 0;
        for (size_t k = 0; k < expected[o].size(); k++) {
            if (std::memcmp(&expected[o][k], &got.data[k], sizeof(float)) != 0) differ++;
        }
        EXPECT_EQ(differ, 0u) << kernel << " " << size << ": output " << o << " differs from PolyBench in " << differ
                              << " of " << expected[o].size() << " elements";
    }
}

std::map<std::string, Reference> references() {
    std::map<std::string, Reference> r;
    r["gemm"] = [](std::vector<Halide::Buffer<>> &in) {
        View c(in[0]), a(in[1]), b(in[2]);
        int ni = c.rows, nj = c.cols, nk = a.cols;
        for (int i = 0; i < ni; i++) {
            for (int j = 0; j < nj; j++) c(i, j) *= beta;
            for (int k = 0; k < nk; k++)
                for (int j = 0; j < nj; j++) c(i, j) += alpha * a(i, k) * b(k, j);
        }
        return std::vector<std::vector<float>>{copy_of(c)};
    };
    r["2mm"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), b(in[1]), c(in[2]), d(in[3]);
        int ni = a.rows, nk = a.cols, nj = b.cols, nl = c.cols;
        std::vector<float> tmp_data(static_cast<size_t>(ni) * nj);
        auto tmp = [&](int i, int j) -> float & { return tmp_data[static_cast<size_t>(i) * nj + j]; };
        for (int i = 0; i < ni; i++)
            for (int j = 0; j < nj; j++) {
                tmp(i, j) = 0.0f;
                for (int k = 0; k < nk; ++k) tmp(i, j) += alpha * a(i, k) * b(k, j);
            }
        for (int i = 0; i < ni; i++)
            for (int j = 0; j < nl; j++) {
                d(i, j) *= beta;
                for (int k = 0; k < nj; ++k) d(i, j) += tmp(i, k) * c(k, j);
            }
        return std::vector<std::vector<float>>{tmp_data, copy_of(d)};
    };
    r["3mm"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), b(in[1]), c(in[2]), d(in[3]);
        int ni = a.rows, nk = a.cols, nj = b.cols, nm = c.cols, nl = d.cols;
        auto mm = [](int rows, int cols, int inner, const std::function<float(int, int)> &x,
                     const std::function<float(int, int)> &y) {
            std::vector<float> out(static_cast<size_t>(rows) * cols);
            for (int i = 0; i < rows; i++)
                for (int j = 0; j < cols; j++) {
                    float &o = out[static_cast<size_t>(i) * cols + j];
                    o = 0.0f;
                    for (int k = 0; k < inner; ++k) o += x(i, k) * y(k, j);
                }
            return out;
        };
        std::vector<float> e = mm(ni, nj, nk, [&](int i, int k) { return a(i, k); }, [&](int k, int j) { return b(k, j); });
        std::vector<float> f = mm(nj, nl, nm, [&](int i, int k) { return c(i, k); }, [&](int k, int j) { return d(k, j); });
        std::vector<float> g = mm(ni, nl, nj, [&](int i, int k) { return e[static_cast<size_t>(i) * nj + k]; },
                                  [&](int k, int j) { return f[static_cast<size_t>(k) * nl + j]; });
        return std::vector<std::vector<float>>{e, f, g};
    };
    r["atax"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), x(in[1]);
        int m = a.rows, n = a.cols;
        std::vector<float> y(n), tmp(m);
        for (int i = 0; i < n; i++) y[i] = 0;
        for (int i = 0; i < m; i++) {
            tmp[i] = 0.0f;
            for (int j = 0; j < n; j++) tmp[i] = tmp[i] + a(i, j) * x[j];
            for (int j = 0; j < n; j++) y[j] = y[j] + a(i, j) * tmp[i];
        }
        return std::vector<std::vector<float>>{y, tmp};
    };
    r["bicg"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), p(in[1]), rr(in[2]);
        int n = a.rows, m = a.cols, width = std::max(m, n);
        std::vector<float> sq(2 * static_cast<size_t>(width), 0.0f);
        float *s = sq.data(), *q = sq.data() + width;
        for (int i = 0; i < m; i++) s[i] = 0;
        for (int i = 0; i < n; i++) {
            q[i] = 0.0f;
            for (int j = 0; j < m; j++) {
                s[j] = s[j] + rr[i] * a(i, j);
                q[i] = q[i] + a(i, j) * p[j];
            }
        }
        return std::vector<std::vector<float>>{sq};
    };
    r["gesummv"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), b(in[1]), x(in[2]);
        int n = a.rows;
        std::vector<float> ty(2 * static_cast<size_t>(n));
        float *tmp = ty.data(), *y = ty.data() + n;
        for (int i = 0; i < n; i++) {
            tmp[i] = 0.0f;
            y[i] = 0.0f;
            for (int j = 0; j < n; j++) {
                tmp[i] = a(i, j) * x[j] + tmp[i];
                y[i] = b(i, j) * x[j] + y[i];
            }
            y[i] = alpha * tmp[i] + beta * y[i];
        }
        return std::vector<std::vector<float>>{ty};
    };
    r["mvt"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), x1(in[1]), x2(in[2]), y1(in[3]), y2(in[4]);
        int n = a.rows;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) x1[i] = x1[i] + a(i, j) * y1[j];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) x2[i] = x2[i] + a(j, i) * y2[j];
        return std::vector<std::vector<float>>{copy_of(x1), copy_of(x2)};
    };
    r["syrk"] = [](std::vector<Halide::Buffer<>> &in) {
        View c(in[0]), a(in[1]);
        int n = a.rows, m = a.cols;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) c(i, j) *= beta;
            for (int k = 0; k < m; k++)
                for (int j = 0; j <= i; j++) c(i, j) += alpha * a(i, k) * a(j, k);
        }
        return std::vector<std::vector<float>>{copy_of(c)};
    };
    r["syr2k"] = [](std::vector<Halide::Buffer<>> &in) {
        View c(in[0]), a(in[1]), b(in[2]);
        int n = a.rows, m = a.cols;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) c(i, j) *= beta;
            for (int k = 0; k < m; k++)
                for (int j = 0; j <= i; j++) c(i, j) += a(j, k) * alpha * b(i, k) + b(j, k) * alpha * a(i, k);
        }
        return std::vector<std::vector<float>>{copy_of(c)};
    };
    r["symm"] = [](std::vector<Halide::Buffer<>> &in) {
        View c(in[0]), a(in[1]), b(in[2]);
        int m = c.rows, n = c.cols;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                float temp2 = 0;
                for (int k = 0; k < i; k++) {
                    c(k, j) += alpha * b(i, j) * a(i, k);
                    temp2 += b(k, j) * a(i, k);
                }
                c(i, j) = beta * c(i, j) + alpha * b(i, j) * a(i, i) + alpha * temp2;
            }
        return std::vector<std::vector<float>>{copy_of(c)};
    };
    r["trmm"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), b(in[1]);
        int m = b.rows, n = b.cols;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                for (int k = i + 1; k < m; k++) b(i, j) += a(k, i) * b(k, j);
                b(i, j) = alpha * b(i, j);
            }
        return std::vector<std::vector<float>>{copy_of(b)};
    };
    r["doitgen"] = [](std::vector<Halide::Buffer<>> &in) {
        Halide::Buffer<> &ab = in[0];
        int np = ab.dim(0).extent(), nq = ab.dim(1).extent(), nr = ab.dim(2).extent();
        float *a = reinterpret_cast<float *>(ab.raw_buffer()->host);
        View c4(in[1]);
        std::vector<float> sum(np);
        for (int r = 0; r < nr; r++)
            for (int q = 0; q < nq; q++) {
                float *row = a + (static_cast<size_t>(r) * nq + q) * np;
                for (int p = 0; p < np; p++) {
                    sum[p] = 0.0f;
                    for (int s = 0; s < np; s++) sum[p] += row[s] * c4(s, p);
                }
                for (int p = 0; p < np; p++) row[p] = sum[p];
            }
        return std::vector<std::vector<float>>{std::vector<float>(a, a + static_cast<size_t>(np) * nq * nr)};
    };
    r["correlation"] = [](std::vector<Halide::Buffer<>> &in) {
        View data(in[0]);
        int n = data.rows, m = data.cols;
        float float_n = static_cast<float>(n), eps = 0.1f;
        std::vector<float> mean(m), stddev(m), corr(static_cast<size_t>(m) * m);
        auto c = [&](int i, int j) -> float & { return corr[static_cast<size_t>(i) * m + j]; };
        for (int j = 0; j < m; j++) {
            mean[j] = 0.0f;
            for (int i = 0; i < n; i++) mean[j] += data(i, j);
            mean[j] /= float_n;
        }
        for (int j = 0; j < m; j++) {
            stddev[j] = 0.0f;
            for (int i = 0; i < n; i++) stddev[j] += (data(i, j) - mean[j]) * (data(i, j) - mean[j]);
            stddev[j] /= float_n;
            stddev[j] = std::sqrt(stddev[j]);
            stddev[j] = stddev[j] <= eps ? 1.0f : stddev[j];
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                data(i, j) -= mean[j];
                data(i, j) /= std::sqrt(float_n) * stddev[j];
            }
        for (int i = 0; i < m - 1; i++) {
            c(i, i) = 1.0f;
            for (int j = i + 1; j < m; j++) {
                c(i, j) = 0.0f;
                for (int k = 0; k < n; k++) c(i, j) += (data(k, i) * data(k, j));
                c(j, i) = c(i, j);
            }
        }
        c(m - 1, m - 1) = 1.0f;
        return std::vector<std::vector<float>>{corr};
    };
    r["covariance"] = [](std::vector<Halide::Buffer<>> &in) {
        View data(in[0]);
        int n = data.rows, m = data.cols;
        float float_n = static_cast<float>(n);
        std::vector<float> mean(m), cov(static_cast<size_t>(m) * m);
        auto c = [&](int i, int j) -> float & { return cov[static_cast<size_t>(i) * m + j]; };
        for (int j = 0; j < m; j++) {
            mean[j] = 0.0f;
            for (int i = 0; i < n; i++) mean[j] += data(i, j);
            mean[j] /= float_n;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) data(i, j) -= mean[j];
        for (int i = 0; i < m; i++)
            for (int j = i; j < m; j++) {
                c(i, j) = 0.0f;
                for (int k = 0; k < n; k++) c(i, j) += data(k, i) * data(k, j);
                c(i, j) /= (float_n - 1.0f);
                c(j, i) = c(i, j);
            }
        return std::vector<std::vector<float>>{cov};
    };
    r["jacobi_2d"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]), b(in[1]);
        int n = a.rows;
        int tsteps = n == 30 ? 20 : n == 90 ? 40 : 100;
        for (int t = 0; t < tsteps; t++) {
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    b(i, j) = 0.2f * (a(i, j) + a(i, j - 1) + a(i, 1 + j) + a(1 + i, j) + a(i - 1, j));
            for (int i = 1; i < n - 1; i++)
                for (int j = 1; j < n - 1; j++)
                    a(i, j) = 0.2f * (b(i, j) + b(i, j - 1) + b(i, 1 + j) + b(1 + i, j) + b(i - 1, j));
        }
        return std::vector<std::vector<float>>{copy_of(a), copy_of(b)};
    };
    r["seidel_2d"] = [](std::vector<Halide::Buffer<>> &in) {
        View a(in[0]);
        int n = a.rows;
        int tsteps = n == 40 ? 20 : n == 120 ? 40 : 100;
        for (int t = 0; t <= tsteps - 1; t++)
            for (int i = 1; i <= n - 2; i++)
                for (int j = 1; j <= n - 2; j++)
                    a(i, j) = (a(i - 1, j - 1) + a(i - 1, j) + a(i - 1, j + 1) + a(i, j - 1) + a(i, j) + a(i, j + 1) +
                               a(i + 1, j - 1) + a(i + 1, j) + a(i + 1, j + 1)) /
                              9.0f;
        return std::vector<std::vector<float>>{copy_of(a)};
    };
    return r;
}

class PolybenchSemantics : public testing::TestWithParam<std::string> {};

TEST_P(PolybenchSemantics, JitEqualsPolybenchLoopNestsBitForBit) {
    Reference ref = references().at(GetParam());
    for (const char *size : {"mini", "small"}) {
        SCOPED_TRACE(size);
        expect_polybench(GetParam(), size, ref);
    }
}

std::vector<std::string> kernels() {
    std::vector<std::string> out;
    for (const auto &kv : references()) out.push_back(kv.first);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Polybench, PolybenchSemantics, testing::ValuesIn(kernels()),
                         [](const testing::TestParamInfo<std::string> &i) { return "pb_" + i.param; });

TEST(Polybench, EveryKernelHasADatasetReference) {
    std::vector<std::string> pb;
    for (const ExampleInfo &e : list_examples()) {
        if (e.name.rfind("pb_", 0) != 0) continue;
        pb.push_back(e.name.substr(3));
        EXPECT_EQ(e.schedules.front(), "baseline") << e.name;
        EXPECT_EQ(e.sizes, (std::vector<std::string>{"medium", "small", "mini"})) << e.name;
    }
    EXPECT_EQ(pb, kernels());
}

TEST(Polybench, MediumIsTheDefaultDataset) {
    HalideProgram p = build_example("pb_gemm");
    ASSERT_EQ(p.outputs.size(), 1u);
    EXPECT_EQ(p.outputs[0].shape, (std::vector<int>{220, 200}));
    EXPECT_EQ(build_example("pb_gemm", "", "mini").outputs[0].shape, (std::vector<int>{25, 20}));
}

TEST(Polybench, UnknownSizeIsRefused) {
    try {
        build_example("pb_gemm", "baseline", "huge");
        FAIL() << "no error";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("no size 'huge' (sizes: medium, small, mini)"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(build_example("gemm", "root", "mini"), Error);
}

}  // namespace
}  // namespace flowhls
