// fuse_qdq: QDQ patterns of a quantized model rewritten as integer ops (QLinearConv, QLinearAdd,
// QLinearConcat, QLinearAveragePool, Max, MaxPool).
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

namespace flowhls::onnx_import {

/// Contract: rewrites, in the (checked, opset-17) model, every
///   QuantizeLinear([Relu](Conv|Gemm(DequantizeLinear(xq), DequantizeLinear(wq), [DequantizeLinear(bq)])))
/// whose scales and zero points are constants (x, y per tensor; w per tensor or per output
/// channel), weights constant int8/uint8, bias constant int32 with zero point 0 and scale
/// exactly float32(x_scale * w_scale[m]), Gemm with alpha = beta = 1 and transA = 0, into
/// QLinearConv on xq (a Gemm as a 1x1 QLinearConv between two Reshapes), followed by
/// Max(q, y_zero_point) for the Relu, which equals QuantizeLinear(Relu(.)) exactly; and
///   QuantizeLinear(MaxPool|Flatten|Reshape|Relu(DequantizeLinear(xq))) with the same scale
/// and zero point on both sides into the op on xq (Relu: Max(xq, zero_point)); and
///   QuantizeLinear([Relu](Add(DequantizeLinear(aq), DequantizeLinear(bq)))) with constant
/// per-tensor scales and zero points into com.microsoft QLinearAdd (+ Max for the Relu), which
/// requantizes in integers where integer_add_requantization proves it exact; and
///   QuantizeLinear(Concat(DequantizeLinear(a), ...)) into com.microsoft QLinearConcat and
///   QuantizeLinear(AveragePool|GlobalAveragePool(DequantizeLinear(xq))) (one 8-bit type) into
/// com.microsoft QLinearAveragePool / QLinearGlobalAveragePool, with constant per-tensor scales
/// and zero points, whose converters compute in integers where proven exact. Identity Casts between a
/// QuantizeLinear and the DequantizeLinear reading it are looked through. Nodes left without
/// readers are removed. `path` names the model in messages. Returns the number of patterns
/// rewritten; other nodes keep their float semantics.
int fuse_qdq(onnx::ModelProto &model, const std::string &path);

}  // namespace flowhls::onnx_import
