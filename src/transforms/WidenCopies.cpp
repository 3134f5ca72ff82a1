// widen_copies: an on-chip copy of a widened m_axi input moves W consecutive elements per pipeline iteration.
#include "transforms/WidenCopies.h"

#include "ir/IRQueries.h"
#include "support/Names.h"

#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// A copy nest: its loops (outermost first, trips), the index lets between them and its store.
struct CopyNest {
    std::vector<const For *> loops;
    std::vector<int64_t> trips;
    LetBindings lets;
    const Store *store = nullptr;
    const Load *load = nullptr;
};

// The perfect nest rooted at `op` ending in one store of a load (null store: not one).
CopyNest copy_nest(const For *op) {
    CopyNest n;
    Stmt s = op;
    while (true) {
        while (const LetStmt *l = s.as<LetStmt>()) {
            if (!buffer_accesses(l->value).loads.empty()) return {};
            n.lets.emplace_back(l->name, l->value);
            s = l->body;
        }
        const For *f = s.as<For>();
        if (!f) break;
        const IntImm *min = f->min.as<IntImm>(), *extent = f->extent.as<IntImm>();
        if (f->for_type != ForType::Serial || !min || min->value != 0 || !extent || extent->value < 1) return {};
        n.loops.push_back(f);
        n.trips.push_back(extent->value);
        s = f->body;
    }
    n.store = s.as<Store>();
    n.load = n.store ? n.store->value.as<Load>() : nullptr;
    // strict_float(load): the exact-math wrapper of a float copy, a wire.
    const Call *c = n.store ? n.store->value.as<Call>() : nullptr;
    if (c && c->is_intrinsic(Call::strict_float) && c->args.size() == 1) n.load = c->args[0].as<Load>();
    if (!n.load || n.loops.empty()) return {};
    return n;
}

// `index` minus its dense linearization over the nest's loops (innermost coefficient 1, each
// outer one the product of the inner trips): the base, or undefined when `index` is not that.
Expr linear_base(const CopyNest &n, const Expr &index) {
    Expr e = resolve_lets(n.lets, index);
    Expr rest = e;
    int64_t stride = 1;
    for (size_t i = n.loops.size(); i-- > 0;) {
        rest = rest - Variable::make(Halide::Int(32), n.loops[i]->name) * static_cast<int>(stride);
        stride *= n.trips[i];
    }
    rest = simplify(rest);
    std::set<std::string> vars = referenced_variables(rest);
    for (const For *f : n.loops) {
        if (vars.count(f->name)) return Expr();
    }
    return rest;
}

class Widen : public IRMutator {
public:
    Widen(const FilterGraph &graph, Filter &filter) : graph(graph), filter(filter), taken(names_in(filter.body)) {
        for (const LocalBuffer &l : filter.locals) {
            if (!l.scalar) locals.insert(l.name);
        }
    }
    bool changed = false;

private:
    using IRMutator::visit;
    const FilterGraph &graph;
    Filter &filter;
    std::set<std::string> taken, locals;

    // Elements per beat of the widened m_axi input `name` (0: not one).
    int64_t per_beat(const std::string &name, const Halide::Type &type) const {
        if (!graph.has_buffer(name)) return 0;
        const Buffer &b = graph.buffer(name);
        if (b.kind != BufferKind::Input || b.interface.mode != InterfaceMode::MAxi || b.channel != ChannelKind::OffChip) {
            return 0;
        }
        return b.interface.width_bits > type.bits() ? b.interface.width_bits / type.bits() : 0;
    }

    Stmt visit(const For *op) override {
        CopyNest n = copy_nest(op);
        int64_t beat = n.store && locals.count(n.store->name) ? per_beat(n.load->name, n.load->type) : 0;
        for (const For *f : n.loops) {
            if (filter.directives.count(f->name)) beat = 0;
        }
        if (beat < 2) return IRMutator::visit(op);
        Expr store_base = linear_base(n, n.store->index), load_base = linear_base(n, n.load->index);
        if (!store_base.defined() || !load_base.defined()) return IRMutator::visit(op);
        int64_t total = 1;
        for (int64_t t : n.trips) total *= t;
        int64_t w = 1;
        while (w * 2 <= beat && total % (w * 2) == 0) w *= 2;
        if (w < 2) return IRMutator::visit(op);
        std::string chunk = fresh_name(op->name + "_w", taken), lane = fresh_name(op->name + "_wk", taken);
        Expr offset = Variable::make(Halide::Int(32), chunk) * static_cast<int>(w) + Variable::make(Halide::Int(32), lane);
        Expr value = Load::make(n.load->type, n.load->name, simplify(load_base + offset), n.load->image, n.load->param,
                                n.load->predicate, ModulusRemainder());
        if (!n.store->value.as<Load>()) {
            value = Call::make(value.type(), Call::strict_float, {value}, Call::PureIntrinsic);
        }
        Stmt body = Store::make(n.store->name, value, simplify(store_base + offset), n.store->param, n.store->predicate,
                                ModulusRemainder());
        body = For::make(lane, 0, static_cast<int>(w), ForType::Serial, op->device_api, body);
        body = For::make(chunk, 0, static_cast<int>(total / w), ForType::Serial, op->device_api, body);
        LoopDirective pipeline, unroll;
        pipeline.pipeline_ii = 1;
        pipeline.inferred = true;
        unroll.unroll = kUnrollComplete;
        unroll.inferred = true;
        filter.directives[chunk] = pipeline;
        filter.directives[lane] = unroll;
        changed = true;
        return body;
    }
};

}  // namespace

PassResult widen_copies(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        if (!f.body.defined()) continue;
        Widen widen(graph, f);
        f.body = widen.mutate(f.body);
        result.changed |= widen.changed;
    }
    return result;
}

}  // namespace flowhls
