// The design space of a program: per filter, the knobs the exploration turns; a point's schedule.
#include "dse/Space.h"
#include "dse/GraphLoops.h"
#include "frontend/halide/Intake.h"
#include "support/Names.h"
#include "transforms/LegalizeNames.h"

#include <algorithm>
#include <numeric>
#include <map>
#include <set>

namespace flowhls::dse {

namespace {

using Halide::Internal::Dim;
using Halide::Internal::Function;

// The loop variable as the co-language names it (`k$x` -> `k`).
std::string loop_var(const std::string &var) {
    const std::string rdom = "$x";
    if (var.size() > rdom.size() && var.compare(var.size() - rdom.size(), rdom.size(), rdom) == 0) {
        return var.substr(0, var.size() - rdom.size());
    }
    return var;
}

// The dims of stage `s` of `f`, innermost first, without Halide's outermost marker.
std::vector<Dim> stage_dims(const Function &f, int s) {
    const auto &all = s == 0 ? f.definition().schedule().dims() : f.update(s - 1).schedule().dims();
    std::vector<Dim> out;
    for (const Dim &d : all) {
        if (d.var != Halide::Var::outermost().name()) out.push_back(d);
    }
    return out;
}

// 1, then the divisors of `trip` in (1, kMaxUnroll] (the jam factors: a jam is a Halide split).
std::vector<int64_t> divisor_factors(int64_t trip) {
    std::vector<int64_t> f = {1};
    for (int64_t d = 2; d <= std::min<int64_t>(trip, kMaxUnroll); d++) {
        if (trip % d == 0) f.push_back(d);
    }
    return f;
}

}  // namespace

std::vector<int64_t> unroll_factors(int64_t trip) {
    std::vector<int64_t> f = {1};
    const int64_t top = std::min<int64_t>(trip - 1, kMaxUnroll);
    for (int64_t d = 2; d <= std::min<int64_t>(trip, kMaxUnroll); d++) {
        if (trip % d == 0) {
            f.push_back(d);
            continue;
        }
        if (d > top) continue;
        int64_t iterations = (trip + d - 1) / d;
        bool smallest = (trip + d - 2) / (d - 1) > iterations;  // d - 1 copies need more iterations
        bool little_waste = (iterations * d - trip) * kNonDivisorWaste <= trip;
        // Steps of at least 20% over the last factor, and no divisor within such a step above.
        auto step = [](int64_t a, int64_t b) { return b * kNonDivisorStepDen >= a * kNonDivisorStepNum; };
        int64_t next = d + 1;
        while (next <= std::min<int64_t>(trip, kMaxUnroll) && trip % next != 0) next++;
        bool gap = next > std::min<int64_t>(trip, kMaxUnroll) || step(d, next);
        if (smallest && little_waste && step(f.back(), d) && gap) f.push_back(d);
    }
    return f;
}

namespace {

// The schedule key of Func `func` (a base name): `alias` when the program maps it to `func`,
// else the name.
std::string key_of(const HalideProgram &program, const std::string &func, const std::string &alias) {
    auto it = program.directive_aliases.find(alias);
    bool aliased = !alias.empty() && it != program.directive_aliases.end() && halide_base_name(it->second) == func;
    return aliased ? alias : func;
}

// Trip count of `var` in stage `stage` of `func` among `loops` (0: not a loop there).
int64_t trip_of(const std::vector<GraphLoop> &loops, const std::string &func, int stage, const std::string &var) {
    for (const GraphLoop &l : loops) {
        if (l.func == func && l.stage == stage && l.var == var) return l.trip;
    }
    return 0;
}

// A reorder of stage `stage` of the Func keyed `func` to `loops` (innermost first).
LoopTransform reorder_of(const std::string &func, int stage, std::vector<std::string> loops) {
    LoopTransform t;
    t.kind = LoopTransform::Kind::Reorder;
    t.func = func;
    t.stage = stage;
    t.loops = std::move(loops);
    return t;
}

// The compute_at of the Func keyed `func` at loop `loop` of the Func keyed `at`.
LoopTransform compute_at_of(const std::string &func, const std::string &at, const std::string &loop) {
    LoopTransform t;
    t.kind = LoopTransform::Kind::ComputeAt;
    t.func = func;
    t.at_func = at;
    t.at_loop = loop;
    t.stage = -1;
    return t;
}

void add_helper_jam(OrderOption &o, const Function &f, const std::string &key, const Function &acc,
                    const std::string &acc_key, int acc_stage, const std::string &at,
                    const std::vector<GraphLoop> &loops);
std::vector<std::string> jam_copy_inputs(const HalideProgram &program, const std::set<std::string> &offchip,
                                         const Function &acc, const std::string &var, int only_stage = -1,
                                         std::vector<std::string> *readers = nullptr);
void add_block_copy(OrderOption &o, const HalideProgram &program, const std::set<std::string> &offchip,
                    const Function &acc, const std::string &acc_key, int acc_stage, const LoopTransform &order);

// The dims of stage `s` of `f` (base name `name`) that are loops among `loops`, innermost
// first: Halide drops a loop of one iteration (a 1x1 kernel's kx, ky; the 1x1 output of the
// QLinearConv a fused QDQ Gemm becomes), so no knob may name one. With `pure_in` set, the pure
// dims are kept when they are loops of stage 0 of `pure_in` instead (a helper computed per
// output element of its filter has no pure loops of its own).
std::vector<Dim> loop_dims(const Function &f, const std::string &name, int s, const std::vector<GraphLoop> &loops,
                           const std::string &pure_in = "") {
    std::vector<Dim> out;
    for (const Dim &d : stage_dims(f, s)) {
        bool in_filter = !pure_in.empty() && !d.is_rvar();
        if (trip_of(loops, in_filter ? pure_in : name, in_filter ? 0 : s, d.var) > 0) out.push_back(d);
    }
    return out;
}

// The accumulation of a filter whose loops are `loops`: the first Func of the filter with an
// update whose innermost loop is a reduction loop and that has a pure loop (null: none); its
// base name and the update's stage in `name`, `stage`.
const Function *find_accumulation(const std::map<std::string, Function> &funcs, const std::vector<GraphLoop> &loops,
                                  std::string &name, int &stage) {
    for (const GraphLoop &l : loops) {
        auto it = funcs.find(l.func);
        if (it == funcs.end() || l.stage == 0) continue;
        std::vector<Dim> dims;  // the reduction loops that are loops, then every pure dim
        for (const Dim &d : stage_dims(it->second, l.stage)) {
            if (!d.is_rvar() || trip_of(loops, it->first, l.stage, d.var) > 0) dims.push_back(d);
        }
        bool pure = false;
        for (const Dim &d : dims) pure = pure || !d.is_rvar();
        if (!dims.empty() && dims[0].is_rvar() && pure) {
            name = it->first;
            stage = l.stage;
            return &it->second;
        }
    }
    return nullptr;
}

// The knobs of filter `filter` whose loops are `loops`.
// `funcs` is keyed by base name (functions_by_base_name), as are filters and `loops`.
NodeKnobs node_knobs(const HalideProgram &program, const std::map<std::string, Function> &funcs,
                     const std::string &filter, const std::vector<GraphLoop> &loops,
                     const std::set<std::string> &offchip) {
    NodeKnobs n;
    n.filter = filter;
    auto origin = program.onnx_origins.find(filter);
    std::string node = origin == program.onnx_origins.end() ? "" : origin->second.node;
    n.key = key_of(program, filter, node);
    auto fit = funcs.find(filter);
    std::string acc_name;  // the accumulation's base name
    int acc_stage = 0;
    const Function *acc = find_accumulation(funcs, loops, acc_name, acc_stage);
    OrderOption plain;
    plain.name = "default";
    if (acc) {
        std::string acc_key = acc_name == filter ? n.key : key_of(program, acc_name, node + "#acc");
        std::vector<Dim> dims = loop_dims(*acc, acc_name, acc_stage, loops, acc_name == filter ? "" : filter);
        plain.unroll_loop = loop_var(dims[0].var);
        plain.unroll_keys = {acc_key};
        plain.unroll_trip = trip_of(loops, acc_name, acc_stage, dims[0].var);
        plain.factors = unroll_factors(plain.unroll_trip);
        n.orders.push_back(plain);
        // The innermost pure loop p, moved inside the reduction loops.
        size_t p = 0;
        while (p < dims.size() && dims[p].is_rvar()) p++;
        if (p == dims.size()) return n;
        std::string pv = dims[p].var;
        OrderOption outside;
        outside.name = "reduction outside";
        int64_t trip = trip_of(loops, acc_name, acc_stage, pv);
        bool legal = true;
        if (acc_name != filter) {
            // A helper computed inside the filter: compute it at the loop enclosing p, so that
            // it covers p's whole range (the filter's own loop p copies it out).
            // p must be the filter's first argument that is a loop (a fused Gemm's `co` after
            // `ox`, `oy` of trip 1); the helper is computed at the next argument.
            const std::vector<std::string> args = fit == funcs.end() ? std::vector<std::string>() : fit->second.args();
            size_t a = 0;
            while (a < args.size() && trip_of(loops, filter, 0, args[a]) == 0) a++;
            legal = a + 1 < args.size() && args[a] == pv;
            if (legal) {
                outside.transforms.push_back(compute_at_of(acc_key, n.key, args[a + 1]));
                trip = trip_of(loops, filter, 0, pv);
                int64_t rows = trip_of(loops, filter, 0, args[a + 1]);
                if (a + 2 < args.size() && rows > 1 && trip * rows <= kMaxBlockWords) outside.block_at = args[a + 2];
            }
        }
        LoopTransform order;
        order.kind = LoopTransform::Kind::Reorder;
        order.func = acc_key;
        order.stage = acc_stage;
        // A reduction dim the program unrolls completely (no loop in the lowered code: pb_gesummv's
        // two sums) stays inside p, so p's body computes both and the nest around p stays perfect
        // (two loops over p one after the other, each restarting its pipeline per iteration of the
        // reduction loop outside, took 24,553 cycles at u10 where one takes 13,803: estimates).
        for (const Dim &d : stage_dims(*acc, acc_stage)) {
            if (d.is_rvar() && d.for_type == Halide::Internal::ForType::Unrolled) order.loops.push_back(loop_var(d.var));
        }
        order.loops.push_back(loop_var(pv));
        // Every other reduction loop inside p, one-iteration ones too (the order the program wrote).
        for (const Dim &d : stage_dims(*acc, acc_stage)) {
            if (!d.is_rvar()) break;
            if (d.for_type != Halide::Internal::ForType::Unrolled) order.loops.push_back(loop_var(d.var));
        }
        outside.transforms.push_back(order);
        outside.unroll_loop = loop_var(pv);
        outside.unroll_keys = {acc_key};
        if (acc_name != filter) outside.unroll_keys.push_back(n.key);
        outside.unroll_trip = trip;
        outside.factors = unroll_factors(trip);
        if (legal && acc_name != filter) {
            add_helper_jam(outside, fit->second, n.key, *acc, acc_key, acc_stage, outside.transforms[0].at_loop, loops);
            if (!outside.jams.empty()) {
                outside.jam_copy_inputs =
                    jam_copy_inputs(program, offchip, *acc, outside.jam_loop, -1, &outside.jam_copy_readers);
            }
            if (outside.jams.empty() && outside.block_at.empty()) {
                add_block_copy(outside, program, offchip, *acc, acc_key, acc_stage, order);
            }
        }
        if (legal && trip > 1) n.orders.push_back(outside);
        return n;
    }
    // No accumulation: the innermost loop of the filter's last stage.
    if (fit == funcs.end()) return n;
    int last = static_cast<int>(fit->second.updates().size());
    std::vector<Dim> dims = loop_dims(fit->second, filter, last, loops);
    if (dims.empty()) return n;
    plain.unroll_loop = loop_var(dims[0].var);
    plain.unroll_keys = {n.key};
    plain.unroll_trip = trip_of(loops, filter, last, dims[0].var);
    plain.factors = unroll_factors(plain.unroll_trip);
    n.orders.push_back(plain);
    return n;
}


// The loops of `dims` (innermost first, co-language names) after `reorder` (a Halide reorder
// of a subset: the positions of its loops are filled by them in its order).
std::vector<std::string> reordered(const std::vector<Dim> &dims, const LoopTransform *reorder) {
    std::vector<std::string> names;
    for (const Dim &d : dims) names.push_back(loop_var(d.var));
    if (!reorder) return names;
    std::vector<size_t> slots;
    for (size_t i = 0; i < names.size(); i++) {
        if (std::find(reorder->loops.begin(), reorder->loops.end(), names[i]) != reorder->loops.end()) slots.push_back(i);
    }
    if (slots.size() != reorder->loops.size()) return {};
    for (size_t i = 0; i < slots.size(); i++) names[slots[i]] = reorder->loops[i];
    return names;
}

// Whether some stage of `f` has a loop named `var` (co-language name).
bool has_loop(const Function &f, const std::string &var) {
    for (int s = 0; s <= static_cast<int>(f.updates().size()); s++) {
        for (const Dim &d : stage_dims(f, s)) {
            if (loop_var(d.var) == var) return true;
        }
    }
    return false;
}

// Sets the jam of `o`: loop `names[i]` (trip `trip`) of stage `stage` of `f` (key `key`,
// loops `names` innermost first) split into `VARo`, `VARi`, the point loop innermost; false
// (and `o` unchanged) when the trip has no divisor in (1, kMaxUnroll] or a name is taken.
bool set_jam(OrderOption &o, const Function &f, const std::string &key, int stage, std::vector<std::string> names,
             size_t i, int64_t trip) {
    std::vector<int64_t> jams = divisor_factors(trip);
    std::string outer = names[i] + "o", inner = names[i] + "i";
    if (jams.size() < 2 || has_loop(f, outer) || has_loop(f, inner)) return false;
    o.jam_key = key;
    o.jam_stage = stage;
    o.jam_loop = names[i];
    o.jam_outer = outer;
    o.jam_inner = inner;
    names[i] = outer;
    o.jam_order = {inner};
    o.jam_order.insert(o.jam_order.end(), names.begin(), names.end());
    o.jams = jams;
    return true;
}

// The jam of `o`'s initialization (stage 0 of `f`, reordered by `reorder` when not null):
// OrderOption::jam_init_order, when stage 0 has the jam loop. A pure definition: its elements
// are independent, so any jam of it is legal.
void set_init_jam(OrderOption &o, const Function &f, const LoopTransform *reorder) {
    std::vector<std::string> names = reordered(stage_dims(f, 0), reorder);
    auto it = std::find(names.begin(), names.end(), o.jam_loop);
    if (it == names.end()) return;
    *it = o.jam_outer;
    names.insert(names.begin(), o.jam_inner);
    o.jam_init_order = names;
}

// The unroll-and-jam knob of order `o` of filter Func `f` (loops `loops`), when it has one.
void add_jam(OrderOption &o, const Function &f, const std::string &key, const std::vector<GraphLoop> &loops) {
    if (o.unroll_keys != std::vector<std::string>{key}) return;
    const LoopTransform *reorder = nullptr, *init_reorder = nullptr;
    for (const LoopTransform &t : o.transforms) {
        if (t.kind == LoopTransform::Kind::Reorder && t.func == key) reorder = &t;
        if (t.kind == LoopTransform::Kind::Reorder && t.func == key && t.stage == 0) init_reorder = &t;
    }
    for (int s = static_cast<int>(f.updates().size()); s >= 0; s--) {
        if (reorder && reorder->stage != s) continue;
        std::vector<Dim> dims = stage_dims(f, s);
        std::vector<std::string> names = reordered(dims, reorder);
        if (names.empty() || names[0] != o.unroll_loop) continue;
        for (size_t i = 1; i < names.size(); i++) {
            auto d = std::find_if(dims.begin(), dims.end(), [&](const Dim &x) { return loop_var(x.var) == names[i]; });
            if (d == dims.end() || d->is_rvar()) continue;
            // Loops are keyed by the Func's base name (a Func built twice in one process is `NAME$1`).
            if (!set_jam(o, f, key, s, names, i, trip_of(loops, halide_base_name(f.name()), s, d->var))) return;
            if (s > 0) set_init_jam(o, f, init_reorder);
            // The split form moves copies of a pure loop only (a reduction loop's copies would
            // chain its accumulation).
            std::string outer = o.unroll_loop + "o", inner = o.unroll_loop + "i";
            bool taken = has_loop(f, outer) || has_loop(f, inner) || outer == o.jam_outer || inner == o.jam_inner ||
                         outer == o.jam_inner || inner == o.jam_outer;
            bool pure = std::any_of(dims.begin(), dims.end(),
                                    [&](const Dim &x) { return loop_var(x.var) == o.unroll_loop && !x.is_rvar(); });
            if (!taken && pure) {
                o.unroll_outer = outer;
                o.unroll_inner = inner;
            }
            return;
        }
        return;
    }
}

// The shape of `func` when the program writes it as an output (empty: not an output).
std::vector<int> output_shape(const HalideProgram &program, const std::string &func) {
    for (const ProgramOutput &out : program.outputs) {
        if (halide_base_name(out.func.name()) == func) return out.shape;
    }
    return {};
}

// 1, then the divisors of `trip` in (1, kMaxCopies] (a reduction jam's limit).
std::vector<int64_t> fill_factors(int64_t trip) {
    std::vector<int64_t> f = {1};
    for (int64_t d = 2; d <= std::min<int64_t>(trip, kMaxCopies); d++) {
        if (trip % d == 0) f.push_back(d);
    }
    return f;
}

// The reduction jam of node `n` (OrderOption::reduction_jam), when its only order is the
// default one of an update without a pure loop, the program's output `f`, whose two innermost
// loops r0, r1 are reduction loops that both index its left-hand side. The jam loop is the one
// of r0, r1 whose trip has the larger divisor within the fill's limit (r1 on a tie), the
// pipelined loop the other.
void add_reduction_jam(NodeKnobs &n, const HalideProgram &program, const Function &f,
                       const std::vector<GraphLoop> &loops) {
    if (n.orders.size() != 1 || !n.orders[0].jams.empty() || f.updates().empty()) return;
    OrderOption &o = n.orders[0];
    const std::string base = halide_base_name(f.name());
    const int stage = static_cast<int>(f.updates().size());
    std::vector<Dim> all = stage_dims(f, stage), dims = loop_dims(f, base, stage, loops);
    std::vector<int> shape = output_shape(program, base);
    const std::vector<Halide::Expr> &lhs = f.updates().back().args();
    if (dims.size() < 2 || !dims[0].is_rvar() || !dims[1].is_rvar() || shape.size() != lhs.size()) return;
    auto uses = [&](const std::string &var) {
        return std::any_of(lhs.begin(), lhs.end(),
                           [&](const Halide::Expr &e) { return Halide::Internal::expr_uses_var(e, var); });
    };
    if (!uses(dims[0].var) || !uses(dims[1].var)) return;
    // The program's own partitions of the Func stay (ours would contradict them).
    for (const Directive &d : program.directives.directives()) {
        if (d.kind == Directive::Kind::Partition && (d.target == base || d.target == n.key)) return;
    }
    std::vector<int64_t> jams0 = fill_factors(trip_of(loops, base, stage, dims[0].var));
    std::vector<int64_t> jams1 = fill_factors(trip_of(loops, base, stage, dims[1].var));
    const size_t jd = jams1.back() >= jams0.back() ? 1 : 0;  // the jam loop's index in dims
    const std::string jv = dims[jd].var;
    std::vector<OrderOption::Partition> parts;
    bool cyclic = false;
    for (size_t d = 0; d < lhs.size(); d++) {
        const auto *v = lhs[d].as<Halide::Internal::Variable>();
        auto unrolled = std::find_if(all.begin(), all.end(), [&](const Dim &x) {
            return v && !x.is_rvar() && x.var == v->name && x.for_type == Halide::Internal::ForType::Unrolled;
        });
        if (Halide::Internal::expr_uses_var(lhs[d], jv)) {
            parts.push_back({static_cast<int>(d), shape[d], false});
            cyclic = true;
        } else if (unrolled != all.end()) {
            parts.push_back({static_cast<int>(d), shape[d], true});
        }
    }
    std::vector<std::string> names = reordered(all, nullptr);
    const std::string r0 = loop_var(dims[0].var), r1 = loop_var(dims[1].var), j = loop_var(jv);
    auto i0 = std::find(names.begin(), names.end(), r0), i1 = std::find(names.begin(), names.end(), r1);
    const std::vector<int64_t> &jams = jd == 1 ? jams1 : jams0;
    if (!cyclic || i1 < i0 || has_loop(f, j + "o") || has_loop(f, j + "i") || jams.size() < 2) return;
    o.reduction_jam = true;
    o.jam_key = n.key;
    o.jam_stage = stage;
    o.jam_loop = j;
    o.jam_outer = j + "o";
    o.jam_inner = j + "i";
    o.jam_order = {o.jam_inner};
    if (jd == 1) {
        // [r1i, the loops up to r1 (r0 pipelined), r1o, the rest]: the program's order.
        names[i1 - names.begin()] = o.jam_outer;
        o.jam_order.insert(o.jam_order.end(), names.begin(), names.end());
    } else {
        // [r0i, the loops inside r0 (unrolled by the program), the loops up to r1, r0o, the rest].
        o.jam_order.insert(o.jam_order.end(), names.begin(), i0);
        o.jam_order.insert(o.jam_order.end(), i0 + 1, i1 + 1);
        o.jam_order.push_back(o.jam_outer);
        o.jam_order.insert(o.jam_order.end(), i1 + 1, names.end());
    }
    o.jams = jams;
    o.jam_partitions = parts;
    o.unroll_loop = jd == 1 ? r0 : r1;
    o.factors = {1};
    // A constant initialization whose innermost loop indexes the cyclic dimension.
    std::vector<Dim> init = stage_dims(f, 0);
    bool constant = std::all_of(f.definition().values().begin(), f.definition().values().end(),
                                [](const Halide::Expr &v) { return Halide::Internal::is_const(v); });
    for (const OrderOption::Partition &p : parts) {
        if (constant && !p.complete && !init.empty() && static_cast<size_t>(p.dim) < f.args().size() &&
            init[0].var == f.args()[p.dim]) {
            o.jam_init_unroll = loop_var(init[0].var);
        }
    }
}

// The per-block weight copy of the "reduction outside" order `o` of helper `acc` (key
// `acc_key`, update stage `acc_stage`, reordered by `order`: p innermost, the reductions next;
// OrderOption::block_copy_rows), when that stage alone reads inputs in `offchip` indexed by p,
// the names `po`, `pi` are free and some unroll factor U has kBlockCopyRows x U dividing p's
// trip (`o.unroll_trip`). `o` is unchanged otherwise.
void add_block_copy(OrderOption &o, const HalideProgram &program, const std::set<std::string> &offchip,
                    const Function &acc, const std::string &acc_key, int acc_stage, const LoopTransform &order) {
    std::vector<std::string> names = reordered(stage_dims(acc, acc_stage), &order);
    if (names.empty() || names[0] != o.unroll_loop || o.unroll_trip <= 1) return;
    const std::string p = o.unroll_loop, outer = p + "o", inner = p + "i";
    if (has_loop(acc, outer) || has_loop(acc, inner)) return;
    std::vector<std::string> readers;
    std::vector<std::string> inputs = jam_copy_inputs(program, offchip, acc, p, acc_stage, &readers);
    if (inputs.empty()) return;
    std::vector<int64_t> factors;
    for (int64_t f : o.factors) {
        if (f <= kMaxBlockCopyUnroll && o.unroll_trip % (kBlockCopyRows * f) == 0) factors.push_back(f);
    }
    if (factors.empty() || factors[0] != 1) return;
    // [p_i, the reductions (order's loops after p), p_o, the stage's other loops in their
    // order] (a fused QDQ Gemm's one-iteration ox, oy sit between its reductions: outside p_o).
    o.jam_order = {inner};
    o.jam_order.insert(o.jam_order.end(), order.loops.begin() + 1, order.loops.end());
    o.jam_order.push_back(outer);
    for (const std::string &v : names) {
        if (std::find(order.loops.begin(), order.loops.end(), v) == order.loops.end()) o.jam_order.push_back(v);
    }
    o.jam_key = acc_key;
    o.jam_stage = acc_stage;
    o.jam_loop = p;
    o.jam_outer = outer;
    o.jam_inner = inner;
    o.jam_copy_inputs = inputs;
    o.jam_copy_readers = readers;
    o.block_copy_rows = kBlockCopyRows;
    o.factors = factors;
}

// The output-channel jam of order `o` of the filter Func `f` (key `key`, one pure stage)
// whose accumulation is the helper `acc` (key `acc_key`, update stage `acc_stage`) computed at
// f's loop `at`: the nearest loop of f outside `at` (a Conv's `co`), when the helper's stage
// has a pure loop of that name, its trip count has divisors in (1, kMaxUnroll] and the names
// `VARo`, `VARi` are free in f. The filter's loop is split and its point loop moved innermost,
// so the helper (computed at `at`, now inside the block loop) covers one block of the loop;
// the helper's own loop of that name is moved innermost and both are unrolled completely.
void add_helper_jam(OrderOption &o, const Function &f, const std::string &key, const Function &acc,
                    const std::string &acc_key, int acc_stage, const std::string &at,
                    const std::vector<GraphLoop> &loops) {
    if (!f.updates().empty()) return;
    std::vector<Dim> dims = stage_dims(f, 0);
    std::vector<std::string> names = reordered(dims, nullptr);
    auto at_it = std::find(names.begin(), names.end(), at);
    if (at_it == names.end() || at_it + 1 == names.end()) return;
    size_t i = static_cast<size_t>(at_it - names.begin()) + 1;
    const std::string var = names[i];
    const LoopTransform *reorder = nullptr;
    for (const LoopTransform &t : o.transforms) {
        if (t.kind == LoopTransform::Kind::Reorder && t.func == acc_key && t.stage == acc_stage) reorder = &t;
    }
    std::vector<Dim> acc_dims = stage_dims(acc, acc_stage);
    auto a = std::find_if(acc_dims.begin(), acc_dims.end(), [&](const Dim &x) { return loop_var(x.var) == var; });
    if (dims[i].is_rvar() || a == acc_dims.end() || a->is_rvar()) return;
    if (!set_jam(o, f, key, 0, names, i, trip_of(loops, halide_base_name(f.name()), 0, dims[i].var))) return;
    o.jam_helper_key = acc_key;
    o.jam_helper_stage = acc_stage;
    o.jam_helper_order = {var};
    for (const std::string &v : reordered(acc_dims, reorder)) {
        if (v != var) o.jam_helper_order.push_back(v);
    }
    o.jam_helper_init_order = {var};
    for (const std::string &v : reordered(stage_dims(acc, 0), nullptr)) {
        if (v != var) o.jam_helper_init_order.push_back(v);
    }
    if (o.jam_helper_init_order.size() < 2) o.jam_helper_init_order.clear();
}

std::vector<std::string> reader_vars(const Function &f, const std::string &callee);

// A pool's helper `acc` (stage `acc_stage` its window's reduction) in the "hwc" order of `f`
// (args [x, y, c, n]): computed at `f`'s x for all channels, its channel loop (the dimension
// `f` indexes with c) moved inside the window's loops, so the pipelined loop runs over the
// channels (no recurrence between iterations) instead of over the window per output. Added to
// o.transforms when the helper's stage has reduction loops and that channel dimension; the
// order's unroll is then that channel loop of the helper (all its stages), by the divisors of
// `channels` (its trip): U channels of a pixel compared per cycle.
void pool_channels_inside(OrderOption &o, const Function &f, const std::string &key, const Function &acc,
                          const std::string &acc_key, int acc_stage, const std::vector<std::string> &args,
                          int64_t channels) {
    // The Func's own name: Halide uniquifies a second import's names ("MaxPool_op$1").
    std::vector<std::string> called = reader_vars(f, acc.name());
    std::vector<std::string> pure = acc.args();
    if (called.size() != pure.size() || acc_stage < 1) return;
    std::string channel;
    for (size_t i = 0; i < called.size(); i++) {
        if (called[i] == args[2]) channel = loop_var(pure[i]);
    }
    if (channel.empty()) return;
    std::vector<std::string> order = {channel}, rest;
    bool found = false, reductions = false;
    for (const Dim &d : stage_dims(acc, acc_stage)) {
        std::string v = loop_var(d.var);
        found = found || (!d.is_rvar() && v == channel);
        reductions = reductions || d.is_rvar();
        if (d.is_rvar()) order.push_back(v);
        else if (v != channel) rest.push_back(v);
    }
    if (!found || !reductions) return;
    order.insert(order.end(), rest.begin(), rest.end());
    o.transforms = {compute_at_of(acc_key, key, args[0]), o.transforms.front(), reorder_of(acc_key, acc_stage, order)};
    if (channels <= 1) return;
    o.unroll_loop = channel;
    o.unroll_keys = {acc_key};
    o.unroll_trip = channels;
    o.factors = divisor_factors(channels);
}

// The names of `acc`'s pure loops that `f` (args `args`, innermost first) calls it with, in
// the order of `args` (a pool's helper `acc(d3, d2, d1, d0)` called as `acc(x, y, c, n)`: d3,
// d2, d1, d0); empty when a dimension is not called with one of `args`.
std::vector<std::string> helper_names(const Function &f, const Function &acc, const std::vector<std::string> &args) {
    std::vector<std::string> called = reader_vars(f, acc.name()), pure = acc.args(), h(args.size());
    if (called.size() != pure.size() || pure.size() != args.size()) return {};
    for (size_t i = 0; i < called.size(); i++) {
        auto k = std::find(args.begin(), args.end(), called[i]);
        if (k == args.end() || !h[k - args.begin()].empty()) return {};
        h[k - args.begin()] = loop_var(pure[i]);
    }
    return h;
}

// The order "hwc" of node `n` (loops `loops`), when its Func has 4 arguments [x, y, c, n] and
// one pure definition (build_space's contract): appended to n.orders.
void add_hwc_order(NodeKnobs &n, const HalideProgram &program, const std::map<std::string, Function> &funcs,
                   const std::vector<GraphLoop> &loops, const std::set<std::string> &offchip) {
    auto fit = funcs.find(n.filter);
    if (fit == funcs.end() || n.orders.empty()) return;
    const Function &f = fit->second;
    std::vector<std::string> args;
    for (const std::string &a : f.args()) args.push_back(loop_var(a));
    if (args.size() != 4 || !f.updates().empty()) return;
    std::vector<std::string> names = reordered(stage_dims(f, 0), nullptr), sorted = args;
    std::sort(names.begin(), names.end());
    std::sort(sorted.begin(), sorted.end());
    if (names != sorted) return;
    OrderOption o;
    o.name = "hwc";
    o.hwc = true;
    LoopTransform layout = reorder_of(n.key, 0, {args[2], args[0], args[1], args[3]});
    std::string acc_name;
    int acc_stage = 0;
    const Function *acc = find_accumulation(funcs, loops, acc_name, acc_stage);
    auto origin = program.onnx_origins.find(n.filter);
    // The helper's names of the filter's x, y, c, n, when the filter is a convolution (a Conv,
    // or a QLinearConv FuseQdq made of a QDQ Conv or Gemm, docs/quantization.md: the same names)
    // or a MaxPool (float, or FuseQdq's int8 one: its helper names them d3 ... d0), whose helper
    // computed per row serves a row of the filter. (Other pools' helpers are computed per pixel,
    // below.)
    std::vector<std::string> h;
    const std::string op = origin != program.onnx_origins.end() ? origin->second.op : "";
    if ((op == "Conv" || op == "QLinearConv") && acc && acc_name != n.filter && acc->args().size() == 4) h = args;
    if (op == "MaxPool" && acc && acc_name != n.filter && acc->args().size() == 4) h = helper_names(f, *acc, args);
    std::vector<Dim> dims = acc ? stage_dims(*acc, acc_stage) : std::vector<Dim>();
    std::vector<std::string> acc_loops;
    if (h.size() == 4) acc_loops = {h[0], h[2]};
    bool x = false, c = false;
    for (const Dim &d : dims) {
        x = x || (!d.is_rvar() && h.size() == 4 && loop_var(d.var) == h[0]);
        c = c || (!d.is_rvar() && h.size() == 4 && loop_var(d.var) == h[2]);
        if (d.is_rvar()) acc_loops.push_back(loop_var(d.var));
    }
    if (!x || !c || acc_loops.size() < 3 || origin == program.onnx_origins.end()) {
        // The reorder only (models/reduction_schedule.py --hwc); without a helper the channel
        // loop is unrolled. A helper (a pool's window) is computed at x for all channels, its
        // channel loop inside the window's loops (pool_channels_inside), when it has one; its
        // unroll is then the helper's channel loop.
        o.transforms = {layout};
        o.unroll_loop = args[2];
        o.unroll_keys = {n.key};
        o.unroll_trip = acc ? 0 : trip_of(loops, n.filter, 0, args[2]);
        // A float node without a helper follows its inputs' lanes (an int8 one would
        // requantize a lane each: 3 DSPs).
        if (!acc && f.output_types().size() == 1 && f.output_types()[0].is_float() && !has_loop(f, args[2] + "lo") &&
            !has_loop(f, args[2] + "li")) {
            o.lane_follows = true;
            o.lane_loop = args[2];
            o.lane_outer = args[2] + "lo";
            o.lane_inner = args[2] + "li";
        }
        o.factors = acc ? std::vector<int64_t>{1} : unroll_factors(o.unroll_trip);
        if (acc && origin != program.onnx_origins.end()) {
            std::string acc_key = key_of(program, acc_name, origin->second.node + "#acc");
            pool_channels_inside(o, f, n.key, *acc, acc_key, acc_stage, args, trip_of(loops, n.filter, 0, args[2]));
        }
        n.orders.push_back(o);
        return;
    }
    std::string acc_key = key_of(program, acc_name, origin->second.node + "#acc");
    for (const Dim &d : dims) {
        std::string v = loop_var(d.var);
        if (!d.is_rvar() && v != h[0] && v != h[2]) acc_loops.push_back(v);
    }
    // The helper computes a whole row of all channels per y, x innermost, then c, then the
    // reductions (the accumulation's recurrence distance is x's trip times c's).
    LoopTransform acc_order = reorder_of(acc_key, acc_stage, acc_loops);
    o.transforms = {compute_at_of(acc_key, n.key, args[1]), layout, acc_order};
    int64_t taps = 1;  // the reduction's terms per output
    for (const Dim &d : dims) {
        // No loop: one iteration (Halide drops it; LeNet-5's conv1 has one input channel).
        if (d.is_rvar()) taps *= std::max<int64_t>(trip_of(loops, acc_name, acc_stage, d.var), 1);
    }
    if (!has_loop(f, args[2] + "lo") && !has_loop(f, args[2] + "li")) {
        o.lane_taps = taps;
        o.lane_requantizes = op == "QLinearConv";
        o.lane_loop = args[2];
        o.lane_outer = args[2] + "lo";
        o.lane_inner = args[2] + "li";
    }
    o.unroll_loop = h[0];
    o.unroll_keys = {acc_key};
    o.unroll_trip = trip_of(loops, n.filter, 0, args[0]);
    o.factors = unroll_factors(o.unroll_trip);
    std::vector<std::string> after = reordered(dims, &acc_order);
    if (after.size() > 1 && after[1] == h[2] &&
        set_jam(o, *acc, acc_key, acc_stage, after, 1, trip_of(loops, n.filter, 0, args[2]))) {
        // The row's initialization takes the jam too: its J channels of a pixel in one
        // iteration (it ran OX x C iterations per row, as long as the MACs at a jam of 64).
        if (acc_stage > 0) set_init_jam(o, *acc, nullptr);
        // Weights in external memory: the block loop moves outside the reductions, so that each
        // block's J x Cin x KH x KW weights are contiguous and copied on chip once per block and
        // row (`in` at the helper's block loop), instead of J port reads per iteration.
        if (acc_stage == static_cast<int>(acc->updates().size())) {
            o.jam_copy_inputs = jam_copy_inputs(program, offchip, *acc, h[2], acc_stage, &o.jam_copy_readers);
        }
        if (!o.jam_copy_inputs.empty()) {
            size_t reductions = 0;
            for (const Dim &d : dims) reductions += d.is_rvar() ? 1 : 0;
            o.jam_order.erase(o.jam_order.begin() + 2);
            o.jam_order.insert(o.jam_order.begin() + 2 + static_cast<std::ptrdiff_t>(reductions), o.jam_outer);
            // Helper per map (Choice::map): computed at n, its block loop outside the row.
            if (std::find(o.jam_order.begin(), o.jam_order.end(), h[1]) != o.jam_order.end()) {
                o.map_at = args[3];
                o.map_row = h[1];
            }
        }
    }
    n.orders.push_back(o);
}

// The loop variable an index expression is, "" when it is not a plain variable.
std::string index_var(const Halide::Expr &e) {
    const auto *v = e.as<Halide::Internal::Variable>();
    return v ? loop_var(v->name) : "";
}

// Per dimension, the loop variable indexing Func `callee` in the first call to it in the
// last stage of `f` (empty when there is none).
std::vector<std::string> reader_vars(const Function &f, const std::string &callee) {
    class Calls : public Halide::Internal::IRVisitor {
    public:
        std::string callee;
        std::vector<std::string> vars;
        bool found = false;

    private:
        using IRVisitor::visit;
        void visit(const Halide::Internal::Call *op) override {
            if (!found && op->call_type == Halide::Internal::Call::Halide && op->name == callee) {
                found = true;
                for (const Halide::Expr &a : op->args) vars.push_back(index_var(a));
            }
            IRVisitor::visit(op);
        }
    } calls;
    calls.callee = callee;
    const Halide::Internal::Definition &d = f.updates().empty() ? f.definition() : f.updates().back();
    for (const Halide::Expr &v : d.values()) v.accept(&calls);
    return calls.vars;
}

// The input Func `g` views (input_viewed_by), or that a pure wrapper `g` of one call views (an
// int8 accumulation's centered weights `w - zero point`): its name, and in `reader` the
// wrapper's base name ("" when `g` is the view).
std::string viewed_input(const HalideProgram &program, const Function &g, std::string &reader) {
    reader.clear();
    std::string p = input_viewed_by(program, g);
    if (!p.empty() || !g.updates().empty()) return p;
    std::vector<Function> called = called_functions(g);  // g's one pure definition: its call sites
    if (called.size() != 1) return "";
    p = input_viewed_by(program, called[0]);
    if (!p.empty()) reader = halide_base_name(g.name());
    return p;
}

// The inputs of `program` in `offchip` (C identifiers) that a stage of `acc` reads (through a
// view of the input, input_viewed_by) with pure loop `var` as one index (a Conv's weights and
// bias), by parameter name. With `only_stage` >= 0: those stage `only_stage` reads and no other
// stage does (a copy computed inside that stage's loops serves no other stage).
std::vector<std::string> jam_copy_inputs(const HalideProgram &program, const std::set<std::string> &offchip,
                                         const Function &acc, const std::string &var, int only_stage,
                                         std::vector<std::string> *readers) {
    class Calls : public Halide::Internal::IRVisitor {
    public:
        std::vector<Function> indexed;  // Funcs called with `var` as an index
        std::vector<std::string> called;  // every Func called
        std::string var;

    private:
        using IRVisitor::visit;
        void visit(const Halide::Internal::Call *op) override {
            if (op->call_type == Halide::Internal::Call::Halide && op->func.defined()) {
                called.push_back(op->name);
                for (const Halide::Expr &a : op->args) {
                    if (index_var(a) == var) indexed.emplace_back(op->func);
                }
            }
            IRVisitor::visit(op);
        }
    } calls, others;
    calls.var = var;
    for (int s = 0; s <= static_cast<int>(acc.updates().size()); s++) {
        const Halide::Internal::Definition &d = s == 0 ? acc.definition() : acc.updates()[s - 1];
        for (const Halide::Expr &v : d.values()) v.accept(only_stage < 0 || s == only_stage ? &calls : &others);
    }
    std::vector<std::string> out;
    for (const Function &g : calls.indexed) {
        std::string reader;
        std::string p = viewed_input(program, g, reader);
        bool elsewhere = std::find(others.called.begin(), others.called.end(), g.name()) != others.called.end();
        if (!p.empty() && !elsewhere && offchip.count(c_identifier(p)) && std::find(out.begin(), out.end(), p) == out.end()) {
            out.push_back(p);
            if (readers) readers->push_back(reader);
        }
    }
    return out;
}

// DesignSpace::inputs: per node, the producers of the intermediate and input buffers its
// filter in `extracted` reads (constants aside), by node index (-1: a filter of no node, or a
// kernel input).
void link_inputs(DesignSpace &space, const FilterGraph &extracted) {
    std::map<std::string, int> node_of;
    for (size_t i = 0; i < space.nodes.size(); i++) node_of[space.nodes[i].filter] = static_cast<int>(i);
    std::map<std::string, const Buffer *> buffers;
    for (const Buffer &b : extracted.buffers) buffers[b.name] = &b;
    space.inputs.assign(space.nodes.size(), {});
    for (const Filter &f : extracted.filters) {
        auto r = node_of.find(f.name);
        if (r == node_of.end()) continue;
        std::vector<int> &in = space.inputs[r->second];
        for (const std::string &name : f.reads) {
            auto b = buffers.find(name);
            if (b == buffers.end() || b->second->kind == BufferKind::Constant) continue;
            int w = -1;
            if (b->second->kind == BufferKind::Intermediate && b->second->producers.size() == 1) {
                auto p = node_of.find(extracted.filters[b->second->producers[0]].name);
                if (p != node_of.end()) w = p->second;
            }
            if (std::find(in.begin(), in.end(), w) == in.end()) in.push_back(w);
        }
        std::sort(in.begin(), in.end());
    }
}

// DesignSpace::links and ::connected: a node whose last stage calls another node's Func.
void link_nodes(DesignSpace &space, const std::map<std::string, Function> &funcs) {
    space.connected.assign(space.nodes.size(), {});
    for (size_t w = 0; w < space.nodes.size(); w++) {
        auto fw = funcs.find(space.nodes[w].filter);
        if (fw == funcs.end()) continue;
        const Halide::Internal::Definition &dw =
            fw->second.updates().empty() ? fw->second.definition() : fw->second.updates().back();
        std::vector<std::string> wvars;
        for (const Halide::Expr &a : dw.args()) wvars.push_back(index_var(a));
        for (size_t r = 0; r < space.nodes.size(); r++) {
            auto fr = funcs.find(space.nodes[r].filter);
            if (r == w || fr == funcs.end()) continue;
            std::vector<std::string> rvars = reader_vars(fr->second, fw->second.name());
            if (rvars.size() != wvars.size()) continue;
            space.links.push_back({static_cast<int>(w), static_cast<int>(r), wvars, rvars});
            space.connected[w].push_back(static_cast<int>(r));
            space.connected[r].push_back(static_cast<int>(w));
        }
    }
    for (std::vector<int> &c : space.connected) {
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
    }
}

// An order with a jam keeps the divisor unrolls only: the products of two trips' divisors are
// already dense (pb_2mm's fill spent its points on tmp's u64, a non-divisor of 190 with a
// pipeline of 3 iterations, and left tmp idle), and the split form needs a divisor. The
// non-divisors serve the filters whose unroll is their only parallelism (pb_mvt, pb_atax).
void keep_divisors_with_jam(OrderOption &o) {
    if (o.jams.size() < 2 || o.unroll_trip <= 0) return;
    o.factors.erase(std::remove_if(o.factors.begin(), o.factors.end(), [&](int64_t f) { return o.unroll_trip % f != 0; }),
                    o.factors.end());
}

}  // namespace

DesignSpace build_space(const HalideProgram &program, const FilterGraph &extracted) {
    std::map<std::string, Function> funcs = functions_by_base_name(program);
    std::set<std::string> offchip;
    for (const Buffer &b : extracted.buffers) {
        if (b.kind == BufferKind::Input && b.channel == ChannelKind::OffChip) offchip.insert(c_identifier(b.name));
    }
    DesignSpace space;
    for (const Filter &f : extracted.filters) {
        const std::vector<GraphLoop> loops = graph_loops(f.body);
        NodeKnobs n = node_knobs(program, funcs, f.name, loops, offchip);
        auto fit = funcs.find(f.name);
        for (OrderOption &o : n.orders) {
            if (fit != funcs.end()) add_jam(o, fit->second, n.key, loops);
        }
        if (fit != funcs.end()) add_reduction_jam(n, program, fit->second, loops);
        add_hwc_order(n, program, funcs, loops, offchip);
        for (OrderOption &o : n.orders) keep_divisors_with_jam(o);
        bool some = false;
        for (const OrderOption &o : n.orders) {
            some = some || o.factors.size() > 1 || !o.transforms.empty() || o.jams.size() > 1;
        }
        if (some) space.nodes.push_back(std::move(n));
    }
    link_nodes(space, funcs);
    link_inputs(space, extracted);
    bool sequential = false;
    for (const Directive &d : program.directives.directives()) {
        if (d.kind == Directive::Kind::Dataflow) sequential = !d.enable;
    }
    space.inline_nodes = sequential && space.nodes.size() >= 2;
    return space;
}

int hwc_order(const NodeKnobs &n) {
    for (size_t i = 0; i < n.orders.size(); i++) {
        if (n.orders[i].hwc) return static_cast<int>(i);
    }
    return -1;
}

int64_t loop_factor(const NodeKnobs &n, const Choice &c, const std::string &var) {
    const OrderOption &o = n.orders.at(c.order);
    if (!var.empty() && var == o.unroll_loop) return o.factors.at(c.unroll);
    if (!var.empty() && var == o.jam_loop && !o.jams.empty()) return o.jams.at(c.jam);
    return 1;
}

int64_t total_unroll(const NodeKnobs &n, const Choice &c) {
    const OrderOption &o = n.orders.at(c.order);
    return o.factors.at(c.unroll) * (o.jams.empty() ? 1 : o.jams.at(c.jam));
}

namespace {

// The block's weights read through m_axi (OrderOption::jam_copy_inputs), each copied on chip
// once per block: an `in` of reader `func` computed at `o`'s block loop (stage `stage` of its Func).
void add_block_copies(HlsSchedule &s, const OrderOption &o, const std::string &func, int stage, const std::string &origin) {
    for (size_t i = 0; i < o.jam_copy_inputs.size(); i++) {
        const std::string &input = o.jam_copy_inputs[i];
        bool wrapper = i < o.jam_copy_readers.size() && !o.jam_copy_readers[i].empty();
        LoopTransform copy;
        copy.kind = LoopTransform::Kind::In;
        copy.func = wrapper ? o.jam_copy_readers[i] : func;
        copy.input = input;
        copy.at_func = o.jam_key;
        copy.at_loop = o.jam_outer;
        copy.stage = stage;
        copy.origin = origin;
        s.add(copy);
    }
}

// Whether the unroll of `o` by `factor` is the split form (OrderOption::unroll_inner) at jam
// `jam`: not for a factor that does not divide the trip (an HLS partial unroll, guarded copies).
bool split_unroll(const OrderOption &o, int jam, int64_t factor) {
    bool divides = o.unroll_trip > 0 && o.unroll_trip % factor == 0;
    return jam > 0 && factor > 1 && divides && !o.unroll_inner.empty() && o.jam_helper_key.empty();
}

// A split of `loop` into `outer`, `inner` by `factor` in the jammed stage of `o`.
LoopTransform jam_stage_split(const OrderOption &o, const std::string &loop, const std::string &outer,
                              const std::string &inner, int64_t factor) {
    LoopTransform split;
    split.kind = LoopTransform::Kind::Split;
    split.func = o.jam_key;
    split.stage = o.jam_stage;
    split.loop = loop;
    split.outer = outer;
    split.inner = inner;
    split.factor = static_cast<int>(factor);
    split.origin = "dse: " + o.jam_key;
    return split;
}

// An HLS unroll of loop `loop` of `target` by `factor` (0: completely).
Directive unroll_of(const std::string &target, const std::string &loop, int64_t factor, const std::string &origin) {
    Directive d;
    d.kind = Directive::Kind::Unroll;
    d.target = target;
    d.loop = loop;
    d.value = factor;
    d.origin = origin;
    return d;
}

// The smallest divisor of `extent` that is at least `jam` (`extent` when none is smaller).
int64_t bank_factor(int64_t extent, int64_t jam) {
    for (int64_t f = std::max<int64_t>(jam, 1); f < extent; f++) {
        if (extent % f == 0) return f;
    }
    return extent;
}

// A reduction jam's partitions of its Func and the unroll of its initialization at jam factor
// `jam` (OrderOption::jam_partitions, ::jam_init_unroll).
void add_reduction_jam_partitions(HlsSchedule &s, const OrderOption &o, int64_t jam, const std::string &origin) {
    int64_t cyclic = 0;
    for (const OrderOption::Partition &p : o.jam_partitions) {
        Directive d;
        d.kind = Directive::Kind::Partition;
        d.target = o.jam_key;
        d.dim = p.dim;
        int64_t f = p.complete ? p.extent : bank_factor(p.extent, jam);
        d.partition = f >= p.extent ? PartitionKind::Complete : PartitionKind::Cyclic;
        d.value = f >= p.extent ? 0 : f;
        d.origin = origin;
        s.add(d);
        if (!p.complete) cyclic = f;
    }
    if (!o.jam_init_unroll.empty() && cyclic > 1) s.add(unroll_of(o.jam_key, o.jam_init_unroll, cyclic, origin));
}

// The split of `o`'s channel loop (OrderOption::lane_loop) of Func `func` by `lanes`, its
// inner loop unrolled completely.
void add_lane_split(HlsSchedule &s, const OrderOption &o, const std::string &func, int64_t lanes,
                    const std::string &origin) {
    LoopTransform split;
    split.kind = LoopTransform::Kind::Split;
    split.func = func;
    split.stage = 0;
    split.loop = o.lane_loop;
    split.outer = o.lane_outer;
    split.inner = o.lane_inner;
    split.factor = static_cast<int>(lanes);
    split.origin = origin;
    s.add(split);
    s.add(unroll_of(func, o.lane_inner, 0, origin));
}

// The copy-out of an "hwc" filter whose helper is jammed by `jam`: its channel loop split by
// the largest divisor of `jam` up to kMaxStreamLanes, the inner loop unrolled completely
// (OrderOption::lane_loop); for a requantizing copy-out only when the helper's reduction has
// at most 8 x `jam` terms per output. The filter's Func is the order's layout reorder's.
// Returns the lanes (1: none).
int64_t add_copy_out_lanes(HlsSchedule &s, const OrderOption &o, int64_t jam) {
    // The copy-out takes C cycles a pixel against taps x C / J for the MACs: worth lanes and
    // their requantizations' DSPs (int8) only where it is at least an eighth of them.
    if (o.lane_loop.empty() || !o.hwc || o.lane_follows || (o.lane_requantizes && o.lane_taps > 8 * jam)) return 1;
    int64_t lanes = 1;
    for (int64_t k = 2; k <= std::min(jam, kMaxStreamLanes); k++) {
        if (jam % k == 0) lanes = k;
    }
    const LoopTransform *layout = nullptr;
    for (const LoopTransform &t : o.transforms) {
        if (t.kind == LoopTransform::Kind::Reorder && t.stage == 0 && !t.loops.empty() && t.loops[0] == o.lane_loop) {
            layout = &t;
        }
    }
    if (lanes < 2 || !layout) return 1;
    add_lane_split(s, o, layout->func, lanes, "dse: " + layout->func + " (copy-out lanes)");
    return lanes;
}

// The split, reorder and complete HLS unroll of jam factor index `jam` of `o` (none for 0),
// with the unroll by `factor` in its split form when `o` offers it.
// `map`: the helper per map (Choice::map), its block loop moved outside OrderOption::map_row.
// Returns the lanes of the filter's copy-out (add_copy_out_lanes; 1: none).
int64_t add_jam_schedule(HlsSchedule &s, const OrderOption &o, int jam, int64_t factor, bool map) {
    if (jam == 0) return 1;
    std::vector<std::string> order_loops = o.jam_order;
    if (map) {
        order_loops.erase(std::remove(order_loops.begin(), order_loops.end(), o.jam_outer), order_loops.end());
        auto row = std::find(order_loops.begin(), order_loops.end(), o.map_row);
        order_loops.insert(row == order_loops.end() ? row : row + 1, o.jam_outer);
    }
    if (split_unroll(o, jam, factor)) {
        LoopTransform unroll_split = jam_stage_split(o, o.unroll_loop, o.unroll_outer, o.unroll_inner, factor);
        s.add(unroll_split);
        std::replace(order_loops.begin(), order_loops.end(), o.unroll_loop, o.unroll_outer);
        order_loops.insert(order_loops.begin(), o.unroll_inner);
        s.add(unroll_of(o.jam_key, o.unroll_inner, 0, unroll_split.origin));
    }
    LoopTransform split = jam_stage_split(o, o.jam_loop, o.jam_outer, o.jam_inner, o.jams.at(jam));
    s.add(split);
    LoopTransform order;
    order.kind = LoopTransform::Kind::Reorder;
    order.func = o.jam_key;
    order.stage = o.jam_stage;
    order.loops = order_loops;
    order.origin = split.origin;
    s.add(order);
    if (!o.jam_init_order.empty()) {
        split.stage = 0;
        s.add(split);
        order.stage = 0;
        order.loops = o.jam_init_order;
        s.add(order);
    }
    Directive d = unroll_of(o.jam_key, o.jam_inner, 0, split.origin);  // completely
    s.add(d);
    if (o.reduction_jam) {
        add_reduction_jam_partitions(s, o, o.jams.at(jam), split.origin);
        return 1;
    }
    if (o.jam_helper_key.empty()) {
        // A jam inside the helper ("hwc"): its copies at the helper's own block loop.
        // Stage -1 (the helper's last stage, its accumulation: add_hwc_order's condition):
        // Halide 14 refuses the same loop named with an explicit stage index.
        add_block_copies(s, o, o.jam_key, -1, split.origin);
        return add_copy_out_lanes(s, o, o.jams.at(jam));
    }
    // The helper, computed per block: its loop of the jammed variable innermost, unrolled.
    LoopTransform helper;
    helper.kind = LoopTransform::Kind::Reorder;
    helper.func = o.jam_helper_key;
    helper.stage = o.jam_helper_stage;
    helper.loops = o.jam_helper_order;
    helper.origin = "dse: " + o.jam_helper_key;
    s.add(helper);
    if (!o.jam_helper_init_order.empty()) {
        helper.stage = 0;
        helper.loops = o.jam_helper_init_order;
        s.add(helper);
    }
    Directive hd = d;
    hd.target = o.jam_helper_key;
    hd.loop = o.jam_loop;
    hd.origin = helper.origin;
    s.add(hd);
    add_block_copies(s, o, o.jam_helper_key, -1, helper.origin);
    return 1;
}

// The lanes node `i` of `space` follows (OrderOption::lane_follows) at choice `c`, given the
// lanes of the nodes before it: the greatest common divisor of its inputs' lanes
// (DesignSpace::inputs) when each has more than one and it divides the channel loop's trip;
// else 1.
int64_t followed_lanes(const DesignSpace &space, size_t i, const Choice &c, const std::vector<int64_t> &lanes) {
    const OrderOption &o = space.nodes[i].orders.at(c.order);
    if (!o.lane_follows || o.factors.at(c.unroll) > 1 || c.jam > 0 || c.ii > 1 || o.unroll_trip < 2) return 1;
    int64_t u = 0;
    for (int w : space.inputs.at(i)) {
        int64_t l = w >= 0 && w < static_cast<int>(i) ? lanes[w] : 1;
        u = u == 0 ? l : std::gcd(u, l);
    }
    return u > 1 && o.unroll_trip % u == 0 ? u : 1;
}

// The per-block weight copy of `o` at unroll `factor` (OrderOption::block_copy_rows; none
// when 0): p split by block_copy_rows x factor, the block loop outside the reductions, the
// copies at it.
void add_block_copy_schedule(HlsSchedule &s, const OrderOption &o, int64_t factor) {
    if (o.block_copy_rows == 0) return;
    LoopTransform split = jam_stage_split(o, o.jam_loop, o.jam_outer, o.jam_inner, o.block_copy_rows * factor);
    s.add(split);
    LoopTransform order;
    order.kind = LoopTransform::Kind::Reorder;
    order.func = o.jam_key;
    order.stage = o.jam_stage;
    order.loops = o.jam_order;
    order.origin = split.origin;
    s.add(order);
    add_block_copies(s, o, o.jam_key, -1, split.origin);
}

// The loop of `key` that `o`'s unroll and pipeline name: the block copy's point loop in its
// helper, `unroll_loop` otherwise.
std::string unrolled_loop(const OrderOption &o, const std::string &key) {
    return o.block_copy_rows > 0 && key == o.jam_key ? o.jam_inner : o.unroll_loop;
}

}  // namespace

bool offers_ping_pong(const OrderOption &o, const Choice &c) {
    return o.block_copy_rows > 0 || (c.jam > 0 && !o.jam_copy_inputs.empty() && !o.reduction_jam);
}

HlsSchedule point_schedule(const DesignSpace &space, const PointChoices &choices) {
    HlsSchedule s;
    bool naive = true;
    for (const Choice &c : choices) naive = naive && c == Choice();
    for (size_t i = 0; space.inline_nodes && !naive && i < space.nodes.size(); i++) {
        Directive d;
        d.kind = Directive::Kind::Inline;
        d.target = space.nodes[i].key;
        d.origin = "dse: " + space.nodes[i].key;
        s.add(d);
    }
    std::vector<int64_t> lanes(space.nodes.size(), 1);  // of each node's output stream
    for (size_t i = 0; i < space.nodes.size() && i < choices.size(); i++) {
        const OrderOption &o = space.nodes[i].orders.at(choices[i].order);
        const bool map = choices[i].map && choices[i].jam > 0 && !o.map_at.empty();
        std::vector<LoopTransform> after_jam;
        for (LoopTransform t : o.transforms) {
            t.origin = "dse: " + space.nodes[i].key;
            if (map && t.kind == LoopTransform::Kind::ComputeAt && t.func == o.jam_key) {
                t.at_loop = o.map_at;  // helper per map (Choice::map)
            } else if (!map && t.kind == LoopTransform::Kind::ComputeAt && !o.block_at.empty()) {
                // A helper computed per block of rows (OrderOption::block_at); at a jam, at the
                // block loop the jam's split makes (so after it).
                bool jam = choices[i].jam > 0 && !o.jam_helper_key.empty();
                t.at_loop = jam ? o.jam_outer : o.block_at;
                if (jam) {
                    after_jam.push_back(t);
                    continue;
                }
            }
            s.add(t);
        }
        int64_t factor = o.factors.at(choices[i].unroll);
        lanes[i] = add_jam_schedule(s, o, choices[i].jam, factor, map);
        if (int64_t u = followed_lanes(space, i, choices[i], lanes); u > 1) {
            add_lane_split(s, o, space.nodes[i].key, u, "dse: " + space.nodes[i].key + " (lanes of its inputs)");
            lanes[i] = u;
        }
        add_block_copy_schedule(s, o, factor);
        for (const LoopTransform &t : after_jam) s.add(t);
        if (choices[i].ping_pong && offers_ping_pong(o, choices[i])) {
            Directive d;
            d.kind = Directive::Kind::DataflowLoop;  // the block copy double-buffered
            d.target = o.jam_key;
            d.loop = o.jam_outer;
            d.origin = "dse: " + o.jam_key;
            s.add(d);
        }
        for (size_t k = 0; choices[i].ii > 1 && !o.unroll_loop.empty() && k < o.unroll_keys.size(); k++) {
            Directive d;
            d.kind = Directive::Kind::Pipeline;
            d.target = o.unroll_keys[k];
            // The split form's pipelined loop is the unroll loop's outer part.
            bool split = split_unroll(o, choices[i].jam, factor) && o.unroll_keys[k] == o.jam_key;
            d.loop = split ? o.unroll_outer : unrolled_loop(o, o.unroll_keys[k]);
            d.value = choices[i].ii;
            d.origin = "dse: " + o.unroll_keys[k];
            s.add(d);
        }
        if (factor <= 1) continue;
        for (const std::string &key : o.unroll_keys) s.add(unroll_of(key, unrolled_loop(o, key), factor, "dse: " + key));
    }
    return s;
}

std::string point_text(const DesignSpace &space, const PointChoices &choices) {
    std::string t;
    for (size_t i = 0; i < space.nodes.size() && i < choices.size(); i++) {
        if (choices[i] == Choice()) continue;
        const OrderOption &o = space.nodes[i].orders.at(choices[i].order);
        t += (t.empty() ? "" : " ") + space.nodes[i].filter + ":" + (o.hwc ? "hwc" : choices[i].order ? "outside" : "default") +
             "/u" + std::to_string(o.factors.at(choices[i].unroll));
        if (choices[i].jam > 0) t += "/j" + std::to_string(o.jams.at(choices[i].jam));
        if (choices[i].map && choices[i].jam > 0 && !o.map_at.empty()) t += "/map";
        if (o.block_copy_rows > 0) t += "/b" + std::to_string(o.block_copy_rows * o.factors.at(choices[i].unroll));
        if (choices[i].ping_pong && offers_ping_pong(o, choices[i])) t += "/pp";
        if (choices[i].ii > 1) t += "/ii" + std::to_string(choices[i].ii);
    }
    return t.empty() ? "naive" : t;
}

}  // namespace flowhls::dse
