// The test data of an imported model: finding and reading the files, attaching them.
#include "frontend/onnx/TestData.h"
#include "frontend/onnx/OpSupport.h"
#include "support/Paths.h"

#include <algorithm>
#include <filesystem>

namespace flowhls::onnx_import {

namespace fs = std::filesystem;

namespace {

// The files `prefix`N.pb of `dir`, by N.
std::vector<std::string> sorted_files(const fs::path &dir, const std::string &prefix) {
    std::vector<std::pair<int, std::string>> found;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
        std::string n = e.path().filename().string();
        if (n.rfind(prefix, 0) != 0 || e.path().extension() != ".pb") continue;
        found.emplace_back(std::atoi(n.c_str() + prefix.size()), e.path().string());
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto &f : found) out.push_back(f.second);
    return out;
}

}  // namespace

TestData load_test_data(const std::string &model_path, const OnnxImportOptions &o) {
    TestData data;
    std::vector<std::string> ins = o.input_files, outs = o.expected_files;
    std::string dir = o.test_data_dir;
    // test_data_set_0 beside the model is used unless shapes are overridden.
    if (ins.empty() && outs.empty() && dir.empty() && o.shapes.empty()) {
        fs::path beside = fs::path(model_path).parent_path() / "test_data_set_0";
        std::error_code ec;
        if (fs::is_directory(beside, ec)) dir = beside.string();
    }
    if (ins.empty() && outs.empty() && !dir.empty()) {
        require_directory(dir, "test data directory");
        ins = sorted_files(dir, "input_");
        outs = sorted_files(dir, "output_");
    }
    for (const std::string &f : ins) data.inputs.push_back(read_test_tensor(f));
    for (const std::string &f : outs) data.outputs.push_back(read_test_tensor(f));
    return data;
}

void attach_test_data(HalideProgram &p, const TestData &data, const std::vector<std::string> &graph_inputs,
                      const std::vector<size_t> &kernel_inputs, const std::vector<int> &output_types,
                      const OnnxImportOptions &options) {
    if (data.inputs.empty() && data.outputs.empty()) return;
    if (data.outputs.empty()) throw Error("test data has inputs but no expected outputs");
    if (data.inputs.size() != graph_inputs.size()) {
        throw Error("test data has " + std::to_string(data.inputs.size()) + " input(s); the model has " +
                    std::to_string(graph_inputs.size()));
    }
    if (data.outputs.size() != p.outputs.size()) {
        throw Error("test data has " + std::to_string(data.outputs.size()) + " expected output(s); the model has " +
                    std::to_string(p.outputs.size()));
    }
    size_t k = 0;
    for (const ProgramInput &in : p.inputs) {
        if (in.constant.defined()) continue;
        size_t gi = kernel_inputs.at(k++);
        const TestTensor &t = data.inputs.at(gi);
        if (t.values.type() != in.param.type() || halide_extents(t.shape) != in.shape) {
            throw Error("test input " + std::to_string(gi) + " ('" + t.name + "') does not match model input '" +
                        graph_inputs.at(gi) + "' (type or shape)");
        }
        p.test_inputs.push_back(t.values);
    }
    for (size_t i = 0; i < p.outputs.size(); i++) {
        const TestTensor &t = data.outputs[i];
        if (t.elem_type != output_types[i] || halide_extents(t.shape) != p.outputs[i].shape) {
            throw Error("expected output " + std::to_string(i) + " ('" + t.name + "') has type " +
                        elem_type_name(t.elem_type) + " shape " + shape_text(t.shape) + "; the model's output differs");
        }
        p.expected_outputs.push_back(t.values);
    }
    p.atol = options.atol;
    p.rtol = options.rtol;
}

}  // namespace flowhls::onnx_import
