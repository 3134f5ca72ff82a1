// bind_lutram: local arrays of shallow banks bound to LUT RAM.
#include "transforms/BindLutram.h"
#include "analysis/MemoryModel.h"

namespace flowhls {

PassResult bind_lutram(FilterGraph &graph, const LutramOptions &options) {
    PassResult result;
    if (!options.device) return result;
    for (Filter &f : graph.filters) {
        for (LocalBuffer &l : f.locals) {
            if (l.scalar || l.uram || l.lutram) continue;
            if (!lutram_fits(l.size, l.type.bits(), l.partition, *options.device)) continue;
            l.lutram = true;
            result.changed = true;
        }
    }
    return result;
}

}  // namespace flowhls
