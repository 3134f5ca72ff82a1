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
    // A consumer reading channel `line_channel` through a ring of rows: each iteration k of its
    // row loop first reads the rows up to F(k) (one element per step), then takes
    // `ring_compute` steps in which it accesses its other streams; the rows no iteration reads
    // come last.
    const WindowBufferPlan *ring = nullptr;
    int64_t ring_compute = 1;
};

// Steps of the row iterations' computations among the first t steps of a ring consumer.
int64_t ring_compute_done(const Process &p, int64_t t) {
    const WindowBufferPlan &w = *p.ring;
    auto start = [&](int64_t k) { return w.rows_before(k) * w.row_words() + k * p.ring_compute; };
    int64_t lo = -1, hi = w.out_rows;  // start(lo) <= t < start(hi)
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (start(mid) <= t) lo = mid;
        else hi = mid;
    }
    if (lo < 0) return 0;
    return lo * p.ring_compute + std::min(p.ring_compute, t - start(lo));
}

// floor((a x b + c) / d) for a, b >= 0, c >= -1, d > 0: in 64 bits when a x b + c fits (the
// common case; the same quotient), else in 128.
int64_t muldiv(int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t product;
    if (!__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(product, c, &product)) return product / d;
    return static_cast<int64_t>((static_cast<__int128>(a) * b + c) / d);
}

// Accesses of a stream with n elements after t of T steps.
int64_t accesses(int64_t t, int64_t n, int64_t steps) { return muldiv(t, n, 0, steps); }

// The largest t whose accesses stay within `allowed`.
int64_t steps_within(int64_t allowed, int64_t n, int64_t steps) {
    if (allowed >= n) return steps;
    return muldiv(allowed + 1, steps, -1, n);
}

// Accesses of channel `c` (n elements) by process `p` after t of its steps.
int64_t count_at(const Process &p, int c, int64_t n, int64_t t) {
    if (p.ring) {
        int64_t done = ring_compute_done(p, t);
        if (c == p.line_channel) return std::min(n, t - done);
        int64_t all = std::max<int64_t>(1, p.ring->out_rows * p.ring_compute);
        return muldiv(done, n, 0, all);
    }
    if (!p.plan) return accesses(t, n, p.steps);
    if (c == p.line_channel) return std::min(t, n);
    int64_t outputs = std::max<int64_t>(1, p.plan->outputs());
    return muldiv(p.plan->outputs_within(t), n, 0, outputs);
}

// within() of a ring consumer in closed form (count_at inverted; it would take a binary search
// over the steps of one over the rows per call). Its line channel: `allowed` elements read and
// the row iterations k whose rows they cover (rows_before(k) x row_words <= allowed) computed.
// Its other channels: accesses proportional to the row computations done, which run for
// `ring_compute` steps after the rows of each iteration are read.
int64_t ring_within(const Process &p, int c, int64_t n, int64_t allowed) {
    const WindowBufferPlan &w = *p.ring;
    const int64_t rc = p.ring_compute, rows = w.out_rows;
    if (allowed >= n) return p.steps;
    if (c == p.line_channel) {
        int64_t q = allowed / std::max<int64_t>(1, w.row_words()), k = rows - 1;
        if (q < w.height) {
            int64_t need = q - 1 - w.last_row;  // stride * k <= need
            if (need < 0) k = -1;
            else if (w.stride > 0) k = std::min(k, need / w.stride);
        }
        return std::min(p.steps, allowed + (k + 1) * rc);
    }
    int64_t all = std::max<int64_t>(1, rows * rc);
    int64_t done = muldiv(allowed + 1, all, -1, n);
    if (done >= all) return p.steps;
    int64_t k = done / rc;
    return std::min(p.steps, w.rows_before(k) * w.row_words() + k * rc + done % rc);
}

// The largest step count t of process `p` whose accesses of channel `c` stay within `allowed`.
int64_t within(const Process &p, int c, int64_t n, int64_t allowed) {
    if (!p.plan && !p.ring) return steps_within(allowed, n, p.steps);
    if (p.ring && p.ring->out_rows > 0 && p.ring_compute > 0 && n > 0) {
        return ring_within(p, c, n, allowed);
    }
    if (count_at(p, c, n, p.steps) <= allowed) return p.steps;
    int64_t lo = 0, hi = p.steps;  // count_at(lo) <= allowed < count_at(hi)
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (count_at(p, c, n, mid) <= allowed) lo = mid;
        else hi = mid;
    }
    return lo;
}

// The processes and channels of one graph, advanced round by round.
class Simulation {
public:
    Simulation(const FilterGraph &g, const std::map<std::string, int64_t> &depths) : g_(g), procs_(g.filters.size()) {
        build_channels(depths);
        attach_line_buffers();
    }

    TokenSimResult run() {
        TokenSimResult result;
        std::vector<int64_t> previous_delta(procs_.size(), -1);
        for (;;) {
            std::vector<int64_t> before = done_steps();
            Round r = advance();
            if (r.all_done) return result;
            result.rounds++;
            if (!r.moved) {
                result.deadlock = true;
                explain_deadlock(&result);
                return result;
            }
            std::vector<int64_t> delta = done_steps();
            for (size_t p = 0; p < procs_.size(); p++) delta[p] -= before[p];
            if (!r.events && delta == previous_delta) jump_steady_state(delta);
            previous_delta = delta;
        }
    }

private:
    struct Round {
        bool moved = false, all_done = true, events = false;
    };

    // One channel per (producer, consumer) pair of an intermediate buffer.
    void build_channels(const std::map<std::string, int64_t> &depths) {
        for (const Buffer &b : g_.buffers) {
            if (b.kind != BufferKind::Intermediate || b.is_scalar()) continue;
            if (b.producers.size() != 1 || b.consumers.empty()) continue;
            for (int c : b.consumers) {
                if (c == b.producers[0]) continue;
                auto d = depths.find(b.name);
                channels_.push_back({&b, b.producers[0], c, b.size(), d != depths.end() ? d->second : b.stream_depth});
            }
        }
        for (size_t i = 0; i < channels_.size(); i++) {
            Channel &c = channels_[i];
            int id = static_cast<int>(i);
            if (c.buffer->is_stream()) {
                procs_[c.producer].stream_out.push_back(id);
                procs_[c.consumer].stream_in.push_back(id);
                procs_[c.producer].steps = std::max(procs_[c.producer].steps, c.count);
                procs_[c.consumer].steps = std::max(procs_[c.consumer].steps, c.count);
            } else {
                procs_[c.consumer].buffer_in.push_back(id);
            }
        }
    }

    // A line-buffered consumer steps once per element of its line-buffered channel.
    void attach_line_buffers() {
        for (size_t i = 0; i < channels_.size(); i++) {
            const LineBufferPlan &plan = channels_[i].buffer->line_buffer;
            if (channels_[i].buffer->channel != ChannelKind::LineBufferedStream || plan.consumer != channels_[i].consumer) {
                continue;
            }
            Process &p = procs_[channels_[i].consumer];
            p.plan = &plan;
            p.line_channel = static_cast<int>(i);
            p.steps = channels_[i].count;
        }
        for (size_t i = 0; i < channels_.size(); i++) {
            const WindowBufferPlan &ring = channels_[i].buffer->window_buffer;
            if (channels_[i].buffer->channel != ChannelKind::WindowBufferedStream || ring.consumer != channels_[i].consumer) {
                continue;
            }
            Process &p = procs_[channels_[i].consumer];
            if (p.plan) continue;  // one buffered channel per process is modelled
            p.ring = &ring;
            p.line_channel = static_cast<int>(i);
            // A row iteration's steps: its share of the largest other stream.
            int64_t rows = std::max<int64_t>(1, ring.out_rows), other = 1;
            for (int c : p.stream_in) other = c == p.line_channel ? other : std::max(other, channels_[c].count);
            for (int c : p.stream_out) other = std::max(other, channels_[c].count);
            p.ring_compute = std::max<int64_t>(1, (other + rows - 1) / rows);
            p.steps = channels_[i].count + rows * p.ring_compute;
        }
    }

    std::vector<int64_t> done_steps() const {
        std::vector<int64_t> d(procs_.size());
        for (size_t p = 0; p < procs_.size(); p++) d[p] = procs_[p].done_steps;
        return d;
    }

    // Every process as far as its inputs and its output FIFOs' space allow.
    Round advance() {
        Round r;
        for (size_t p = 0; p < procs_.size(); p++) {
            Process &pr = procs_[p];
            if (pr.done_steps == pr.steps) continue;
            r.all_done = false;
            if (!pr.started) {
                bool ready = true;
                for (int c : pr.buffer_in) ready &= channels_[c].written == channels_[c].count;
                if (!ready) continue;
                pr.started = true;
                r.moved = true;
                r.events = true;
            }
            int64_t t = pr.steps;
            for (int c : pr.stream_in) t = std::min(t, within(pr, c, channels_[c].count, channels_[c].written));
            for (int c : pr.stream_out) {
                t = std::min(t, within(pr, c, channels_[c].count, channels_[c].read + channels_[c].depth));
            }
            if (t <= pr.done_steps) continue;
            pr.done_steps = t;
            r.moved = true;
            for (int c : pr.stream_in) channels_[c].read = count_at(pr, c, channels_[c].count, t);
            for (int c : pr.stream_out) channels_[c].written = count_at(pr, c, channels_[c].count, t);
            if (t == pr.steps) {
                r.events = true;
                for (Channel &c : channels_) {
                    if (c.producer == static_cast<int>(p) && !c.buffer->is_stream()) c.written = c.count;
                }
            }
        }
        return r;
    }

    // Progress of every process and its channels at given step counts.
    void apply(const std::vector<int64_t> &done) {
        for (size_t p = 0; p < procs_.size(); p++) {
            procs_[p].done_steps = done[p];
            for (int c : procs_[p].stream_in) channels_[c].read = count_at(procs_[p], c, channels_[c].count, done[p]);
            for (int c : procs_[p].stream_out) channels_[c].written = count_at(procs_[p], c, channels_[c].count, done[p]);
        }
    }

    bool consistent() const {
        for (const Channel &c : channels_) {
            if (!c.buffer->is_stream()) continue;
            if (c.read > c.written || c.written - c.read > c.depth) return false;
        }
        return true;
    }

    // A steady state (the same progress as the round before, nothing started or finished)
    // repeats: jump over its repetitions while every FIFO stays consistent.
    void jump_steady_state(const std::vector<int64_t> &delta) {
        int64_t repeats = INT64_MAX;
        for (size_t p = 0; p < procs_.size(); p++) {
            if (delta[p] > 0) repeats = std::min(repeats, (procs_[p].steps - procs_[p].done_steps) / delta[p] - 1);
        }
        std::vector<int64_t> now = done_steps();
        while (repeats >= 1) {
            std::vector<int64_t> jumped(procs_.size());
            for (size_t p = 0; p < procs_.size(); p++) jumped[p] = now[p] + repeats * delta[p];
            apply(jumped);
            if (consistent()) break;
            repeats /= 2;
            apply(now);
        }
    }

    // What each unfinished process waits for.
    void explain_deadlock(TokenSimResult *result) const {
        for (size_t p = 0; p < procs_.size(); p++) {
            const Process &pr = procs_[p];
            if (pr.done_steps == pr.steps) continue;
            const std::string &name = g_.filters[p].name;
            if (!pr.started) {
                for (int c : pr.buffer_in) {
                    if (channels_[c].written < channels_[c].count) {
                        result->blocked.push_back(name + " waits for buffer " + channels_[c].buffer->name);
                    }
                }
                continue;
            }
            for (int c : pr.stream_in) {
                const Channel &ch = channels_[c];
                if (count_at(pr, c, ch.count, pr.done_steps + 1) > ch.written) {
                    result->blocked.push_back(name + " waits for data on " + ch.buffer->name + " (" +
                                              std::to_string(ch.read) + " of " + std::to_string(ch.count) + " read)");
                }
            }
            for (int c : pr.stream_out) {
                const Channel &ch = channels_[c];
                if (count_at(pr, c, ch.count, pr.done_steps + 1) > ch.read + ch.depth) {
                    result->blocked.push_back(name + " waits for space on " + ch.buffer->name + " (full at depth " +
                                              std::to_string(ch.depth) + ")");
                    result->full_streams.push_back(ch.buffer->name);
                }
            }
        }
    }

    const FilterGraph &g_;
    std::vector<Channel> channels_;
    std::vector<Process> procs_;
};

}  // namespace

TokenSimResult simulate_tokens(const FilterGraph &g, const std::map<std::string, int64_t> &depths) {
    return Simulation(g, depths).run();
}

}  // namespace flowhls
