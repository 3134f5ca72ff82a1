// check_dataflow: the dataflow verdict of the main filter and the channel of its arrays.
#include "transforms/CheckDataflow.h"
#include "analysis/DataflowLegality.h"

namespace flowhls {

PassResult check_dataflow(FilterGraph &graph) {
    DataflowVerdict before = graph.dataflow;
    graph.dataflow = check_dataflow_legality(graph);
    if (graph.dataflow_disabled) {
        graph.dataflow.legal = false;
        graph.dataflow.reason = "the dataflow directive turns the dataflow region of " + graph.name + " off";
    }
    PassResult r;
    r.changed = before.checked != graph.dataflow.checked || before.legal != graph.dataflow.legal ||
                before.reason != graph.dataflow.reason;
    for (Buffer &b : graph.buffers) {
        if (b.channel != ChannelKind::Array && b.channel != ChannelKind::PingPong) continue;
        ChannelKind c = graph.dataflow.legal ? ChannelKind::PingPong : ChannelKind::Array;
        r.changed |= c != b.channel;
        b.channel = c;
    }
    return r;
}

}  // namespace flowhls
