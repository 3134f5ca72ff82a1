// fold_batchnorm_into_conv: inference BatchNormalization merged into the Conv feeding it.
#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/FoldBatchNorm.h"
#include "frontend/onnx/TensorData.h"

#include <cmath>
#include <map>
#include <set>

namespace flowhls::onnx_import {

namespace {

const onnx::TensorProto *find_initializer(const onnx::GraphProto &g, const std::string &name) {
    for (const onnx::TensorProto &t : g.initializer()) {
        if (t.name() == name) return &t;
    }
    return nullptr;
}

// Values of a float initializer with `count` elements (empty if it is not one).
std::vector<float> float_values(const onnx::GraphProto &g, const std::string &name, int64_t count) {
    const onnx::TensorProto *t = name.empty() ? nullptr : find_initializer(g, name);
    if (!t || t->data_type() != onnx::TensorProto::FLOAT) return {};
    Halide::Buffer<> b = tensor_to_buffer(*t, name);
    if (static_cast<int64_t>(b.number_of_elements()) != count) return {};
    const float *p = static_cast<const float *>(b.data());
    return std::vector<float>(p, p + count);
}

std::string fresh(const onnx::GraphProto &g, const std::string &base) {
    std::string name = base;
    for (int k = 2; find_initializer(g, name); k++) name = base + "_" + std::to_string(k);
    return name;
}

}  // namespace

int fold_batchnorm_into_conv(onnx::GraphProto &g) {
    std::map<std::string, int> uses;
    for (const onnx::NodeProto &n : g.node()) {
        for (const std::string &in : n.input()) uses[in]++;
    }
    for (const onnx::ValueInfoProto &o : g.output()) uses[o.name()]++;
    std::map<std::string, int> producer;
    for (int i = 0; i < g.node_size(); i++) {
        for (const std::string &out : g.node(i).output()) producer[out] = i;
    }
    std::set<int> removed;
    for (int i = 0; i < g.node_size(); i++) {
        const onnx::NodeProto &bn = g.node(i);
        if (bn.op_type() != "BatchNormalization" || !bn.domain().empty() || bn.input_size() != 5) continue;
        if (bn.output_size() > 1) {
            bool extra = false;
            for (int k = 1; k < bn.output_size(); k++) extra |= !bn.output(k).empty();
            if (extra) continue;
        }
        auto p = producer.find(bn.input(0));
        if (p == producer.end() || uses[bn.input(0)] != 1) continue;
        onnx::NodeProto &conv = *g.mutable_node(p->second);
        if (conv.op_type() != "Conv" || !conv.domain().empty() || conv.output_size() != 1) continue;
        const onnx::TensorProto *w = find_initializer(g, conv.input(1));
        if (!w || w->data_type() != onnx::TensorProto::FLOAT || w->dims_size() < 3) continue;
        int64_t channels = w->dims(0);
        int64_t per_channel = 1;
        for (int d = 1; d < w->dims_size(); d++) per_channel *= w->dims(d);
        std::vector<float> weights = float_values(g, conv.input(1), channels * per_channel);
        std::vector<float> bias(channels, 0.0f);
        if (conv.input_size() > 2 && !conv.input(2).empty()) {
            bias = float_values(g, conv.input(2), channels);
            if (bias.empty()) continue;
        }
        std::vector<float> scale = float_values(g, bn.input(1), channels), shift = float_values(g, bn.input(2), channels),
                           mean = float_values(g, bn.input(3), channels), var = float_values(g, bn.input(4), channels);
        if (weights.empty() || scale.empty() || shift.empty() || mean.empty() || var.empty()) continue;
        float epsilon = attribute_float(bn, "epsilon", 1e-5f);
        for (int64_t c = 0; c < channels; c++) {
            float s = scale[c] / std::sqrt(var[c] + epsilon);
            for (int64_t k = 0; k < per_channel; k++) weights[c * per_channel + k] *= s;
            bias[c] = (bias[c] - mean[c]) * s + shift[c];
        }
        std::vector<int64_t> wdims = tensor_dims(*w);
        Halide::Buffer<> wb = make_buffer(Halide::Float(32), wdims), bb = make_buffer(Halide::Float(32), {channels});
        std::copy(weights.begin(), weights.end(), static_cast<float *>(wb.data()));
        std::copy(bias.begin(), bias.end(), static_cast<float *>(bb.data()));
        std::string wname = fresh(g, conv.input(1) + "_bn"), bname = fresh(g, bn.input(2) + "_conv");
        *g.add_initializer() = buffer_to_tensor(wb, wdims, onnx::TensorProto::FLOAT, wname);
        *g.add_initializer() = buffer_to_tensor(bb, {channels}, onnx::TensorProto::FLOAT, bname);
        conv.set_input(1, wname);
        if (conv.input_size() > 2) conv.set_input(2, bname);
        else conv.add_input(bname);
        conv.set_output(0, bn.output(0));
        removed.insert(i);
    }
    if (removed.empty()) return 0;
    onnx::GraphProto copy = g;
    g.clear_node();
    for (int i = 0; i < copy.node_size(); i++) {
        if (!removed.count(i)) *g.add_node() = copy.node(i);
    }
    return static_cast<int>(removed.size());
}

}  // namespace flowhls::onnx_import
