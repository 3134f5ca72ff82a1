// The ScaleHLS and HIDA designs of PolyBench 2mm and 3mm (the corpus's polybench/{scalehls,hida}) as Halide programs.
#include "examples/PolybenchSchedules.h"
#include "flowhls/Error.h"

#include <functional>

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Var;

namespace {

const Halide::Type f32 = Halide::Float(32);

// The tiling of one matrix product nest: `tk` values of k per iteration, a `ti` x `tj` tile of
// the result unrolled; k outermost, then the row tiles, then the column tiles (pipelined).
struct Tile {
    int tk, ti, tj;
};

// Accesses x(k, i) and y(j, k) (Halide's order: column first) of a product's operands.
using Access = std::function<Expr(Expr, Expr)>;

// out(j, i) = out_in(j, i) + sum over k of x(k, i) y(j, k) for an ni x nj result and nk values of
// k, tiled as `t`: at each k step, out + (p0 + p1 + ..) over the step's `t.tk` products, as both
// tools write it (the test accumulates into out as given: out_in at the first step). The tile is
// unrolled and the column-tile loop pipelined at II 2 (the three loops flattened, as Vitis does).
Func product(HalideProgram &p, const std::string &name, const Access &x, const Access &y, const ImageParam &in,
             int ni, int nj, int nk, Tile t) {
    Var j("j"), i("i");
    Func out(name);
    out(j, i) = Halide::undef<float>();
    // r.x: j % tj, r.y: i % ti, r.z: j / tj (pipelined), r.w: i / ti, r[4]: k / tk.
    RDom r(0, t.tj, 0, t.ti, 0, nj / t.tj, 0, ni / t.ti, 0, nk / t.tk, "r_" + name);
    Expr ri = r.w * t.ti + r.y, rj = r.z * t.tj + r.x;
    Expr sum;
    for (int u = 0; u < t.tk; u++) {
        Expr rk = r[4] * t.tk + u;
        Expr prod = x(rk, ri) * y(rj, rk);
        sum = u == 0 ? prod : sum + prod;
    }
    out(rj, ri) = Halide::select(r[4] == 0, in(rj, ri), out(rj, ri)) + sum;
    out.update(0).unroll(r.x).unroll(r.y);
    p.directives.pipeline(out, Halide::RVar(r.z), 2);
    return out;
}

// Refuses dataset `size` (kernel parameters `n`) unless each extent of `extent_tile` is a
// multiple of its tile: one error naming the design's tiles (`tiles`) and the dataset.
void check_tiles(const std::string &design, const std::string &tiles, const std::string &size, const std::vector<int> &n,
                 const std::vector<std::pair<int, int>> &extent_tile) {
    bool ok = true;
    for (const auto &et : extent_tile) ok &= et.first % et.second == 0;
    if (ok) return;
    std::string dims;
    for (int x : n) dims += (dims.empty() ? "" : " x ") + std::to_string(x);
    throw Error(design + " tiles " + tiles + ": dataset " + size + " (" + dims +
                ") is not a multiple of them; build it at medium");
}

// The memories: every argument on a block-RAM port, partitioned cyclically by `cols` on its
// columns (dimension 0) and `rows` on its rows (1 for none), keeping its shape; the top
// function sequential, and each filter inlined into it so that its loops are loops of the top
// function, as in the corpus sources (Vitis shares operators among them: docs/qor.md).
struct Memories {
    HalideProgram &p;
    Memories &banks(const std::string &name, int cols, int rows) {
        p.directives.interface(name, InterfaceMode::Bram);
        if (cols > 1) p.directives.partition(name, 0, PartitionKind::Cyclic, cols);
        if (rows > 1) p.directives.partition(name, 1, PartitionKind::Cyclic, rows);
        return *this;
    }
    void sequential_inlined(const std::vector<Func> &filters) {
        p.directives.dataflow(p.name, false);
        for (const Func &f : filters) p.directives.inline_filter(f);
    }
};

// 2mm (the corpus's test_2mm): AB += A B, ABC += AB C, out = beta ABC + alpha D, each matrix in
// the source's row-major order ([i][j] is Halide's (j, i)). ScaleHLS tiles both products 12 x 10
// with one k per iteration; HIDA tiles the second 6 x 10 with two k per iteration (and partitions
// C on its rows by 2). The last nest scales 12 x 10 tiles at II 1.
HalideProgram two_mm(const std::string &size, bool hida) {
    std::vector<int> n = polybench_dataset(size, {16, 18, 22, 24}, {40, 50, 70, 80}, {180, 190, 210, 220});
    int ni = n[0], nj = n[1], nk = n[2], nl = n[3];
    Tile t1{1, 12, 10}, t2 = hida ? Tile{2, 6, 10} : Tile{1, 12, 10};
    check_tiles(std::string("pb_2mm's ") + (hida ? "HIDA" : "ScaleHLS") + " design",
                hida ? "i by 12 and 6, j and l by 10, j by 2" : "i by 12, j and l by 10", size, n,
                {{ni, 12}, {nj, 10}, {nl, 10}, {nj, t2.tk}, {ni, t2.ti}});
    const float alpha = 1.5f, beta = 1.2f;
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C"), d(f32, 2, "D"), ab_in(f32, 2, "AB_in"),
        abc_in(f32, 2, "ABC_in");
    HalideProgram p{"kernel_2mm",
                    {{a, {nk, ni}}, {b, {nj, nk}}, {c, {nl, nj}}, {d, {nl, ni}}, {ab_in, {nj, ni}}, {abc_in, {nl, ni}}},
                    {}};
    Func ab = product(p, "AB", [&](Expr k, Expr i) { return a(k, i); }, [&](Expr j, Expr k) { return b(j, k); }, ab_in,
                      ni, nj, nk, t1);
    Func abc = product(p, "ABC", [&](Expr k, Expr i) { return ab(k, i); }, [&](Expr j, Expr k) { return c(j, k); },
                       abc_in, ni, nl, nj, t2);
    Var j("j"), i("i");
    Func out("D_out");
    out(j, i) = Halide::undef<float>();
    // s.x: j % 10, s.y: i % 12, s.z: j / 10 (pipelined), s.w: i / 12.
    RDom s(0, 10, 0, 12, 0, nl / 10, 0, ni / 12, "s");
    Expr si = s.w * 12 + s.y, sj = s.z * 10 + s.x;
    out(sj, si) = abc(sj, si) * beta + d(sj, si) * alpha;
    out.update(0).unroll(s.x).unroll(s.y);
    p.directives.pipeline(out, Halide::RVar(s.z), 1);
    p.outputs = {{ab, {nj, ni}}, {abc, {nl, ni}}, {out, {nl, ni}}};
    Memories m{p};
    m.banks(a.name(), 1, 12).banks(b.name(), 10, 1).banks(c.name(), 10, hida ? 2 : 1).banks(d.name(), 10, 12);
    for (const std::string &s : {ab_in.name(), abc_in.name(), ab.name(), abc.name(), out.name()}) m.banks(s, 10, 12);
    m.sequential_inlined({ab, abc, out});
    return p;
}

// 3mm (the corpus's test_3mm): E += A B, F += C D, G += E F. ScaleHLS: E in 12 x 5 tiles, F and
// G in 10 x 6, each with two k per iteration; HIDA: E in 12 x 10 tiles with one k, F as ScaleHLS,
// G in 9 x 6 with two k. Every array partitioned on rows and columns by the factors the source
// gives (HIDA leaves A's columns and B's rows whole). E and F are independent: Vitis runs their
// nests at once, then G.
HalideProgram three_mm(const std::string &size, bool hida) {
    std::vector<int> n = polybench_dataset(size, {16, 18, 20, 22, 24}, {40, 50, 60, 70, 80}, {180, 190, 200, 210, 220});
    int ni = n[0], nj = n[1], nk = n[2], nl = n[3], nm = n[4];
    Tile te = hida ? Tile{1, 12, 10} : Tile{2, 12, 5}, tf{2, 10, 6}, tg = hida ? Tile{2, 9, 6} : Tile{2, 10, 6};
    check_tiles(std::string("pb_3mm's ") + (hida ? "HIDA" : "ScaleHLS") + " design",
                hida ? "E by 12 x 10, F by 10 x 6, G by 9 x 6, k by 2 in F and G"
                     : "E by 12 x 5, F and G by 10 x 6, k by 2",
                size, n,
                {{ni, te.ti}, {nj, te.tj}, {nk, te.tk}, {nj, tf.ti}, {nl, tf.tj}, {nm, tf.tk}, {ni, tg.ti}, {nl, tg.tj},
                 {nj, tg.tk}});
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C"), d(f32, 2, "D"), e_in(f32, 2, "E_in"),
        f_in(f32, 2, "F_in"), g_in(f32, 2, "G_in");
    HalideProgram p{"kernel_3mm",
                    {{a, {nk, ni}},
                     {b, {nj, nk}},
                     {c, {nm, nj}},
                     {d, {nl, nm}},
                     {e_in, {nj, ni}},
                     {f_in, {nl, nj}},
                     {g_in, {nl, ni}}},
                    {}};
    auto of = [](auto m) { return Access([m](Expr x, Expr y) mutable -> Expr { return m(x, y); }); };
    Func e = product(p, "E", of(a), of(b), e_in, ni, nj, nk, te);
    Func f = product(p, "F", of(c), of(d), f_in, nj, nl, nm, tf);
    Func g = product(p, "G", of(e), of(f), g_in, ni, nl, nj, tg);
    p.outputs = {{e, {nj, ni}}, {f, {nl, nj}}, {g, {nl, ni}}};
    Memories m{p};
    if (hida) {
        m.banks(a.name(), 1, 12).banks(b.name(), 10, 1).banks(e_in.name(), 10, 12).banks(e.name(), 10, 12);
        m.banks(g_in.name(), 6, 9).banks(g.name(), 6, 9);
    } else {
        m.banks(a.name(), 2, 12).banks(b.name(), 5, 2).banks(e_in.name(), 5, 12).banks(e.name(), 5, 12);
        m.banks(g_in.name(), 6, 10).banks(g.name(), 6, 10);
    }
    m.banks(c.name(), 2, 10).banks(d.name(), 6, 2).banks(f_in.name(), 6, 10).banks(f.name(), 6, 10);
    m.sequential_inlined({e, f, g});
    return p;
}

}  // namespace

std::vector<ExampleSchedule> hida_mm_schedules(const std::string &kernel) {
    std::vector<ExampleSchedule> out;
    if (kernel != "2mm" && kernel != "3mm") return out;
    for (bool hida : {true, false}) {
        ExampleSchedule s;
        s.name = hida ? "hida" : "scalehls";
        s.description = std::string("the ") + (hida ? "HIDA" : "ScaleHLS") +
                        " design: k outermost, the result tiled and the tile unrolled, arrays partitioned on rows and "
                        "columns (keeping their shape), the nests inlined into one sequential top function" +
                        (hida ? "" : " (its arguments' binding to true dual-port RAMs is not expressed)");
        s.apply = [](HalideProgram &) {};
        s.algorithm = [kernel, hida](const std::string &size) {
            return kernel == "2mm" ? two_mm(size, hida) : three_mm(size, hida);
        };
        out.push_back(s);
    }
    return out;
}

}  // namespace flowhls
