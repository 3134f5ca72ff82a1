// A resource budget on a part: what a design may use (absolute or a share of the part).
#pragma once

#include "analysis/Device.h"

#include <string>
#include <vector>

namespace flowhls::dse {

/// The share of each resource of the part a design may use when nothing says otherwise.
constexpr double kDefaultBudgetShare = 0.8;

/// Contract: the budget `text` describes on `device`: comma-separated `KEY=VALUE` with KEY one
/// of dsp, bram (BRAM18K), uram, lut, ff and VALUE a count or a percentage of the part
/// (`dsp=2000,bram=60%`); a lone percentage (`50%`) sets every resource. Resources not named
/// get kDefaultBudgetShare of the part. Throws flowhls::Error naming the offending entry for
/// an unknown key, a key given twice, a value that is not a non-negative count or a
/// percentage in [0, 100], or a count above what the part has. Pure.
Resources parse_budget(const std::string &text, const Device &device);

/// kDefaultBudgetShare of every resource of `device` (rounded down).
Resources default_budget(const Device &device);

/// Each resource `used` exceeds in `budget`, as text ("DSP 700 > 500"), in the order DSP,
/// BRAM18K, URAM, LUT, FF; empty when it fits.
std::vector<std::string> over_budget(const Resources &used, const Resources &budget);

/// `budget` as text ("DSP 5472, BRAM18K 3456, URAM 768, LUT 945792, FF 1891584").
std::string budget_text(const Resources &budget);

} // namespace flowhls::dse
