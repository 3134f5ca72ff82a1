// trivial_buffers: one-element buffers as scalar variables and return values.
#include "transforms/TrivialBuffers.h"

namespace flowhls {

PassResult trivial_buffers(FilterGraph &graph) {
    PassResult result;
    for (Filter &f : graph.filters) {
        for (LocalBuffer &l : f.locals) {
            if (l.size == 1 && !l.scalar) {
                l.scalar = true;
                result.changed = true;
            }
        }
    }
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
