// flowhls bench --calibration: QoR estimates of reproduced corpus designs against Vitis HLS 2023.2.
#pragma once

#include "driver/CostFit.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace flowhls {

/// Options of a calibration run.
struct CalibrationOptions {
    /// Directory to read the corpus figures from instead of the embedded copy ("" embedded).
    std::string reference_dir;
    /// Only the designs whose corpus name contains one of these substrings (all when empty).
    std::vector<std::string> designs;
    /// Progress lines ("[3/41] polybench/vitis/default/gemm") go here when not null.
    std::ostream *progress = nullptr;
};

/// A figure of Vitis HLS beside flowhls's estimate of the same thing (-1: not known).
struct FigurePair {
    int64_t vitis = -1, flowhls = -1;
    bool known() const { return vitis >= 0 && flowhls >= 0; }
    /// (flowhls - vitis) / vitis; 0 when both are 0, +inf when only Vitis's is 0.
    double error() const;
};

/// One loop of a corpus design and the loop of flowhls's design matched to it.
struct LoopCalibration {
    std::string vitis_name, flowhls_name;  ///< flowhls_name empty: no loop with the same trip count
    bool pipelined = false;
    FigurePair trip, ii, iteration_latency, latency;
};

/// One reproduced corpus design.
struct DesignCalibration {
    std::string design;  ///< corpus path, e.g. "polybench/vitis/default/gemm"
    std::string example, schedule, size, note;
    /// Whether the LUT/FF cost fit uses the design (CorpusReproduction::fit_costs).
    bool in_cost_fit = true;
    FigurePair latency, interval, dsp, bram18k, lut, ff, uram;
    /// RTL co-simulation cycles (where the corpus has them) beside the latency with FIFO stalls.
    FigurePair cosim;
    /// The prediction ScaleHLS/HIDA wrote at the top of the source it generated (-1: none).
    int64_t scalehls_latency = -1, scalehls_dsp = -1;
    std::vector<LoopCalibration> loops;
    /// The design's share of the fitted LUT/FF costs (docs/calibration.md, cross-validation).
    CostSample costs;
};

/// Error statistics of one metric over the designs.
struct MetricSummary {
    std::string metric;
    int designs = 0;
    double median = 0.0;  ///< of |relative error|
    double worst = 0.0;
    std::string worst_design;
    int within_10 = 0, within_15 = 0, within_25 = 0, within_35 = 0;
    int within_1_5x = 0;  ///< estimate within [vitis / 1.5, vitis * 1.5]
};

/// Contract: compiles every reproduced corpus design selected by `options` (example, schedule,
/// size and the corpus's part and clock; nothing is written) and pairs flowhls's QoR estimate
/// with the figures Vitis HLS 2023.2 reported, per design and per loop (loops matched in
/// order by trip count). Throws flowhls::Error when a design fails to compile.
std::vector<DesignCalibration> calibrate(const CalibrationOptions &options);

/// Median and worst |error| and hit counts of latency, interval, DSP, BRAM18K, URAM, LUT and FF,
/// then of the co-simulation cycles (metric "cosim": the designs that have them).
std::vector<MetricSummary> summarize(const std::vector<DesignCalibration> &designs);

/// The cost samples of the designs the LUT/FF costs are fitted on (in_cost_fit).
std::vector<CostSample> cost_fit_samples(const std::vector<DesignCalibration> &designs);

/// Prints the calibration table: one line per design, its loops below it, the designs not
/// reproduced and why, then the summary lines per metric and the comparison with the
/// ScaleHLS/HIDA estimator on the designs it generated.
void print_calibration(const std::vector<DesignCalibration> &designs, std::ostream &out);

/// The same as a Markdown document section (tables), for docs/calibration.md.
std::string calibration_markdown(const std::vector<DesignCalibration> &designs);

/// Replaces the text between "<!-- calibration:begin -->" and "<!-- calibration:end -->" in
/// file `path` with `table` (the whole file when it has no such markers). Throws flowhls::Error
/// when the file cannot be written.
void update_markdown(const std::string &path, const std::string &table);

}  // namespace flowhls
