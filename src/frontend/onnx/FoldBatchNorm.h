// fold_batchnorm_into_conv: inference BatchNormalization merged into the Conv feeding it.
#pragma once

#include <onnx/onnx_pb.h>

namespace flowhls::onnx_import {

/// Contract: for every BatchNormalization (inference form, one output) whose input is the
/// only use of a Conv output, and whose scale, bias, mean and variance and the Conv's weights
/// and bias are float initializers, scales the Conv's weights per output channel by
/// scale / sqrt(var + epsilon), sets its bias to (bias - mean) * that + B, and removes the
/// BatchNormalization (the Conv then produces its output). Returns the number folded.
int fold_batchnorm_into_conv(onnx::GraphProto &graph);

}  // namespace flowhls::onnx_import
