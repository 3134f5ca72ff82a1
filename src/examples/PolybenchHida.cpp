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

std::vector<int> sizes(const std::string &size, std::vector<int> mini, std::vector<int> small,
                       std::vector<int> medium) {
    return size == "mini" ? mini : size == "small" ? small : medium;
}

// gesummv (HIDA): j outermost, i split by 10 with the 10 rows unrolled (II 1: no recurrence at
// distance 1); A and B partitioned on rows, tmp and y cyclic by 10 on i. tmp and y are one
// output, banked as HIDA's 20 banks: ty(c * 10 + i % 10, i / 10) is tmp[i] (c = 0) or y[i]
// (c = 1). The corpus's test accumulates into tmp and y as given (ty_in), which the first j
// reads; every loop is a reduction variable, in HIDA's order.
HalideProgram gesummv(const std::string &size) {
    int nn = sizes(size, {30}, {90}, {250})[0];
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
    for (const ImageParam &in : {a, b}) {
        p.directives.interface(in, InterfaceMode::Bram).partition(in, 2, PartitionKind::Complete);
    }
    p.directives.interface(x, InterfaceMode::Bram)
        .interface(ty_in, InterfaceMode::Bram)
        .partition(ty_in, 0, PartitionKind::Complete)
        .interface(ty, InterfaceMode::Bram)
        .partition(ty.name(), 0, PartitionKind::Complete)
        .dataflow(p.name, false);
    return p;
}

HalideProgram hida_program(const std::string &kernel, const std::string &size) {
    if (kernel == "gesummv") return gesummv(size);
    throw std::logic_error("no HIDA design of " + kernel);
}

}  // namespace

std::vector<ExampleSchedule> hida_schedules(const std::string &kernel) {
    std::vector<ExampleSchedule> out;
    for (const char *k : {"gesummv"}) {
        if (kernel != k) continue;
        ExampleSchedule s;
        s.name = "hida";
        s.description = "the HIDA design: loops permuted and tiled, the tile unrolled, arrays partitioned into banks "
                        "(two-dimensional arguments passed bank by bank)";
        s.apply = [](HalideProgram &) {};
        s.algorithm = [kernel](const std::string &size) { return hida_program(kernel, size); };
        out.push_back(s);
    }
    return out;
}

}  // namespace flowhls
