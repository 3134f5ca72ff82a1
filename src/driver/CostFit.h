// The LUT/FF costs fitted to the calibration designs (non-negative least squares) and their
// held-out error (leave one design out, leave one design family out).
#pragma once

#include "analysis/Device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls {

struct FilterGraph;

/// The terms of the LUT/FF model fitted to the corpus: every control cost of the device
/// table ("function", "loop", ...) and the adder built in logic ("fadd_fabric"), sorted.
std::vector<std::string> fitted_cost_terms(const Device &device);

/// What one design contributes to the fit: flowhls's LUT and FF with every fitted cost at
/// zero, how many times the design uses each fitted term, and what Vitis reported.
struct CostSample {
    std::string design, family;  ///< family: suite/framework ("polybench/streamhls")
    int64_t vitis_lut = -1, vitis_ff = -1;
    int64_t fixed_lut = 0, fixed_ff = 0;
    int64_t table_lut = 0, table_ff = 0;  ///< the estimate with the device table's costs
    std::vector<std::string> terms;  ///< fitted_cost_terms() of the design's device
    std::vector<int64_t> counts;      ///< per term
    std::vector<int> table_cost_lut, table_cost_ff;  ///< per term, the device table's
};

/// Contract: estimates `graph` on `device` with every fitted cost at zero, then once per term
/// with that cost at one, and returns the fixed part and the count of each term (the model
/// is linear in these costs). Throws std::logic_error if the estimate at the device's own
/// costs is not the fixed part plus the counts times the costs.
CostSample cost_sample(const FilterGraph &graph, const Device &device);

/// Non-negative least squares: x >= 0 minimizing |A x - b| (Lawson and Hanson's active set
/// method); A has one row per equation. Columns that are zero in every row get 0.
std::vector<double> nnls(const std::vector<std::vector<double>> &a, const std::vector<double> &b);

/// The LUT and FF cost of each term fitted to `samples` (rows weighted by 1 / Vitis's figure,
/// so the fit minimizes relative errors), skipping sample `skip` and the samples of family
/// `skip_family` ("" and npos: none). Throws std::logic_error if the samples' terms differ.
struct CostFit {
    std::vector<double> lut, ff;
};
CostFit fit_costs(const std::vector<CostSample> &samples, size_t skip = static_cast<size_t>(-1),
                  const std::string &skip_family = "");

/// In-sample and held-out |relative error| of the LUT and FF estimates.
struct HeldOutError {
    std::string metric;     ///< "LUT" or "FF"
    int designs = 0;
    double table_median = 0, table_worst = 0;        ///< with the device table's costs
    double refit_median = 0, refit_worst = 0;        ///< costs fitted on all designs
    double design_median = 0, design_worst = 0;      ///< each design predicted by a fit without it
    double family_median = 0, family_worst = 0;      ///< ... by a fit without its whole family
    std::string design_worst_name, family_worst_name;
};

/// Contract: for LUT and FF, the error of the device table's costs, of a fit on all samples,
/// and of leave-one-design-out and leave-one-family-out fits (each sample predicted from its
/// fixed part and counts with costs fitted on the others).
std::vector<HeldOutError> cross_validate(const std::vector<CostSample> &samples);

}  // namespace flowhls
