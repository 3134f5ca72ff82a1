// The HIDA designs of the PolyBench kernels (the corpus's polybench/hida) as Halide programs.
#include "examples/PolybenchSchedules.h"

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

HalideProgram hida_program(const std::string &kernel, const std::string &size) {
    if (kernel == "bicg") return bicg(size);
    if (kernel == "gesummv") return gesummv(size);
    if (kernel == "mvt") return mvt(size);
    throw std::logic_error("no HIDA design of " + kernel);
}

HalideProgram scalehls_program(const std::string &kernel, const std::string &size) {
    if (kernel == "bicg") return bicg(size);  // ScaleHLS generates HIDA's loop nest for bicg
    if (kernel == "gesummv") return gesummv_scalehls(size);
    if (kernel == "mvt") return mvt(size, 4, 3);
    throw std::logic_error("no ScaleHLS design of " + kernel);
}

}  // namespace

std::vector<ExampleSchedule> hida_schedules(const std::string &kernel) {
    std::vector<ExampleSchedule> out;
    for (const char *k : {"bicg", "gesummv", "mvt"}) {
        if (kernel != k) continue;
        ExampleSchedule s;
        s.name = "hida";
        s.description = "the HIDA design: loops permuted and tiled, the tile unrolled, arrays partitioned into banks "
                        "(two-dimensional arguments passed bank by bank)";
        s.apply = [](HalideProgram &) {};
        s.algorithm = [kernel](const std::string &size) { return hida_program(kernel, size); };
        out.push_back(s);
    }
    for (const char *k : {"bicg", "gesummv", "mvt"}) {
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
