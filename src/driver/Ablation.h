// flowhls bench --ablation: HIDA's ablation of its parallelization (naive, intensity-aware,
// connectedness-aware, both) on a program's design model, priced by the closed-form model.
#pragma once

#include "dse/BuildModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls {

/// Options of an ablation.
struct AblationOptions {
    /// Parallel factors: the copies of the loop body the most demanding node gets.
    std::vector<int64_t> factors = {2, 4, 8, 16, 32, 64, 128, 256};
    double clock_mhz = 100.0;
};

/// One strategy at one parallel factor, as the closed-form model ESTIMATES it.
struct AblationRow {
    int64_t factor = 1;
    /// "naive" (every node the factor, each alone), "ia-ops" (intensity-aware sharing by
    /// iterations x operators: the weights that ignore the II), "ia" (intensity-aware sharing
    /// by the modelled latency at factor 1), "ca" (connectedness-aware, every node the factor),
    /// "ia+ca" (HIDA: both, sharing by modelled latency).
    std::string strategy;
    /// Dataflow interval: the largest node latency under its unroll factors (cycles).
    int64_t interval = 0;
    double samples_per_s = 0.0;
    /// DSPs: per node, copies of the body x the DSPs of one copy.
    int64_t dsp = 0;
    /// Memory banks: per buffer, the product of its cyclic partition factors, summed; and the
    /// buffers partitioned at all.
    int64_t banks = 0;
    int64_t partitioned_buffers = 0;
    /// The node that sets the interval and its unroll factors ("conv2 [4,2,1,1,1,1]", loops
    /// outermost first).
    std::string bottleneck;
    bool operator==(const AblationRow &o) const;
};

/// The ablation of one program.
struct AblationTable {
    std::string program;
    double clock_mhz = 100.0;
    int64_t nodes = 0;
    /// Every node at factor 1: interval and DSP.
    int64_t base_interval = 0, base_dsp = 0;
    /// Per factor (ascending), the strategies in the order of kAblationStrategies.
    std::vector<AblationRow> rows;
    bool operator==(const AblationTable &o) const;
};

/// The strategies of a table, in row order.
extern const std::vector<std::string> kAblationStrategies;

/// Contract: for every factor of `options`, parallelizes `model` (dse::parallelize) with each
/// strategy of kAblationStrategies and prices the result with the closed-form model
/// (dse::node_latency per node, DSPs, banks of the partitions). Pure and deterministic.
AblationTable run_ablation(const std::string &program, const dse::BuiltModel &model, const AblationOptions &options);

/// The table as text, labelled as model estimates.
std::string ablation_text(const AblationTable &table);

/// The table as JSON (one object; keys sorted), and back. ablation_from_json throws
/// flowhls::Error for text that is not such a table.
std::string ablation_json(const AblationTable &table);
AblationTable ablation_from_json(const std::string &text);

}  // namespace flowhls
