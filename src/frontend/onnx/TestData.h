// The test data of an imported model: which files, and attaching them to the program.
#pragma once

#include "flowhls/HalideProgram.h"
#include "flowhls/Onnx.h"
#include "frontend/onnx/TensorData.h"

#include <string>
#include <vector>

namespace flowhls::onnx_import {

/// Test inputs and expected outputs of a model, in graph order.
struct TestData {
    std::vector<TestTensor> inputs, outputs;
};

/// Contract: reads the test data `options` name for the model at `model_path`: the given
/// files, else the input_N.pb / output_N.pb files of `test_data_dir`, else those of
/// `test_data_set_0` beside the model when no shape is overridden; empty when there are none.
/// Throws flowhls::Error naming a file or directory that cannot be read.
TestData load_test_data(const std::string &model_path, const OnnxImportOptions &options);

/// Contract: attaches `data` to `program` as test inputs (one per kernel input that is not a
/// constant; `kernel_inputs` gives the graph input index of each) and expected outputs,
/// checking counts, element types and shapes against the program; `graph_inputs` names the
/// graph inputs, `output_types` the ONNX element type of each output. Sets the program's
/// tolerances from `options`. Does nothing when `data` is empty.
void attach_test_data(HalideProgram &program, const TestData &data, const std::vector<std::string> &graph_inputs,
                      const std::vector<size_t> &kernel_inputs, const std::vector<int> &output_types,
                      const OnnxImportOptions &options);

}  // namespace flowhls::onnx_import
