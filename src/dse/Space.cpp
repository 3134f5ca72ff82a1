// The design space of a program: per filter, the knobs the exploration turns; a point's schedule.
#include "dse/Space.h"
#include "frontend/halide/Intake.h"

#include <map>
#include <set>

namespace flowhls::dse {

namespace {

using Halide::Internal::Dim;
using Halide::Internal::Function;

// A loop of the extracted graph: its Func, stage and variable, and its trip count.
struct GraphLoop {
    std::string func, var;
    int stage = 0;
    int64_t trip = 0;
};

// Splits Halide's loop name `FUNC.sN.VAR`; false for another form.
bool split_loop_name(const std::string &name, GraphLoop &loop) {
    for (size_t i = name.find(".s"); i != std::string::npos; i = name.find(".s", i + 1)) {
        size_t j = i + 2;
        while (j < name.size() && isdigit(static_cast<unsigned char>(name[j]))) j++;
        if (j == i + 2 || j >= name.size() || name[j] != '.') continue;
        loop.func = name.substr(0, i);
        loop.stage = std::stoi(name.substr(i + 2, j - i - 2));
        loop.var = name.substr(j + 1);
        return true;
    }
    return false;
}

// The constant-trip loops of a filter body, outermost first.
class LoopCollector : public Halide::Internal::IRVisitor {
public:
    std::vector<GraphLoop> loops;

private:
    using IRVisitor::visit;
    void visit(const Halide::Internal::For *op) override {
        GraphLoop l;
        const auto *extent = op->extent.as<Halide::Internal::IntImm>();
        if (extent && split_loop_name(op->name, l)) {
            l.trip = extent->value;
            loops.push_back(l);
        }
        IRVisitor::visit(op);
    }
};

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

// 1, then the divisors of `trip` in (1, kMaxUnroll].
std::vector<int64_t> unroll_factors(int64_t trip) {
    std::vector<int64_t> f = {1};
    for (int64_t d = 2; d <= std::min<int64_t>(trip, kMaxUnroll); d++) {
        if (trip % d == 0) f.push_back(d);
    }
    return f;
}

// The schedule key of Func `func`: `alias` when the program maps it to `func`, else the name.
std::string key_of(const HalideProgram &program, const std::string &func, const std::string &alias) {
    auto it = program.directive_aliases.find(alias);
    return !alias.empty() && it != program.directive_aliases.end() && it->second == func ? alias : func;
}

// Trip count of `var` in stage `stage` of `func` among `loops` (0: not a loop there).
int64_t trip_of(const std::vector<GraphLoop> &loops, const std::string &func, int stage, const std::string &var) {
    for (const GraphLoop &l : loops) {
        if (l.func == func && l.stage == stage && l.var == var) return l.trip;
    }
    return 0;
}

// The knobs of filter `filter` whose loops are `loops`.
NodeKnobs node_knobs(const HalideProgram &program, const std::map<std::string, Function> &funcs,
                     const std::string &filter, const std::vector<GraphLoop> &loops) {
    NodeKnobs n;
    n.filter = filter;
    auto origin = program.onnx_origins.find(filter);
    std::string node = origin == program.onnx_origins.end() ? "" : origin->second.node;
    n.key = key_of(program, filter, node);
    auto fit = funcs.find(filter);
    // The accumulation: the first Func of the filter with an update whose innermost loop is a
    // reduction loop and that has a pure loop.
    const Function *acc = nullptr;
    int acc_stage = 0;
    for (const GraphLoop &l : loops) {
        auto it = funcs.find(l.func);
        if (it == funcs.end() || l.stage == 0 || acc) continue;
        std::vector<Dim> dims = stage_dims(it->second, l.stage);
        bool pure = false;
        for (const Dim &d : dims) pure = pure || !d.is_rvar();
        if (!dims.empty() && dims[0].is_rvar() && pure) {
            acc = &it->second;
            acc_stage = l.stage;
        }
    }
    OrderOption plain;
    plain.name = "default";
    if (acc) {
        std::string acc_key = acc->name() == filter ? n.key : key_of(program, acc->name(), node + "#acc");
        std::vector<Dim> dims = stage_dims(*acc, acc_stage);
        plain.unroll_loop = loop_var(dims[0].var);
        plain.unroll_keys = {acc_key};
        plain.factors = unroll_factors(trip_of(loops, acc->name(), acc_stage, dims[0].var));
        n.orders.push_back(plain);
        // The innermost pure loop p, moved inside the reduction loops.
        size_t p = 0;
        while (dims[p].is_rvar()) p++;
        std::string pv = dims[p].var;
        OrderOption outside;
        outside.name = "reduction outside";
        int64_t trip = trip_of(loops, acc->name(), acc_stage, pv);
        bool legal = true;
        if (acc->name() != filter) {
            // A helper computed inside the filter: compute it at the loop enclosing p, so that
            // it covers p's whole range (the filter's own loop p copies it out).
            const std::vector<std::string> args = fit == funcs.end() ? std::vector<std::string>() : fit->second.args();
            legal = args.size() >= 2 && args[0] == pv;
            if (legal) {
                LoopTransform at;
                at.kind = LoopTransform::Kind::ComputeAt;
                at.func = acc_key;
                at.at_func = n.key;
                at.at_loop = args[1];
                at.stage = -1;
                outside.transforms.push_back(at);
                trip = trip_of(loops, filter, 0, pv);
            }
        }
        LoopTransform order;
        order.kind = LoopTransform::Kind::Reorder;
        order.func = acc_key;
        order.stage = acc_stage;
        order.loops.push_back(loop_var(pv));
        for (size_t i = 0; i < p; i++) order.loops.push_back(loop_var(dims[i].var));
        outside.transforms.push_back(order);
        outside.unroll_loop = loop_var(pv);
        outside.unroll_keys = {acc_key};
        if (acc->name() != filter) outside.unroll_keys.push_back(n.key);
        outside.factors = unroll_factors(trip);
        if (legal && trip > 1) n.orders.push_back(outside);
        return n;
    }
    // No accumulation: the innermost loop of the filter's last stage.
    if (fit == funcs.end()) return n;
    int last = static_cast<int>(fit->second.updates().size());
    std::vector<Dim> dims = stage_dims(fit->second, last);
    if (dims.empty()) return n;
    plain.unroll_loop = loop_var(dims[0].var);
    plain.unroll_keys = {n.key};
    plain.factors = unroll_factors(trip_of(loops, filter, last, dims[0].var));
    n.orders.push_back(plain);
    return n;
}

}  // namespace

DesignSpace build_space(const HalideProgram &program, const FilterGraph &extracted) {
    std::map<std::string, Function> funcs = pipeline_functions(program);
    DesignSpace space;
    for (const Filter &f : extracted.filters) {
        LoopCollector c;
        if (f.body.defined()) f.body.accept(&c);
        NodeKnobs n = node_knobs(program, funcs, f.name, c.loops);
        bool some = false;
        for (const OrderOption &o : n.orders) some = some || o.factors.size() > 1 || !o.transforms.empty();
        if (some) space.nodes.push_back(std::move(n));
    }
    return space;
}

HlsSchedule point_schedule(const DesignSpace &space, const PointChoices &choices) {
    HlsSchedule s;
    for (size_t i = 0; i < space.nodes.size() && i < choices.size(); i++) {
        const OrderOption &o = space.nodes[i].orders.at(choices[i].order);
        for (LoopTransform t : o.transforms) {
            t.origin = "dse: " + space.nodes[i].key;
            s.add(t);
        }
        int64_t factor = o.factors.at(choices[i].unroll);
        if (factor <= 1) continue;
        for (const std::string &key : o.unroll_keys) {
            Directive d;
            d.kind = Directive::Kind::Unroll;
            d.target = key;
            d.loop = o.unroll_loop;
            d.value = factor;
            d.origin = "dse: " + key;
            s.add(d);
        }
    }
    return s;
}

std::string point_text(const DesignSpace &space, const PointChoices &choices) {
    std::string t;
    for (size_t i = 0; i < space.nodes.size() && i < choices.size(); i++) {
        if (choices[i].order == 0 && choices[i].unroll == 0) continue;
        const OrderOption &o = space.nodes[i].orders.at(choices[i].order);
        t += (t.empty() ? "" : " ") + space.nodes[i].filter + ":" + (choices[i].order ? "outside" : "default") +
             "/u" + std::to_string(o.factors.at(choices[i].unroll));
    }
    return t.empty() ? "naive" : t;
}

}  // namespace flowhls::dse
