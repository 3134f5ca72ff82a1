// infer_partitions: ScaleHLS-style array partitions from the constant offsets of one pipeline iteration.
#include "transforms/InferPartitions.h"

#include "analysis/Device.h"
#include "analysis/HlsUnroll.h"
#include "analysis/IRQueries.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

// Arrays of at most this many elements whose accesses span them are partitioned completely.
constexpr int64_t kMaxCompleteElements = 64;
// Cyclic partitions are inferred for offsets spanning at most this many elements, and no
// partition has more banks than this.
constexpr int64_t kMaxCyclicSpan = 64;
constexpr int64_t kMaxBanks = 64;

struct ArrayAccess {
    bool store = false;
    Expr index;  // lets substituted, simplified
};

// The accesses of one iteration of one pipelined loop.
struct LoopAccesses {
    std::string loop;
    std::map<std::string, std::vector<ArrayAccess>> arrays;
    // Ranges of the loop variables around (and of) the pipelined loop.
    std::vector<std::pair<std::string, Interval>> ranges;
};

// Walks a filter body (with HLS unrolls materialized) and records, for every loop with a
// pipeline directive, the loads and stores of one iteration (accesses inside loops that
// stayed loops are not per-iteration and are left out).
class CollectAccesses : public IRVisitor {
public:
    explicit CollectAccesses(const std::map<std::string, LoopDirective> &directives) : directives(directives) {}
    std::vector<LoopAccesses> loops;

private:
    using IRVisitor::visit;
    const std::map<std::string, LoopDirective> &directives;
    std::map<std::string, Expr> lets;
    std::vector<std::pair<std::string, Interval>> ranges;
    LoopAccesses *current = nullptr;
    int nested = 0;

    Expr resolved(const Expr &e) const { return simplify(substitute(lets, e)); }

    template <typename LetNode, typename Body>
    void visit_let(const LetNode *op, const Body &body) {
        op->value.accept(this);
        auto saved = lets.find(op->name) == lets.end() ? Expr() : lets[op->name];
        lets[op->name] = substitute(lets, op->value);
        body.accept(this);
        if (saved.defined()) {
            lets[op->name] = saved;
        } else {
            lets.erase(op->name);
        }
    }
    void visit(const LetStmt *op) override { visit_let(op, op->body); }
    void visit(const Let *op) override { visit_let(op, op->body); }

    void record(const std::string &name, bool store, const Expr &index) {
        if (current && nested == 0) current->arrays[name].push_back(ArrayAccess{store, resolved(index)});
    }
    void visit(const Load *op) override {
        record(op->name, false, op->index);
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        record(op->name, true, op->index);
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        Expr min = resolved(op->min), extent = resolved(op->extent);
        ranges.emplace_back(op->name, Interval(min, simplify(min + extent - 1)));
        auto it = directives.find(op->name);
        if (!current && it != directives.end() && it->second.pipeline_ii > 0) {
            LoopAccesses record;
            record.loop = op->name;
            record.ranges = ranges;
            loops.push_back(std::move(record));
            current = &loops.back();
            op->body.accept(this);
            current = nullptr;
        } else {
            nested += current ? 1 : 0;
            op->body.accept(this);
            nested -= current ? 1 : 0;
        }
        ranges.pop_back();
    }
};

// How the HLS tool replicates the body of pipelined loop `name` (for the reason text).
std::string replication_text(const Stmt &body, const std::map<std::string, LoopDirective> &directives,
                             const std::string &name) {
    class Find : public IRVisitor {
    public:
        std::string name;
        const For *loop = nullptr;
        std::vector<const For *> inner;

    private:
        using IRVisitor::visit;
        void visit(const For *op) override {
            if (loop) {
                inner.push_back(op);
            } else if (op->name == name) {
                loop = op;
                op->body.accept(this);
                return;
            }
            IRVisitor::visit(op);
        }
    } find;
    find.name = name;
    body.accept(&find);
    std::string text = "loop " + name;
    if (!find.loop) return text;
    const IntImm *extent = find.loop->extent.as<IntImm>();
    int64_t u = extent ? hls_unroll_factor(directives, name, extent->value) : 1;
    if (u > 1) text += " unrolled by " + std::to_string(u);
    if (!find.inner.empty()) {
        std::vector<std::string> names;
        for (const For *f : find.inner) names.push_back(f->name);
        text += " (inner loop" + std::string(names.size() > 1 ? "s " : " ");
        for (size_t i = 0; i < names.size(); i++) text += (i ? ", " : "") + names[i];
        text += " unrolled)";
    }
    return text;
}

// One pipelined loop's accesses to one array, grouped by constant difference.
struct AccessCase {
    std::string description;  // "loop L unrolled by 4"
    std::vector<ArrayAccess> accesses;
    std::vector<ConstantOffsetGroup> groups;
    std::vector<Interval> base_bounds;  // per group: the base index over the iteration space
};

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Reads and writes per bank one iteration needs (summing over groups: indices not a constant
// apart may meet in any bank). Reads of an array the iteration does not write are counted
// once per address (the HLS tool reuses the value).
std::pair<int64_t, int64_t> demand(const AccessCase &c, PartitionKind kind, int64_t factor, int64_t size) {
    bool read_only = std::none_of(c.accesses.begin(), c.accesses.end(), [](const ArrayAccess &a) { return a.store; });
    int64_t reads = 0, writes = 0;
    for (size_t g = 0; g < c.groups.size(); g++) {
        const ConstantOffsetGroup &group = c.groups[g];
        std::map<int64_t, int64_t> bank_reads, bank_writes;
        std::set<int64_t> seen_reads;
        int64_t unknown_reads = 0, unknown_writes = 0;
        int64_t min_offset = *std::min_element(group.offsets.begin(), group.offsets.end());
        for (size_t m = 0; m < group.members.size(); m++) {
            const ArrayAccess &a = c.accesses[group.members[m]];
            int64_t off = group.offsets[m];
            if (!a.store && read_only && !seen_reads.insert(off).second) continue;
            int64_t bank = 0;
            if (factor > 1 && kind == PartitionKind::Cyclic) {
                bank = ((off % factor) + factor) % factor;
            } else if (factor > 1 && kind == PartitionKind::Block) {
                int64_t block = size / factor;
                // Proved bank: the access's whole range lies in one block.
                const Interval &b = c.base_bounds[g];
                const int64_t *lo = b.has_lower_bound() ? as_const_int(b.min) : nullptr;
                const int64_t *hi = b.has_upper_bound() ? as_const_int(b.max) : nullptr;
                bool all_aligned = std::all_of(group.offsets.begin(), group.offsets.end(),
                                               [&](int64_t o) { return (o - min_offset) % block == 0; });
                if (lo && hi && floor_div(*lo + off, block) == floor_div(*hi + off, block)) {
                    bank = floor_div(*lo + off, block);
                } else if (all_aligned) {
                    // Offsets a whole number of blocks apart: distinct blocks at every iteration.
                    bank = (off - min_offset) / block;
                } else {
                    // Unknown bank: it may meet every other access.
                    (a.store ? unknown_writes : unknown_reads)++;
                    continue;
                }
            }
            (a.store ? bank_writes : bank_reads)[bank]++;
        }
        auto peak = [](const std::map<int64_t, int64_t> &m) {
            int64_t p = 0;
            for (const auto &kv : m) p = std::max(p, kv.second);
            return p;
        };
        reads += peak(bank_reads) + unknown_reads;
        writes += peak(bank_writes) + unknown_writes;
    }
    return {reads, writes};
}

struct Choice {
    ArrayPartition partition;
    std::string why_not;  // when no partition helps
};

std::string offsets_text(const AccessCase &c, const std::string &array) {
    bool reads = false, writes = false;
    for (const ArrayAccess &a : c.accesses) (a.store ? writes : reads) = true;
    std::string verb = reads && writes ? "accesses " : writes ? "writes " : "reads ";
    std::string text = c.description + " " + verb + array + " at offsets ";
    for (size_t g = 0; g < c.groups.size(); g++) {
        std::set<int64_t> offs(c.groups[g].offsets.begin(), c.groups[g].offsets.end());
        int64_t lo = *offs.begin();
        if (g) text += " and ";
        bool first = true;
        for (int64_t o : offs) {
            text += (first ? "" : ",") + std::to_string(o - lo);
            first = false;
        }
    }
    if (c.groups.size() > 1) text += " (" + std::to_string(c.groups.size()) + " index groups not a constant apart)";
    return text + " per iteration";
}

// Reads and writes of the single most accessed element (no partition separates them).
std::pair<int64_t, int64_t> same_element(const AccessCase &c) {
    bool read_only = std::none_of(c.accesses.begin(), c.accesses.end(), [](const ArrayAccess &a) { return a.store; });
    std::map<std::pair<size_t, int64_t>, std::pair<int64_t, int64_t>> per_element;
    for (size_t g = 0; g < c.groups.size(); g++) {
        for (size_t m = 0; m < c.groups[g].members.size(); m++) {
            auto &n = per_element[{g, c.groups[g].offsets[m]}];
            (c.accesses[c.groups[g].members[m]].store ? n.second : n.first)++;
        }
    }
    std::pair<int64_t, int64_t> peak{0, 0};
    for (const auto &kv : per_element) {
        peak.first = std::max(peak.first, read_only ? std::min<int64_t>(kv.second.first, 1) : kv.second.first);
        peak.second = std::max(peak.second, kv.second.second);
    }
    return peak;
}

Choice choose(const std::string &array, int64_t size, const std::vector<AccessCase> &cases, const Device &memory) {
    Choice out;
    // A partition fits when no bank needs more ports than the memory has (or than repeated
    // accesses to one element need anyway).
    auto fits = [&](PartitionKind kind, int64_t factor) {
        for (const AccessCase &c : cases) {
            auto d = demand(c, kind, factor, size);
            auto e = same_element(c);
            if (d.first > std::max<int64_t>(memory.read_ports, e.first) ||
                d.second > std::max<int64_t>(memory.write_ports, e.second)) {
                return false;
            }
        }
        return true;
    };
    if (fits(PartitionKind::Cyclic, 1)) return out;  // the ports suffice
    // The case that needs the most ports names the reason.
    const AccessCase *worst = &cases.front();
    int64_t worst_demand = 0;
    for (const AccessCase &c : cases) {
        auto d = demand(c, PartitionKind::Cyclic, 1, size);
        if (d.first + d.second > worst_demand) {
            worst_demand = d.first + d.second;
            worst = &c;
        }
    }
    std::string accesses = offsets_text(*worst, array);
    int64_t span = 1, stride = 0, rows = 1;
    for (const AccessCase &c : cases) {
        for (const ConstantOffsetGroup &g : c.groups) {
            auto mm = std::minmax_element(g.offsets.begin(), g.offsets.end());
            span = std::max(span, *mm.second - *mm.first + 1);
            std::set<int64_t> distinct(g.offsets.begin(), g.offsets.end());
            rows = std::max<int64_t>(rows, static_cast<int64_t>(distinct.size()));
            for (int64_t o : g.offsets) stride = std::gcd(stride, o - *mm.first);
        }
    }
    auto set = [&](PartitionKind kind, int64_t factor) {
        out.partition.enabled = true;
        out.partition.kind = kind;
        out.partition.factor = kind == PartitionKind::Complete ? 0 : factor;
        out.partition.inferred = true;
        out.partition.reason = "inferred: " + accesses;
        return out;
    };
    bool small = size <= kMaxCompleteElements;
    if (small && span >= size) return set(PartitionKind::Complete, 0);
    if (span <= kMaxCyclicSpan) {
        for (int64_t f = 2; f <= std::min(span, kMaxBanks); f++) {
            if (!fits(PartitionKind::Cyclic, f)) continue;
            if (small && f >= size) return set(PartitionKind::Complete, 0);
            return set(PartitionKind::Cyclic, f);
        }
    } else {
        // Rows of a flattened array: one block per accessed row, else one block per row.
        std::vector<int64_t> candidates = {rows};
        if (stride > 0 && size % stride == 0) candidates.push_back(size / stride);
        for (int64_t f : candidates) {
            if (f > 1 && f <= kMaxBanks && size % f == 0 && fits(PartitionKind::Block, f)) {
                return set(PartitionKind::Block, f);
            }
        }
        for (int64_t f = 2; f <= kMaxBanks; f++) {
            if (fits(PartitionKind::Cyclic, f)) return set(PartitionKind::Cyclic, f);
        }
    }
    if (small) return set(PartitionKind::Complete, 0);
    out.why_not = accesses + "; no cyclic (up to " + std::to_string(kMaxBanks) +
                  " banks) or block partition is proved to give each access its own bank";
    return out;
}

bool same(const ArrayPartition &a, const ArrayPartition &b) {
    return a.enabled == b.enabled && a.kind == b.kind && a.factor == b.factor && a.inferred == b.inferred &&
           a.reason == b.reason;
}

// Whether infer-partitions may set `p` (not a partition the user gave).
bool ours(const ArrayPartition &p) { return !p.enabled || p.inferred; }

}  // namespace

PassResult infer_partitions(FilterGraph &graph) {
    PassResult result;
    // The memory model: block RAM with 1 read + 1 write port (the device library's default).
    const Device memory;
    // Array name -> cases, for buffers of the graph; per filter for its locals.
    std::map<std::string, std::vector<AccessCase>> buffer_cases;
    std::vector<std::map<std::string, std::vector<AccessCase>>> local_cases(graph.filters.size());
    for (size_t fi = 0; fi < graph.filters.size(); fi++) {
        const Filter &f = graph.filters[fi];
        if (!f.body.defined()) continue;
        Stmt body = apply_hls_unroll(f.body, f.directives);
        CollectAccesses collect(f.directives);
        body.accept(&collect);
        std::set<std::string> locals;
        for (const LocalBuffer &l : f.locals) locals.insert(l.name);
        for (const LoopAccesses &loop : collect.loops) {
            std::string description = replication_text(f.body, f.directives, loop.loop);
            for (const auto &kv : loop.arrays) {
                AccessCase c;
                c.description = description;
                c.accesses = kv.second;
                std::vector<Expr> indices;
                for (const ArrayAccess &a : kv.second) indices.push_back(a.index);
                c.groups = constant_offset_groups(indices);
                Scope<Interval> scope;
                for (const auto &r : loop.ranges) scope.push(r.first, r.second);
                for (const ConstantOffsetGroup &g : c.groups) {
                    c.base_bounds.push_back(bounds_of_expr_in_scope(simplify(g.base), scope));
                }
                if (locals.count(kv.first)) {
                    local_cases[fi][kv.first].push_back(std::move(c));
                } else if (graph.has_buffer(kv.first)) {
                    buffer_cases[kv.first].push_back(std::move(c));
                }
            }
        }
    }
    auto update = [&](ArrayPartition &p, int64_t size, const std::string &name, const std::vector<AccessCase> *cases) {
        if (!ours(p)) return;
        ArrayPartition next;
        if (cases && !cases->empty()) {
            Choice c = choose(name, size, *cases, memory);
            next = c.partition;
            if (!c.partition.enabled && !c.why_not.empty()) {
                next.inferred = true;
                next.reason = "not partitioned: " + c.why_not;
            }
        }
        if (!same(p, next)) {
            p = next;
            result.changed = true;
        }
    };
    for (Buffer &b : graph.buffers) {
        if (b.scalar || b.stream) continue;
        auto it = buffer_cases.find(b.name);
        update(b.partition, b.size(), b.name, it == buffer_cases.end() ? nullptr : &it->second);
    }
    for (size_t fi = 0; fi < graph.filters.size(); fi++) {
        for (LocalBuffer &l : graph.filters[fi].locals) {
            if (l.scalar) continue;
            auto it = local_cases[fi].find(l.name);
            update(l.partition, l.size, l.name, it == local_cases[fi].end() ? nullptr : &it->second);
        }
    }
    return result;
}

}  // namespace flowhls
