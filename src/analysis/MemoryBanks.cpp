// port_demand / same_element_demand: accesses per bank from constant index offsets.
#include "analysis/MemoryBanks.h"

#include "ir/IRQueries.h"

#include <algorithm>
#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Whether reads of one address may share one port access: no access stores, none pops.
bool read_only(const std::vector<ArrayAccess> &accesses) {
    return std::none_of(accesses.begin(), accesses.end(), [](const ArrayAccess &a) { return a.store || a.pops; });
}

std::vector<ConstantOffsetGroup> groups_of(const std::vector<ArrayAccess> &accesses) {
    std::vector<Expr> indices;
    for (const ArrayAccess &a : accesses) indices.push_back(a.index);
    return constant_offset_groups(indices);
}

template <typename Bank>
int64_t peak(const std::map<Bank, int64_t> &m) {
    int64_t p = 0;
    for (const auto &kv : m) p = std::max(p, kv.second);
    return p;
}

// Walks a filter body (with HLS unrolls materialized) and records, for every loop with a
// pipeline directive, the loads and stores of one iteration (accesses inside loops that
// stayed loops are not per-iteration and are left out).
class CollectAccesses : public IRVisitor {
public:
    explicit CollectAccesses(const std::map<std::string, LoopDirective> &directives) : directives(directives) {}
    std::vector<PipelineIteration> loops;

private:
    using IRVisitor::visit;
    const std::map<std::string, LoopDirective> &directives;
    std::map<std::string, Expr> lets;
    std::vector<std::pair<std::string, Interval>> ranges;
    PipelineIteration *current = nullptr;
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
            PipelineIteration record;
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

// port_demand of an array partitioned in several dimensions: the constant-difference rule in
// each dimension. Accesses whose index in every partitioned dimension is a constant apart from
// the others' (one class) are placed in bank (offset mod factor) of each dimension; accesses of
// different classes may meet in any bank. Peaks are summed over classes.
PortDemand multi_dimensional_demand(const std::vector<ArrayAccess> &accesses, const ArrayPartition &partition,
                                    const Scope<Interval> &bounds) {
    bool once = read_only(accesses);
    size_t n = accesses.size();
    std::vector<std::vector<int64_t>> group(n), offset(n);  // per access: per partitioned dimension
    std::vector<std::vector<Expr>> per_dim(partition.dims.size());
    for (const ArrayAccess &a : accesses) {
        std::vector<Expr> idx = dimension_indices(a.index, partition.shape, bounds);
        for (size_t k = 0; k < partition.dims.size(); k++) per_dim[k].push_back(idx.at(partition.dims[k].dim));
    }
    for (size_t k = 0; k < partition.dims.size(); k++) {
        std::vector<ConstantOffsetGroup> groups = constant_offset_groups(per_dim[k]);
        for (size_t gi = 0; gi < groups.size(); gi++) {
            for (size_t m = 0; m < groups[gi].members.size(); m++) {
                group[groups[gi].members[m]].push_back(static_cast<int64_t>(gi));
                offset[groups[gi].members[m]].push_back(groups[gi].offsets[m]);
            }
        }
    }
    // The same address: the same flat group and offset.
    std::vector<std::pair<size_t, int64_t>> address(n);
    std::vector<ConstantOffsetGroup> flat = groups_of(accesses);
    for (size_t gi = 0; gi < flat.size(); gi++) {
        for (size_t m = 0; m < flat[gi].members.size(); m++) address[flat[gi].members[m]] = {gi, flat[gi].offsets[m]};
    }
    std::map<std::vector<int64_t>, std::map<std::vector<int64_t>, int64_t>> reads, writes;
    std::set<std::pair<size_t, int64_t>> seen;
    for (size_t i = 0; i < n; i++) {
        bool store = accesses[i].store;
        if (!store && once && !seen.insert(address[i]).second) continue;
        std::vector<int64_t> bank;
        for (size_t k = 0; k < partition.dims.size(); k++) {
            int64_t f = std::max<int64_t>(partition.dims[k].factor, 1);
            bank.push_back(((offset[i][k] % f) + f) % f);
        }
        (store ? writes : reads)[group[i]][bank]++;
    }
    PortDemand out;
    for (const auto &kv : reads) out.reads += peak(kv.second);
    for (const auto &kv : writes) out.writes += peak(kv.second);
    return out;
}

// port_demand of a reshaped array (ArrayPartition::reshape): one memory whose words hold
// `factor` elements, so accesses to one word share its port. Block: element i is in word
// i mod ceil(size / factor), so offsets of a group congruent modulo that share a word whatever
// the base; cyclic: word i / factor, which depends on the base's phase modulo the factor: where
// modulus_remainder gives it, offsets are placed in their words, else each distinct offset is
// taken to be its own word. Reads of an array the iteration never writes count once
// per word; index groups may meet.
PortDemand reshaped_demand(const std::vector<ArrayAccess> &accesses, const ArrayPartition &partition, int64_t size) {
    int64_t factor = std::max<int64_t>(partition.factor, 1);
    int64_t depth = std::max<int64_t>(1, (size + factor - 1) / factor);
    bool once = read_only(accesses);
    PortDemand out;
    for (const ConstantOffsetGroup &group : groups_of(accesses)) {
        std::set<int64_t> words;
        // Cyclic: the base's phase modulo the factor, when known, places each offset in its word.
        ModulusRemainder mr = modulus_remainder(simplify(group.base));
        bool aligned = mr.modulus > 0 && mr.modulus % factor == 0;
        int64_t phase = aligned ? ((mr.remainder % factor) + factor) % factor : 0;
        for (size_t m = 0; m < group.members.size(); m++) {
            int64_t off = group.offsets[m];
            int64_t word = partition.kind == PartitionKind::Block ? ((off % depth) + depth) % depth
                           : aligned                               ? floor_div(phase + off, factor)
                                                                   : off;
            if (accesses[group.members[m]].store) {
                out.writes++;
            } else if (!once || words.insert(word).second) {
                out.reads++;
            }
        }
    }
    return out;
}

}  // namespace

PortDemand port_demand(const std::vector<ArrayAccess> &accesses, const ArrayPartition &partition, int64_t size,
                       const Scope<Interval> *ranges) {
    PortDemand out;
    if (partition.enabled && partition.kind == PartitionKind::Complete) return out;
    if (partition.enabled && partition.reshape) return reshaped_demand(accesses, partition, size);
    if (partition.enabled && !partition.dims.empty()) {
        return multi_dimensional_demand(accesses, partition, ranges ? *ranges : Scope<Interval>::empty_scope());
    }
    int64_t factor = partition.enabled ? std::max<int64_t>(partition.factor, 1) : 1;
    bool once = read_only(accesses);
    for (const ConstantOffsetGroup &group : groups_of(accesses)) {
        std::map<int64_t, int64_t> reads, writes;
        int64_t unknown_reads = 0, unknown_writes = 0;
        std::set<int64_t> seen;
        int64_t min_offset = *std::min_element(group.offsets.begin(), group.offsets.end());
        Interval base_range = Interval::everything();
        if (factor > 1 && partition.kind == PartitionKind::Block && ranges) {
            base_range = bounds_of_expr_in_scope(simplify(group.base), *ranges);
        }
        for (size_t m = 0; m < group.members.size(); m++) {
            bool store = accesses[group.members[m]].store;
            int64_t off = group.offsets[m];
            if (!store && once && !seen.insert(off).second) continue;
            int64_t bank = 0;
            if (factor > 1 && partition.kind == PartitionKind::Cyclic) {
                bank = ((off % factor) + factor) % factor;
            } else if (factor > 1 && partition.kind == PartitionKind::Block) {
                int64_t block = std::max<int64_t>(1, (size + factor - 1) / factor);
                const int64_t *lo = base_range.has_lower_bound() ? as_const_int(base_range.min) : nullptr;
                const int64_t *hi = base_range.has_upper_bound() ? as_const_int(base_range.max) : nullptr;
                bool aligned = std::all_of(group.offsets.begin(), group.offsets.end(),
                                           [&](int64_t o) { return (o - min_offset) % block == 0; });
                if (lo && hi && floor_div(*lo + off, block) == floor_div(*hi + off, block)) {
                    bank = floor_div(*lo + off, block);  // the whole range lies in one block
                } else if (aligned) {
                    bank = (off - min_offset) / block;  // whole blocks apart: distinct blocks
                } else {
                    (store ? unknown_writes : unknown_reads)++;
                    continue;
                }
            }
            (store ? writes : reads)[bank]++;
        }
        out.reads += peak(reads) + unknown_reads;
        out.writes += peak(writes) + unknown_writes;
    }
    return out;
}

PortDemand same_element_demand(const std::vector<ArrayAccess> &accesses) {
    bool once = read_only(accesses);
    PortDemand out;
    for (const ConstantOffsetGroup &group : groups_of(accesses)) {
        std::map<int64_t, int64_t> reads, writes;
        for (size_t m = 0; m < group.members.size(); m++) {
            (accesses[group.members[m]].store ? writes : reads)[group.offsets[m]]++;
        }
        out.reads = std::max(out.reads, once ? std::min<int64_t>(peak(reads), 1) : peak(reads));
        out.writes = std::max(out.writes, peak(writes));
    }
    return out;
}

std::vector<PipelineIteration> pipeline_iterations(const Stmt &body,
                                                  const std::map<std::string, LoopDirective> &directives) {
    CollectAccesses collect(directives);
    if (body.defined()) body.accept(&collect);
    return collect.loops;
}

Scope<Interval> range_scope(const std::vector<std::pair<std::string, Interval>> &ranges) {
    Scope<Interval> scope;
    for (const auto &r : ranges) scope.push(r.first, r.second);
    return scope;
}

}  // namespace flowhls
