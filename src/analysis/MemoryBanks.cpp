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

bool read_only(const std::vector<ArrayAccess> &accesses) {
    return std::none_of(accesses.begin(), accesses.end(), [](const ArrayAccess &a) { return a.store; });
}

std::vector<ConstantOffsetGroup> groups_of(const std::vector<ArrayAccess> &accesses) {
    std::vector<Expr> indices;
    for (const ArrayAccess &a : accesses) indices.push_back(a.index);
    return constant_offset_groups(indices);
}

int64_t peak(const std::map<int64_t, int64_t> &m) {
    int64_t p = 0;
    for (const auto &kv : m) p = std::max(p, kv.second);
    return p;
}

}  // namespace

PortDemand port_demand(const std::vector<ArrayAccess> &accesses, const ArrayPartition &partition, int64_t size,
                       const Scope<Interval> *ranges) {
    PortDemand out;
    if (partition.enabled && partition.kind == PartitionKind::Complete) return out;
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

}  // namespace flowhls
