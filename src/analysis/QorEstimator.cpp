// estimate_filter / estimate_design: the QoR model's entry points (schedule, resources, composition).
#include "analysis/QorEstimator.h"
#include "analysis/DesignTiming.h"
#include "analysis/HlsUnroll.h"
#include "graph/Precision.h"
#include "analysis/IntegerWidths.h"
#include "analysis/LoopScheduler.h"
#include "analysis/MemoryModel.h"
#include "analysis/ResourceModel.h"
#include "analysis/ScheduleMemo.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace flowhls {

using namespace Halide::Internal;

namespace {

struct ScheduledFilter {
    FilterEstimate estimate;
    UnitDemand units;
    int64_t tail = 0;
    int calls = 0;
    std::map<std::string, std::pair<int64_t, int64_t>> windows;
};

ScheduledFilter schedule_one(const FilterGraph &graph, const Filter &filter, const Device &device,
                             const QorOptions &options) {
    FilterContext context;
    context.arrays = filter_arrays(graph, filter, device);
    if (!filter.directives.empty()) context.directives = &filter.directives;
    for (const auto &kv : integer_widths(graph, filter)) context.value_bits[kv.first] = kv.second.bits;
    if (filter.fixed.enabled()) {  // --precision
        context.fixed_data_bits = filter.fixed.width;
        context.fixed_acc_bits = filter.fixed.accumulator().width;
    }
    // HLS unroll directives (and loops inside pipelined loops) as body copies.
    FilterSchedule s;
    if (options.memo) {
        s = options.memo->schedule(filter.body, context, device, options);
    } else {
        Stmt body = context.directives ? apply_hls_unroll(filter.body, filter.directives) : filter.body;
        s = schedule_filter(body, context, device, options);
    }
    ScheduledFilter out;
    out.estimate.name = filter.name;
    out.estimate.latency = s.latency;
    out.estimate.loops = s.loops;
    out.estimate.operations = s.operations;
    out.estimate.executed = s.executed;
    // A filter inlined into a sequential top function is loops of that function, not a function.
    bool own_function = !(filter.inline_function && !graph.dataflow.legal);
    std::vector<LocalBuffer> locals = filter.locals;
    for (LocalBuffer &l : locals) {  // --precision: float local arrays costed at the data width
        if (filter.fixed.enabled() && l.type.is_float()) l.type = Halide::Int(filter.fixed.width);
    }
    out.estimate.resources = filter_resources(s, locals, device, own_function);
    out.units = filter_units(s);
    out.tail = s.tail;
    out.calls = s.calls;
    out.windows = s.windows;
    return out;
}

// Contract: adds to `d` the storage and control of the buffers between filters and the ROMs
// (its channels), and the port interface of each bank of a block-RAM argument.
void add_buffers(const FilterGraph &graph, const Device &device, DesignEstimate &d) {
    for (const Buffer &b : graph.buffers) {
        if (b.channel == ChannelKind::Resident) {
            // A weight its reader copies into UltraRAM on the first call (place-weights).
            int bits = stored_bits(graph, b);
            Storage st = uram_storage(b.size(), bits, b.partition, device);
            ChannelEstimate c{b.name, channel_of(b).kind, b.size(), 0, st.uram, ""};
            d.total.uram += st.uram;
            d.total.ff += st.ff;
            d.channels.push_back(c);
            int64_t per_beat = std::max<int64_t>(1, b.interface.width_bits / std::max(1, bits));
            d.first_call_cycles += axi_read_cycles(device) + (b.size() + per_beat - 1) / per_beat;
            continue;
        }
        if (b.kind == BufferKind::Input || b.kind == BufferKind::Output) {
            // The interface of each bank of a block-RAM argument.
            if (channel_of(b).memory == MemoryKind::Port) {
                ControlCost c = device.control_cost("port_bank");
                int64_t banks = b.partition.enabled && b.partition.kind != PartitionKind::Complete
                                    ? std::max<int64_t>(1, b.partition.factor)
                                    : 1;
                d.total.lut += banks * c.lut;
                d.total.ff += banks * c.ff;
            }
            continue;
        }
        ChannelImplementation impl = channel_of(b);
        ChannelEstimate c;
        c.name = b.name;
        c.kind = impl.kind;
        c.reason = b.channel_reason;
        if (impl.memory == MemoryKind::Fifo) {
            // A stream of several lanes is that many FIFOs.
            const int64_t lanes = std::max<int64_t>(b.stream_lanes, 1);
            c.words = b.stream_depth * lanes;
            c.bram18k = fifo_bram18k(b.stream_depth, stored_bits(graph, b), device) * lanes;
            ControlCost fifo = device.control_cost("fifo");
            d.total.lut += fifo.lut * lanes;
            d.total.ff += fifo.ff * lanes;
        } else {
            c.words = b.size() * (b.is_scalar() ? 1 : impl.copies);
            if (!b.is_scalar()) {
                // Bound to UltraRAM by bind-uram: each copy's banks in their own blocks.
                Storage st = b.uram ? uram_storage(b.size(), stored_bits(graph, b), b.partition, device)
                                    : array_storage(b.size(), stored_bits(graph, b), b.partition, device);
                c.bram18k = st.bram18k * impl.copies;
                c.uram = st.uram * impl.copies;
                d.total.uram += c.uram;
                d.total.ff += st.ff * impl.copies;
                if (impl.copies > 1) {
                    ControlCost pp = device.control_cost("ping_pong");
                    d.total.lut += pp.lut;
                    d.total.ff += pp.ff;
                }
            }
        }
        d.total.bram18k += c.bram18k;
        d.channels.push_back(c);
    }
}

// Contract: schedule_one of every filter of `graph`, in the graph's order, computed on up to
// options.threads threads (each filter's schedule reads only the graph, the device and the
// options). Throws what the first filter (in order) whose schedule throws threw, as the
// sequential loop does.
std::vector<ScheduledFilter> schedule_all(const FilterGraph &graph, const Device &device, const QorOptions &options) {
    const size_t n = graph.filters.size();
    std::vector<ScheduledFilter> out(n);
    size_t workers = std::min<size_t>(n, static_cast<size_t>(std::max(1, options.threads)));
    if (workers <= 1) {
        for (size_t i = 0; i < n; i++) out[i] = schedule_one(graph, graph.filters[i], device, options);
        return out;
    }
    std::vector<std::exception_ptr> errors(n);
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < n; i = next++) {
            try {
                out[i] = schedule_one(graph, graph.filters[i], device, options);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (size_t t = 1; t < workers; t++) threads.emplace_back(work);
    work();
    for (std::thread &t : threads) t.join();
    for (const std::exception_ptr &e : errors) {
        if (e) std::rethrow_exception(e);
    }
    return out;
}

}  // namespace

FilterEstimate estimate_filter(const FilterGraph &graph, const Filter &filter, const Device &device,
                               const QorOptions &options) {
    return schedule_one(graph, filter, device, options).estimate;
}

DesignEstimate estimate_design(const FilterGraph &graph, const Device &device, const QorOptions &options) {
    DesignEstimate d;
    d.dataflow = graph.dataflow.legal;
    std::vector<ProcessTiming> timing;
    std::vector<UnitDemand> inlined_units;  // of each filter inlined into a sequential top (else none)
    int64_t inlined_calls = 0, inlined_cycles = 0;
    std::vector<ScheduledFilter> scheduled = schedule_all(graph, device, options);
    for (size_t i = 0; i < graph.filters.size(); i++) {
        const Filter &filter = graph.filters[i];
        ScheduledFilter &f = scheduled[i];
        inlined_units.push_back(filter.inline_function && !d.dataflow ? f.units : UnitDemand());
        d.total.dsp += f.estimate.resources.dsp;
        d.total.lut += f.estimate.resources.lut;
        d.total.ff += f.estimate.resources.ff;
        d.total.bram18k += f.estimate.resources.bram18k;
        d.total.uram += f.estimate.resources.uram;
        timing.push_back({f.estimate.latency, f.tail, f.windows});
        if (filter.inline_function && !graph.dataflow.legal) {
            // Its modules are called by the top function, which counts the calls once for all.
            inlined_calls += f.calls;
            inlined_cycles -= call_cycles(f.calls);
        }
        d.filters.push_back(f.estimate);
    }
    DesignTiming t = compose_design(graph, timing);
    // The modules of the inlined filters are called by the top function.
    inlined_cycles += call_cycles(inlined_calls);
    d.latency = t.latency + inlined_cycles;
    d.interval = t.interval + inlined_cycles;
    d.stalled_latency = t.stalled_latency + inlined_cycles;
    // The filters inlined into a sequential top are loops of one function: they share their
    // operator instances where they do not run at once (each counted alone above); the corpus's
    // HIDA atax: 30 fmul and 30 fadd shared by its two loop nests, 155 DSP, not 250.
    Resources shared = unit_resources(shared_units(inlined_units, t.start, t.finish), device);
    for (const UnitDemand &u : inlined_units) {
        Resources alone = unit_resources(u, device);
        shared.dsp -= alone.dsp;
        shared.lut -= alone.lut;
        shared.ff -= alone.ff;
    }
    d.total.dsp += shared.dsp;
    d.total.lut += shared.lut;
    d.total.ff += shared.ff;
    add_buffers(graph, device, d);
    d.dsp_efficiency = dsp_efficiency_of(d, device);
    d.throughput = d.interval > 0 ? device.clock_mhz * 1e6 / static_cast<double>(d.interval) : 0.0;
    return d;
}

// Contract: the DSP efficiency of `d`: the DSP-cycles its multiply-accumulates use over the DSP-cycles of
// an interval (0 without any), a MAC of a type costing the DSPs of its multiplier and adder.
// A filter's MACs are its floating-point multiplications when it has any (its integer ones
// are then index arithmetic), otherwise its integer multiplications: a quantized graph's
// integer convolutions count beside the float multiplications of its dequantization.
double dsp_efficiency_of(const DesignEstimate &d, const Device &device) {
    double mac_dsp_cycles = 0.0;
    for (const FilterEstimate &f : d.filters) {
        bool floating = false;
        for (const auto &kv : f.executed) floating = floating || ((kv.first == "fmul" || kv.first == "dmul") && kv.second > 0);
        for (const auto &kv : f.executed) {
            bool integer = kv.first.rfind("imul", 0) == 0;
            if (kv.first != "fmul" && kv.first != "dmul" && !integer) continue;
            if (integer && floating) continue;
            std::string add = kv.first == "fmul" ? "fadd" : kv.first == "dmul" ? "dadd" : "";
            int cost = device.op(kv.first).dsp + (add.empty() ? 0 : device.op(add).dsp);
            mac_dsp_cycles += static_cast<double>(kv.second) * cost;
        }
    }
    if (d.interval <= 0 || d.total.dsp <= 0 || mac_dsp_cycles <= 0) return 0.0;
    return std::min(1.0, mac_dsp_cycles / (static_cast<double>(d.interval) * static_cast<double>(d.total.dsp)));
}

}  // namespace flowhls
