// The window sum and count of AveragePool / GlobalAveragePool, shared with their quantized forms.
#pragma once

#include "frontend/onnx/Converter.h"

#include <cstdint>
#include <vector>

namespace flowhls::onnx_import {

/// An average pool before its division: the window sum and the count it divides by.
struct AverageWindow {
    /// One Var per output dimension (ONNX order).
    std::vector<Halide::Var> v;
    /// The sum over the window at v (positions outside the input add 0), computed at root.
    Halide::Func sum;
    /// The number of positions counted at v (Int(32)): inside the input, or inside the padded
    /// input with count_include_pad; the whole spatial extent for a global pool.
    Halide::Expr count;
    /// Every value `count` takes, ascending.
    std::vector<int64_t> counts;
    std::vector<int64_t> out_shape;
};

/// Contract: the window sum of `x` ([N, C, D...]) and its count for the node of `ctx`:
/// AveragePool's attributes (kernel_shape, strides, pads / auto_pad, ceil_mode,
/// count_include_pad; no dilations) or, with `global`, the whole spatial extent. Throws
/// Unsupported for attributes it does not handle.
AverageWindow average_window(NodeContext &ctx, const Tensor &x, bool global);

}  // namespace flowhls::onnx_import
