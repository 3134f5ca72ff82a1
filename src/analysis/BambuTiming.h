// Cycle estimate of a design as PandA-Bambu schedules it (no pipelining, sequential filters).
#pragma once

#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// Bambu's costs in cycles at 100 MHz on a 7-series part. Starting points measured with
/// PandA-Bambu 2024.10 on micro-kernels (loops of 1000 iterations: copy 3 cycles, x*2 5, x+1 7,
/// x*x*x 10, x*2+x*3 14, x/3 20, a compare and select 4), then calibrated (coordinate descent on
/// the squared log error) against the 13 designs of bench/reference/bambu_measured.csv: mean
/// absolute error 9.6% (docs/bambu.md). A model, not a simulation: Bambu's clang front end
/// rewrites loops in ways it does not follow (upsample: +42%).
struct BambuTimingModel {
    /// Cycles until a loaded value can be used (block RAM or the memory interface).
    int load = 1;
    /// Cycles a store takes once its value is ready.
    int store = 1;
    /// Soft-float units: cycles until the result can be used, and cycles the (single,
    /// shared) unit is busy per operation.
    int fadd = 4, fadd_busy = 5;
    int fmul = 2, fmul_busy = 5;
    int fdiv = 17, fdiv_busy = 17;
    int fcmp = 2, fcmp_busy = 1;
    int fcvt = 2, fcvt_busy = 2;
    /// Other float functions (sqrt, floor, ...): a generous soft-float routine.
    int fcall = 20;
    /// Integer multiplication (also division by a constant; chained into the clock period at
    /// 100 MHz) and division by a variable.
    int imul = 0, idiv = 34;
    /// Memory ports of one array (Bambu's block RAMs are dual-ported).
    int ports = 2;
    /// Cycles added to every loop iteration (the loop's control state) and to every loop entry.
    int iteration = 0, entry = 1;
    /// Innermost loops of at most this many iterations are unrolled by Bambu's clang front end.
    int64_t unroll_trip = 4;
    /// Local arrays of at most this many elements are registers (vector lanes, windows).
    int64_t register_elements = 16;
};

/// The estimate of one filter and of the design.
struct BambuEstimate {
    struct Filter {
        std::string name;
        int64_t cycles = 0;
    };
    std::vector<Filter> filters;
    /// Cycles of one call of the top function: the filters one after the other.
    int64_t cycles = 0;
};

/// Contract: estimates the cycles of one call of the top function as PandA-Bambu 2024.10
/// schedules the emitted C: every filter inlined and run in turn; loops not pipelined, each
/// iteration the list schedule of its body (soft-float units one of each kind, shared;
/// integer arithmetic chained; loads and stores on the arrays' ports); the user's HLS unroll
/// directives applied (Bambu reads `#pragma GCC unroll`), pipeline directives not. Pure.
BambuEstimate estimate_bambu_cycles(const FilterGraph &graph, const BambuTimingModel &model = BambuTimingModel());

}  // namespace flowhls
