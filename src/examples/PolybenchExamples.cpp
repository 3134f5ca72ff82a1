// The PolyBench/C 4.2 kernels as Halide examples pb_* (algorithms, datasets, baseline schedules).
#include "examples/ExampleRegistry.h"
#include "examples/PolybenchSchedules.h"

#include <stdexcept>

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Var;

namespace {

const Halide::Type f32 = Halide::Float(32);

const std::vector<std::string> kSizes = {"medium", "small", "mini"};

// PolyBench's scalars (init_array of gemm, 2mm, gesummv, syrk, syr2k, symm, trmm).
const float kAlpha = 1.5f, kBeta = 1.2f;

ExampleDef pb(const std::string &name, const std::string &description,
              std::function<HalideProgram(const std::string &)> algorithm) {
    ExampleDef d;
    d.name = "pb_" + name;
    d.description = description;
    d.sizes = kSizes;
    d.algorithm = std::move(algorithm);
    d.schedules = polybench_schedules(name);
    return d;
}

// C := alpha*A*B + beta*C; C is NI x NJ, A NI x NK, B NK x NJ.
HalideProgram gemm(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 25, 30}, {60, 70, 80}, {200, 220, 240});
    int ni = n[0], nj = n[1], nk = n[2];
    ImageParam c(f32, 2, "C"), a(f32, 2, "A"), b(f32, 2, "B");
    Var i("i"), j("j");
    RDom k(0, nk, "k");
    Func out("C_out");
    out(j, i) = c(j, i) * kBeta;
    out(j, i) += kAlpha * a(k, i) * b(j, k);
    return HalideProgram{"kernel_gemm", {{c, {nj, ni}}, {a, {nk, ni}}, {b, {nj, nk}}}, {{out, {nj, ni}}}};
}

// tmp := alpha*A*B; D := tmp*C + beta*D.
HalideProgram two_mm(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {16, 18, 22, 24}, {40, 50, 70, 80}, {180, 190, 210, 220});
    int ni = n[0], nj = n[1], nk = n[2], nl = n[3];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C"), d(f32, 2, "D");
    Var i("i"), j("j");
    RDom k(0, nk, "k"), l(0, nj, "l");
    Func tmp("tmp"), out("D_out");
    tmp(j, i) = 0.0f;
    tmp(j, i) += kAlpha * a(k, i) * b(j, k);
    out(j, i) = d(j, i) * kBeta;
    out(j, i) += tmp(l, i) * c(j, l);
    return HalideProgram{"kernel_2mm",
                         {{a, {nk, ni}}, {b, {nj, nk}}, {c, {nl, nj}}, {d, {nl, ni}}},
                         {{tmp, {nj, ni}}, {out, {nl, ni}}}};
}

// E := A*B; F := C*D; G := E*F.
HalideProgram three_mm(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {16, 18, 20, 22, 24}, {40, 50, 60, 70, 80}, {180, 190, 200, 210, 220});
    int ni = n[0], nj = n[1], nk = n[2], nl = n[3], nm = n[4];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C"), d(f32, 2, "D");
    Var i("i"), j("j");
    RDom k(0, nk, "k"), m(0, nm, "m"), l(0, nj, "l");
    Func e("E"), f("F"), g("G");
    e(j, i) = 0.0f;
    e(j, i) += a(k, i) * b(j, k);
    f(j, i) = 0.0f;
    f(j, i) += c(m, i) * d(j, m);
    g(j, i) = 0.0f;
    g(j, i) += e(l, i) * f(j, l);
    return HalideProgram{"kernel_3mm",
                         {{a, {nk, ni}}, {b, {nj, nk}}, {c, {nm, nj}}, {d, {nl, nm}}},
                         {{e, {nj, ni}}, {f, {nl, nj}}, {g, {nl, ni}}}};
}

// y := A^T (A x); tmp := A x.
HalideProgram atax(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {38, 42}, {116, 124}, {390, 410});
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), x(f32, 1, "x");
    Var i("i"), j("j");
    RDom rj(0, nn, "j"), r(0, nn, 0, m, "r");
    Func tmp("tmp"), y("y");
    tmp(i) = 0.0f;
    tmp(i) = tmp(i) + a(rj, i) * x(rj);
    y(j) = 0.0f;
    y(r.x) = y(r.x) + a(r.x, r.y) * tmp(r.y);
    return HalideProgram{"kernel_atax", {{a, {nn, m}}, {x, {nn}}}, {{y, {nn}}, {tmp, {m}}}};
}

// s := A^T r; q := A p, both in one loop nest (PolyBench updates s[j] and q[i] in the same
// iteration): sq(x, 0) is s, sq(x, 1) is q.
HalideProgram bicg(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {38, 42}, {116, 124}, {390, 410});
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), p(f32, 1, "p"), r(f32, 1, "r");
    Var x("x"), c("c");
    RDom k(0, m, 0, nn, "k");
    Func sq("sq");
    sq(x, c) = 0.0f;
    // k.x is j (the column, innermost), k.y is i.
    sq(Halide::select(c == 0, k.x, k.y), c) =
        sq(Halide::select(c == 0, k.x, k.y), c) +
        Halide::select(c == 0, r(k.y) * a(k.x, k.y), a(k.x, k.y) * p(k.x));
    return HalideProgram{"kernel_bicg",
                         {{a, {m, nn}}, {p, {m}}, {r, {nn}}},
                         {{sq, {std::max(m, nn), 2}}}};
}

// What both gesummv programs share: the size, the inputs, ty's zero and its loops.
struct Gesummv {
    int nn;
    ImageParam a{f32, 2, "A"}, b{f32, 2, "B"}, x{f32, 1, "x"};
    Var i{"i"}, c{"c"};
    RDom r;  // r.x: which sum (innermost), r.y: j
    Func ty{"tmp_y"};
    explicit Gesummv(const std::string &size)
        : nn(polybench_dataset(size, {30}, {90}, {250})[0]), r(0, 2, 0, nn, "r") {
        ty(i, c) = 0.0f;
    }
    HalideProgram program() const {
        return HalideProgram{"kernel_gesummv", {{a, {nn, nn}}, {b, {nn, nn}}, {x, {nn}}}, {{ty, {nn, 2}}}};
    }
};

// tmp := A x; y := alpha*tmp + beta*(B x): ty(i, 0) is tmp[i], ty(i, 1) is y[i]; both sums in one
// loop nest as PolyBench, then (a second update) y[i] := alpha*tmp[i] + beta*y[i].
HalideProgram gesummv(const std::string &size) {
    Gesummv g(size);
    auto &[nn, a, b, x, i, c, r, ty] = g;
    ty(i, r.x) = Halide::select(r.x == 0, a(r.y, i), b(r.y, i)) * x(r.y) + ty(i, r.x);
    // y[i] = alpha tmp[i] + beta y[i] once per row after the sums, as PolyBench's C writes it (a
    // stage of its own: its operators are not copied into every column's iteration).
    ty(i, 1) = kAlpha * ty(i, 0) + kBeta * ty(i, 1);
    ty.update(1).unscheduled();  // its default loop over i (no Halide warning when update(0) is scheduled)
    return g.program();
}

// gesummv as one loop nest, the final y[i] computed in it under a select of the last column (the
// example's formulation before session 29, and HIDA's design's): the schedule `baseline_fused`,
// the calibration's plain Vitis design (PolyBench's C computes y[i] in the row loop, after the
// column loop: one nest whose iteration holds the final statement, as here; Vitis reports an
// iteration latency of 29 cycles, this nest 26, the separate stage's 15).
HalideProgram gesummv_fused(const std::string &size) {
    Gesummv g(size);
    auto &[nn, a, b, x, i, c, r, ty] = g;
    Expr sum = Halide::select(r.x == 0, a(r.y, i), b(r.y, i)) * x(r.y) + ty(i, r.x);
    // r.x == 1 runs after r.x == 0 in an iteration: ty(i, 0) is then tmp[i] with this j's product.
    ty(i, r.x) = Halide::select(r.x == 1 && r.y == nn - 1, kAlpha * ty(i, 0) + kBeta * sum, sum);
    return g.program();
}

// pb_gesummv with its schedule `baseline_fused` (the baseline's schedule on gesummv_fused).
ExampleDef gesummv_example() {
    ExampleDef d = pb("gesummv", "PolyBench gesummv: y = alpha*A*x + beta*B*x (fp32)", gesummv);
    ExampleSchedule fused = d.schedules.front();  // baseline
    fused.name = "baseline_fused";
    fused.description = "the baseline on gesummv as one loop nest, y = alpha*tmp + beta*y under a select of the "
                        "last column (the calibration's plain Vitis design)";
    fused.algorithm = gesummv_fused;
    d.schedules.insert(d.schedules.begin() + 1, fused);
    return d;
}

// x1 := x1 + A y1; x2 := x2 + A^T y2.
HalideProgram mvt(const std::string &size) {
    int nn = polybench_dataset(size, {40}, {120}, {400})[0];
    ImageParam a(f32, 2, "A"), x1(f32, 1, "x1"), x2(f32, 1, "x2"), y1(f32, 1, "y_1"), y2(f32, 1, "y_2");
    Var i("i");
    RDom j(0, nn, "j");
    Func o1("x1_out"), o2("x2_out");
    o1(i) = x1(i);
    o1(i) = o1(i) + a(j, i) * y1(j);
    o2(i) = x2(i);
    o2(i) = o2(i) + a(i, j) * y2(j);
    return HalideProgram{"kernel_mvt", {{a, {nn, nn}}, {x1, {nn}}, {x2, {nn}}, {y1, {nn}}, {y2, {nn}}},
                         {{o1, {nn}}, {o2, {nn}}}};
}

// C := alpha*A*A^T + beta*C on the lower triangle (j <= i).
HalideProgram syrk(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 30}, {60, 80}, {200, 240});
    int m = n[0], nn = n[1];
    ImageParam c(f32, 2, "C"), a(f32, 2, "A");
    Var i("i"), j("j");
    RDom r(0, nn, 0, m, "r");  // r.x: j, r.y: k
    r.where(r.x <= i);
    Func out("C_out");
    out(j, i) = Halide::select(j <= i, c(j, i) * kBeta, c(j, i));
    out(r.x, i) += kAlpha * a(r.y, i) * a(r.y, r.x);
    return HalideProgram{"kernel_syrk", {{c, {nn, nn}}, {a, {m, nn}}}, {{out, {nn, nn}}}};
}

// C := alpha*A*B^T + alpha*B*A^T + beta*C on the lower triangle.
HalideProgram syr2k(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 30}, {60, 80}, {200, 240});
    int m = n[0], nn = n[1];
    ImageParam c(f32, 2, "C"), a(f32, 2, "A"), b(f32, 2, "B");
    Var i("i"), j("j");
    RDom r(0, nn, 0, m, "r");  // r.x: j, r.y: k
    r.where(r.x <= i);
    Func out("C_out");
    out(j, i) = Halide::select(j <= i, c(j, i) * kBeta, c(j, i));
    out(r.x, i) += a(r.y, r.x) * kAlpha * b(r.y, i) + b(r.y, r.x) * kAlpha * a(r.y, i);
    return HalideProgram{"kernel_syr2k", {{c, {nn, nn}}, {a, {m, nn}}, {b, {m, nn}}}, {{out, {nn, nn}}}};
}

// C := alpha*A*B + beta*C with A symmetric (its lower triangle stored), in place as PolyBench:
// row k of C gets alpha*B[i][j]*A[i][k] from every later row i.
HalideProgram symm(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 30}, {60, 80}, {200, 240});
    int m = n[0], nn = n[1];
    ImageParam c(f32, 2, "C"), a(f32, 2, "A"), b(f32, 2, "B");
    Var i("i"), j("j");
    RDom k(0, m, "k");
    k.where(k < i);
    Func temp2("temp2"), out("C_out");
    temp2(j, i) = 0.0f;
    temp2(j, i) += b(j, k) * a(k, i);
    RDom r(0, m, 0, nn, 0, m, "r");  // r.x: k, r.y: j, r.z: i
    r.where(r.x <= r.z);
    out(j, i) = c(j, i);
    Expr bij = kAlpha * b(r.y, r.z);
    out(r.y, r.x) = Halide::select(r.x < r.z, out(r.y, r.x) + bij * a(r.x, r.z),
                                   kBeta * out(r.y, r.z) + bij * a(r.z, r.z) + kAlpha * temp2(r.y, r.z));
    return HalideProgram{"kernel_symm", {{c, {nn, m}}, {a, {m, m}}, {b, {nn, m}}}, {{out, {nn, m}}}};
}

// B := alpha*A^T*B with A unit lower triangular, in place (row i reads the rows below it,
// not yet updated).
HalideProgram trmm(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 30}, {60, 80}, {200, 240});
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B");
    Var i("i"), j("j");
    RDom k(0, m, "k");
    k.where(k > i);
    Func out("B_out");
    out(j, i) = b(j, i);
    out(j, i) += a(i, k) * b(j, k);
    out(j, i) = kAlpha * out(j, i);
    return HalideProgram{"kernel_trmm", {{a, {m, m}}, {b, {nn, m}}}, {{out, {nn, m}}}};
}

// A[r][q][p] := sum_s A[r][q][s] * C4[s][p], through a row buffer sum[p].
HalideProgram doitgen(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {8, 10, 12}, {20, 25, 30}, {40, 50, 60});
    int nq = n[0], nr = n[1], np = n[2];
    ImageParam a(f32, 3, "A"), c4(f32, 2, "C4");
    Var p("p"), q("q"), r("r");
    RDom s(0, np, "s");
    Func sum("sum"), out("A_out");
    sum(p, q, r) = 0.0f;
    sum(p, q, r) += a(s, q, r) * c4(p, s);
    out(p, q, r) = sum(p, q, r);
    return HalideProgram{"kernel_doitgen", {{a, {np, nq, nr}}, {c4, {np, np}}}, {{out, {np, nq, nr}}}};
}

// Column means of data (N x M), summed over the rows and divided by float_n.
Func column_mean(const ImageParam &data, int n, float float_n) {
    Var j("j");
    RDom i(0, n, "i");
    Func mean("mean");
    mean(j) = 0.0f;
    mean(j) += data(j, i);
    mean(j) = mean(j) / float_n;
    return mean;
}

// Correlation matrix of the M columns of data (N x M).
HalideProgram correlation(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {28, 32}, {80, 100}, {240, 260});
    int m = n[0], nn = n[1];
    const float float_n = static_cast<float>(nn), eps = 0.1f;
    ImageParam data(f32, 2, "data");
    Var i("i"), j("j");
    RDom k(0, nn, "k");
    Func mean = column_mean(data, nn, float_n), stddev("stddev"), norm("norm"), corr("corr"), out("corr_out");
    stddev(j) = 0.0f;
    stddev(j) += (data(j, k) - mean(j)) * (data(j, k) - mean(j));
    stddev(j) = stddev(j) / float_n;
    stddev(j) = Halide::sqrt(stddev(j));
    stddev(j) = Halide::select(stddev(j) <= eps, 1.0f, stddev(j));
    norm(j, i) = data(j, i) - mean(j);
    norm(j, i) = norm(j, i) / (Halide::sqrt(float_n) * stddev(j));
    // corr[i][j] for j > i (the upper triangle), mirrored; 1 on the diagonal.
    RDom r(0, nn, 0, m, "r");  // r.x: k, r.y: j
    r.where(r.y > i);
    corr(j, i) = 0.0f;
    corr(r.y, i) += norm(i, r.x) * norm(r.y, r.x);
    out(j, i) = Halide::select(j > i, corr(j, i), j < i, corr(i, j), 1.0f);
    return HalideProgram{"kernel_correlation", {{data, {m, nn}}}, {{out, {m, m}}}};
}

// Covariance matrix of the M columns of data (N x M).
HalideProgram covariance(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {28, 32}, {80, 100}, {240, 260});
    int m = n[0], nn = n[1];
    const float float_n = static_cast<float>(nn);
    ImageParam data(f32, 2, "data");
    Var i("i"), j("j");
    Func mean = column_mean(data, nn, float_n), centered("centered"), cov("cov"), out("cov_out");
    centered(j, i) = data(j, i) - mean(j);
    RDom r(0, nn, 0, m, "r");  // r.x: k, r.y: j
    r.where(r.y >= i);
    cov(j, i) = 0.0f;
    cov(r.y, i) += centered(i, r.x) * centered(r.y, r.x);
    cov(j, i) = cov(j, i) / (float_n - 1.0f);
    out(j, i) = Halide::select(j >= i, cov(j, i), cov(i, j));
    return HalideProgram{"kernel_covariance", {{data, {m, nn}}}, {{out, {m, m}}}};
}

// TSTEPS Jacobi sweeps: B from A, then A from B. ab(x, y, 0) is A, ab(x, y, 1) is B.
HalideProgram jacobi_2d(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 30}, {40, 90}, {100, 250});
    int tsteps = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B");
    Var x("x"), y("y"), c("c");
    Func ab("ab"), out_a("A_out"), out_b("B_out");
    ab(x, y, c) = Halide::select(c == 0, a(x, y), b(x, y));
    // r.x: j, r.y: i, r.z: which sweep (0: B from A, 1: A from B), r.w: t.
    RDom r(1, nn - 2, 1, nn - 2, 0, 2, 0, tsteps, "r");
    Expr from = r.z, to = 1 - r.z;
    ab(r.x, r.y, to) = 0.2f * (ab(r.x, r.y, from) + ab(r.x - 1, r.y, from) + ab(r.x + 1, r.y, from) +
                               ab(r.x, r.y + 1, from) + ab(r.x, r.y - 1, from));
    out_a(x, y) = ab(x, y, 0);
    out_b(x, y) = ab(x, y, 1);
    return HalideProgram{"kernel_jacobi_2d", {{a, {nn, nn}}, {b, {nn, nn}}}, {{out_a, {nn, nn}}, {out_b, {nn, nn}}}};
}

// TSTEPS Gauss-Seidel sweeps in place: each point becomes the mean of its 3x3 neighbourhood,
// the points before it in the sweep already updated.
HalideProgram seidel_2d(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 40}, {40, 120}, {100, 400});
    int tsteps = n[0], nn = n[1];
    ImageParam a(f32, 2, "A");
    Var x("x"), y("y");
    Func out("A_out");
    out(x, y) = a(x, y);
    RDom r(1, nn - 2, 1, nn - 2, 0, tsteps, "r");  // r.x: j, r.y: i, r.z: t
    Expr sum = out(r.x - 1, r.y - 1) + out(r.x, r.y - 1) + out(r.x + 1, r.y - 1) + out(r.x - 1, r.y) +
               out(r.x, r.y) + out(r.x + 1, r.y) + out(r.x - 1, r.y + 1) + out(r.x, r.y + 1) +
               out(r.x + 1, r.y + 1);
    out(r.x, r.y) = sum / 9.0f;
    return HalideProgram{"kernel_seidel_2d", {{a, {nn, nn}}}, {{out, {nn, nn}}}};
}

}  // namespace

std::vector<ExampleDef> polybench_examples() {
    return {
        pb("2mm", "PolyBench 2mm: tmp = alpha*A*B, D = tmp*C + beta*D (fp32)", two_mm),
        pb("3mm", "PolyBench 3mm: E = A*B, F = C*D, G = E*F (fp32)", three_mm),
        pb("atax", "PolyBench atax: y = A^T (A x) (fp32)", atax),
        pb("bicg", "PolyBench bicg: s = A^T r and q = A p in one loop nest (fp32)", bicg),
        pb("correlation", "PolyBench correlation matrix of the data columns (fp32)", correlation),
        pb("covariance", "PolyBench covariance matrix of the data columns (fp32)", covariance),
        pb("doitgen", "PolyBench doitgen: multiresolution analysis kernel (fp32)", doitgen),
        pb("gemm", "PolyBench gemm: C = alpha*A*B + beta*C (fp32)", gemm),
        gesummv_example(),
        pb("jacobi_2d", "PolyBench jacobi-2d: 5-point Jacobi stencil sweeps (fp32)", jacobi_2d),
        pb("mvt", "PolyBench mvt: x1 += A*y1, x2 += A^T*y2 (fp32)", mvt),
        pb("seidel_2d", "PolyBench seidel-2d: in-place 9-point Gauss-Seidel sweeps (fp32)", seidel_2d),
        pb("symm", "PolyBench symm: C = alpha*A*B + beta*C, A symmetric (fp32)", symm),
        pb("syr2k", "PolyBench syr2k: symmetric rank-2k update (fp32)", syr2k),
        pb("syrk", "PolyBench syrk: symmetric rank-k update (fp32)", syrk),
        pb("trmm", "PolyBench trmm: B = alpha*A^T*B, A unit lower triangular (fp32)", trmm),
    };
}

std::vector<int> polybench_dataset(const std::string &size, std::vector<int> mini, std::vector<int> small,
                                   std::vector<int> medium) {
    if (size == "mini") return mini;
    if (size == "small") return small;
    if (size == "medium") return medium;
    throw std::logic_error("PolyBench dataset '" + size + "'");
}

}  // namespace flowhls
