// print_memory_ports / with_hls_unroll: the memory-port and HLS-unroll analyses as text.
#include "analysis/PrintAnalyses.h"
#include "analysis/HlsUnroll.h"
#include "analysis/MemoryBanks.h"

#include <sstream>

namespace flowhls {

using namespace Halide::Internal;

std::vector<std::string> analysis_names() { return {"hls-unroll", "memory-ports"}; }

std::string print_memory_ports(const FilterGraph &graph) {
    std::ostringstream os;
    for (const Filter &f : graph.filters) {
        if (!f.body.defined()) continue;
        for (const PipelineIteration &it : pipeline_iterations(apply_hls_unroll(f.body, f.directives), f.directives)) {
            Scope<Interval> ranges = range_scope(it.ranges);
            for (const auto &kv : it.arrays) {
                ArrayPartition partition;
                int64_t size = 0;
                for (const LocalBuffer &l : f.locals) {
                    if (l.name == kv.first) {
                        partition = l.partition;
                        size = l.size;
                    }
                }
                if (size == 0 && graph.has_buffer(kv.first)) {
                    partition = graph.buffer(kv.first).partition;
                    size = graph.buffer(kv.first).size();
                }
                if (size == 0) continue;
                int64_t reads = 0, writes = 0;
                for (const ArrayAccess &a : kv.second) (a.store ? writes : reads)++;
                PortDemand bank = port_demand(kv.second, partition, size, &ranges);
                PortDemand element = same_element_demand(kv.second);
                std::string banks = !partition.enabled ? "one bank"
                                    : partition.kind == PartitionKind::Complete
                                        ? "registers"
                                        : partition_kind_name(partition.kind) + " " + std::to_string(partition.factor) +
                                              (partition.reshape ? " banks reshaped into one" : " banks");
                os << "// memory-ports: filter " << f.name << " loop " << it.loop << ": " << kv.first << " (" << size
                   << " elements, " << banks << ") " << reads << " read(s) " << writes << " write(s) per iteration; busiest bank "
                   << bank.reads << " read(s) " << bank.writes << " write(s); one element " << element.reads << " read(s) "
                   << element.writes << " write(s)\n";
            }
        }
    }
    return os.str();
}

FilterGraph with_hls_unroll(const FilterGraph &graph) {
    FilterGraph out = graph;
    for (Filter &f : out.filters) {
        if (f.body.defined()) f.body = apply_hls_unroll(f.body, f.directives);
    }
    return out;
}

}  // namespace flowhls
