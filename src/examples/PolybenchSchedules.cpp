// Schedules of the pb_* examples: baseline (PolyBench as written, Vitis defaults).
#include "examples/PolybenchSchedules.h"

namespace flowhls {

using Halide::Func;
using Halide::RVar;
using Halide::Var;

namespace {

// Every kernel argument on a block-RAM port (Vitis's ap_memory default for array arguments)
// and the top function sequential, as the corpus's plain Vitis sources are.
void plain_vitis(HalideProgram &p) {
    for (const ProgramInput &in : p.inputs) p.directives.interface(in.param.name(), InterfaceMode::Bram);
    for (const ProgramOutput &out : p.outputs) p.directives.interface(out.func, InterfaceMode::Bram);
    p.directives.dataflow(p.name, false);
}

// The i-th reduction variable of update `u` of `f`.
RVar rvar(Func f, int u, int i) { return RVar(f.update(u).get_schedule().rvars().at(i).var); }

// Baseline loop orders where Halide's default (pure definition, then each update with its
// reduction variables innermost) is not PolyBench's.
void baseline_order(const std::string &kernel, HalideProgram &p) {
    schedule_all_root(p);
    if (kernel == "gemm") {
        // for i: for k: for j (j innermost: C[i][j] is not a recurrence of the pipeline).
        Func out = stage(p, "C_out");
        out.update(0).reorder(out.args()[0], rvar(out, 0, 0), out.args()[1]);
    } else if (kernel == "bicg") {
        // for i: for j: {s[j] += ..; q[i] += ..}: the channel dimension innermost, unrolled.
        Func sq = stage(p, "sq");
        Var c = sq.args()[1];
        sq.update(0).reorder(c, rvar(sq, 0, 0), rvar(sq, 0, 1)).unroll(c);
    } else if (kernel == "gesummv") {
        Func acc = stage(p, "tmp_y");
        acc.update(0).unroll(rvar(acc, 0, 0));
    } else if (kernel == "doitgen") {
        Func out = stage(p, "A_out");
        stage(p, "sum").compute_at(out, out.args()[1]);
    }
}

}  // namespace

std::vector<ExampleSchedule> polybench_schedules(const std::string &kernel) {
    std::vector<ExampleSchedule> s;
    s.push_back({"baseline",
                 "PolyBench's loop nest, innermost loops pipelined, arrays on block-RAM ports, no dataflow (the "
                 "corpus's plain Vitis HLS design)",
                 [kernel](HalideProgram &p) {
                     baseline_order(kernel, p);
                     plain_vitis(p);
                 }});
    for (ExampleSchedule &e : streamhls_schedules(kernel)) s.push_back(e);
    for (ExampleSchedule &e : hida_schedules(kernel)) s.push_back(e);
    for (ExampleSchedule &e : hida_mm_schedules(kernel)) s.push_back(e);
    return s;
}

}  // namespace flowhls
