// The HIDA designs of the PolyBench kernels (the corpus's polybench/hida) as Halide programs.
#include "examples/PolybenchSchedules.h"
#include "flowhls/Error.h"

#include <functional>
#include <stdexcept>

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::RVar;
using Halide::Var;

namespace {

const Halide::Type f32 = Halide::Float(32);

// The memories of the HIDA and ScaleHLS gesummv designs: A and B in their banks (dimension 2),
// x cyclic by `x_banks` (1: one bank), tmp and y (in and out) one register per bank slot.
void gesummv_memories(HalideProgram &p, const ImageParam &a, const ImageParam &b, const ImageParam &x,
                      const ImageParam &ty_in, const Func &ty, int x_banks) {
    for (const ImageParam &in : {a, b}) {
        p.directives.interface(in, InterfaceMode::Bram).partition(in, 2, PartitionKind::Complete);
    }
    p.directives.interface(x, InterfaceMode::Bram);
    if (x_banks > 1) p.directives.partition(x, 0, PartitionKind::Cyclic, x_banks);
    p.directives.interface(ty_in, InterfaceMode::Bram)
        .partition(ty_in, 0, PartitionKind::Complete)
        .interface(ty, InterfaceMode::Bram)
        .partition(ty.name(), 0, PartitionKind::Complete)
        .dataflow(p.name, false);
}

// gesummv (HIDA): j outermost, i split by 10 with the 10 rows unrolled (II 1: no recurrence at
// distance 1); A and B partitioned on rows, tmp and y cyclic by 10 on i. tmp and y are one
// output, banked as HIDA's 20 banks: ty(c * 10 + i % 10, i / 10) is tmp[i] (c = 0) or y[i]
// (c = 1). The corpus's test accumulates into tmp and y as given (ty_in), which the first j
// reads; every loop is a reduction variable, in HIDA's order.
HalideProgram gesummv(const std::string &size) {
    int nn = polybench_dataset(size, {30}, {90}, {250})[0];
    const float alpha = 1.5f, beta = 1.2f;
    ImageParam a(f32, 3, "A"), b(f32, 3, "B"), x(f32, 1, "x"), ty_in(f32, 2, "tmp_y_in");
    Var s("s"), io("io");
    RDom r(0, 2, 0, 10, 0, nn / 10, 0, nn, "r");  // r.x: tmp or y, r.y: i % 10, r.z: i / 10, r.w: j
    Func ty("tmp_y");
    ty(s, io) = Halide::undef<float>();
    Expr slot = r.x * 10 + r.y;
    Expr prev = Halide::select(r.w == 0, ty_in(slot, r.z), ty(slot, r.z));
    Expr sum = prev + Halide::select(r.x == 0, a(r.w, r.z, r.y), b(r.w, r.z, r.y)) * x(r.w);
    // r.x == 1 runs after r.x == 0: ty(r.y, r.z) is then tmp[i] with this j's product.
    ty(slot, r.z) = Halide::select(r.x == 1 && r.w == nn - 1, alpha * ty(r.y, r.z) + beta * sum, sum);
    HalideProgram p{"kernel_gesummv",
                    {{a, {nn, nn / 10, 10}}, {b, {nn, nn / 10, 10}}, {x, {nn}}, {ty_in, {20, nn / 10}}},
                    {{ty, {20, nn / 10}}}};
    ty.update(0).unroll(r.x).unroll(r.y);
    gesummv_memories(p, a, b, x, ty_in, ty, 1);
    return p;
}

// gesummv (ScaleHLS): j outermost in pairs, i split by 10 with the 10 rows and the pair unrolled,
// pipelined at II 2 (ScaleHLS's choice). A and B are partitioned 10 x 2 (rows and columns),
// passed bank by bank: A(j / 2, i / 10, (i % 10) * 2 + j % 2) is A[i][j]; x is cyclic 2, and
// tmp and y are one output banked as HIDA's (ty(c * 10 + i % 10, i / 10)). As ScaleHLS writes
// it: tmp[i] + (A[i][j0] x[j0] + A[i][j1] x[j1]) and (y[i] + B[i][j0] x[j0]) + B[i][j1] x[j1].
// The ScaleHLS source stores y[i] + B[i][j0] x[j0] in the iterations before the last (it drops
// the odd columns of B, a miscompilation): this design stores the whole sum, through the same
// select.
HalideProgram gesummv_scalehls(const std::string &size) {
    int nn = polybench_dataset(size, {30}, {90}, {250})[0];
    const float alpha = 1.5f, beta = 1.2f;
    ImageParam a(f32, 3, "A"), b(f32, 3, "B"), x(f32, 1, "x"), ty_in(f32, 2, "tmp_y_in");
    Var s("s"), io("io");
    RDom r(0, 2, 0, 10, 0, nn / 10, 0, nn / 2, "r");  // r.x: tmp or y, r.y: i % 10, r.z: i / 10, r.w: j / 2
    Func ty("tmp_y");
    ty(s, io) = Halide::undef<float>();
    Expr slot = r.x * 10 + r.y;
    Expr prev = Halide::select(r.w == 0, ty_in(slot, r.z), ty(slot, r.z));
    auto prod = [&](ImageParam m, int u) { return m(r.w, r.z, r.y * 2 + u) * x(r.w * 2 + u); };
    Expr tmp = prev + (prod(a, 0) + prod(a, 1));
    Expr y = (prev + prod(b, 0)) + prod(b, 1);
    // r.x == 1 runs after r.x == 0: ty(r.y, r.z) is then tmp[i] with this pair's products.
    Expr last = alpha * ty(r.y, r.z) + beta * y;
    ty(slot, r.z) = Halide::select(r.x == 0, tmp, Halide::select(r.w == nn / 2 - 1, last, y));
    HalideProgram p{"kernel_gesummv",
                    {{a, {nn / 2, nn / 10, 20}}, {b, {nn / 2, nn / 10, 20}}, {x, {nn}}, {ty_in, {20, nn / 10}}},
                    {{ty, {20, nn / 10}}}};
    ty.update(0).unroll(r.x).unroll(r.y);
    p.directives.pipeline(ty, Halide::RVar(r.z), 2);
    gesummv_memories(p, a, b, x, ty_in, ty, 2);
    return p;
}

// mvt (HIDA): x1[i] += A[i][j] y1[j] and x2[i] += A[j][i] y2[j], each loop nest j outermost
// (pairs of j) and i inner (16 rows unrolled), x + (p0 + p1) per pair as HIDA writes it. A is
// partitioned 16 x 16 (rows and columns), passed bank by bank: A(jq, iq, (i % 16) * 16 + j % 16)
// is A[i][j] with jq = j / 16, iq = i / 16; j is split so that its bank is affine in the loops
// (j = 16 * jo + 2 * jv + u). x1 and x2 are one output (rows 0 and 1, cyclic 16 on i), updated
// by two loop nests of one function; the test accumulates into them as given (x_in).
// ScaleHLS's design is the same with 4 values of j per iteration (a chain of four products),
// pipelined at II 3 and y partitioned by 4: `pair` is the number of j per iteration.
HalideProgram mvt(const std::string &size, int pair_len = 2, int target_ii = 1) {
    int nn = polybench_dataset(size, {32}, {128}, {400})[0];
    ImageParam a(f32, 3, "A"), y1(f32, 1, "y_1"), y2(f32, 1, "y_2"), x_in(f32, 2, "x_in");
    Var i("i"), w("w");
    std::vector<Halide::RVar> p_ii;
    Func x("x");
    x(i, w) = Halide::undef<float>();
    for (int which = 0; which < 2; which++) {
        // r.x: i % 16 (unrolled), r.y: i / 16, r.z: jv, r.w: jo.
        RDom r(0, 16, 0, nn / 16, 0, 16 / pair_len, 0, nn / 16, "r" + std::to_string(which));
        Expr row = r.y * 16 + r.x;
        Expr pair;
        for (int u = 0; u < pair_len; u++) {
            Expr j = r.w * 16 + r.z * pair_len + u;
            Expr elem = which == 0 ? a(r.w, r.y, r.x * 16 + r.z * pair_len + u)   // A[row][j]
                                   : a(r.y, r.w, (r.z * pair_len + u) * 16 + r.x);  // A[j][row]
            Expr p = elem * (which == 0 ? y1(j) : y2(j));
            pair = u == 0 ? p : pair + p;
        }
        Expr prev = Halide::select(r.w == 0 && r.z == 0, x_in(row, which), x(row, which));
        x(row, which) = prev + pair;
        x.update(which).unroll(r.x);
        if (target_ii > 1) p_ii.push_back(Halide::RVar(r.y));
    }
    HalideProgram p{"kernel_mvt",
                    {{a, {nn / 16, nn / 16, 256}}, {y1, {nn}}, {y2, {nn}}, {x_in, {nn, 2}}},
                    {{x, {nn, 2}}}};
    for (const Halide::RVar &v : p_ii) p.directives.pipeline(x, v, target_ii);
    p.directives.interface(a, InterfaceMode::Bram)
        .partition(a, 2, PartitionKind::Complete)
        .interface(y1, InterfaceMode::Bram)
        .partition(y1, 0, PartitionKind::Cyclic, pair_len)
        .interface(y2, InterfaceMode::Bram)
        .partition(y2, 0, PartitionKind::Cyclic, pair_len)
        .interface(x_in, InterfaceMode::Bram)
        .partition(x_in, 0, PartitionKind::Cyclic, 16)
        .interface(x, InterfaceMode::Bram)
        .partition(x.name(), 0, PartitionKind::Cyclic, 16)
        .dataflow(p.name, false);
    return p;
}

// bicg (HIDA): s[j] += A[i][j] r[i] and q[i] += A[i][j] p[j] in 10 x 10 tiles, j tiles
// outermost, the tile unrolled, each element's ten products chained in order before they are
// added (s over the tile's rows, q over its columns), pipelined at II 9 (HIDA's choice). A is
// partitioned 10 x 10, passed bank by bank: A(jq, iq, (i % 10) * 10 + j % 10); s and q are one
// output (s, then q from element m on; cyclic 10); the test accumulates into them as given.
HalideProgram bicg(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {40, 40}, {120, 130}, {390, 410});
    int m = n[0], nn = n[1];  // A is nn x m
    ImageParam a(f32, 3, "A"), pv(f32, 1, "p"), rv(f32, 1, "r"), sq_in(f32, 1, "sq_in");
    Var x("x");
    Func sq("sq");
    sq(x) = Halide::undef<float>();
    RDom r(0, 20, 0, nn / 10, 0, m / 10, "r");  // r.x: 10 columns (s) then 10 rows (q), r.y: i / 10, r.z: j / 10
    auto elem = [&](Expr ii, Expr jj) { return a(r.z, r.y, ii * 10 + jj); };
    // Built for each unrolled copy: r.x is a constant there.
    Expr value, lhs_x;
    for (int t = 0; t < 20; t++) {
        Expr chain;
        for (int u = 0; u < 10; u++) {
            Expr prod = t < 10 ? elem(u, t) * rv(r.y * 10 + u) : elem(t - 10, u) * pv(r.z * 10 + u);
            chain = u == 0 ? prod : chain + prod;
        }
        Expr pos = t < 10 ? r.z * 10 + t : m + r.y * 10 + (t - 10);
        Expr first = t < 10 ? r.y == 0 : r.z == 0;
        Expr v = Halide::select(first, sq_in(pos), sq(pos)) + chain;
        value = t == 0 ? v : Halide::select(r.x == t, v, value);
        lhs_x = t == 0 ? pos : Halide::select(r.x == t, pos, lhs_x);
    }
    sq(lhs_x) = value;
    HalideProgram p{"kernel_bicg",
                    {{a, {m / 10, nn / 10, 100}}, {pv, {m}}, {rv, {nn}}, {sq_in, {m + nn}}},
                    {{sq, {m + nn}}}};
    sq.update(0).unroll(r.x);
    p.directives.pipeline(sq, Halide::RVar(r.y), 9)
        .interface(a, InterfaceMode::Bram)
        .partition(a, 2, PartitionKind::Complete)
        .interface(pv, InterfaceMode::Bram)
        .partition(pv, 0, PartitionKind::Cyclic, 10)
        .interface(rv, InterfaceMode::Bram)
        .partition(rv, 0, PartitionKind::Cyclic, 10)
        .interface(sq_in, InterfaceMode::Bram)
        .partition(sq_in, 0, PartitionKind::Cyclic, 10)
        .interface(sq, InterfaceMode::Bram)
        .partition(sq.name(), 0, PartitionKind::Cyclic, 10)
        .dataflow(p.name, false);
    return p;
}

// gemm (ScaleHLS and HIDA, one design): AB[i][j] += alpha A[i][k] B[k][j] with k outermost in
// threes, i in fours, j in tens, the 4 x 10 tile and the three k unrolled and j pipelined at II 2
// (the three nests flattened, as Vitis does), then C[i][j] = beta C[i][j] + AB[i][j] in 10 x 10
// tiles at II 2. Every array is partitioned cyclically on rows and columns (A 4 x 3, B 3 x 10,
// C and AB 10 x 10) and keeps its shape: AB's rows 4 v + r (r < 4) fall in banks selected at
// run time, which Vitis proves distinct. alpha A[i][k] is computed once per iteration for the
// tile's 4 rows and 3 columns (registers), as the source does. AB and C are one output (channel 0: AB, 1: C; the
// channel dimension completely partitioned: two arrays); the test accumulates into AB as given
// (AB_in) and scales C as given (C_in). Each product is (alpha A) B and each sum AB + ((p0 + p1) +
// p2), as the source writes them.
HalideProgram gemm(const std::string &size) {
    std::vector<int> n = polybench_dataset(size, {20, 25, 30}, {60, 70, 80}, {200, 220, 240});
    int ni = n[0], nj = n[1], nk = n[2];
    if (ni % 20 != 0 || nj % 10 != 0 || nk % 3 != 0) {
        throw Error("pb_gemm's ScaleHLS/HIDA design tiles i by 4 and 10, j by 10 and k by 3: dataset " + size + " (" +
                    std::to_string(ni) + " x " + std::to_string(nj) + " x " + std::to_string(nk) +
                    ") is not a multiple of them; build it at medium");
    }
    const float alpha = 1.5f, beta = 1.2f;
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c_in(f32, 2, "C_in"), ab_in(f32, 2, "AB_in");
    Var j("j"), i("i"), ch("ch");
    Var k("k");
    Func cab("AB_C"), scaled("alpha_A");
    scaled(k, i) = alpha * a(k, i);  // the tile's 3 x 4 alpha A[i][k], once per iteration
    cab(j, i, ch) = Halide::undef<float>();
    // r.x: j % 10, r.y: i % 4, r.z: j / 10 (pipelined), r.w: i / 4, r[4]: k / 3.
    RDom r(0, 10, 0, 4, 0, nj / 10, 0, ni / 4, 0, nk / 3, "r");
    Expr ri = r.w * 4 + r.y, rj = r.z * 10 + r.x;
    Expr sum;
    for (int u = 0; u < 3; u++) {
        Expr rk = r[4] * 3 + u;
        Expr prod = scaled(rk, ri) * b(rj, rk);
        sum = u == 0 ? prod : sum + prod;
    }
    cab(rj, ri, 0) = Halide::select(r[4] == 0, ab_in(rj, ri), cab(rj, ri, 0)) + sum;
    // s.x: j % 10, s.y: i % 10, s.z: j / 10 (pipelined), s.w: i / 10.
    RDom s(0, 10, 0, 10, 0, nj / 10, 0, ni / 10, "s");
    Expr si = s.w * 10 + s.y, sj = s.z * 10 + s.x;
    cab(sj, si, 1) = beta * c_in(sj, si) + cab(sj, si, 0);
    HalideProgram p{"kernel_gemm",
                    {{a, {nk, ni}}, {b, {nj, nk}}, {c_in, {nj, ni}}, {ab_in, {nj, ni}}},
                    {{cab, {nj, ni, 2}}}};
    cab.update(0).unroll(r.x).unroll(r.y);
    scaled.compute_at(cab, r.z).unroll(k).unroll(i);
    cab.update(1).unroll(s.x).unroll(s.y);
    p.directives.pipeline(cab, Halide::RVar(r.z), 2).pipeline(cab, Halide::RVar(s.z), 2);
    auto banks = [&](const std::string &name, int cols, int rows) {
        p.directives.interface(name, InterfaceMode::Bram)
            .partition(name, 0, PartitionKind::Cyclic, cols)
            .partition(name, 1, PartitionKind::Cyclic, rows);
    };
    banks(a.name(), 3, 4);
    banks(b.name(), 10, 3);
    banks(c_in.name(), 10, 10);
    banks(ab_in.name(), 10, 10);
    banks(cab.name(), 10, 10);
    p.directives.partition(cab.name(), 2, PartitionKind::Complete).dataflow(p.name, false);
    return p;
}

// The dataset of pb_atax's ScaleHLS/HIDA designs (m rows, n columns), refused when the design's
// tiles (`row_tiles` on i, `col_tiles` on j) do not divide it.
std::vector<int> atax_dataset(const std::string &size, const std::string &design, int row_tiles, int col_tiles) {
    std::vector<int> n = polybench_dataset(size, {38, 42}, {116, 124}, {390, 410});
    if (n[0] % row_tiles != 0 || n[1] % col_tiles != 0) {
        throw Error("pb_atax's " + design + " design tiles i by " + std::to_string(row_tiles) + " and j by " +
                    std::to_string(col_tiles) + ": dataset " + size + " (" + std::to_string(n[0]) + " x " +
                    std::to_string(n[1]) + ") is not a multiple of them; build it at medium");
    }
    return n;
}

// The products product(0) .. product(len - 1) summed in order, ((p0 + p1) + p2) + ..., as
// ScaleHLS and HIDA write a tile's products.
Expr chain(const std::function<Expr(int)> &product, int len) {
    Expr sum = product(0);
    for (int u = 1; u < len; u++) sum = sum + product(u);
    return sum;
}

// atax (HIDA): tmp[i] += A[i][j] x[j] with j outermost in pairs and i in fifteens (the 15 x 2
// tile unrolled, II 1), then y[j] += A[i][j] tmp[i] with i outermost in pairs and j in tens
// (the 2 x 10 tile unrolled, II 1); each element adds its tile's products summed first
// (tmp + (p0 + p1)), as the source does. A is partitioned cyclically 15 x 10 (rows and
// columns) and keeps its shape; the first nest reads its columns 2 v + c and the second its
// rows 2 v + r, banks selected at run time, as in the source. tmp (cyclic 15) and y (cyclic 10)
// are the source's in/out arguments with different factors: they are two outputs, y's filter
// reading tmp's output (the top function is sequential, so no copy is made), and the test
// accumulates into them as given (tmp_in, y_in). Both filters are inlined into the top
// function, whose two loop nests share their operators, as the source's do.
HalideProgram atax_hida(const std::string &size) {
    std::vector<int> n = atax_dataset(size, "HIDA", 30, 10);
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), x(f32, 1, "x"), tmp_in(f32, 1, "tmp_in"), y_in(f32, 1, "y_in");
    Var i("i"), j("j");
    Func tmp("tmp"), y("y");
    tmp(i) = Halide::undef<float>();
    RDom r(0, 15, 0, m / 15, 0, nn / 2, "r");  // r.x: i % 15 (unrolled), r.y: i / 15 (pipelined), r.z: j / 2
    Expr row = r.y * 15 + r.x;
    Expr tmp_sum = chain([&](int u) { return a(r.z * 2 + u, row) * x(r.z * 2 + u); }, 2);
    tmp(row) = Halide::select(r.z == 0, tmp_in(row), tmp(row)) + tmp_sum;
    y(j) = Halide::undef<float>();
    RDom s(0, 10, 0, nn / 10, 0, m / 2, "s");  // s.x: j % 10 (unrolled), s.y: j / 10 (pipelined), s.z: i / 2
    Expr col = s.y * 10 + s.x;
    Expr y_sum = chain([&](int u) { return a(col, s.z * 2 + u) * tmp(s.z * 2 + u); }, 2);
    y(col) = Halide::select(s.z == 0, y_in(col), y(col)) + y_sum;
    HalideProgram p{"kernel_atax",
                    {{a, {nn, m}}, {x, {nn}}, {tmp_in, {m}}, {y_in, {nn}}},
                    {{tmp, {m}}, {y, {nn}}}};
    tmp.compute_root().update(0).unroll(r.x);
    y.compute_root().update(0).unroll(s.x);
    p.directives.interface(a, InterfaceMode::Bram)
        .partition(a, 0, PartitionKind::Cyclic, 10)
        .partition(a, 1, PartitionKind::Cyclic, 15)
        .interface(x, InterfaceMode::Bram)
        .partition(x, 0, PartitionKind::Cyclic, 2);
    for (const std::string &name : {tmp_in.name(), tmp.name()}) {
        p.directives.interface(name, InterfaceMode::Bram).partition(name, 0, PartitionKind::Cyclic, 15);
    }
    for (const std::string &name : {y_in.name(), y.name()}) {
        p.directives.interface(name, InterfaceMode::Bram).partition(name, 0, PartitionKind::Cyclic, 10);
    }
    p.directives.inline_filter(tmp).inline_filter(y).dataflow(p.name, false);
    return p;
}

// atax (ScaleHLS): tmp is local (cyclic 15), zeroed thirteen elements per iteration (II 1),
// then tmp[i] += A[i][j] x[j] with j outermost in fives and i in fifteens (the 15 x 5 tile
// unrolled, II 4; tmp + ((((p0 + p1) + p2) + p3) + p4)), then y[j] += A[i][j] tmp[i] with i
// outermost in threes and j in tens (the 3 x 10 tile unrolled, II 2; y + ((p0 + p1) + p2)).
// A is partitioned 15 x 10 and keeps its shape (columns 5 v + c, rows 3 v + r: banks selected at
// run time), x cyclic 5, y cyclic 10; the test accumulates into y as given (y_in). Both filters
// are inlined into the top function (its three loops share their operators, as the source's).
HalideProgram atax_scalehls(const std::string &size) {
    std::vector<int> n = atax_dataset(size, "ScaleHLS", 195, 10);
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), x(f32, 1, "x"), y_in(f32, 1, "y_in");
    Var i("i"), io("io"), ii("ii"), j("j");
    Func tmp("tmp"), y("y");
    tmp(i) = 0.0f;
    RDom r(0, 15, 0, m / 15, 0, nn / 5, "r");  // r.x: i % 15 (unrolled), r.y: i / 15 (pipelined), r.z: j / 5
    Expr row = r.y * 15 + r.x;
    tmp(row) = tmp(row) + chain([&](int u) { return a(r.z * 5 + u, row) * x(r.z * 5 + u); }, 5);
    y(j) = Halide::undef<float>();
    RDom s(0, 10, 0, nn / 10, 0, m / 3, "s");  // s.x: j % 10 (unrolled), s.y: j / 10 (pipelined), s.z: i / 3
    Expr col = s.y * 10 + s.x;
    Expr y_sum = chain([&](int u) { return a(col, s.z * 3 + u) * tmp(s.z * 3 + u); }, 3);
    y(col) = Halide::select(s.z == 0, y_in(col), y(col)) + y_sum;
    HalideProgram p{"kernel_atax", {{a, {nn, m}}, {x, {nn}}, {y_in, {nn}}}, {{y, {nn}}}};
    tmp.compute_root().split(i, io, ii, 13).unroll(ii);
    tmp.update(0).unroll(r.x);
    y.compute_root().update(0).unroll(s.x);
    p.directives.pipeline(tmp, Halide::RVar(r.y), 4)
        .pipeline(y, Halide::RVar(s.y), 2)
        .partition(tmp, 0, PartitionKind::Cyclic, 15)
        .interface(a, InterfaceMode::Bram)
        .partition(a, 0, PartitionKind::Cyclic, 10)
        .partition(a, 1, PartitionKind::Cyclic, 15)
        .interface(x, InterfaceMode::Bram)
        .partition(x, 0, PartitionKind::Cyclic, 5);
    for (const std::string &name : {y_in.name(), y.name()}) {
        p.directives.interface(name, InterfaceMode::Bram).partition(name, 0, PartitionKind::Cyclic, 10);
    }
    p.directives.inline_filter(tmp).inline_filter(y).dataflow(p.name, false);
    return p;
}

HalideProgram hida_program(const std::string &kernel, const std::string &size) {
    if (kernel == "bicg") return bicg(size);
    if (kernel == "gesummv") return gesummv(size);
    if (kernel == "mvt") return mvt(size);
    if (kernel == "gemm") return gemm(size);
    if (kernel == "atax") return atax_hida(size);
    throw std::logic_error("no HIDA design of " + kernel);
}

HalideProgram scalehls_program(const std::string &kernel, const std::string &size) {
    if (kernel == "bicg") return bicg(size);  // ScaleHLS generates HIDA's loop nest for bicg
    if (kernel == "gesummv") return gesummv_scalehls(size);
    if (kernel == "mvt") return mvt(size, 4, 3);
    if (kernel == "gemm") return gemm(size);  // ScaleHLS and HIDA generate one gemm design
    if (kernel == "atax") return atax_scalehls(size);
    throw std::logic_error("no ScaleHLS design of " + kernel);
}

}  // namespace

std::vector<ExampleSchedule> hida_schedules(const std::string &kernel) {
    std::vector<ExampleSchedule> out;
    for (const char *k : {"bicg", "gesummv", "mvt", "gemm", "atax"}) {
        if (kernel != k) continue;
        ExampleSchedule s;
        s.name = "hida";
        s.description = std::string("the HIDA design: loops permuted and tiled, the tile unrolled, arrays partitioned "
                                    "into banks ") +
                        (kernel == "gemm" || kernel == "atax" ? "on rows and columns (each array keeping its shape)"
                                          : "(two-dimensional arguments passed bank by bank)");
        s.apply = [](HalideProgram &) {};
        s.algorithm = [kernel](const std::string &size) { return hida_program(kernel, size); };
        out.push_back(s);
    }
    for (const char *k : {"bicg", "gesummv", "mvt", "gemm", "atax"}) {
        if (kernel != k) continue;
        ExampleSchedule s;
        s.name = "scalehls";
        s.description = "the ScaleHLS design: as the HIDA one with ScaleHLS's tile sizes and II (its arguments' "
                        "binding to true dual-port RAMs is not expressed)";
        s.apply = [](HalideProgram &) {};
        s.algorithm = [kernel](const std::string &size) { return scalehls_program(kernel, size); };
        out.push_back(s);
    }
    return out;
}

}  // namespace flowhls
