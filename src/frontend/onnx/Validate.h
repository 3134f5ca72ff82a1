// Structural validation of an ONNX model before libonnx (checker, shape inference, version
// converter, function expansion) sees it.
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <string>

namespace flowhls::onnx_import {

/// How deep subgraphs (If, Loop, Scan bodies) may nest.
constexpr int kMaxSubgraphDepth = 16;

/// Contract: checks what libonnx assumes without checking, so that no model can crash it:
/// - every tensor (initializers, attribute values) is consistent and at most kMaxTensorBytes
///   (check_tensor), and shapes recorded for values have dimensions in [0, 2^31);
/// - in the graph, every subgraph and every model-local function body, each value is produced
///   once (graph input, initializer or one node output), every node input is produced before
///   the node (so there is no cycle), and every graph output is produced;
/// - model-local functions are unique and none calls itself, directly or through others;
///   subgraphs nest at most kMaxSubgraphDepth deep;
/// - attributes are unique per node and in range: kernel sizes, strides, dilations, groups and
///   block sizes positive, pads non-negative, switches (ceil_mode, transB, keepdims...) 0 or
///   1, and a Constant has exactly one value.
/// Throws flowhls::Error naming `path`, the node or value and the problem.
void validate_model(const onnx::ModelProto &model, const std::string &path);

/// Contract: for a convolution node `n` (Conv, ConvTranspose, ConvInteger, QLinearConv; the
/// `index`-th of its graph) whose data and weight ranks are in `rank` (value name -> rank;
/// unknown ranks absent): data rank at least 3, data and weight ranks equal, window attributes
/// (strides, dilations, kernel_shape, output_padding) one value per spatial axis, pads two.
/// libonnx's ConvTranspose shape inference reads past the kernel shape otherwise (SIGSEGV).
/// Other nodes are not checked. Throws flowhls::Error naming `path`, the node and the problem.
void check_convolution_ranks(const onnx::NodeProto &n, int index, const std::map<std::string, int> &rank,
                             const std::string &path);

}  // namespace flowhls::onnx_import
