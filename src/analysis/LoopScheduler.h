// Scheduling of a filter's loop nests as Vitis HLS builds them: pipelines, II, depth, latency.
#pragma once

#include "analysis/Device.h"
#include "analysis/MemoryBanks.h"
#include "analysis/MemoryModel.h"
#include "analysis/QorEstimator.h"

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// What the scheduler knows of a filter: its arrays and its loop directives (null: none, the
/// QorOptions defaults apply).
struct FilterContext {
    std::map<std::string, ArrayInfo> arrays;
    const std::map<std::string, LoopDirective> *directives = nullptr;
    /// Proven widths of integer values by name (analysis/IntegerWidths): multipliers are
    /// costed by the widths of their operands.
    std::map<std::string, int> value_bits;
    /// Bits of the data and the sums of a filter computing in fixed point (--precision;
    /// emit/FixedTypes); 0: float.
    int fixed_data_bits = 0, fixed_acc_bits = 0;

    /// The pipeline target II of loop `name` (0: no pipeline directive).
    int pipeline_ii(const std::string &name) const;
    /// Whether loop `name`'s body is a dataflow region (LoopDirective::dataflow): its tasks'
    /// iterations overlap, priced as sum(tasks) + (trip - 1) x max(tasks).
    bool dataflow(const std::string &name) const;
    /// The memory kind of array `name` (LocalRam when unknown).
    MemoryKind kind_of(const std::string &name) const;
};

/// Operator instances one region of a filter needs at once, by operator name.
using UnitDemand = std::map<std::string, int64_t>;

/// The schedule of one filter.
struct FilterSchedule {
    /// Cycles of one call of the filter's function.
    int64_t latency = 0;
    /// Pipelined loops (modules) the function calls directly (not inside a sequential loop).
    int calls = 0;
    /// Cycles the function needs after its last input arrives: the depth of its last pipeline
    /// plus the pipeline's exit (what a consumer fed by a FIFO adds after its producer ends).
    int64_t tail = 0;
    std::vector<LoopEstimate> loops;
    /// Operator name -> operations in the code, and executed per call.
    std::map<std::string, int> operations;
    std::map<std::string, int64_t> executed;
    /// Operator instances per region (a pipelined loop nest: ceil(operations / II) of each
    /// kind; code outside pipelines: one of each kind). Vitis HLS shares an instance only within
    /// a pipeline, across its II cycles.
    std::vector<UnitDemand> regions;
    /// Integer products of an index by a constant inside flattened pipelines (DSP multipliers).
    int64_t index_multipliers = 0;
    /// Buffer name -> [first, last] cycle (from the call's start) of the top-level loops that
    /// access it: when the function reads or writes a stream's elements.
    std::map<std::string, std::pair<int64_t, int64_t>> windows;
};

/// Cycles a function spends calling `calls` pipelined loops (the modules Vitis HLS extracts)
/// directly, beyond the modules' own latencies: none for one (Vitis extracts no module from a
/// function that is one pipelined loop), two per call less one for several (the corpus's
/// functions calling two modules take 3 cycles more than their modules, three modules 5).
int64_t call_cycles(int64_t calls);

/// Beats one iteration of a pipelined loop needs on a widened m_axi port, and whether its
/// reads are bursts.
struct AxiBeats {
    int64_t reads = 0, writes = 0;
    bool bursts = true;
};

/// Contract: the beats of `width_bits` bits that `accesses` (one iteration of the pipelined loop
/// whose innermost loop is `inner`; elements of `element_bits` bits) take on a widened m_axi
/// port, per channel (reads, writes): the accesses are grouped by constant difference; a group
/// takes one beat per distinct aligned block of E = width_bits / element_bits elements it
/// touches, at the worst phase in a beat its first element can have (Halide's
/// modulus_remainder gives it mod gcd(modulus, E)); a group whose phase nothing constrains is
/// not widened (one beat per distinct element). `bursts`: every read group's index advances per iteration
/// of `inner` by 0, 1, or, for a group of consecutive elements, by its length. Pure.
AxiBeats axi_beats(const std::vector<ArrayAccess> &accesses, int element_bits, int width_bits, const std::string &inner);

/// Contract: cycles from an m_axi read request to its data: the part's off-chip read latency at
/// the clock (the axi_read operator's latency without one). Pure.
int axi_read_cycles(const Device &device);

/// Contract: schedules `body` (HLS unrolls already applied) the way Vitis HLS does: pipelined
/// loop nests (from the directives in `context`, or innermost loops with `options` when there
/// are none) flattened when perfect, their II the max of the target, the port bound per bank
/// and the recurrence bound ceil(delay / distance), their depth the critical path of one
/// iteration (with a target II above one, an operator fed by another of its kind takes its
/// recurrence latency: the shared cores forward a chain of adders), their latency depth +
/// II x (trip - 1) - 1 (Vitis's loop figure); other loops iterate their body. Memory timing and recurrence delays depend on each array's
/// MemoryKind; operator latencies come from `device` (docs/qor.md). Pure analysis.
FilterSchedule schedule_filter(const Halide::Internal::Stmt &body, const FilterContext &context, const Device &device,
                               const QorOptions &options);

}  // namespace flowhls
