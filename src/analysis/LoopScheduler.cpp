// schedule_filter: a schedule-based model of how Vitis HLS pipelines and sequences loop nests.
#include "analysis/LoopScheduler.h"
#include "ir/IRBuild.h"
#include "ir/IRQueries.h"
#include "analysis/MemoryBanks.h"
#include "analysis/OperatorModel.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Vitis HLS extracts each pipelined loop of a function with other code into a module: its
// FSM adds two cycles around the loop, and a sequential loop spends one cycle per iteration
// on its own control plus two per module it calls. A function calling several modules spends
// the same two per call, less one: its last call's return overlaps its own end.
constexpr int64_t kModuleCycles = 2;
constexpr int64_t kCallCycles = 2;
constexpr int64_t kLoopIterationCycles = 1;
// The most iterations of enclosing loops an `if` holding a loop is evaluated for
// (Scheduler::taken_share); beyond it the branch is charged every time.
constexpr int64_t kMaxGuardPoints = 1 << 16;

// A scheduled access: when it completes, and its index with lets substituted.
struct Access {
    const Load *load = nullptr;
    const Store *store = nullptr;
    int64_t finish = 0;
    Expr index;
};

// The operator computing `e`, seen through strict_float() (the exact-math wrapper, a wire).
std::string producing_operator(const Expr &e) {
    const Call *c = e.as<Call>();
    if (c && c->is_intrinsic(Call::strict_float) && c->args.size() == 1) return producing_operator(c->args[0]);
    return operator_of(e);
}

bool depends_on(const Expr &e, const std::string &var) { return referenced_variables(e).count(var) > 0; }

// What the tool's constant folding and dead-code elimination leave of `s`: a select with a
// constant condition (an unrolled copy's) is the value it takes, and lets nothing uses go.
Stmt fold_constant_selects(const Stmt &s) {
    class Fold : public IRMutator {
        using IRMutator::visit;
        Expr visit(const Select *op) override {
            if (is_const(op->condition)) {
                return mutate(is_const_one(op->condition) ? op->true_value : op->false_value);
            }
            return IRMutator::visit(op);
        }
        Stmt visit(const LetStmt *op) override {
            Stmt body = mutate(op->body);
            if (!referenced_variables(body).count(op->name)) return body;
            Expr value = mutate(op->value);
            if (value.same_as(op->value) && body.same_as(op->body)) return op;
            return LetStmt::make(op->name, value, body);
        }
    } fold;
    return fold.mutate(s);
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
            if (!buffer_accesses(l->value).loads.empty()) break;
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

// Whether `index` advances by 0 or 1 per iteration of loop `inner`.
bool steps_by_at_most_one(const Expr &index, const std::string &inner) {
    Expr step = simplify(substitute(inner, Variable::make(Halide::Int(32), inner) + 1, index) - index);
    const IntImm *s = step.as<IntImm>();
    return s && (s->value == 1 || s->value == 0);
}

class Scheduler {
public:
    Scheduler(const Device &device, const FilterContext &context, const QorOptions &options)
        : device(device), context(context), options(options) {}

    // Latency of a statement executed once (loops run with their own estimates); pipelined
    // loops directly in it are counted in `calls`.
    int64_t run(const Stmt &s, std::vector<LoopEstimate> *loops);

    std::vector<Access> accesses;
    std::map<std::string, int> operations;
    std::map<std::string, int64_t> executed;
    std::vector<UnitDemand> regions;
    int64_t index_multipliers = 0;
    int64_t multiplier = 1;
    int calls = 0;             // pipelined loops (modules) called directly by the statement run
    // When set (the function's own scheduler), the windows of its top-level loops per buffer.
    std::map<std::string, std::pair<int64_t, int64_t>> *windows = nullptr;
    int64_t last_depth = 0;    // depth of the last pipelined loop scheduled
    // When set (the body of a dataflow loop, LoopDirective::dataflow): the latency of each loop
    // directly in the statement run (its tasks), in order.
    std::vector<int64_t> *tasks = nullptr;

    // With `source` set, times are path lengths from that load (recurrence delays, with the
    // operators' recurrence latencies; other values are off the path: -1).
    const Load *source = nullptr;
    // On such a path through a flattened nest: the loops (name -> last value) whose last
    // iteration moves the recurrence to another element (its index depends on an outer loop),
    // so a select taken only then is not part of the recurrence.
    std::map<std::string, int64_t> last_iterations;
    std::map<std::string, Expr> lets;
    // The sequential loops around the statement run, outermost first: name, min, trip (constant
    // bounds only), so that an `if` holding a loop can be charged for the iterations it is taken.
    struct Enclosing {
        std::string name;
        int64_t min = 0, trip = 0;
    };
    std::vector<Enclosing> enclosing;
    // In a pipeline whose target II exceeds one (its operators are shared across the II's
    // cycles): an operator fed directly by another of its kind (a chain of adders) takes the
    // core's forwarding latency, the recurrence latency, instead of its full latency.
    bool chain_forwarding = false;

private:
    const Device &device;
    const FilterContext &context;
    const QorOptions &options;
    std::map<std::string, int64_t> ready;
    std::map<std::string, std::string> let_ops;  // let name -> operator computing its value
    int64_t seq = 0;   // when the last sequential construct finished
    int64_t done = 0;  // latest completion so far

    int op_latency(const std::string &op) const {
        if (op.empty()) return 0;
        const OperatorCost &c = device.op(op);
        return source ? c.recurrence_latency : c.latency;
    }
    // Cycles of a load / store of an array of kind `k`.
    int read_latency(MemoryKind k) const;
    int write_latency(MemoryKind k) const;
    // On a recurrence path: whether the memory forwards a stored value to a later load of the
    // same element (arrays on chip), so the load and store take no time on the path.
    bool forwards(MemoryKind k) const { return k == MemoryKind::Register || k == MemoryKind::LocalRam; }

    int64_t expr_time(const Expr &e);
    // expr_time of a statement's expression; on a recurrence path an expression that neither
    // holds the source load nor reads a value on the path is off it (-1) without being
    // scheduled (a jammed body's path runs once per copy over every copy: docs/qor.md).
    int64_t stmt_time(const Expr &e) { return source && !reaches_path(e) ? -1 : expr_time(e); }
    bool reaches_path(const Expr &e) const;
    // Whether `cond` holds only in the last iteration of a loop of last_iterations (it is, or
    // is a conjunction with, `v == last`).
    bool in_last_iteration(const Expr &cond) const {
        if (const And *a = cond.as<And>()) return in_last_iteration(a->a) || in_last_iteration(a->b);
        const EQ *eq = cond.as<EQ>();
        if (!eq) return false;
        const Variable *v = eq->a.as<Variable>();
        const IntImm *c = eq->b.as<IntImm>();
        if (!v || !c) return false;
        auto it = last_iterations.find(v->name);
        return it != last_iterations.end() && it->second == c->value;
    }
    Expr resolved(const Expr &e) const {
        Expr r = e;
        for (int i = 0; i < 8; i++) {
            Expr next = substitute(lets, r);
            if (equal(next, r)) break;
            r = next;
        }
        return simplify(r);
    }
    void straight(const Stmt &s, std::vector<LoopEstimate> *loops);
    // The share of the enclosing loops' iterations in which `cond` holds, when it depends on
    // those loops only (lets resolved) and they have at most kMaxGuardPoints iterations
    // together: the iterations are enumerated. Otherwise 1 (taken every time).
    double taken_share(const Expr &cond) const;
    int64_t loop(const For *op, std::vector<LoopEstimate> *loops);
    int64_t pipeline(const For *op, const Nest &nest, int target_ii, std::vector<LoopEstimate> *loops);
    // A lower bound on a pipeline's II and what sets it.
    struct IIBound {
        int ii = 1;
        std::string reason;
        bool forwarded = false;  // recurrences: through a memory that forwards stores
    };
    // The II the memory ports (and m_axi ports) of the arrays accessed by `sched`'s one
    // iteration of the flattened `nest` allow.
    IIBound port_bound(const Scheduler &sched, const Nest &nest) const;
    // The II the recurrences of `body` (one iteration of the flattened `nest`, loop trips
    // `trips`) allow: ceil(delay / distance) of each store depending on a load of its element.
    IIBound recurrence_bound(const Scheduler &sched, const Nest &nest, const Stmt &body,
                             const std::vector<int64_t> &trips) const;
    int axi_bound(const std::vector<ArrayAccess> &accesses, const ArrayInfo &array, const std::string &inner,
                  std::string *reason) const;
    void merge(const Scheduler &sub) {
        for (const auto &kv : sub.operations) operations[kv.first] += kv.second;
        for (const auto &kv : sub.executed) executed[kv.first] += kv.second;
        regions.insert(regions.end(), sub.regions.begin(), sub.regions.end());
        index_multipliers += sub.index_multipliers;
    }
};


// Reads an m_axi adapter keeps in flight (Vitis's num_read_outstanding default).
constexpr int kAxiOutstanding = 16;

int Scheduler::read_latency(MemoryKind k) const {
    switch (k) {
    case MemoryKind::Register: return 0;
    case MemoryKind::Fifo: return device.op("fifo_read").latency;
    case MemoryKind::Axi: return axi_read_cycles(device);
    case MemoryKind::LocalRam:
    case MemoryKind::Port: return device.op("load").latency;
    }
    return 0;
}

// The II an m_axi array's accesses allow: reads whose address does not step by one element per
// iteration of the innermost loop are not bursts, and only kAxiOutstanding of them fit in the
// read latency; and the bytes of one iteration must pass the off-chip channel of the port
// (one channel per bundle: the part's bandwidth over its channels). A widened port
// (ArrayInfo::axi_width_bits) moves one beat per cycle on each of its read and write channels
// (axi_beats); a group of consecutive reads is a burst when it advances by its own length.
int Scheduler::axi_bound(const std::vector<ArrayAccess> &accesses, const ArrayInfo &array, const std::string &inner,
                         std::string *reason) const {
    int ii = 1;
    int64_t reads = 0, bytes = 0, requests = 0;
    bool bursts = true;
    const bool widened = array.axi_width_bits > array.bits;
    for (const ArrayAccess &a : accesses) {
        bytes += array.bits / 8;
        if (a.store) continue;
        reads++;
        if (!widened && !steps_by_at_most_one(a.index, inner)) bursts = false;
    }
    requests = reads;
    if (widened) {
        AxiBeats beats = axi_beats(accesses, array.bits, array.axi_width_bits, inner);
        bursts = beats.bursts;
        requests = beats.reads;
        int64_t most = std::max(beats.reads, beats.writes);
        if (most > ii) {
            ii = static_cast<int>(most);
            *reason = std::to_string(most) + " beats of " + std::to_string(array.axi_width_bits) + " bits per iteration (" +
                      std::to_string(reads) + (reads == 1 ? " read" : " reads") + ")";
        }
    }
    if (!bursts && reads > 0) {
        int lat = axi_read_cycles(device);
        int bound = static_cast<int>(ceil_div(requests * lat, kAxiOutstanding));
        if (bound > ii) {
            ii = bound;
            *reason = std::to_string(requests) + (requests == 1 ? " read" : " reads") + " per iteration without bursts, " + std::to_string(kAxiOutstanding) +
                      " outstanding over a " + std::to_string(lat) + "-cycle read latency";
        }
    }
    if (device.offchip_bandwidth_gbps > 0) {
        double per_cycle = device.offchip_bandwidth_gbps / std::max(1, device.offchip_channels) * 1000.0 /
                           device.clock_mhz;
        int bound = static_cast<int>(std::ceil(static_cast<double>(bytes) / per_cycle - 1e-9));
        if (bound > ii) {
            ii = bound;
            *reason = std::to_string(bytes) + " bytes per iteration over a " + device.offchip_kind + " channel of " +
                      std::to_string(static_cast<int>(per_cycle)) + " bytes per cycle";
        }
    }
    return ii;
}

int Scheduler::write_latency(MemoryKind k) const {
    switch (k) {
    case MemoryKind::Register: return 0;
    case MemoryKind::Fifo: return device.op("fifo_write").latency;
    case MemoryKind::Axi: return device.op("axi_write").latency;
    case MemoryKind::LocalRam:
    case MemoryKind::Port: return device.op("store").latency;
    }
    return 0;
}

int64_t Scheduler::expr_time(const Expr &e) {
    bool on_path_mode = source != nullptr;
    if (const Variable *v = e.as<Variable>()) {
        auto it = ready.find(v->name);
        if (it != ready.end()) return it->second;
        return on_path_mode ? -1 : seq;
    }
    if (is_const(e)) return on_path_mode ? -1 : seq;
    if (const Load *l = e.as<Load>()) {
        int64_t t = expr_time(l->index);
        MemoryKind kind = context.kind_of(l->name);
        bool counted = kind != MemoryKind::Register;
        operations["load"] += counted ? 1 : 0;
        executed["load"] += counted ? multiplier : 0;
        int64_t finish;
        if (on_path_mode) {
            if (l == source) {
                finish = forwards(kind) ? 0 : read_latency(kind);
            } else {
                finish = t < 0 ? -1 : t + read_latency(kind);
            }
        } else {
            finish = std::max(t, seq) + read_latency(kind);
        }
        // On a recurrence path only the stores' finish times are read (recurrence_bound).
        accesses.push_back({l, nullptr, finish, on_path_mode ? l->index : resolved(l->index)});
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
    if (const Select *sel = e.as<Select>()) {
        // A constant condition (an unrolled copy's) is a wire to one value.
        Expr cond = resolved(sel->condition);
        if (is_const(cond)) return expr_time(is_const_one(cond) ? sel->true_value : sel->false_value);
        if (on_path_mode && in_last_iteration(cond)) return expr_time(sel->false_value);
    }
    int64_t start = on_path_mode ? -1 : seq;
    for (const Expr &c : kids.out) start = std::max(start, expr_time(c));
    if (on_path_mode && start < 0) return -1;
    std::string op = operator_of(e, lets, &context.value_bits);
    if (context.fixed_data_bits > 0) op = fixed_operator_of(e, op, lets, context.fixed_data_bits, context.fixed_acc_bits);
    // An operation on immediates only (an unrolled copy's index arithmetic, `3 * 27`) is
    // folded by the tool: no operator.
    bool folded = !kids.out.empty();
    for (const Expr &c : kids.out) folded = folded && (c.as<IntImm>() || c.as<UIntImm>() || c.as<FloatImm>());
    if (folded) op.clear();
    if (!op.empty()) {
        operations[op]++;
        executed[op] += multiplier;
    }
    if (chain_forwarding && !op.empty() && !on_path_mode) {
        for (const Expr &c : kids.out) {
            const Variable *v = c.as<Variable>();
            auto it = v ? let_ops.find(v->name) : let_ops.end();
            if (producing_operator(c) == op || (it != let_ops.end() && it->second == op)) {
                return start + device.op(op).recurrence_latency;
            }
        }
    }
    return start + op_latency(op);
}

bool Scheduler::reaches_path(const Expr &e) const {
    class Reaches : public IRVisitor {
    public:
        const Scheduler &s;
        bool found = false;
        explicit Reaches(const Scheduler &s) : s(s) {}
        using IRVisitor::visit;
        void visit(const Load *op) override {
            if (op == s.source) found = true;
            if (!found) IRVisitor::visit(op);
        }
        void visit(const Variable *op) override {
            auto it = s.ready.find(op->name);
            if (it != s.ready.end() && it->second >= 0) found = true;
        }
    } find(*this);
    e.accept(&find);
    return find.found;
}

void Scheduler::straight(const Stmt &s, std::vector<LoopEstimate> *loops) {
    if (!s.defined()) return;
    if (const Block *b = s.as<Block>()) {
        straight(b->first, loops);
        straight(b->rest, loops);
    } else if (const LetStmt *l = s.as<LetStmt>()) {
        int64_t t = stmt_time(l->value);
        ready[l->name] = t;
        if (!source) let_ops[l->name] = producing_operator(l->value);
        lets[l->name] = l->value;
        done = std::max(done, t);
        straight(l->body, loops);
    } else if (const Store *st = s.as<Store>()) {
        int64_t t = std::max(stmt_time(st->value), stmt_time(st->index));
        MemoryKind kind = context.kind_of(st->name);
        if (kind != MemoryKind::Register) {
            operations["store"]++;
            executed["store"] += multiplier;
        }
        int64_t finish;
        if (source) {
            finish = t < 0 ? -1 : t + (forwards(kind) ? 0 : write_latency(kind));
        } else {
            finish = t + write_latency(kind);
        }
        accesses.push_back({nullptr, st, finish, source ? st->index : resolved(st->index)});
        done = std::max(done, finish);
    } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
        straight(pc->body, loops);
    } else if (const Evaluate *ev = s.as<Evaluate>()) {
        done = std::max(done, stmt_time(ev->value));
    } else if (const For *f = s.as<For>()) {
        int64_t start = std::max(seq, done);
        int64_t cycles = loop(f, loops);
        if (tasks) tasks->push_back(cycles);
        seq = start + cycles;
        done = seq;
        if (windows) {
            BufferAccesses acc = buffer_accesses(Stmt(f));
            for (const std::set<std::string> *names : {&acc.loads, &acc.stores}) {
                for (const std::string &n : *names) {
                    auto it = windows->find(n);
                    if (it == windows->end()) {
                        (*windows)[n] = {start, seq};
                    } else {
                        it->second.first = std::min(it->second.first, start);
                        it->second.second = std::max(it->second.second, seq);
                    }
                }
            }
        }
    } else if (const IfThenElse *i = s.as<IfThenElse>()) {
        int64_t cond = expr_time(i->condition);
        if (!contains_loop(i->then_case) && !contains_loop(i->else_case)) {
            // Straight-line branches (the guarded copies of an unroll whose factor does not
            // divide the trip): if-converted, scheduled like the code around them from the
            // condition on, not one after the other.
            int64_t saved = seq;
            seq = std::max(seq, cond);
            straight(i->then_case, loops);
            straight(i->else_case, loops);
            seq = saved;
            return;
        }
        int64_t start = std::max({seq, done, cond});
        // Both branches are scheduled (the tool if-converts them in pipelines); their memory
        // accesses and operators count. Outside a pipeline a branch holding a loop runs only
        // when taken: each branch is charged for the share of the enclosing sequential loops'
        // iterations that take it (a ring's fill loop copies a row in some iterations only).
        const double share = taken_share(i->condition);
        int64_t branch = 0;
        for (const Stmt &c : {i->then_case, i->else_case}) {
            if (!c.defined()) continue;
            const double taken = c.same_as(i->then_case) ? share : 1.0 - share;
            Scheduler sub(*this);
            sub.windows = nullptr;
            sub.tasks = nullptr;
            sub.accesses.clear();
            sub.operations.clear();
            sub.executed.clear();
            sub.regions.clear();
            sub.index_multipliers = 0;
            sub.calls = 0;
            const int64_t cycles = sub.run(c, loops);
            branch = std::max(branch, static_cast<int64_t>(std::ceil(static_cast<double>(cycles) * taken)));
            accesses.insert(accesses.end(), sub.accesses.begin(), sub.accesses.end());
            merge(sub);
            calls += sub.calls;
        }
        seq = start + branch;
        done = seq;
    } else if (const Allocate *a = s.as<Allocate>()) {
        straight(a->body, loops);
    }
}

double Scheduler::taken_share(const Expr &cond) const {
    Expr c = resolved(cond);
    std::set<std::string> vars = referenced_variables(c);
    std::vector<const Enclosing *> used;
    int64_t points = 1;
    for (const Enclosing &e : enclosing) {
        if (!vars.count(e.name)) continue;
        used.push_back(&e);
        vars.erase(e.name);
        points *= std::max<int64_t>(e.trip, 1);
        if (points > kMaxGuardPoints) return 1.0;
    }
    if (!vars.empty() || used.empty()) return 1.0;
    int64_t taken = 0;
    std::vector<int64_t> at(used.size(), 0);
    for (int64_t n = 0; n < points; n++) {
        Expr e = c;
        for (size_t k = 0; k < used.size(); k++) e = substitute(used[k]->name, int_const(used[k]->min + at[k]), e);
        e = simplify(e);
        if (!is_const(e)) return 1.0;
        if (is_const_one(e)) taken++;
        for (size_t k = used.size(); k-- > 0;) {
            if (++at[k] < used[k]->trip) break;
            at[k] = 0;
        }
    }
    return static_cast<double>(taken) / static_cast<double>(points);
}

int64_t Scheduler::run(const Stmt &s, std::vector<LoopEstimate> *loops) {
    seq = 0;
    done = 0;
    ready.clear();
    let_ops.clear();
    straight(s, loops);
    return std::max(seq, done);
}

// The product `e` (a constant index product) with constant offsets of its variable factor
// dropped: the copies of an unrolled loop, (v * U + u) * K, share one multiplier v * U * K and
// add the constants u * K.
Expr index_product_base(const Expr &e) {
    const Mul *m = e.as<Mul>();
    bool constant_b = m->b.as<IntImm>() != nullptr;
    Expr x = constant_b ? m->a : m->b;
    for (;;) {
        if (const Add *a = x.as<Add>()) {
            if (a->b.as<IntImm>()) { x = a->a; continue; }
            if (a->a.as<IntImm>()) { x = a->b; continue; }
        }
        if (const Sub *d = x.as<Sub>()) {
            if (d->b.as<IntImm>()) { x = d->a; continue; }
        }
        break;
    }
    return Mul::make(x, constant_b ? m->b : m->a);
}

// Integer products of the innermost variable of a flattened nest by a constant that is not a
// power of two (the row address of an array walked down its columns): the pipeline recomputes
// them every iteration with a DSP multiplier, one per product up to constant offsets (the
// unrolled copies of a loop share it). Products of outer variables change only when the inner
// loops wrap, and the tool updates them by addition.
int64_t count_index_multipliers(const Nest &nest, const Stmt &body) {
    if (nest.loops.size() < 2) return 0;
    std::set<std::string> outer = {nest.loops.back()->name};
    class Find : public IRVisitor {
    public:
        explicit Find(const std::set<std::string> &outer) : outer(outer) {}
        std::vector<Expr> found;

    private:
        const std::set<std::string> &outer;
        using IRVisitor::visit;
        void visit(const Mul *op) override {
            Expr e(op);
            if (is_constant_index_product(e)) {
                for (const std::string &v : referenced_variables(e)) {
                    if (outer.count(v)) {
                        Expr base = index_product_base(e);
                        bool seen = false;
                        for (const Expr &f : found) seen |= equal(f, base);
                        if (!seen) found.push_back(base);
                        break;
                    }
                }
            }
            IRVisitor::visit(op);
        }
    } find(outer);
    body.accept(&find);
    return static_cast<int64_t>(find.found.size());
}

Scheduler::IIBound Scheduler::port_bound(const Scheduler &sched, const Nest &nest) const {
    // Memory ports: loads and stores per bank of each array and iteration.
    // A load of an element an earlier store of the same iteration wrote takes the stored value
    // (the tool forwards it) and no port.
    std::map<std::string, std::vector<ArrayAccess>> per_array;
    for (size_t n = 0; n < sched.accesses.size(); n++) {
        const Access &a = sched.accesses[n];
        const std::string &name = a.load ? a.load->name : a.store->name;
        if (context.kind_of(name) == MemoryKind::Register) continue;
        bool forwarded = false;
        for (size_t m = 0; a.load && m < n && !forwarded; m++) {
            const Access &w = sched.accesses[m];
            forwarded = w.store && w.store->name == name && equal(w.index, a.index);
        }
        const bool pops = a.load && context.kind_of(name) == MemoryKind::Fifo;
        if (!forwarded) per_array[name].push_back(ArrayAccess{a.store != nullptr, a.index, pops});
    }
    Scope<Interval> ranges;
    for (const For *f : nest.loops) {
        Expr min = resolved(f->min);
        ranges.push(f->name, Interval(min, simplify(min + resolved(f->extent) - 1)));
    }
    IIBound bound;
    for (const auto &kv : per_array) {
        auto info = context.arrays.find(kv.first);
        ArrayInfo array = info == context.arrays.end() ? ArrayInfo() : info->second;
        PortDemand d = port_demand(kv.second, array.partition, array.size, &ranges);
        int ii = static_cast<int>(
            std::max(ceil_div(d.reads, device.read_ports), ceil_div(d.writes, device.write_ports)));
        // A widened m_axi port serves consecutive elements by beats (axi_bound), not one a cycle.
        if (array.kind == MemoryKind::Axi && array.axi_width_bits > array.bits) ii = 1;
        if (ii > bound.ii) {
            bound.ii = ii;
            const ArrayPartition &p = array.partition;
            std::string banks = p.enabled ? " on the busiest of " + std::to_string(p.factor) + " " +
                                                (p.kind == PartitionKind::Cyclic ? "cyclic" : "block") + " banks"
                                          : "";
            bound.reason = "memory ports of '" + kv.first + "' (" + std::to_string(d.reads) + " reads, " +
                           std::to_string(d.writes) + " writes per iteration" + banks + ")";
        }
        if (array.kind == MemoryKind::Axi) {
            std::string reason;
            int axi = axi_bound(kv.second, array, nest.loops.back()->name, &reason);
            if (axi > bound.ii) {
                bound.ii = axi;
                bound.reason = "m_axi port of '" + kv.first + "' (" + reason + ")";
            }
        }
    }
    return bound;
}

Scheduler::IIBound Scheduler::recurrence_bound(const Scheduler &sched, const Nest &nest, const Stmt &body,
                                               const std::vector<int64_t> &trips) const {
    // Recurrences: a store whose value depends on a load of the same element in an earlier
    // iteration: ceil(delay / distance), the delay measured with the operators' recurrence
    // latencies and the memory's forwarding (docs/qor.md).
    IIBound bound;
    for (const Access &l : sched.accesses) {
        if (!l.load) continue;
        // Distance: iterations of the loops inside the innermost loop the index does not
        // depend on.
        int64_t distance = 0;
        bool varies = false;
        for (int k = static_cast<int>(nest.loops.size()) - 1; k >= 0; k--) {
            if (!depends_on(l.index, nest.loops[k]->name)) {
                if (distance == 0) {
                    distance = 1;
                    for (size_t j = k + 1; j < nest.loops.size(); j++) distance *= trips[j];
                }
            } else if (distance > 0) {
                varies = true;
            }
        }
        if (distance == 0) continue;
        std::vector<const Store *> stores;
        for (const Access &s : sched.accesses) {
            if (s.store && s.store->name == l.load->name && equal(s.index, l.index)) stores.push_back(s.store);
        }
        if (stores.empty()) continue;
        // One path from the load serves every store of its element (an accumulator unrolled
        // in the pipeline stores it once per copy: a path per pair was cubic in the copies).
        Scheduler path(device, context, options);
        path.lets = lets;
        path.source = l.load;
        if (varies) {
            for (size_t k = 1; k < nest.loops.size(); k++) {
                const IntImm *mn = nest.loops[k]->min.as<IntImm>();
                if (mn && !depends_on(l.index, nest.loops[k]->name)) {
                    path.last_iterations[nest.loops[k]->name] = mn->value + trips[k] - 1;
                }
            }
        }
        path.run(body, nullptr);
        std::map<const Store *, int64_t> finish;
        for (const Access &a : path.accesses) {
            if (!a.store) continue;
            auto it = finish.emplace(a.store, a.finish).first;
            it->second = std::max(it->second, a.finish);
        }
        for (const Store *s : stores) {
            auto it = finish.find(s);
            int64_t delay = it == finish.end() ? -1 : std::max<int64_t>(-1, it->second);
            if (delay <= 0) continue;
            // A port (ap_memory) compares the address of the next iteration's load with the
            // pending store's when the address changes within the nest.
            MemoryKind kind = context.kind_of(l.load->name);
            if (varies && (kind == MemoryKind::Port || kind == MemoryKind::Axi)) delay += 1;
            int ii = static_cast<int>(ceil_div(delay, distance));
            if (ii > bound.ii) {
                bound.ii = ii;
                bound.forwarded = forwards(kind);
                bound.reason = "recurrence on '" + l.load->name + "' (delay " + std::to_string(delay) + ", distance " +
                             std::to_string(distance) + ")";
            }
        }
    }
    return bound;
}

int64_t Scheduler::pipeline(const For *op, const Nest &nest, int target_ii, std::vector<LoopEstimate> *loops) {
    LoopEstimate est;
    est.name = op->name;
    int64_t total = 1;
    std::vector<int64_t> trips;
    for (const For *f : nest.loops) {
        const IntImm *e = f->extent.as<IntImm>();
        trips.push_back(e ? e->value : 1);
        total *= trips.back();
    }
    Stmt body = nest.body;
    for (auto it = nest.lets.rbegin(); it != nest.lets.rend(); ++it) body = LetStmt::make(it->first, it->second, body);
    body = fold_constant_selects(body);
    Scheduler sched(device, context, options);
    sched.lets = lets;
    sched.multiplier = multiplier * total;
    sched.chain_forwarding = target_ii > 1;
    // One cycle per flattened level to step the nest's counters and select the indices.
    est.depth = static_cast<int>(sched.run(body, nullptr)) + static_cast<int>(nest.loops.size()) - 1;
    for (const auto &kv : sched.operations) operations[kv.first] += kv.second;
    for (const auto &kv : sched.executed) executed[kv.first] += kv.second;
    IIBound ports = port_bound(sched, nest), recurrence = recurrence_bound(sched, nest, body, trips);
    est.ii_resource = ports.ii;
    est.ii_recurrence = recurrence.ii;
    const std::string &port_reason = ports.reason, &rec_reason = recurrence.reason;
    bool rec_forwarded = recurrence.forwarded;
    est.pipelined = true;
    est.flattened_levels = static_cast<int>(nest.loops.size());
    est.trip = total;
    est.ii = std::max({target_ii, est.ii_resource, est.ii_recurrence});
    est.ii_reason = est.ii == est.ii_recurrence && est.ii > target_ii ? rec_reason
                    : est.ii == est.ii_resource && est.ii > target_ii ? port_reason
                                                                     : "target II";
    // Vitis's loop latency: (trip - 1) x II + depth - 1, a depth of at least two cycles.
    est.latency = std::max(est.depth, 2) + static_cast<int64_t>(est.ii) * (total - 1) - 1;
    // Operators: each instance serves II operations of one iteration. When an on-chip
    // recurrence sets the II, the adder on it is the short-latency core in logic ("fadd_fabric"
    // in the device table, when it has one: no DSP).
    bool fabric = est.ii == est.ii_recurrence && est.ii > target_ii && rec_forwarded;
    UnitDemand units;
    for (const auto &kv : sched.operations) {
        if (kv.first == "load" || kv.first == "store" || kv.second == 0) continue;
        std::string op = fabric && device.operators.count(kv.first + "_fabric") ? kv.first + "_fabric" : kv.first;
        units[op] = ceil_div(kv.second, est.ii);
    }
    regions.push_back(units);
    index_multipliers += count_index_multipliers(nest, body);
    last_depth = est.depth;
    calls++;
    if (loops) loops->push_back(est);
    return est.latency + kModuleCycles;
}

int64_t Scheduler::loop(const For *op, std::vector<LoopEstimate> *loops) {
    const IntImm *extent = op->extent.as<IntImm>();
    int64_t trip = extent ? std::max<int64_t>(extent->value, 0) : 1;
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
    if (target_ii > 0) return pipeline(op, nest, target_ii, loops);
    // Not pipelined: every iteration runs the body, plus the loop's control and the calls of
    // the modules in it.
    LoopEstimate est;
    est.name = op->name;
    Scheduler body(device, context, options);
    body.lets = lets;
    body.enclosing = enclosing;
    const IntImm *min = op->min.as<IntImm>();
    if (min && extent) body.enclosing.push_back({op->name, min->value, trip});
    body.multiplier = multiplier * trip;
    std::vector<LoopEstimate> inner;
    std::vector<int64_t> tasks;
    const bool dataflow = context.dataflow(op->name);
    if (dataflow) body.tasks = &tasks;
    int64_t body_latency = body.run(op->body, &inner);
    merge(body);
    // Code outside pipelines shares one instance of each operator.
    UnitDemand own;
    for (const auto &kv : body.operations) {
        if (kv.first != "load" && kv.first != "store" && kv.second > 0) own[kv.first] = 1;
    }
    bool has_pipeline = false;
    for (const LoopEstimate &l : inner) has_pipeline |= l.pipelined;
    if (!has_pipeline) regions.push_back(own);
    est.trip = trip;
    est.depth = static_cast<int>(body_latency + kLoopIterationCycles + kCallCycles * body.calls);
    est.latency = trip * est.depth + 1;
    if (dataflow && tasks.size() >= 2) {
        // A dataflow body (a block copy, then its computation): the tasks of consecutive
        // iterations overlap, each iteration's slowest task sets the interval, the others run
        // once more to fill and drain; the body's straight-line code stays in every iteration.
        int64_t sum = 0, slowest = 0;
        for (int64_t t : tasks) {
            sum += t;
            slowest = std::max(slowest, t);
        }
        const int64_t rest = std::max<int64_t>(0, body_latency - sum);
        est.depth = static_cast<int>(slowest + rest + kLoopIterationCycles + kCallCycles * body.calls);
        est.latency = (sum - slowest) + trip * est.depth + 1;
    }
    last_depth = body.last_depth;
    if (loops) {
        loops->push_back(est);
        loops->insert(loops->end(), inner.begin(), inner.end());
    }
    return est.latency;
}

}  // namespace

int64_t call_cycles(int64_t calls) { return calls >= 2 ? kCallCycles * calls - 1 : 0; }

bool FilterContext::dataflow(const std::string &name) const {
    if (!directives) return false;
    auto it = directives->find(name);
    return it != directives->end() && it->second.dataflow;
}

int FilterContext::pipeline_ii(const std::string &name) const {
    if (!directives) return 0;
    auto it = directives->find(name);
    return it == directives->end() ? 0 : it->second.pipeline_ii;
}

MemoryKind FilterContext::kind_of(const std::string &name) const {
    auto it = arrays.find(name);
    return it == arrays.end() ? MemoryKind::LocalRam : it->second.kind;
}

AxiBeats axi_beats(const std::vector<ArrayAccess> &accesses, int element_bits, int width_bits, const std::string &inner) {
    AxiBeats out;
    const int64_t per_beat = std::max(1, width_bits / std::max(1, element_bits));
    for (bool store : {false, true}) {
        std::vector<Expr> indices;
        for (const ArrayAccess &a : accesses) {
            if (a.store == store) indices.push_back(a.index);
        }
        for (const ConstantOffsetGroup &g : constant_offset_groups(indices)) {
            std::set<int64_t> offsets(g.offsets.begin(), g.offsets.end());
            const int64_t first = *offsets.begin(), span = *offsets.rbegin() - first + 1;
            Expr start = simplify(g.base + static_cast<int>(first));
            // What is known of the start's phase in a beat: its value mod gcd(modulus, E).
            Halide::Internal::ModulusRemainder mr = Halide::Internal::modulus_remainder(start);
            int64_t known = mr.modulus == 0 ? per_beat : std::gcd(mr.modulus, per_beat);
            int64_t beats = static_cast<int64_t>(offsets.size());  // nothing known: not widened
            if (known > 1) {
                beats = 0;
                for (int64_t phase = ((mr.remainder % known) + known) % known; phase < per_beat; phase += known) {
                    std::set<int64_t> blocks;
                    for (int64_t o : offsets) blocks.insert((phase + o - first) / per_beat);
                    beats = std::max(beats, static_cast<int64_t>(blocks.size()));
                }
            }
            (store ? out.writes : out.reads) += beats;
            if (store) continue;
            Expr step = simplify(substitute(inner, Variable::make(Halide::Int(32), inner) + 1, start) - start);
            const IntImm *s = step.as<IntImm>();
            bool contiguous = static_cast<int64_t>(offsets.size()) == span;
            if (!s || !(s->value == 0 || s->value == 1 || (contiguous && s->value == span))) out.bursts = false;
        }
    }
    return out;
}

FilterSchedule schedule_filter(const Stmt &body, const FilterContext &context, const Device &device,
                               const QorOptions &options) {
    Scheduler sched(device, context, options);
    FilterSchedule out;
    sched.windows = &out.windows;
    out.latency = sched.run(body, &out.loops);
    out.calls = sched.calls;
    out.latency += call_cycles(out.calls);
    out.operations = sched.operations;
    out.executed = sched.executed;
    out.regions = sched.regions;
    out.index_multipliers = sched.index_multipliers;
    out.tail = sched.last_depth + kModuleCycles;
    // Straight-line code outside any loop needs its own instances.
    return out;
}

int axi_read_cycles(const Device &device) {
    if (device.offchip_read_latency_ns <= 0) return device.op("axi_read").latency;
    return static_cast<int>(std::ceil(device.offchip_read_latency_ns * device.clock_mhz / 1000.0));
}

}  // namespace flowhls
