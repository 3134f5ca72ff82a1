// Helpers shared by the ONNX op converters: index Vars, broadcasting, axes, types.
#pragma once

#include "frontend/onnx/Converter.h"

#include <Halide.h>

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// One fresh Var per dimension, ONNX order.
std::vector<Halide::Var> make_vars(int rank);
/// One Var per name, ONNX order (the generated loops are named after them).
std::vector<Halide::Var> make_vars(const std::vector<std::string> &names);
/// Names of `count` spatial axes, outermost first, after `prefix`: ("o", 2) -> oy, ox;
/// three axes z, y, x; more are numbered (prefix + "0"...).
std::vector<std::string> spatial_names(const std::string &prefix, int count);
/// Names of the axes of output `output` of a node of type `op` with shape `shape` (ONNX
/// order), for the loops of its filter: window ops (Conv, pools) [n, co, oy, ox],
/// Gemm/MatMul [b..., i, j]; other ops those of an input of the same shape
/// (`input_dims`: the inputs' names, "" for unknown), else by rank (i; i, j; b, i, j;
/// n, c, y, x; n, c, z, y, x; d0...).
std::vector<std::string> dim_names(const std::string &op, const std::vector<int64_t> &shape,
                                   const std::vector<std::pair<std::vector<int64_t>, std::vector<std::string>>> &inputs);
/// An RDom whose variables (innermost first, like Halide::RDom's region) are named `names`,
/// so its loops read `ci`, `ky`, `kx` instead of `r$z`, `r$y`, `r$x`.
Halide::RDom named_rdom(const Halide::Region &extents, const std::vector<std::string> &names);
/// The Vars as Exprs.
std::vector<Halide::Expr> as_exprs(const std::vector<Halide::Var> &vars);
/// Defines `f` over `vars` (ONNX order; a scalar gets one dummy dimension) as `value`.
void define(Halide::Func f, const std::vector<Halide::Var> &vars, Halide::Expr value);
/// Halide argument list of `vars` (reversed; one dummy Var for a scalar).
std::vector<Halide::Var> halide_args(const std::vector<Halide::Var> &vars);

/// NumPy broadcast of two shapes; Unsupported when they do not broadcast.
std::vector<int64_t> broadcast_shape(const std::vector<int64_t> &a, const std::vector<int64_t> &b);
/// The value of `t` at an index of a broadcast result of rank index.size().
Halide::Expr broadcast_at(const Tensor &t, const std::vector<Halide::Expr> &index);

/// `axis` in [-rank, rank) as a non-negative axis; Unsupported when out of range.
int normalize_axis(int64_t axis, int rank);

/// Whether the element type is float or double.
bool is_float_type(int elem_type);
/// Halide type of an ONNX element type (Unsupported for the unsupported ones).
Halide::Type storage_type(int elem_type);
/// `value` converted to element type `elem_type` (bool: nonzero -> 1).
Halide::Expr cast_to(int elem_type, Halide::Expr value);
/// A bool value (Halide UInt(1)) as stored in a bool tensor.
Halide::Expr from_bool(Halide::Expr condition);
/// The smallest and largest values of a type (-inf/+inf for floats).
Halide::Expr lowest_of(Halide::Type t);
Halide::Expr highest_of(Halide::Type t);

/// Product of the extents; throws flowhls::Error when a dimension is negative or the product
/// exceeds kMaxTensorBytes (no overflow on the way).
int64_t element_count(const std::vector<int64_t> &shape);
/// Shape as text "1x3x32x32" (scalar: "scalar").
std::string shape_text(const std::vector<int64_t> &shape);

/// Check functions for the table: element types accepted by an op.
CheckFn float_only();
CheckFn numeric_only();

}  // namespace flowhls::onnx_import
