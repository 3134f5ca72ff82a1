// infer_partitions: ScaleHLS-style array partitions from the constant offsets of one pipeline iteration.
#include "transforms/InferPartitions.h"

#include "analysis/Device.h"
#include "analysis/HlsUnroll.h"
#include "ir/IRQueries.h"
#include "analysis/MemoryBanks.h"

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
// Rows of a flattened array read by unrolled copies need a cyclic factor coprime to the row
// stride, which can exceed kMaxBanks (64 rows 784 apart: 65 banks), and jammed copies (J rows
// of U consecutive elements: J x U banks; the exploration's kMaxCopies, src/dse/Space.h) more.
constexpr int64_t kMaxRowBanks = 1024;

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
    std::vector<std::pair<std::string, Interval>> ranges;  // of the loop variables
};

PortDemand demand(const AccessCase &c, PartitionKind kind, int64_t factor, int64_t size) {
    ArrayPartition p;
    p.enabled = factor > 1 || kind == PartitionKind::Complete;
    p.kind = kind;
    p.factor = factor;
    Scope<Interval> scope = range_scope(c.ranges);
    return port_demand(c.accesses, p, size, &scope);
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

// Whether some case's indices fall into fewer constant-offset groups once their clamps by
// constants are removed: a constant apart inside the borders only (padded reads), which the
// HLS tool cannot prove of the clamped indices, so they get no partition.
bool apart_but_for_clamps(const std::vector<AccessCase> &cases) {
    for (const AccessCase &c : cases) {
        if (c.groups.size() < 2) continue;
        std::vector<Expr> indices;
        for (const ArrayAccess &a : c.accesses) indices.push_back(simplify(without_constant_clamps(a.index)));
        if (constant_offset_groups(indices).size() < c.groups.size()) return true;
    }
    return false;
}

// Whether the partition leaves no bank needing more ports than the memory has (or than
// repeated accesses to one element need anyway) in any of the cases.
bool serves(const std::vector<AccessCase> &cases, PartitionKind kind, int64_t factor, int64_t size, const Device &memory) {
    for (const AccessCase &c : cases) {
        PortDemand d = demand(c, kind, factor, size);
        PortDemand e = same_element_demand(c.accesses);
        if (d.reads > std::max<int64_t>(memory.read_ports, e.reads) ||
            d.writes > std::max<int64_t>(memory.write_ports, e.writes)) {
            return false;
        }
    }
    return true;
}

Choice choose(const std::string &array, int64_t size, const std::vector<AccessCase> &cases, const Device &memory) {
    Choice out;
    // A partition fits when no bank needs more ports than the memory has (or than repeated
    // accesses to one element need anyway).
    auto fits = [&](PartitionKind kind, int64_t factor) { return serves(cases, kind, factor, size, memory); };
    if (fits(PartitionKind::Cyclic, 1)) return out;  // the ports suffice
    // The case that needs the most ports names the reason.
    const AccessCase *worst = &cases.front();
    int64_t worst_demand = 0;
    for (const AccessCase &c : cases) {
        PortDemand d = demand(c, PartitionKind::Cyclic, 1, size);
        if (d.reads + d.writes > worst_demand) {
            worst_demand = d.reads + d.writes;
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
        for (int64_t f = 2; f <= kMaxRowBanks; f++) {
            if (fits(PartitionKind::Cyclic, f)) return set(PartitionKind::Cyclic, f);
        }
    }
    if (small) return set(PartitionKind::Complete, 0);
    out.why_not = accesses + "; no cyclic (up to " + std::to_string(span <= kMaxCyclicSpan ? kMaxBanks : kMaxRowBanks) +
                  " banks) or block partition is proved to give each access its own bank";
    if (apart_but_for_clamps(cases)) {
        out.why_not += "; the indices are a constant apart but for clamps by constants (a padding's): their banks "
                       "differ inside the borders only, which the HLS tool cannot prove";
    }
    return out;
}

// Array name -> the cases of `f`'s pipelined loops that access it.
std::map<std::string, std::vector<AccessCase>> access_cases(const Filter &f) {
    std::map<std::string, std::vector<AccessCase>> cases;
    if (!f.body.defined()) return cases;
    for (const PipelineIteration &loop : pipeline_iterations(apply_hls_unroll(f.body, f.directives), f.directives)) {
        std::string description = replication_text(f.body, f.directives, loop.loop);
        for (const auto &kv : loop.arrays) {
            AccessCase c;
            c.description = description;
            c.accesses = kv.second;
            std::vector<Expr> indices;
            for (const ArrayAccess &a : kv.second) indices.push_back(a.index);
            c.groups = constant_offset_groups(indices);
            c.ranges = loop.ranges;
            cases[kv.first].push_back(std::move(c));
        }
    }
    return cases;
}

bool same(const ArrayPartition &a, const ArrayPartition &b) {
    return a.enabled == b.enabled && a.kind == b.kind && a.factor == b.factor && a.inferred == b.inferred &&
           a.reason == b.reason;
}

// Whether infer-partitions may set `p`: not a partition the user gave, nor one another pass
// chose for its own array (line-buffers: one bank per line, window registers).
bool ours(const ArrayPartition &p) { return !p.enabled || (p.inferred && p.reason.rfind("inferred: ", 0) == 0); }

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
        std::set<std::string> locals;
        for (const LocalBuffer &l : f.locals) locals.insert(l.name);
        for (auto &kv : access_cases(f)) {
            for (AccessCase &c : kv.second) {
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
        if (b.is_scalar() || b.is_stream()) continue;
        // Kernel arguments behind m_axi / axis ports live off chip: only a bram port has banks
        // (and a URAM-resident weight: its reader's on-chip copy is banked).
        bool argument = (b.kind == BufferKind::Input || b.kind == BufferKind::Output) && b.channel != ChannelKind::Resident;
        if (argument && b.interface.mode != InterfaceMode::Bram) continue;
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

std::vector<int64_t> serving_cyclic_factors(const Filter &filter, const std::string &array, int64_t size,
                                            const std::vector<int64_t> &factors) {
    const Device memory;  // as infer_partitions: 1 read + 1 write port per bank
    std::map<std::string, std::vector<AccessCase>> cases = access_cases(filter);
    auto it = cases.find(array);
    std::vector<int64_t> out;
    for (int64_t f : factors) {
        if (f >= 2 && (it == cases.end() || serves(it->second, PartitionKind::Cyclic, f, size, memory))) out.push_back(f);
    }
    return out;
}

bool partition_serves(const Filter &filter, const std::string &array, int64_t size, const ArrayPartition &partition) {
    const Device memory;  // as infer_partitions: 1 read + 1 write port per bank
    std::map<std::string, std::vector<AccessCase>> cases = access_cases(filter);
    auto it = cases.find(array);
    if (it == cases.end()) return true;
    for (const AccessCase &c : it->second) {
        Scope<Interval> scope = range_scope(c.ranges);
        PortDemand d = port_demand(c.accesses, partition, size, &scope);
        PortDemand e = same_element_demand(c.accesses);
        if (d.reads > std::max<int64_t>(memory.read_ports, e.reads) ||
            d.writes > std::max<int64_t>(memory.write_ports, e.writes)) {
            return false;
        }
    }
    return true;
}

}  // namespace flowhls
