// compose_design: the dataflow and sequential composition rules of the QoR model.
#include "analysis/DesignTiming.h"
#include "analysis/MemoryModel.h"

#include <algorithm>
#include <set>

namespace flowhls {

namespace {

// Whether filters a and b access a common buffer: one of them writes it, or both read the same
// memory through its ports (two loops reading one array argument take turns on its port).
bool conflict(const Filter &a, const Filter &b) {
    std::set<std::string> a_all(a.reads.begin(), a.reads.end());
    a_all.insert(a.writes.begin(), a.writes.end());
    for (const std::string &x : b.reads) {
        if (a_all.count(x)) return true;
    }
    for (const std::string &x : b.writes) {
        if (a_all.count(x)) return true;
    }
    return false;
}

// Calls visit(buffer name, producer, whether the buffer is a FIFO) for each other filter that
// writes a buffer filter `i` reads.
template <typename Visit>
void for_each_producer(const FilterGraph &graph, size_t i, Visit visit) {
    for (const std::string &r : graph.filters[i].reads) {
        if (!graph.has_buffer(r)) continue;
        const Buffer &b = graph.buffer(r);
        bool fifo = channel_of(b).memory == MemoryKind::Fifo;
        for (int p : b.producers) {
            if (p != static_cast<int>(i)) visit(r, p, fifo);
        }
    }
}

}  // namespace

DesignTiming compose_design(const FilterGraph &graph, const std::vector<ProcessTiming> &filters) {
    DesignTiming t;
    size_t n = graph.filters.size();
    t.start.assign(n, 0);
    t.finish.assign(n, 0);
    bool dataflow = graph.dataflow.legal;
    // In a dataflow region, a process's own end: its start plus its latency, the waits on
    // its FIFOs left out. The report takes as the end of a ping-pong producer its own end or,
    // if later, the own end of a process writing one of its FIFOs (plus its tail): the wait
    // on its direct FIFO producers, not on theirs (`ready`).
    std::vector<int64_t> own_end(n, 0), ready(n, 0);
    for (size_t i = 0; i < n; i++) {
        int64_t start = 0, fifo_end = 0, fifo_producer_end = 0;
        if (dataflow) {
            for_each_producer(graph, i, [&](const std::string &, int p, bool fifo) {
                if (fifo) {
                    start = std::max(start, t.start[p]);
                    fifo_end = std::max(fifo_end, t.finish[p] + filters[i].tail);
                    fifo_producer_end = std::max(fifo_producer_end, own_end[p] + filters[i].tail);
                } else {
                    start = std::max(start, ready[p]);
                }
            });
        } else {
            if (i > 0) start = t.start[i - 1];
            for (size_t j = 0; j < i; j++) {
                if (conflict(graph.filters[i], graph.filters[j])) start = std::max(start, t.finish[j]);
            }
        }
        t.start[i] = start;
        own_end[i] = start + filters[i].latency;
        ready[i] = std::max(own_end[i], fifo_producer_end);
        t.finish[i] = std::max(own_end[i], fifo_end);
        t.interval = dataflow ? std::max(t.interval, filters[i].latency) : t.interval;
    }
    for (int64_t f : t.finish) t.latency = std::max(t.latency, f);
    if (!dataflow) t.interval = t.latency;
    t.stalled_latency = t.latency;
    if (!dataflow) return t;
    // With stalls: each consumer starts late enough to read every element of its FIFOs after
    // it is written (even rates within the access windows: the extremes bind).
    std::vector<int64_t> start(n, 0), finish(n, 0);
    for (size_t i = 0; i < n; i++) {
        int64_t s = 0;
        for_each_producer(graph, i, [&](const std::string &r, int p, bool fifo) {
            if (!fifo) {
                s = std::max(s, finish[p]);
                return;
            }
            auto w = filters[p].windows.find(r);
            auto c = filters[i].windows.find(r);
            if (w == filters[p].windows.end() || c == filters[i].windows.end()) return;
            // First and last element: written at start[p] + w, read at s + c.
            s = std::max(s, start[p] + w->second.first - c->second.first);
            s = std::max(s, start[p] + w->second.second - c->second.second);
        });
        start[i] = s;
        finish[i] = s + filters[i].latency;
        t.stalled_latency = std::max(t.stalled_latency, finish[i]);
    }
    return t;
}

}  // namespace flowhls
