// Sliding-window geometry shared by Conv, ConvTranspose and the pooling ops.
#pragma once

#include "frontend/onnx/Converter.h"

#include <cstdint>
#include <vector>

namespace flowhls::onnx_import {

/// Strides, dilations, pads and output extents of the spatial axes of a window op.
struct WindowGeometry {
    std::vector<int64_t> strides, dilations, pad_begin, pad_end, output;
    /// Some window position falls outside the input (padding, or ceil_mode overhang).
    bool reads_outside = false;
};

/// Reads strides, dilations, pads / auto_pad (and ceil_mode when `allow_ceil`) of a node
/// whose input `x` is [N, C, D...] and whose window is `kernel`, as ONNX shape inference
/// computes them. Throws Unsupported for inconsistent attributes.
WindowGeometry window_geometry(const NodeContext &ctx, const Tensor &x, const std::vector<int64_t> &kernel,
                               bool allow_ceil);

/// x(leading..., spatial...) when every spatial position is inside x, else `pad` (reads
/// are clamped so bounds stay inside the tensor). Without `may_be_outside` the positions are
/// known to be inside and x is read directly.
Halide::Expr padded_at(const Tensor &x, const std::vector<Halide::Expr> &leading,
                       const std::vector<Halide::Expr> &spatial, Halide::Expr pad, bool may_be_outside = true);

/// Whether every spatial position is inside x's spatial axes.
Halide::Expr inside(const Tensor &x, const std::vector<Halide::Expr> &spatial);

}  // namespace flowhls::onnx_import
