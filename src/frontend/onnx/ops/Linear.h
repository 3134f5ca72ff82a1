// Multiply-accumulate cores of Conv and MatMul, shared with the quantized ops.
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/onnx/Converter.h"

namespace flowhls::onnx_import {

/// A converter's accumulation: the Func and its shape (ONNX order).
struct Accumulation {
    Halide::Func func;
    std::vector<int64_t> shape;
};

/// Conv's sum with the node's attributes (group, strides, dilations, pads, auto_pad): x [N,
/// C, D...], w [M, C/group, K...] -> [N, M, O...] in x's type, initialized with `bias` (one
/// value per output channel; null: zero) and accumulated over (channel, kernel...), the
/// innermost kernel axis innermost; padded positions read zero. InvalidNode when the shapes
/// do not fit.
Accumulation conv_accumulation(const NodeContext &ctx, const Tensor &x, const Tensor &w, const Tensor *bias);

/// MatMul's sum with NumPy semantics (1-D operands promoted and dropped again, batch axes
/// broadcast) in a's type.
Accumulation matmul_accumulation(const NodeContext &ctx, const Tensor &a, const Tensor &b);

}  // namespace flowhls::onnx_import
