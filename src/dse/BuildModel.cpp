// The design model of a compiled program: nests, accesses and closed-form costs per filter.
#include "dse/BuildModel.h"
#include "dse/GraphLoops.h"

#include "analysis/OperatorModel.h"
#include "frontend/halide/ApplySchedule.h"
#include "frontend/halide/Intake.h"
#include "frontend/halide/ProgramCopy.h"
#include "graph/ExtractFilters.h"
#include "ir/IRQueries.h"
#include "support/Names.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace flowhls::dse {

namespace {

using Halide::Expr;
using Halide::Internal::Call;
using Halide::Internal::Definition;
using Halide::Internal::Function;

// The coefficient of variable `var` in index `e`: exact for sums of constant multiples of
// variables (clamps by constants looked through), 0 for other forms.
int64_t coefficient(const Expr &e, const std::string &var) {
    namespace I = Halide::Internal;
    if (const auto *v = e.as<I::Variable>()) return v->name == var ? 1 : 0;
    if (const auto *a = e.as<I::Add>()) return coefficient(a->a, var) + coefficient(a->b, var);
    if (const auto *s = e.as<I::Sub>()) return coefficient(s->a, var) - coefficient(s->b, var);
    if (const auto *m = e.as<I::Mul>()) {
        if (auto c = constant_int(m->b)) return *c * coefficient(m->a, var);
        if (auto c = constant_int(m->a)) return *c * coefficient(m->b, var);
        return 0;
    }
    if (const auto *m = e.as<I::Min>()) return constant_int(m->b) ? coefficient(m->a, var) : constant_int(m->a) ? coefficient(m->b, var) : 0;
    if (const auto *m = e.as<I::Max>()) return constant_int(m->b) ? coefficient(m->a, var) : constant_int(m->a) ? coefficient(m->b, var) : 0;
    if (const auto *c = e.as<I::Cast>()) return coefficient(c->value, var);
    if (const auto *l = e.as<I::Let>()) return coefficient(l->body, var);
    return 0;
}

// The operator that accumulates a stage's value: the top operator of `value`, looking through
// selects (a padded convolution guards its sum) into the branch that has one; "" if none.
std::string accumulation_op(const Expr &value) {
    namespace I = Halide::Internal;
    std::string op = operator_of(value);
    if (!op.empty() && op != "select") return op;
    if (const auto *s = value.as<I::Select>()) {
        std::string t = accumulation_op(s->true_value);
        return t.empty() ? accumulation_op(s->false_value) : t;
    }
    if (const auto *c = value.as<I::Cast>()) return accumulation_op(c->value);
    if (const auto *l = value.as<I::Let>()) return accumulation_op(l->body);
    return "";
}

// One load found in a stage's values: the buffer and its indices (innermost first).
struct Load {
    std::string buffer;
    std::vector<Expr> args;
};

// The loads of buffers in an expression, following calls of inlined Funcs (Funcs that are not
// buffers and have no update) into their definitions.
class LoadCollector : public Halide::Internal::IRVisitor {
public:
    LoadCollector(const std::map<std::string, Function> &funcs, const std::set<std::string> &buffers,
                  const std::string &self)
        : funcs_(funcs), buffers_(buffers), self_(self) {}
    std::vector<Load> loads;
    bool reads_self = false;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Halide && op->call_type != Call::Image) return;
        if (op->name == self_) {
            reads_self = true;
            return;
        }
        auto f = funcs_.find(op->name);
        std::string buffer = halide_base_name(op->name);
        bool inlined = op->call_type == Call::Halide && !buffers_.count(buffer) && f != funcs_.end() &&
                       f->second.updates().empty() && depth_ < 8;
        if (!inlined) {
            loads.push_back({buffer, op->args});
            return;
        }
        std::map<std::string, Expr> bind;
        const std::vector<std::string> args = f->second.args();
        for (size_t i = 0; i < args.size() && i < op->args.size(); ++i) bind[args[i]] = op->args[i];
        ++depth_;
        for (const Expr &v : f->second.values()) Halide::Internal::substitute(bind, v).accept(this);
        --depth_;
    }
    const std::map<std::string, Function> &funcs_;
    const std::set<std::string> &buffers_;
    std::string self_;
    int depth_ = 0;
};

// Operators, DSPs and summed latencies of the expressions of a stage.
class OpCounter : public Halide::Internal::IRGraphVisitor {
public:
    explicit OpCounter(const Device &d) : device_(d) {}
    int64_t ops = 0, dsp = 0, latency = 0;

    void include(const Expr &e) override {
        std::string name = operator_of(e);
        if (!name.empty()) {
            ++ops;
            try {
                const OperatorCost &c = device_.op(name);
                dsp += c.dsp;
                latency += c.latency;
            } catch (const std::logic_error &) {
                latency += 1;  // an operator the part's table lacks: one cycle, no DSP
            }
        }
        IRGraphVisitor::include(e);
    }

private:
    const Device &device_;
};

// The nest of the stage (Func, stage index) with the most iterations among a filter's loops
// (ties: the later): the chain of loops from the outermost down to that stage's last loop,
// loops of trip 1 left out. Empty `func` when no loop belongs to a known Func.
struct Nest {
    std::string func;
    int stage = -1;
    std::vector<GraphLoop> loops;
    int64_t iterations = 1;
};

Nest dominant_nest(const std::vector<GraphLoop> &loops, const std::map<std::string, const Function *> &funcs) {
    std::map<std::pair<std::string, int>, int> last;  // the stage's last (innermost) loop
    for (size_t i = 0; i < loops.size(); ++i) {
        if (funcs.count(loops[i].func)) last[{loops[i].func, loops[i].stage}] = static_cast<int>(i);
    }
    std::vector<int> ends;
    for (const auto &kv : last) ends.push_back(kv.second);
    std::sort(ends.begin(), ends.end());
    Nest best;
    for (int end : ends) {
        Nest n;
        n.func = loops[size_t(end)].func;
        n.stage = loops[size_t(end)].stage;
        for (int i = end; i >= 0; i = loops[size_t(i)].parent) {
            if (loops[size_t(i)].trip > 1) n.loops.insert(n.loops.begin(), loops[size_t(i)]);
            n.iterations *= std::max<int64_t>(1, loops[size_t(i)].trip);
        }
        if (best.stage < 0 || n.iterations >= best.iterations) best = n;
    }
    return best;
}

// Per index (innermost first), the coefficients of the node's loops, as outermost-first rows.
std::vector<std::vector<int64_t>> coefficients(const std::vector<Expr> &args, const DseNode &node) {
    std::vector<std::vector<int64_t>> rows;
    for (auto a = args.rbegin(); a != args.rend(); ++a) {
        std::vector<int64_t> row;
        for (const DseLoop &l : node.loops) row.push_back(coefficient(*a, l.name));
        rows.push_back(row);
    }
    return rows;
}

struct Context {
    const std::map<std::string, Function> &funcs;             // by name
    const std::map<std::string, const Function *> &by_base;  // by Halide base name
    const std::set<std::string> &buffers;
    const Device &device;
};

// The node of filter `filter` whose loops are `loops`, with its cost.
std::pair<DseNode, NodeCost> filter_node(const Context &cx, const std::string &filter,
                                         const std::vector<GraphLoop> &loops) {
    DseNode node;
    NodeCost cost;
    node.name = halide_base_name(filter);
    Nest nest = dominant_nest(loops, cx.by_base);
    if (nest.stage < 0) return {node, cost};
    const std::string &func = nest.func;
    int stage = nest.stage;
    const Function &f = *cx.by_base.at(func);
    const Definition &def = stage == 0 ? f.definition() : f.update(stage - 1);
    std::set<std::string> rvars;
    for (const auto &d : def.schedule().dims()) {
        if (d.is_rvar()) rvars.insert(d.var);
    }
    for (const GraphLoop &l : nest.loops) {
        node.loops.push_back({l.var, l.trip, l.func == func && l.stage == stage && rvars.count(l.var) > 0});
    }
    cost.iterations = nest.iterations;
    LoadCollector loads(cx.funcs, cx.buffers, f.name());
    OpCounter ops(cx.device);
    for (const Expr &v : def.values()) {
        v.accept(&loads);
        ops.include(v);
    }
    for (const Load &l : loads.loads) node.accesses.push_back({l.buffer, false, coefficients(l.args, node)});
    node.accesses.push_back({halide_base_name(filter), true, coefficients(def.args(), node)});
    cost.ops = std::max<int64_t>(1, ops.ops);
    cost.dsp = ops.dsp;
    cost.depth = ops.latency + 2;
    node.intensity = cost.iterations * cost.ops;
    if (stage > 0 && loads.reads_self && !node.loops.empty() && node.loops.back().reduction) {
        std::string acc = def.values().empty() ? "" : accumulation_op(def.values()[0]);
        cost.recurrence = 1;
        if (!acc.empty() && cx.device.operators.count(acc)) {
            const OperatorCost &c = cx.device.op(acc);
            cost.recurrence = std::max(1, c.recurrence_latency > 0 ? c.recurrence_latency : c.latency);
        }
    }
    return {node, cost};
}

}  // namespace

BuiltModel build_model(const HalideProgram &program, HlsTarget target, const Device &device) {
    HalideProgram copy = isolated_copy(program);
    apply_loop_schedule(copy);
    LoweredProgram lowered = lower_for_hls(copy, target);
    FilterGraph graph = extract_filters(lowered);
    std::map<std::string, Function> funcs = pipeline_functions(copy);
    // Buffers by Halide's base names: a process that made Funcs of the same names before
    // gets `NAME$N` Funcs, which the filters and the model name `NAME`.
    std::map<std::string, const Function *> by_base;
    for (const auto &[name, f] : funcs) by_base[halide_base_name(name)] = &f;
    std::set<std::string> buffers;
    for (const Filter &f : graph.filters) buffers.insert(halide_base_name(f.name));
    for (const KernelArg &a : lowered.args) buffers.insert(halide_base_name(a.name));
    BuiltModel out;
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const KernelArg &a : lowered.args) {
        shapes[halide_base_name(a.name)] = std::vector<int64_t>(a.shape.rbegin(), a.shape.rend());
    }
    Context cx{funcs, by_base, buffers, device};
    for (const Filter &f : graph.filters) {
        const std::vector<GraphLoop> loops = graph_loops(f.body);
        auto [node, cost] = filter_node(cx, f.name, loops);
        out.model.nodes.push_back(node);
        out.costs.push_back(cost);
        std::string base = halide_base_name(f.name);
        auto fit = by_base.find(base);
        if (shapes.count(base) || fit == by_base.end()) continue;
        std::vector<int64_t> shape;  // the pure loops of the Func's first stage
        for (const std::string &arg : fit->second->args()) {
            int64_t trip = 1;
            for (const GraphLoop &l : loops) {
                if (l.func == base && l.stage == 0 && l.var == arg) trip = l.trip;
            }
            shape.insert(shape.begin(), trip);
        }
        shapes[base] = shape;
    }
    std::set<std::string> used;
    for (const DseNode &n : out.model.nodes) {
        for (const DseAccess &a : n.accesses) used.insert(a.buffer);
    }
    for (const auto &[name, shape] : shapes) {
        if (used.count(name)) out.model.buffers.push_back({name, shape});
    }
    return out;
}

int64_t node_latency(const DseNode &node, const NodeCost &cost, const std::vector<int64_t> &unroll) {
    int64_t copies = 1, chain = 1;
    for (size_t l = 0; l < unroll.size() && l < node.loops.size(); ++l) {
        copies *= std::max<int64_t>(1, unroll[l]);
        if (node.loops[l].reduction) chain *= std::max<int64_t>(1, unroll[l]);
    }
    int64_t steps = (cost.iterations + copies - 1) / copies;
    if (cost.recurrence <= 0) return steps + cost.depth;
    return steps * cost.recurrence * chain + cost.depth + cost.recurrence * (chain - 1);
}

}  // namespace flowhls::dse
