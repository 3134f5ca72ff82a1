// Bundled tensor kernels: gemm, 2mm (PolyBench), conv_relu (a 3x3 convolution layer).
#include "examples/ExampleRegistry.h"

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Var;

namespace {

// Computes `producer` once per row of `consumer` (its storage becomes a row buffer).
void per_row(const HalideProgram &p, const std::string &consumer, const std::vector<std::string> &names) {
    Func c = stage(p, consumer);
    Var y = c.args()[1];
    for (const std::string &n : names) stage(p, n).compute_at(c, y);
}

ExampleDef gemm() {
    ExampleDef d;
    d.name = "gemm";
    d.description = "PolyBench gemm C = alpha*A*B + beta*C on 32x32 float matrices";
    d.algorithm = [](const std::string &) {
        const int n = 32;
        ImageParam a(Halide::Float(32), 2, "A"), b(Halide::Float(32), 2, "B"), c(Halide::Float(32), 2, "C");
        Var i("i"), j("j");
        RDom k(0, n, "k");
        Func prod("prod"), out("C_out");
        prod(i, j) = 0.0f;
        prod(i, j) += a(k, j) * b(i, k);
        out(i, j) = 1.5f * prod(i, j) + 1.2f * c(i, j);
        return HalideProgram{"gemm",
                             {{a, {n, n}, -1.0, 1.0}, {b, {n, n}, -1.0, 1.0}, {c, {n, n}, -1.0, 1.0}},
                             {{out, {n, n}}}};
    };
    d.schedules = {
        {"root", "the product computed at the root (k innermost), then scaled", schedule_all_root},
        {"linebuffer", "one row of the product computed per output row",
         [](const HalideProgram &p) { per_row(p, "C_out", {"prod"}); }},
        {"permuted", "product at the root with the k loop moved outside the i loop (loop order permutation)",
         [](const HalideProgram &p) {
             Func prod = stage(p, "prod");
             prod.compute_root();
             Halide::RVar k(prod.update().get_schedule().rvars().at(0).var);
             prod.update().reorder(prod.args()[0], k, prod.args()[1]);
         }},
        {"hls_unroll",
         "product at the root; HLS directives: the k loop unrolled completely (the i loop pipelined), A and B on "
         "bram ports partitioned so a row of A and a column of B are read at once",
         [](HalideProgram &p) {
             Func prod = stage(p, "prod");
             prod.compute_root();
             Halide::RVar k(prod.update().get_schedule().rvars().at(0).var);
             std::string a = p.inputs.at(0).param.name(), b = p.inputs.at(1).param.name();
             p.directives.unroll(prod, k)
                 .interface(a, InterfaceMode::Bram)
                 .interface(b, InterfaceMode::Bram)
                 .partition(a, 0, PartitionKind::Complete)
                 .partition(b, 1, PartitionKind::Complete);
         }},
        {"unrolled",
         "product at the root, the k reduction split by 4 and the inner part unrolled by Halide; A and B on bram "
         "ports (their partitions are inferred)",
         [](HalideProgram &p) {
             Func prod = stage(p, "prod");
             prod.compute_root();
             Halide::RVar k(prod.update().get_schedule().rvars().at(0).var), ko("ko"), ki("ki");
             prod.update().split(k, ko, ki, 4).unroll(ki);
             for (size_t i = 0; i < 2; i++) p.directives.interface(p.inputs.at(i).param.name(), InterfaceMode::Bram);
         }},
        {"vectorized", "product at the root, i vectorized by 8 (bambu maps vectors; vitis refuses it)",
         [](const HalideProgram &p) {
             Func prod = stage(p, "prod");
             prod.compute_root().vectorize(prod.args()[0], 8);
             prod.update().vectorize(prod.args()[0], 8);
         }},
    };
    return d;
}

ExampleDef two_mm() {
    ExampleDef d;
    d.name = "2mm";
    d.description = "PolyBench 2mm D = alpha*A*B*C + beta*D on 24x24 float matrices";
    d.algorithm = [](const std::string &) {
        const int n = 24;
        ImageParam a(Halide::Float(32), 2, "A"), b(Halide::Float(32), 2, "B"), c(Halide::Float(32), 2, "C"),
            dm(Halide::Float(32), 2, "D");
        Var i("i"), j("j");
        RDom k(0, n, "k"), l(0, n, "l");
        Func tmp("tmp"), acc("acc"), out("D_out");
        tmp(i, j) = 0.0f;
        tmp(i, j) += 1.5f * a(k, j) * b(i, k);
        acc(i, j) = 0.0f;
        acc(i, j) += tmp(l, j) * c(i, l);
        out(i, j) = acc(i, j) + 1.2f * dm(i, j);
        return HalideProgram{"mm2",
                             {{a, {n, n}, -1.0, 1.0}, {b, {n, n}, -1.0, 1.0}, {c, {n, n}, -1.0, 1.0},
                              {dm, {n, n}, -1.0, 1.0}},
                             {{out, {n, n}}}};
    };
    d.schedules = {
        {"root", "both products computed at the root", schedule_all_root},
        {"linebuffer", "one row of each product computed per output row",
         [](const HalideProgram &p) { per_row(p, "D_out", {"tmp", "acc"}); }},
    };
    return d;
}

ExampleDef conv_relu() {
    ExampleDef d;
    d.name = "conv_relu";
    d.description = "3x3 convolution (4 -> 8 channels, 18x18 float input) + bias + ReLU";
    d.algorithm = [](const std::string &) {
        const int w = 16, h = 16, cin = 4, cout = 8;
        ImageParam input(Halide::Float(32), 3, "input"), weights(Halide::Float(32), 4, "weights"),
            bias(Halide::Float(32), 1, "bias");
        Var x("x"), y("y"), c("c");
        RDom r(0, 3, 0, 3, 0, cin, "r");
        Func conv("conv"), relu("relu");
        conv(x, y, c) = bias(c);
        conv(x, y, c) += weights(r.x, r.y, r.z, c) * input(x + r.x, y + r.y, r.z);
        relu(x, y, c) = Halide::max(conv(x, y, c), 0.0f);
        return HalideProgram{"conv_relu",
                             {{input, {w + 2, h + 2, cin}, -1.0, 1.0},
                              {weights, {3, 3, cin, cout}, -0.5, 0.5},
                              {bias, {cout}, -0.5, 0.5}},
                             {{relu, {w, h, cout}}}};
    };
    d.schedules = {
        {"root", "convolution computed at the root, ReLU as a second filter", schedule_all_root},
        {"linebuffer", "one row of the convolution computed per output row",
         [](const HalideProgram &p) { per_row(p, "relu", {"conv"}); }},
        {"parallel", "output channels computed in parallel (bambu maps it to omp for; vitis refuses it)",
         [](const HalideProgram &p) {
             Func relu = stage(p, "relu");
             relu.parallel(relu.args()[2]);
             stage(p, "conv").compute_at(relu, relu.args()[2]);
         }},
    };
    return d;
}

}  // namespace

std::vector<ExampleDef> tensor_examples() { return {gemm(), two_mm(), conv_relu()}; }

}  // namespace flowhls
