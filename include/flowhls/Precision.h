// Fixed-point precision of float models (`--precision fixed<W,I>`, docs/quantization.md).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace flowhls {

/// A signed fixed-point format ap_fixed<W, I>: W bits of which I integer bits (sign included),
/// F = W - I fractional bits. width 0: float (no fixed point).
struct FixedFormat {
    int width = 0, integer = 0;
    /// `--precision auto<W>`: W bits, the integer bits still to choose from measured ranges
    /// (assign_precision resolves it; no filter keeps it).
    bool automatic = false;
    /// A format `auto` chose: the max |value| it covers (calibration values and weights), and
    /// the calibration samples it was measured on; measured < 0 otherwise.
    double measured = -1.0;
    int samples = 0;
    /// The integer bits of the filter's sums and intermediate values proven from its weights
    /// and input formats (analysis/FixedWidths: prove_fixed_accumulators), and the max |value|
    /// proven; 0 when not proven (accumulator() is then the rule). Not part of the format's
    /// identity (operator==).
    int sum_integer = 0;
    double sum_max = -1.0;
    bool enabled() const { return width > 0; }
    int fraction() const { return width - integer; }
    /// The format of sums of this data format (emit/FixedTypes): 2F fraction bits (a product
    /// of two data values is exact) and the proven integer bits, fixed<2F + P, P> (P =
    /// sum_integer), else the rule fixed<2F + I + 10, I + 10> (10 integer bits of margin).
    FixedFormat accumulator() const {
        const int i = sum_integer > 0 ? sum_integer : integer + 10;
        return {2 * fraction() + i, i};
    }
    /// "fixed<16,6>", "auto<16>" or "float".
    std::string text() const {
        if (automatic) return "auto<" + std::to_string(width) + ">";
        return enabled() ? "fixed<" + std::to_string(width) + "," + std::to_string(integer) + ">" : "float";
    }
    bool operator==(const FixedFormat &o) const {
        return width == o.width && integer == o.integer && automatic == o.automatic;
    }
    bool operator!=(const FixedFormat &o) const { return !(*this == o); }
};

/// Widest W `--precision fixed<W,I>` accepts (the C-simulation stand-in computes the exact
/// products and sums of the accumulators in 128 bits).
constexpr int kMaxFixedWidth = 32;

/// Default W of `--precision auto`, and the integer bits of headroom it adds to those the
/// measured max |value| needs.
constexpr int kAutoFixedWidth = 16;
constexpr int kAutoHeadroomBits = 1;

/// Value ranges measured by running a model's float64 reference on calibration inputs
/// (driver/CalibrationRanges): what `auto` formats are chosen from.
struct CalibrationRanges {
    /// Calibration samples evaluated (0: nothing measured).
    int samples = 0;
    /// ONNX value (a node's output) -> max |value| over the samples.
    std::map<std::string, double> values;
    /// max |value| of the graph inputs over the samples.
    double inputs = 0.0;
};

/// The precision of a model's float data: a default and overrides by ONNX node name or op type.
struct PrecisionOptions {
    FixedFormat model;
    /// (ONNX node name or op type, format), in the order given; a node name matches first.
    std::vector<std::pair<std::string, FixedFormat>> overrides;
    /// The ranges `auto` formats are chosen from (needed when one is automatic).
    CalibrationRanges calibration;
    bool automatic() const {
        if (model.automatic) return true;
        for (const auto &o : overrides) {
            if (o.second.automatic) return true;
        }
        return false;
    }
    bool any() const {
        if (model.enabled()) return true;
        for (const auto &o : overrides) {
            if (o.second.enabled()) return true;
        }
        return false;
    }
};

/// Parses "fixed<W,I>", "auto", "auto<W>" or "float"; throws flowhls::Error naming `what` when
/// malformed or out of range (1 <= W <= kMaxFixedWidth, 0 <= I <= W).
FixedFormat parse_fixed_format(const std::string &text, const std::string &what);

/// Adds one `--precision` argument to `into`: "fixed<W,I>" / "float" (the whole model) or
/// "KEY=fixed<W,I>" / "KEY=float" (an ONNX node name or op type). Throws flowhls::Error.
void add_precision_argument(const std::string &arg, PrecisionOptions &into);

/// The format `auto<width>` chooses for values of max |value| `max_abs`: fixed<W,I> with I the
/// integer bits (sign included) that hold max_abs (2^(I-1) > max_abs) plus kAutoHeadroomBits,
/// clamped to 1..W; `measured` = max_abs. Pure.
FixedFormat auto_fixed_format(int width, double max_abs);

/// The format of a filter computing ONNX node `node` of op type `op`: the last override naming
/// the node, else the last naming the op type, else the model's.
FixedFormat precision_of(const PrecisionOptions &p, const std::string &node, const std::string &op);

}  // namespace flowhls
