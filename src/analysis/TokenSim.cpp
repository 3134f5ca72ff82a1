// simulate_tokens: filters as processes, streams as bounded FIFOs, buffers as whole tokens.
#include "analysis/TokenSim.h"

#include <algorithm>
#include <climits>

namespace flowhls {

namespace {

struct Channel {
    const Buffer *buffer;
    int producer, consumer;
    int64_t count;  // elements
    int64_t depth;  // streams only
    int64_t written = 0, read = 0;
};

struct Process {
    int64_t steps = 1;  // T: the largest stream count (1 without streams)
    int64_t done_steps = 0;
    bool started = false;
    std::vector<int> stream_in, stream_out, buffer_in;
    // A line-buffered consumer: one element of channel `line_channel` per step, its other
    // streams accessed when a window is complete.
    const LineBufferPlan *plan = nullptr;
    int line_channel = -1;
};

// Accesses of a stream with n elements after t of T steps.
int64_t accesses(int64_t t, int64_t n, int64_t steps) {
    return static_cast<int64_t>((static_cast<__int128>(t) * n) / steps);
}

// The largest t whose accesses stay within `allowed`.
int64_t steps_within(int64_t allowed, int64_t n, int64_t steps) {
    if (allowed >= n) return steps;
    return static_cast<int64_t>(((static_cast<__int128>(allowed) + 1) * steps - 1) / n);
}

// Accesses of channel `c` (n elements) by process `p` after t of its steps.
int64_t count_at(const Process &p, int c, int64_t n, int64_t t) {
    if (!p.plan) return accesses(t, n, p.steps);
    if (c == p.line_channel) return std::min(t, n);
    int64_t outputs = std::max<int64_t>(1, p.plan->outputs());
    return static_cast<int64_t>((static_cast<__int128>(p.plan->outputs_within(t)) * n) / outputs);
}

// The largest step count t of process `p` whose accesses of channel `c` stay within `allowed`.
int64_t within(const Process &p, int c, int64_t n, int64_t allowed) {
    if (!p.plan) return steps_within(allowed, n, p.steps);
    if (count_at(p, c, n, p.steps) <= allowed) return p.steps;
    int64_t lo = 0, hi = p.steps;  // count_at(lo) <= allowed < count_at(hi)
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (count_at(p, c, n, mid) <= allowed) lo = mid;
        else hi = mid;
    }
    return lo;
}

}  // namespace

TokenSimResult simulate_tokens(const FilterGraph &g, const std::map<std::string, int64_t> &depths) {
    std::vector<Channel> channels;
    std::vector<Process> procs(g.filters.size());
    for (const Buffer &b : g.buffers) {
        if (b.kind != BufferKind::Intermediate || b.is_scalar()) continue;
        if (b.producers.size() != 1 || b.consumers.empty()) continue;
        for (int c : b.consumers) {
            if (c == b.producers[0]) continue;
            auto d = depths.find(b.name);
            channels.push_back({&b, b.producers[0], c, b.size(), d != depths.end() ? d->second : b.stream_depth});
        }
    }
    for (size_t i = 0; i < channels.size(); i++) {
        Channel &c = channels[i];
        int id = static_cast<int>(i);
        if (c.buffer->is_stream()) {
            procs[c.producer].stream_out.push_back(id);
            procs[c.consumer].stream_in.push_back(id);
            procs[c.producer].steps = std::max(procs[c.producer].steps, c.count);
            procs[c.consumer].steps = std::max(procs[c.consumer].steps, c.count);
        } else {
            procs[c.consumer].buffer_in.push_back(id);
        }
    }
    for (size_t i = 0; i < channels.size(); i++) {
        const LineBufferPlan &plan = channels[i].buffer->line_buffer;
        if (channels[i].buffer->channel != ChannelKind::LineBufferedStream || plan.consumer != channels[i].consumer) continue;
        Process &p = procs[channels[i].consumer];
        p.plan = &plan;
        p.line_channel = static_cast<int>(i);
        p.steps = channels[i].count;
    }
    // Progress of every process and its channels at given step counts.
    auto apply = [&](const std::vector<int64_t> &done) {
        for (size_t p = 0; p < procs.size(); p++) {
            procs[p].done_steps = done[p];
            for (int c : procs[p].stream_in) channels[c].read = count_at(procs[p], c, channels[c].count, done[p]);
            for (int c : procs[p].stream_out) channels[c].written = count_at(procs[p], c, channels[c].count, done[p]);
        }
    };
    auto consistent = [&] {
        for (const Channel &c : channels) {
            if (!c.buffer->is_stream()) continue;
            if (c.read > c.written || c.written - c.read > c.depth) return false;
        }
        return true;
    };
    TokenSimResult result;
    std::vector<int64_t> previous_delta(procs.size(), -1);
    for (;;) {
        bool moved = false, all_done = true, events = false;
        std::vector<int64_t> before(procs.size());
        for (size_t p = 0; p < procs.size(); p++) before[p] = procs[p].done_steps;
        for (size_t p = 0; p < procs.size(); p++) {
            Process &pr = procs[p];
            if (pr.done_steps == pr.steps) continue;
            all_done = false;
            if (!pr.started) {
                bool ready = true;
                for (int c : pr.buffer_in) ready &= channels[c].written == channels[c].count;
                if (!ready) continue;
                pr.started = true;
                moved = true;
                events = true;
            }
            int64_t t = pr.steps;
            for (int c : pr.stream_in) t = std::min(t, within(pr, c, channels[c].count, channels[c].written));
            for (int c : pr.stream_out) {
                t = std::min(t, within(pr, c, channels[c].count, channels[c].read + channels[c].depth));
            }
            if (t <= pr.done_steps) continue;
            pr.done_steps = t;
            moved = true;
            for (int c : pr.stream_in) channels[c].read = count_at(pr, c, channels[c].count, t);
            for (int c : pr.stream_out) channels[c].written = count_at(pr, c, channels[c].count, t);
            if (t == pr.steps) {
                events = true;
                for (Channel &c : channels) {
                    if (c.producer == static_cast<int>(p) && !c.buffer->is_stream()) c.written = c.count;
                }
            }
        }
        if (all_done) return result;
        result.rounds++;
        if (moved) {
            // A steady state (the same progress as the round before, nothing started or
            // finished) repeats: jump over its repetitions while every FIFO stays consistent.
            std::vector<int64_t> delta(procs.size());
            for (size_t p = 0; p < procs.size(); p++) delta[p] = procs[p].done_steps - before[p];
            if (!events && delta == previous_delta) {
                int64_t repeats = INT64_MAX;
                for (size_t p = 0; p < procs.size(); p++) {
                    if (delta[p] > 0) repeats = std::min(repeats, (procs[p].steps - procs[p].done_steps) / delta[p] - 1);
                }
                std::vector<int64_t> now(procs.size());
                for (size_t p = 0; p < procs.size(); p++) now[p] = procs[p].done_steps;
                while (repeats >= 1) {
                    std::vector<int64_t> jumped(procs.size());
                    for (size_t p = 0; p < procs.size(); p++) jumped[p] = now[p] + repeats * delta[p];
                    apply(jumped);
                    if (consistent()) break;
                    repeats /= 2;
                    apply(now);
                }
            }
            previous_delta = delta;
            continue;
        }
        result.deadlock = true;
        for (size_t p = 0; p < procs.size(); p++) {
            const Process &pr = procs[p];
            if (pr.done_steps == pr.steps) continue;
            const std::string &name = g.filters[p].name;
            if (!pr.started) {
                for (int c : pr.buffer_in) {
                    if (channels[c].written < channels[c].count) {
                        result.blocked.push_back(name + " waits for buffer " + channels[c].buffer->name);
                    }
                }
                continue;
            }
            for (int c : pr.stream_in) {
                const Channel &ch = channels[c];
                if (count_at(pr, c, ch.count, pr.done_steps + 1) > ch.written) {
                    result.blocked.push_back(name + " waits for data on " + ch.buffer->name + " (" +
                                             std::to_string(ch.read) + " of " + std::to_string(ch.count) + " read)");
                }
            }
            for (int c : pr.stream_out) {
                const Channel &ch = channels[c];
                if (count_at(pr, c, ch.count, pr.done_steps + 1) > ch.read + ch.depth) {
                    result.blocked.push_back(name + " waits for space on " + ch.buffer->name + " (full at depth " +
                                             std::to_string(ch.depth) + ")");
                    result.full_streams.push_back(ch.buffer->name);
                }
            }
        }
        return result;
    }
}

}  // namespace flowhls
