// The Stream-HLS designs of the PolyBench kernels (optimization levels 1 and 2) as Halide programs.
#include "examples/PolybenchSchedules.h"

#include <stdexcept>

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Var;
using Halide::VarOrRVar;

namespace {

const Halide::Type f32 = Halide::Float(32);

// A Stream-HLS node: a process of the dataflow region, one filter of flowhls's graph. The FIFOs
// between nodes get the depths the corpus designs give them (whole matrices or vectors).
Func node(const std::string &name) { return Func(name); }

// A reduction into an array local to `out` (Stream-HLS keeps the accumulator in the node and
// writes each element to the node's output stream once it is complete): acc is computed at
// out's outermost level, so it is storage of out's filter and out copies it in order.
void local_accumulator(Func acc, Func out) {
    out.compute_root();
    acc.compute_at(out, Var::outermost());
}

// A kernel argument on a block-RAM port (the corpus's forward() takes plain arrays: ap_memory).
void bram_arguments(HalideProgram &p) {
    for (const ProgramInput &in : p.inputs) p.directives.interface(in.param.name(), InterfaceMode::Bram);
    for (const ProgramOutput &out : p.outputs) p.directives.interface(out.func, InterfaceMode::Bram);
}

// gemm (Stream-HLS): prod = A*B accumulated in node2, out = 0.5*prod + 0.1*C (node1), copied to
// the output by node0. opt2 permutes node2's loops to k, j, i (no recurrence at distance 1)
// and streams column-major.
HalideProgram gemm(const std::string &size, int opt) {
    std::vector<int> n = polybench_dataset(size, {20, 25, 30}, {60, 70, 80}, {200, 220, 240});
    int ni = n[0], nj = n[1], nk = n[2];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C");
    Var i("i"), j("j");
    RDom k(0, nk, "k");
    Func acc("prod_acc"), prod = node("prod"), scaled = node("scaled"), out("out");
    acc(j, i) = 0.0f;
    acc(j, i) += a(k, i) * b(j, k);
    prod(j, i) = acc(j, i);
    scaled(j, i) = prod(j, i) * 0.5f + c(j, i) * 0.1f;
    out(j, i) = scaled(j, i);
    HalideProgram p{"kernel_gemm", {{a, {nk, ni}}, {b, {nj, nk}}, {c, {nj, ni}}}, {{out, {nj, ni}}}};
    local_accumulator(acc, prod);
    scaled.compute_root();
    p.directives.stream(prod, ni * nj).stream(scaled, ni * nj);
    if (opt == 2) {
        acc.update(0).reorder(i, j, k);
        for (Func f : {prod, scaled, out}) f.reorder(i, j);
        for (Func f : {prod, scaled}) f.reorder_storage(i, j);  // streamed column by column
    }
    bram_arguments(p);
    return p;
}

// 2mm (Stream-HLS k2mm): tmp = A*B (node3), acc = tmp*C with tmp cached in node2, out = 0.5*acc +
// 0.1*D (node1), copied out (node0).
HalideProgram two_mm(const std::string &size, int opt) {
    std::vector<int> n = polybench_dataset(size, {16, 18, 22, 24}, {40, 50, 70, 80}, {180, 190, 210, 220});
    int ni = n[0], nj = n[1], nk = n[2], nl = n[3];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C"), d(f32, 2, "D");
    Var i("i"), j("j"), l("l");
    RDom k(0, nk, "k"), rj(0, nj, "rj");
    Func acc1("tmp_acc"), tmp = node("tmp"), cache("tmp_cache"), acc2("prod_acc"), prod = node("prod"),
        scaled = node("scaled"), out("out");
    acc1(j, i) = 0.0f;
    acc1(j, i) += a(k, i) * b(j, k);
    tmp(j, i) = acc1(j, i);
    cache(j, i) = tmp(j, i);
    acc2(l, i) = 0.0f;
    acc2(l, i) += cache(rj, i) * c(l, rj);
    prod(l, i) = acc2(l, i);
    scaled(l, i) = prod(l, i) * 0.5f + d(l, i) * 0.1f;
    out(l, i) = scaled(l, i);
    HalideProgram p{"kernel_2mm", {{a, {nk, ni}}, {b, {nj, nk}}, {c, {nl, nj}}, {d, {nl, ni}}}, {{out, {nl, ni}}}};
    local_accumulator(acc1, tmp);
    local_accumulator(acc2, prod);
    cache.compute_at(prod, Var::outermost());
    scaled.compute_root();
    p.directives.stream(tmp, ni * nj).stream(prod, ni * nl).stream(scaled, ni * nl);
    if (opt == 2) {
        acc1.update(0).reorder(i, k, j);
        tmp.reorder(i, j).reorder_storage(i, j);
        cache.reorder(i, j);
        acc2.update(0).reorder(i, l, rj);
        for (Func f : {prod, scaled, out}) f.reorder(i, l);
        for (Func f : {prod, scaled}) f.reorder_storage(i, l);
    }
    bram_arguments(p);
    return p;
}

// 3mm (Stream-HLS k3mm): E = A*B (node3, streamed), F = C*D (node2: an array in opt1, a stream in
// opt2), G = E*F (node1, E cached), copied out (node0).
HalideProgram three_mm(const std::string &size, int opt) {
    std::vector<int> n = polybench_dataset(size, {16, 18, 20, 22, 24}, {40, 50, 60, 70, 80}, {180, 190, 200, 210, 220});
    int ni = n[0], nj = n[1], nk = n[2], nl = n[3], nm = n[4];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), c(f32, 2, "C"), d(f32, 2, "D");
    Var i("i"), j("j"), l("l");
    RDom k(0, nk, "k"), m(0, nm, "m"), rj(0, nj, "rj");
    Func acc_e("E_acc"), e = node("E"), acc_f("F_acc"), f = node("F"), e_cache("E_cache"), f_cache("F_cache"),
        acc_g("G_acc"), g = node("G"), out("out");
    acc_e(j, i) = 0.0f;
    acc_e(j, i) += a(k, i) * b(j, k);
    e(j, i) = acc_e(j, i);
    acc_f(l, j) = 0.0f;
    acc_f(l, j) += c(m, j) * d(l, m);
    f(l, j) = acc_f(l, j);
    e_cache(j, i) = e(j, i);
    f_cache(l, j) = f(l, j);
    acc_g(l, i) = 0.0f;
    acc_g(l, i) += e_cache(rj, i) * f_cache(l, rj);
    g(l, i) = acc_g(l, i);
    out(l, i) = g(l, i);
    HalideProgram p{"kernel_3mm", {{a, {nk, ni}}, {b, {nj, nk}}, {c, {nm, nj}}, {d, {nl, nm}}}, {{out, {nl, ni}}}};
    local_accumulator(acc_e, e);
    local_accumulator(acc_f, f);
    local_accumulator(acc_g, g);
    e_cache.compute_at(g, Var::outermost());
    p.directives.stream(e, ni * nj).stream(g, ni * nl);
    if (opt == 2) p.directives.stream(f, nj * nl);
    if (opt == 1) {
        // F stays an array between node2 and node1 (a ping-pong buffer), cached in node1.
        f_cache.compute_at(g, Var::outermost());
        p.directives.ping_pong(f);
    } else {
        acc_e.update(0).reorder(i, k, j);
        e.reorder(i, j).reorder_storage(i, j);
        e_cache.reorder(i, j);
        acc_f.update(0).reorder(l, m, j);
        // G's loops j, l, i with F read once per (j, l) from node2's stream.
        acc_g.update(0).reorder(i, l, rj);
        f_cache.compute_at(acc_g, l);
        for (Func h : {g, out}) h.reorder(i, l);
        g.reorder_storage(i, l);
    }
    bram_arguments(p);
    return p;
}

// atax (Stream-HLS): tmp = A*x (node3), A transposed (node2: an array in opt1) or streamed in
// storage order (opt2), y = A^T tmp (node1, tmp cached), copied out (node0). The corpus reads A
// from two processes; flowhls gives each its own port: inputs A and A_copy.
HalideProgram atax(const std::string &size, int opt) {
    std::vector<int> n = polybench_dataset(size, {38, 42}, {116, 124}, {390, 410});
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), a2(f32, 2, "A_copy"), x(f32, 1, "x");
    Var i("i"), j("j");
    RDom rj(0, nn, "rj"), ri(0, m, "ri");
    Func acc_t("tmp_acc"), tmp = node("tmp"), at = node("At"), cache("tmp_cache"), acc_y("y_acc"), y = node("y"),
        out("out");
    acc_t(i) = 0.0f;
    acc_t(i) += a(rj, i) * x(rj);
    tmp(i) = acc_t(i);
    cache(i) = tmp(i);
    acc_y(j) = 0.0f;
    if (opt == 1) {
        at(i, j) = a2(j, i);
        acc_y(j) += at(ri, j) * cache(ri);
    } else {
        at(j, i) = a2(j, i);
        acc_y(j) += at(j, ri) * cache(ri);
    }
    y(j) = acc_y(j);
    out(j) = y(j);
    HalideProgram p{"kernel_atax", {{a, {nn, m}}, {a2, {nn, m}}, {x, {nn}}}, {{out, {nn}}}};
    local_accumulator(acc_t, tmp);
    local_accumulator(acc_y, y);
    cache.compute_at(y, Var::outermost());
    at.compute_root();
    p.directives.stream(tmp, m).stream(y, nn);
    if (opt == 2) p.directives.stream(at, m * nn);
    if (opt == 1) {
        at.reorder(j, i);  // written in A's order: for i: for j
    } else {
        acc_t.update(0).reorder(i, rj);
        acc_y.update(0).reorder(j, ri);
    }
    bram_arguments(p);
    return p;
}

// bicg (Stream-HLS): s = A^T r (node3) and q = A p (node2) in separate processes, each copied
// out (node1, node0).
HalideProgram bicg(const std::string &size, int opt) {
    std::vector<int> n = polybench_dataset(size, {38, 42}, {116, 124}, {390, 410});
    int m = n[0], nn = n[1];
    ImageParam a(f32, 2, "A"), a2(f32, 2, "A_copy"), r(f32, 1, "r"), p(f32, 1, "p");
    Var i("i"), j("j");
    RDom ri(0, nn, "ri"), rj(0, m, "rj");
    Func acc_s("s_acc"), s = node("s"), acc_q("q_acc"), q = node("q"), out_s("s_out"), out_q("q_out");
    acc_s(j) = 0.0f;
    acc_s(j) += r(ri) * a(j, ri);
    s(j) = acc_s(j);
    acc_q(i) = 0.0f;
    acc_q(i) += a2(rj, i) * p(rj);
    q(i) = acc_q(i);
    out_s(j) = s(j);
    out_q(i) = q(i);
    HalideProgram prog{"kernel_bicg", {{a, {m, nn}}, {a2, {m, nn}}, {r, {nn}}, {p, {m}}}, {{out_s, {m}}, {out_q, {nn}}}};
    local_accumulator(acc_s, s);
    local_accumulator(acc_q, q);
    prog.directives.stream(s, m).stream(q, nn);
    if (opt == 2) {
        acc_s.update(0).reorder(j, ri);
        acc_q.update(0).reorder(i, rj);
    }
    bram_arguments(prog);
    return prog;
}

// gesummv (Stream-HLS): tmp = A x (node3), yb = B x (node2), y = 1.5*tmp + 1.2*yb (node1),
// copied out (node0). x is read by two processes: inputs x and x_copy.
HalideProgram gesummv(const std::string &size, int opt) {
    int nn = polybench_dataset(size, {30}, {90}, {250})[0];
    ImageParam a(f32, 2, "A"), b(f32, 2, "B"), x(f32, 1, "x"), x2(f32, 1, "x_copy");
    Var i("i");
    RDom j(0, nn, "j");
    Func acc_t("tmp_acc"), tmp = node("tmp"), acc_b("yb_acc"), yb = node("yb"), y = node("y"), out("out");
    acc_t(i) = 0.0f;
    acc_t(i) += a(j, i) * x(j);
    tmp(i) = acc_t(i);
    acc_b(i) = 0.0f;
    acc_b(i) += b(j, i) * x2(j);
    yb(i) = acc_b(i);
    y(i) = tmp(i) * 1.5f + yb(i) * 1.2f;
    out(i) = y(i);
    HalideProgram p{"kernel_gesummv", {{a, {nn, nn}}, {b, {nn, nn}}, {x, {nn}}, {x2, {nn}}}, {{out, {nn}}}};
    local_accumulator(acc_t, tmp);
    local_accumulator(acc_b, yb);
    y.compute_root();
    p.directives.stream(tmp, nn).stream(yb, nn).stream(y, nn);
    if (opt == 2) {
        acc_t.update(0).reorder(i, j);
        acc_b.update(0).reorder(i, j);
    }
    bram_arguments(p);
    return p;
}

// mvt (Stream-HLS): x1 = A y1 (node4), A_copy transposed into an array (node3, opt1) or streamed
// (opt2), x2 = A_copy^T y2 (node2); each copied out (node1, node0). Stream-HLS starts both sums
// at 0 (the x1, x2 inputs of PolyBench are not read).
HalideProgram mvt(const std::string &size, int opt) {
    int nn = polybench_dataset(size, {40}, {120}, {400})[0];
    ImageParam a(f32, 2, "A"), a2(f32, 2, "A_copy"), y1(f32, 1, "y_1"), y2(f32, 1, "y_2");
    Var i("i"), j("j");
    RDom rj(0, nn, "rj");
    Func acc1("x1_acc"), x1 = node("x1"), at = node("At"), acc2("x2_acc"), x2 = node("x2"), out1("x1_out"),
        out2("x2_out");
    acc1(i) = 0.0f;
    acc1(i) += a(rj, i) * y1(rj);
    x1(i) = acc1(i);
    acc2(i) = 0.0f;
    if (opt == 1) {
        at(i, j) = a2(j, i);
        acc2(i) += at(rj, i) * y2(rj);
    } else {
        at(j, i) = a2(j, i);
        acc2(i) += at(i, rj) * y2(rj);
    }
    x2(i) = acc2(i);
    out1(i) = x1(i);
    out2(i) = x2(i);
    HalideProgram p{"kernel_mvt", {{a, {nn, nn}}, {a2, {nn, nn}}, {y1, {nn}}, {y2, {nn}}}, {{out1, {nn}}, {out2, {nn}}}};
    local_accumulator(acc1, x1);
    local_accumulator(acc2, x2);
    at.compute_root();
    p.directives.stream(x1, nn).stream(x2, nn);
    if (opt == 2) p.directives.stream(at, nn * nn);
    if (opt == 1) {
        at.reorder(j, i);  // written in A's order
    } else {
        acc1.update(0).reorder(i, rj);
        acc2.update(0).reorder(i, rj);
    }
    bram_arguments(p);
    return p;
}

HalideProgram streamhls_program(const std::string &kernel, const std::string &size, int opt) {
    if (kernel == "gemm") return gemm(size, opt);
    if (kernel == "2mm") return two_mm(size, opt);
    if (kernel == "3mm") return three_mm(size, opt);
    if (kernel == "atax") return atax(size, opt);
    if (kernel == "bicg") return bicg(size, opt);
    if (kernel == "gesummv") return gesummv(size, opt);
    if (kernel == "mvt") return mvt(size, opt);
    throw std::logic_error("no Stream-HLS design of " + kernel);
}

}  // namespace

std::vector<ExampleSchedule> streamhls_schedules(const std::string &kernel) {
    static const char *kernels[] = {"gemm", "2mm", "3mm", "atax", "bicg", "gesummv", "mvt"};
    std::vector<ExampleSchedule> out;
    for (const char *k : kernels) {
        if (kernel != k) continue;
        for (int opt : {1, 2}) {
            ExampleSchedule s;
            s.name = "streamhls_opt" + std::to_string(opt);
            s.description = opt == 1 ? "the Stream-HLS opt1 design: one process per node, accumulators local to their "
                                       "node, FIFOs between nodes, loops in PolyBench order"
                                     : "the Stream-HLS opt2 design: opt1 with each node's loops permuted so that no "
                                       "accumulator recurs at distance 1 (II 1) and streams in the matching order";
            s.apply = [](HalideProgram &) {};
            s.algorithm = [kernel, opt](const std::string &size) { return streamhls_program(kernel, size, opt); };
            out.push_back(s);
        }
    }
    return out;
}

}  // namespace flowhls
