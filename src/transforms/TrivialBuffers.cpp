// trivial_buffers: one-element buffers as scalar variables and (sequential tops) return values.
#include "transforms/TrivialBuffers.h"

namespace flowhls {

PassResult trivial_buffers(FilterGraph &graph, bool dataflow_target) {
    PassResult result;
    for (Filter &f : graph.filters) {
        for (LocalBuffer &l : f.locals) {
            if (l.size == 1 && !l.scalar) {
                l.scalar = true;
                result.changed = true;
            }
        }
    }
    if (dataflow_target) return result;
    for (Buffer &b : graph.buffers) {
        if (b.kind != BufferKind::Intermediate || b.size() != 1 || b.is_scalar() || b.producers.size() != 1) continue;
        Filter &producer = graph.filters[b.producers[0]];
        if (producer.writes.size() != 1 || !producer.returns.empty()) continue;
        b.channel = ChannelKind::Scalar;
        producer.returns = b.name;
        result.changed = true;
    }
    return result;
}

}  // namespace flowhls
