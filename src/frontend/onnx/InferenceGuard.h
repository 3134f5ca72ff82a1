// Checks that need a partial shape inference before libonnx's full one may run on a model.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

namespace flowhls::onnx_import {

/// Contract: refuses, before the model reaches libonnx's shape inference or version converter,
/// what crashes them and what validate_model cannot see because the ranks involved are only
/// known after inference:
/// - a call of a model-local function (flowhls does not compile them; libonnx's function
///   inference crashed on bodies it cannot type);
/// - a convolution inside a control-flow body (If, Loop, Scan: not compiled by flowhls);
/// - a ConvTranspose of the graph whose data or weight rank is not declared: shapes are inferred
///   on the graph's nodes before it (large float initializers replaced by typed inputs, so this
///   costs no data copies) and its ranks checked by check_convolution_ranks.
/// `model` must have passed validate_model. Throws flowhls::Error naming `path` and the node.
void guard_shape_inference(const onnx::ModelProto &model, const std::string &path);

}  // namespace flowhls::onnx_import
