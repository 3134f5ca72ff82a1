// Helpers shared by the layout converters (Shape.cpp, Indexing.cpp) and QLinearConcat.
#pragma once

#include "frontend/onnx/Converter.h"

#include <cstdint>
#include <vector>

namespace flowhls::onnx_import {

/// x read as if it had `shape` (same element count, C order) at `index`.
Halide::Expr reshaped_at(const Tensor &x, const std::vector<Halide::Expr> &index, const std::vector<int64_t> &shape);
/// Output 0 of `ctx` as a view of x with `shape` (inlined into consumers).
void define_view(NodeContext &ctx, const Tensor &x, const std::vector<int64_t> &shape);
/// Output 0 of `ctx` as the concatenation of `parts` (one rank) along `axis` (normalized),
/// with element type `elem_type`.
void define_concat(NodeContext &ctx, const std::vector<Tensor> &parts, int axis, int elem_type);
/// A 1-D int64 buffer holding `values`.
Halide::Buffer<> int64_buffer(const std::vector<int64_t> &values);
/// Normalized, sorted axes; Unsupported if repeated.
std::vector<int> sorted_axes(const NodeContext &ctx, std::vector<int64_t> axes, int rank);

/// Indexing and data-movement ops (Slice, Split, Gather, Pad, Tile, Expand, Range, Resize,
/// DepthToSpace, SpaceToDepth, ...), in Indexing.cpp.
void add_more_shape_converters(ConverterTable &table);

}  // namespace flowhls::onnx_import
