// estimate_filter / estimate_design: a schedule-based model of Vitis HLS latency and II.
#include "analysis/QorEstimator.h"
#include "analysis/HlsUnroll.h"
#include "ir/IRQueries.h"
#include "analysis/MemoryBanks.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Block RAMs for an array of `depth` words of `width` bits: an 18Kb BRAM is configured as
// 16Kx1, 8Kx2, 4Kx4, 2Kx9, 1Kx18 or 512x36; the cheapest configuration is used.
int64_t bram18k_for(int64_t depth, int width) {
    static const int64_t configs[][2] = {{16384, 1}, {8192, 2}, {4096, 4}, {2048, 9}, {1024, 18}, {512, 36}};
    int64_t best = INT64_MAX;
    for (const auto &c : configs) best = std::min(best, ceil_div(width, c[1]) * ceil_div(depth, c[0]));
    return best;
}

// Storage of an array: block RAMs per bank (each bank rounded up to BRAM18K; banks within
// the register threshold take none), or flip-flops for a complete partition.
struct Storage {
    int64_t bram18k = 0, ff = 0;
};

Storage array_storage(int64_t size, int bits, const ArrayPartition &p, const Device &device) {
    Storage st;
    if (p.enabled && p.kind == PartitionKind::Complete) {
        st.ff = size * bits;
        return st;
    }
    int64_t banks = p.enabled ? std::max<int64_t>(p.factor, 1) : 1;
    int64_t depth = ceil_div(size, banks);
    if (depth * bits > device.register_threshold_bits) st.bram18k = banks * bram18k_for(depth, bits);
    return st;
}

// Name of the device operator that computes `e` (empty for wires: variables, constants,
// broadcasts, bit casts and index arithmetic folded into addresses).
std::string operator_of(const Expr &e) {
    Halide::Type t = e.type().element_of();
    auto int_op = [&](const char *base) {
        int bits = std::max(8, t.bits() <= 8 ? 8 : t.bits() <= 16 ? 16 : t.bits() <= 32 ? 32 : 64);
        return std::string(base) + std::to_string(bits);
    };
    bool dbl = t.is_float() && t.bits() == 64;
    if (e.as<Add>() || e.as<Sub>()) return t.is_float() ? (dbl ? "dadd" : "fadd") : int_op("iadd");
    if (const Mul *m = e.as<Mul>()) {
        if (t.is_float()) return dbl ? "dmul" : "fmul";
        // A product with a constant is shifts and adds in logic.
        return is_const(m->a) || is_const(m->b) ? int_op("iadd") : int_op("imul");
    }
    if (e.as<Div>() || e.as<Mod>()) return t.is_float() ? (dbl ? "ddiv" : "fdiv") : int_op("idiv");
    if (e.as<Min>() || e.as<Max>()) return t.is_float() ? "fcmp" : int_op("icmp");
    if (const EQ *c = e.as<EQ>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const NE *c = e.as<NE>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const LT *c = e.as<LT>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const LE *c = e.as<LE>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const GT *c = e.as<GT>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (const GE *c = e.as<GE>()) return c->a.type().is_float() ? "fcmp" : int_op("icmp");
    if (e.as<Select>()) return "select";
    if (const Cast *c = e.as<Cast>()) {
        if (c->type.is_float() != c->value.type().is_float()) return "fcvt";
        return "";
    }
    if (const Call *c = e.as<Call>()) {
        if (c->call_type == Call::PureExtern) {
            if (c->name == "sqrt_f32" || c->name == "sqrt_f64") return "fsqrt";
            if (c->name.rfind("floor", 0) == 0 || c->name.rfind("ceil", 0) == 0 || c->name.rfind("round", 0) == 0 ||
                c->name.rfind("trunc", 0) == 0) {
                return "fcvt";
            }
            return "fcall";
        }
        if (c->is_intrinsic(Call::if_then_else)) return "select";
    }
    return "";
}

// A scheduled body: ASAP times of values, and where loads and stores complete.
struct Access {
    const Load *load = nullptr;
    const Store *store = nullptr;
    int finish = 0;
    Expr index;  // with lets substituted
};

// An array's partition and size (elements), for the memory-port bound.
struct ArrayInfo {
    ArrayPartition partition;
    int64_t size = 0;
};

// What the scheduler knows of the filter: its arrays and its loop directives (null: none, the
// QorOptions defaults apply).
struct FilterContext {
    std::map<std::string, ArrayInfo> arrays;
    const std::map<std::string, LoopDirective> *directives = nullptr;

    // The pipeline target II of loop `name` (0: no pipeline directive).
    int pipeline_ii(const std::string &name) const {
        if (!directives) return 0;
        auto it = directives->find(name);
        return it == directives->end() ? 0 : it->second.pipeline_ii;
    }
};

class Scheduler {
public:
    Scheduler(const Device &device, const std::set<std::string> &registers, const FilterContext &context)
        : device(device), registers(registers), context(context) {}

    // Latency of a statement executed once (loops run with their own estimates).
    int64_t run(const Stmt &s, std::vector<LoopEstimate> *loops, const QorOptions &options);

    std::vector<Access> accesses;
    std::map<std::string, int> operations;
    /// Operations executed per run of the filter: each static one times the trip counts
    /// of its enclosing loops.
    std::map<std::string, int64_t> executed;
    int64_t multiplier = 1;

    // With `source` set, times are path lengths from that load's result (other values are
    // off the path: -1).
    const Load *source = nullptr;

    int latency_of(const std::string &op) const { return op.empty() ? 0 : device.op(op).latency; }

private:
    const Device &device;
    const std::set<std::string> &registers;
    const FilterContext &context;
    std::map<std::string, int64_t> ready;
    std::map<std::string, Expr> lets;
    int64_t seq = 0;   // when the last sequential construct finished
    int64_t done = 0;  // latest completion so far

    int64_t expr_time(const Expr &e);
    Expr resolved(const Expr &e) const {
        Expr r = e;
        for (int i = 0; i < 8; i++) {
            Expr next = substitute(lets, r);
            if (equal(next, r)) break;
            r = next;
        }
        return simplify(r);
    }
    void straight(const Stmt &s, std::vector<LoopEstimate> *loops, const QorOptions &options);
    int64_t loop(const For *op, std::vector<LoopEstimate> *loops, const QorOptions &options);
};

int64_t Scheduler::expr_time(const Expr &e) {
    bool on_path_mode = source != nullptr;
    if (const Variable *v = e.as<Variable>()) {
        auto it = ready.find(v->name);
        if (it != ready.end()) return it->second;
        return on_path_mode ? -1 : seq;
    }
    if (is_const(e)) return on_path_mode ? -1 : seq;
    std::vector<Expr> children;
    if (const Load *l = e.as<Load>()) {
        int64_t t = expr_time(l->index);
        bool reg = registers.count(l->name) > 0;
        std::string op = reg ? "" : "load";
        operations["load"] += reg ? 0 : 1;
        executed["load"] += reg ? 0 : multiplier;
        int64_t finish;
        if (on_path_mode) {
            finish = l == source ? 0 : (t < 0 ? -1 : t + latency_of(op));
        } else {
            finish = std::max(t, seq) + latency_of(op);
        }
        accesses.push_back({l, nullptr, static_cast<int>(finish), resolved(l->index)});
        return finish;
    }
    // Children of the node.
    class Children : public IRMutator {
    public:
        std::vector<Expr> out;
        const IRNode *root;
        explicit Children(const IRNode *r) : root(r) {}
        using IRMutator::mutate;
        Expr mutate(const Expr &e) override {
            if (e.get() == root) return IRMutator::mutate(e);
            out.push_back(e);
            return e;
        }
    } kids(e.get());
    kids.mutate(e);
    int64_t start = on_path_mode ? -1 : seq;
    for (const Expr &c : kids.out) start = std::max(start, expr_time(c));
    std::string op = operator_of(e);
    if (!op.empty()) {
        operations[op]++;
        executed[op] += multiplier;
    }
    if (on_path_mode && start < 0) return -1;
    return start + latency_of(op);
}

void Scheduler::straight(const Stmt &s, std::vector<LoopEstimate> *loops, const QorOptions &options) {
    if (!s.defined()) return;
    if (const Block *b = s.as<Block>()) {
        straight(b->first, loops, options);
        straight(b->rest, loops, options);
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        int64_t t = expr_time(l->value);
        ready[l->name] = t;
        lets[l->name] = l->value;
        done = std::max(done, t);
        straight(l->body, loops, options);
    } else if (const Store *st = s.as<Store>()) {
        int64_t t = std::max(expr_time(st->value), expr_time(st->index));
        bool reg = registers.count(st->name) > 0;
        if (!reg) {
            operations["store"]++;
            executed["store"] += multiplier;
        }
        int64_t finish = (source && t < 0) ? -1 : t + (reg ? 0 : latency_of("store"));
        accesses.push_back({nullptr, st, static_cast<int>(finish), resolved(st->index)});
        done = std::max(done, finish);
    } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
        straight(pc->body, loops, options);
    } else if (const Evaluate *ev = s.as<Evaluate>()) {
        done = std::max(done, expr_time(ev->value));
    } else if (const For *f = s.as<For>()) {
        int64_t start = std::max(seq, done);
        seq = start + loop(f, loops, options);
        done = seq;
    } else if (const IfThenElse *i = s.as<IfThenElse>()) {
        int64_t cond = expr_time(i->condition);
        int64_t start = std::max({seq, done, cond});
        // Both branches are scheduled (an HLS tool if-converts them in pipelines); their
        // memory accesses and operators count.
        int64_t branch = 0;
        for (const Stmt &c : {i->then_case, i->else_case}) {
            if (!c.defined()) continue;
            Scheduler sub(*this);
            sub.accesses.clear();
            sub.operations.clear();
            sub.executed.clear();
            branch = std::max(branch, sub.run(c, loops, options));
            accesses.insert(accesses.end(), sub.accesses.begin(), sub.accesses.end());
            for (const auto &kv : sub.operations) operations[kv.first] += kv.second;
            for (const auto &kv : sub.executed) executed[kv.first] += kv.second;
        }
        seq = start + branch;
        done = seq;
    } else if (const Allocate *a = s.as<Allocate>()) {
        straight(a->body, loops, options);
    }
}

int64_t Scheduler::run(const Stmt &s, std::vector<LoopEstimate> *loops, const QorOptions &options) {
    seq = 0;
    done = 0;
    ready.clear();
    straight(s, loops, options);
    return std::max(seq, done);
}

bool contains_loop(const Stmt &s) {
    class Find : public IRVisitor {
    public:
        bool found = false;

    private:
        using IRVisitor::visit;
        void visit(const For *) override { found = true; }
    } f;
    s.accept(&f);
    return f.found;
}

// The pipelined body of a perfect nest rooted at `op`: outer loops whose bodies hold only
// index LetStmts (no loads) and one loop.
struct Nest {
    std::vector<const For *> loops;  // outermost first
    std::vector<std::pair<std::string, Expr>> lets;
    Stmt body;
};

Nest perfect_nest(const For *op, bool flatten) {
    Nest n;
    n.loops.push_back(op);
    Stmt body = op->body;
    while (flatten) {
        std::vector<std::pair<std::string, Expr>> lets;
        Stmt s = body;
        while (const LetStmt *l = s.as<LetStmt>()) {
            class HasLoad : public IRVisitor {
            public:
                bool found = false;

            private:
                using IRVisitor::visit;
                void visit(const Load *) override { found = true; }
            } h;
            l->value.accept(&h);
            if (h.found) break;
            lets.emplace_back(l->name, l->value);
            s = l->body;
        }
        const For *inner = s.as<For>();
        if (!inner || !inner->extent.as<IntImm>()) break;
        n.loops.push_back(inner);
        n.lets.insert(n.lets.end(), lets.begin(), lets.end());
        body = inner->body;
    }
    n.body = body;
    return n;
}

bool depends_on(const Expr &e, const std::string &var) { return referenced_variables(e).count(var) > 0; }

int64_t Scheduler::loop(const For *op, std::vector<LoopEstimate> *loops, const QorOptions &options) {
    const IntImm *extent = op->extent.as<IntImm>();
    int64_t trip = extent ? std::max<int64_t>(extent->value, 0) : 1;
    LoopEstimate est;
    est.name = op->name;
    // Whether the loop (nest) is pipelined and with which target II.
    Nest nest;
    int target_ii = 0;
    if (context.directives) {
        // Directives: a perfect nest is flattened into its pipelined innermost loop; other
        // loops are sequential (loops inside a pipelined one are already unrolled).
        nest = perfect_nest(op, options.flatten);
        target_ii = contains_loop(nest.body) ? 0 : context.pipeline_ii(nest.loops.back()->name);
        if (target_ii == 0 && !contains_loop(op->body) && context.pipeline_ii(op->name) > 0) {
            nest = perfect_nest(op, false);
            target_ii = context.pipeline_ii(op->name);
        }
    } else if (options.pipeline_innermost &&
               (!contains_loop(op->body) || (options.flatten && [&] {
                    Nest n = perfect_nest(op, true);
                    return n.loops.size() > 1 && !contains_loop(n.body);
                }()))) {
        nest = perfect_nest(op, options.flatten);
        if (!contains_loop(nest.body)) target_ii = options.target_ii;
    }
    if (target_ii > 0) {
        // One pipeline over the whole (flattened) nest.
        int64_t total = 1;
        std::vector<int64_t> trips;
        for (const For *f : nest.loops) {
            const IntImm *e = f->extent.as<IntImm>();
            trips.push_back(e ? e->value : 1);
            total *= trips.back();
        }
        Stmt body = nest.body;
        for (auto it = nest.lets.rbegin(); it != nest.lets.rend(); ++it) {
            body = LetStmt::make(it->first, it->second, body);
        }
        Scheduler sched(device, registers, context);
        sched.lets = lets;
        sched.multiplier = multiplier * total;
        est.depth = static_cast<int>(sched.run(body, nullptr, options));
        for (const auto &kv : sched.operations) operations[kv.first] += kv.second;
        for (const auto &kv : sched.executed) executed[kv.first] += kv.second;
        // Memory ports: loads and stores per bank of each array and iteration.
        std::map<std::string, std::vector<ArrayAccess>> per_array;
        for (const Access &a : sched.accesses) {
            const std::string &name = a.load ? a.load->name : a.store->name;
            if (registers.count(name)) continue;
            per_array[name].push_back(ArrayAccess{a.store != nullptr, a.index});
        }
        Scope<Interval> ranges;
        for (const For *f : nest.loops) {
            Expr min = resolved(f->min);
            ranges.push(f->name, Interval(min, simplify(min + resolved(f->extent) - 1)));
        }
        est.ii_resource = 1;
        std::string port_reason;
        for (const auto &kv : per_array) {
            auto info = context.arrays.find(kv.first);
            ArrayInfo array = info == context.arrays.end() ? ArrayInfo() : info->second;
            PortDemand d = port_demand(kv.second, array.partition, array.size, &ranges);
            int ii = static_cast<int>(
                std::max(ceil_div(d.reads, device.read_ports), ceil_div(d.writes, device.write_ports)));
            if (ii > est.ii_resource) {
                est.ii_resource = ii;
                const ArrayPartition &p = array.partition;
                std::string banks =
                    p.enabled ? " on the busiest of " + std::to_string(p.factor) + " " +
                                    (p.kind == PartitionKind::Cyclic ? "cyclic" : "block") + " banks"
                              : "";
                port_reason = "memory ports of '" + kv.first + "' (" + std::to_string(d.reads) + " reads, " +
                              std::to_string(d.writes) + " writes per iteration" + banks + ")";
            }
        }
        // Recurrences: a store whose value depends on a load of the same element
        // in an earlier iteration: ceil(delay / distance).
        est.ii_recurrence = 1;
        std::string rec_reason;
        for (const Access &l : sched.accesses) {
            if (!l.load) continue;
            for (const Access &s : sched.accesses) {
                if (!s.store || s.store->name != l.load->name || !equal(s.index, l.index)) continue;
                // Distance: iterations of the loops inside the innermost loop the index
                // does not depend on.
                int64_t distance = 0;
                for (int k = static_cast<int>(nest.loops.size()) - 1; k >= 0; k--) {
                    if (!depends_on(l.index, nest.loops[k]->name)) {
                        distance = 1;
                        for (size_t j = k + 1; j < nest.loops.size(); j++) distance *= trips[j];
                        break;
                    }
                }
                if (distance == 0) continue;
                Scheduler path(device, registers, context);
                path.lets = lets;
                path.source = l.load;
                path.run(body, nullptr, options);
                int delay = -1;
                for (const Access &a : path.accesses) {
                    if (a.store == s.store) delay = std::max(delay, a.finish);
                }
                if (delay <= 0) continue;
                int ii = static_cast<int>(ceil_div(delay, distance));
                if (ii > est.ii_recurrence) {
                    est.ii_recurrence = ii;
                    rec_reason = "recurrence on '" + l.load->name + "' (delay " + std::to_string(delay) +
                                 ", distance " + std::to_string(distance) + ")";
                }
            }
        }
        est.pipelined = true;
        est.flattened_levels = static_cast<int>(nest.loops.size());
        est.trip = total;
        est.ii = std::max({target_ii, est.ii_resource, est.ii_recurrence});
        est.ii_reason = est.ii == est.ii_recurrence && est.ii > target_ii ? rec_reason
                        : est.ii == est.ii_resource && est.ii > target_ii ? port_reason
                                                                         : "target II";
        est.latency = est.depth + static_cast<int64_t>(est.ii) * (total - 1) + 1;
        if (loops) loops->push_back(est);
        return est.latency;
    }
    // Not pipelined: every iteration runs the body, plus one cycle of loop control.
    Scheduler body(device, registers, context);
    body.lets = lets;
    body.multiplier = multiplier * trip;
    std::vector<LoopEstimate> inner;
    int64_t body_latency = body.run(op->body, &inner, options);
    for (const auto &kv : body.operations) operations[kv.first] += kv.second;
    for (const auto &kv : body.executed) executed[kv.first] += kv.second;
    est.trip = trip;
    est.depth = static_cast<int>(body_latency);
    est.latency = trip * (body_latency + 1) + 1;
    if (loops) {
        loops->push_back(est);
        loops->insert(loops->end(), inner.begin(), inner.end());
    }
    return est.latency;
}

}  // namespace

FilterEstimate estimate_filter(const FilterGraph &graph, const Filter &filter, const Device &device,
                               const QorOptions &options) {
    std::set<std::string> registers;
    FilterContext context;
    if (!filter.directives.empty()) context.directives = &filter.directives;
    Storage local_storage;
    for (const Buffer &b : graph.buffers) {
        if (b.is_scalar() || (b.partition.enabled && b.partition.kind == PartitionKind::Complete)) registers.insert(b.name);
        context.arrays[b.name] = ArrayInfo{b.partition, b.size()};
    }
    for (const LocalBuffer &l : filter.locals) {
        int64_t bits = l.size * l.type.bits();
        bool complete = l.partition.enabled && l.partition.kind == PartitionKind::Complete;
        if (l.scalar || bits <= device.register_threshold_bits || complete) {
            registers.insert(l.name);
        }
        context.arrays[l.name] = ArrayInfo{l.partition, l.size};
        if (!l.scalar) {
            Storage st = array_storage(l.size, l.type.bits(), l.partition, device);
            local_storage.bram18k += st.bram18k;
            local_storage.ff += st.ff;
        }
    }
    Scheduler sched(device, registers, context);
    FilterEstimate est;
    est.name = filter.name;
    // HLS unroll directives (and loops inside pipelined loops) as body copies.
    Stmt body = context.directives ? apply_hls_unroll(filter.body, filter.directives) : filter.body;
    est.latency = sched.run(body, &est.loops, options);
    est.operations = sched.operations;
    est.executed = sched.executed;
    // Operators are shared within a filter except where pipelines need them concurrently:
    // one instance per kind, and ceil(count / II) for the busiest pipelined loop.
    for (const auto &kv : est.operations) {
        if (kv.first == "load" || kv.first == "store" || kv.second == 0) continue;
        const OperatorCost &c = device.op(kv.first);
        int instances = 1;
        for (const LoopEstimate &l : est.loops) {
            if (l.pipelined && l.ii > 0) instances = std::max(instances, static_cast<int>(ceil_div(kv.second, l.ii)));
        }
        instances = std::min(instances, kv.second);
        est.resources.dsp += static_cast<int64_t>(instances) * c.dsp;
        est.resources.lut += static_cast<int64_t>(instances) * c.lut;
        est.resources.ff += static_cast<int64_t>(instances) * c.ff;
    }
    est.resources.bram18k = local_storage.bram18k;
    est.resources.ff += local_storage.ff;
    // Loop counters and control: a few LUTs and flip-flops per loop.
    est.resources.lut += 40 * static_cast<int64_t>(est.loops.size());
    est.resources.ff += 40 * static_cast<int64_t>(est.loops.size());
    return est;
}

DesignEstimate estimate_design(const FilterGraph &graph, const Device &device, const QorOptions &options) {
    DesignEstimate d;
    d.dataflow = graph.dataflow.legal;
    std::vector<int64_t> finish(graph.filters.size(), 0);
    for (size_t i = 0; i < graph.filters.size(); i++) {
        FilterEstimate f = estimate_filter(graph, graph.filters[i], device, options);
        d.total.dsp += f.resources.dsp;
        d.total.lut += f.resources.lut;
        d.total.ff += f.resources.ff;
        d.total.bram18k += f.resources.bram18k;
        // With dataflow a filter starts when the filters it reads from have finished.
        int64_t start = 0;
        for (const std::string &r : graph.filters[i].reads) {
            if (!graph.has_buffer(r)) continue;
            for (int p : graph.buffer(r).producers) {
                if (p != static_cast<int>(i)) start = std::max(start, finish[p]);
            }
        }
        finish[i] = (d.dataflow ? start : (i ? finish[i - 1] : 0)) + f.latency;
        d.interval = d.dataflow ? std::max(d.interval, f.latency) : d.interval + f.latency;
        d.filters.push_back(f);
    }
    // Intermediate arrays of the main filter (ping-pong buffers under dataflow) and ROMs.
    for (const Buffer &b : graph.buffers) {
        if (b.kind == BufferKind::Constant) {
            ChannelEstimate c;
            c.name = b.name;
            c.kind = channel_kind_name(b.channel);
            c.words = b.size();
            Storage st = array_storage(b.size(), b.type.bits(), b.partition, device);
            c.bram18k = st.bram18k;
            d.total.bram18k += c.bram18k;
            d.total.ff += st.ff;
            d.channels.push_back(c);
            continue;
        }
        if (b.kind != BufferKind::Intermediate) continue;
        ChannelEstimate c;
        c.name = b.name;
        c.reason = b.channel_reason;
        if (b.is_stream()) {
            c.kind = "stream";  // with or without a line buffer (a local of the consumer)
            c.words = b.stream_depth;
            if (b.stream_depth * b.type.bits() > device.register_threshold_bits) {
                c.bram18k = bram18k_for(b.stream_depth, b.type.bits());
            }
            d.total.bram18k += c.bram18k;
            d.channels.push_back(c);
            continue;
        }
        int copies = b.channel == ChannelKind::PingPong ? 2 : 1;
        c.kind = channel_kind_name(b.channel);
        c.words = b.size() * copies;
        if (!b.is_scalar()) {
            Storage st = array_storage(b.size(), b.type.bits(), b.partition, device);
            c.bram18k = st.bram18k * copies;
            d.total.ff += st.ff * copies;
        }
        d.total.bram18k += c.bram18k;
        d.channels.push_back(c);
    }
    for (int64_t f : finish) d.latency = std::max(d.latency, f);
    // DSP efficiency: multiply-accumulates achieved per cycle over what the DSPs in use
    // could do, a MAC of a type costing the DSPs of its multiplier and adder.
    double macs = 0.0, dsp_per_mac = 0.0;
    for (const FilterEstimate &f : d.filters) {
        for (const auto &kv : f.executed) {
            if (kv.first != "fmul" && kv.first != "dmul" && kv.first.rfind("imul", 0) != 0) continue;
            macs += static_cast<double>(kv.second);
            std::string add = kv.first == "fmul" ? "fadd" : kv.first == "dmul" ? "dadd" : "";
            int cost = device.op(kv.first).dsp + (add.empty() ? 0 : device.op(add).dsp);
            dsp_per_mac = std::max(dsp_per_mac, static_cast<double>(cost));
        }
    }
    if (d.interval > 0 && d.total.dsp > 0 && dsp_per_mac > 0) {
        double achieved = macs / static_cast<double>(d.interval);
        d.dsp_efficiency = achieved / (static_cast<double>(d.total.dsp) / dsp_per_mac);
    }
    d.throughput = d.interval > 0 ? device.clock_mhz * 1e6 / static_cast<double>(d.interval) : 0.0;
    return d;
}

}  // namespace flowhls
