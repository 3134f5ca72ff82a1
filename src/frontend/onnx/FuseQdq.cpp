// fuse_qdq: QDQ patterns of a quantized model rewritten as integer ops (QLinearConv, QLinearAdd,
// QLinearConcat, QLinearAveragePool, Max, MaxPool).
#include "frontend/onnx/FuseQdq.h"

#include <cmath>
#include <map>
#include <set>

#include "frontend/onnx/Attributes.h"
#include "frontend/onnx/Load.h"
#include "frontend/onnx/TensorData.h"

namespace flowhls::onnx_import {

namespace {

using onnx::NodeProto;
using onnx::TensorProto;

// A value known at load time (initializer, Constant, or ConstantOfShape / Cast of one).
struct Known {
    int elem_type = 0;
    std::vector<int64_t> dims;
    std::vector<double> values;
};

bool is_8bit(int t) {
    return t == TensorProto::UINT8 || t == TensorProto::INT8;
}

// Casts `v` to an integer or float ONNX type as Cast does for in-range values.
double cast_value(double v, int to) {
    if (to == TensorProto::FLOAT) return static_cast<float>(v);
    if (to == TensorProto::DOUBLE) return v;
    return static_cast<double>(static_cast<int64_t>(v));
}

class Fuser {
public:
    Fuser(onnx::ModelProto &model, const std::string &path) : model_(model), g_(*model.mutable_graph()) {
        onnx::ModelProto inferred = model;
        infer_shapes(inferred, path);
        types_ = value_types(inferred.graph());
        for (const TensorProto &t : g_.initializer()) {
            Halide::Buffer<> b = tensor_to_buffer(t, "initializer '" + t.name() + "'");
            known_[t.name()] = {t.data_type(), tensor_dims(t), buffer_doubles(b)};
            names_.insert(t.name());
        }
        for (const NodeProto &n : g_.node()) {
            for (const std::string &o : n.output()) names_.insert(o);
            if (!n.domain().empty() || n.output_size() != 1) continue;
            evaluate(n);
        }
    }

    int run() {
        int fused = 0;
        for (int i = 0; i < g_.node_size(); i++) {
            const NodeProto &q = g_.node(i);
            if (q.op_type() != "QuantizeLinear" || !q.domain().empty()) continue;
            index_graph();
            std::vector<NodeProto> replacement;
            if (fuse_linear(q, &replacement) || fuse_add(q, &replacement) || fuse_concat(q, &replacement) ||
                fuse_average_pool(q, &replacement) || fuse_same_scale(q, &replacement)) {
                replace(i, replacement);
                fused++;
            }
        }
        if (fused) remove_dead_nodes();
        return fused;
    }

private:
    void evaluate(const NodeProto &n) {
        const std::string &out = n.output(0);
        if (n.op_type() == "Constant" && has_attribute(n, "value")) {
            const TensorProto *t = attribute_tensor(n, "value");
            if (!t || t->data_type() == TensorProto::STRING) return;
            Halide::Buffer<> b = tensor_to_buffer(*t, "constant '" + out + "'");
            known_[out] = {t->data_type(), tensor_dims(*t), buffer_doubles(b)};
        } else if (n.op_type() == "ConstantOfShape" && n.input_size() == 1 && known_.count(n.input(0))) {
            Known k{TensorProto::FLOAT, {}, {}};
            int64_t count = 1;
            for (double d : known_[n.input(0)].values) {
                if (d < 0 || d > (1 << 20)) return;
                k.dims.push_back(static_cast<int64_t>(d));
                count *= static_cast<int64_t>(d);
            }
            double value = 0;
            if (const TensorProto *t = attribute_tensor(n, "value")) {
                Halide::Buffer<> b = tensor_to_buffer(*t, "constant '" + out + "'");
                std::vector<double> v = buffer_doubles(b);
                if (v.size() != 1) return;
                k.elem_type = t->data_type();
                value = v[0];
            }
            if (count > (1 << 20)) return;
            k.values.assign(static_cast<size_t>(count), value);
            known_[out] = k;
        } else if (n.op_type() == "Cast" && n.input_size() == 1 && known_.count(n.input(0))) {
            int to = static_cast<int>(attribute_int(n, "to", 0));
            std::string why;
            halide_type_of(to, &why);
            if (!why.empty() || to == TensorProto::BOOL) return;
            Known k = known_[n.input(0)];
            k.elem_type = to;
            for (double &v : k.values) v = cast_value(v, to);
            known_[out] = k;
        }
    }

    void index_graph() {
        producer_.clear();
        uses_.clear();
        for (int i = 0; i < g_.node_size(); i++) {
            for (const std::string &o : g_.node(i).output()) producer_[o] = i;
            for (const std::string &in : g_.node(i).input()) uses_[in]++;
        }
        for (const auto &o : g_.output()) uses_[o.name()]++;
    }

    const NodeProto *producer(const std::string &value, const std::string &op) const {
        auto it = producer_.find(value);
        if (it == producer_.end()) return nullptr;
        const NodeProto &n = g_.node(it->second);
        return n.op_type() == op && n.domain().empty() ? &n : nullptr;
    }

    int elem_type(const std::string &value) const {
        auto k = known_.find(value);
        if (k != known_.end()) return k->second.elem_type;
        auto t = types_.find(value);
        return t == types_.end() ? 0 : t->second.elem_type;
    }

    // `value` with identity Casts (to its own type) looked through.
    std::string through_casts(std::string value) const {
        while (const NodeProto *c = producer(value, "Cast")) {
            if (c->input_size() != 1 || elem_type(c->input(0)) != attribute_int(*c, "to", 0)) break;
            value = c->input(0);
        }
        return value;
    }

    const Known *known(const NodeProto &n, int input) const {
        if (input >= n.input_size() || n.input(input).empty()) return nullptr;
        auto it = known_.find(n.input(input));
        return it == known_.end() ? nullptr : &it->second;
    }

    // A DequantizeLinear's constant scale and zero point (zero point absent: zeros of the
    // quantized type); false when either is computed at run time.
    struct Dequant {
        std::string q;  // the quantized value (identity Casts looked through)
        int q_type = 0;
        Known scale, zero;
        int axis = 1;
    };

    bool dequant(const std::string &value, Dequant *d) const {
        const NodeProto *n = producer(value, "DequantizeLinear");
        if (!n) return false;
        const Known *s = known(*n, 1), *z = known(*n, 2);
        if (!s) return false;
        d->q = through_casts(n->input(0));
        d->q_type = elem_type(d->q);
        d->scale = *s;
        d->zero = z ? *z : Known{d->q_type, s->dims, std::vector<double>(s->values.size(), 0.0)};
        d->axis = static_cast<int>(attribute_int(*n, "axis", 1));
        return d->zero.values.size() == s->values.size() && !s->values.empty();
    }

    std::string fresh(const std::string &base) {
        std::string name = base;
        for (int k = 2; names_.count(name); k++) name = base + "_" + std::to_string(k);
        names_.insert(name);
        return name;
    }

    // A new initializer of `elem_type` holding `values` (a scalar when dims is empty).
    std::string add_initializer(const std::string &base, int elem_type, const std::vector<int64_t> &dims,
                                const std::vector<double> &values) {
        std::string name = fresh(base);
        std::string why;
        Halide::Buffer<> b = make_buffer(halide_type_of(elem_type, &why), dims);
        Halide::Type t = b.type();
        uint8_t *p = static_cast<uint8_t *>(b.data());
        for (size_t k = 0; k < values.size(); k++) {
            double v = values[k];
            uint8_t *e = p + k * t.bytes();
            if (t == Halide::Float(32))
                *reinterpret_cast<float *>(e) = static_cast<float>(v);
            else if (t == Halide::Int(8))
                *reinterpret_cast<int8_t *>(e) = static_cast<int8_t>(v);
            else if (t == Halide::UInt(8))
                *reinterpret_cast<uint8_t *>(e) = static_cast<uint8_t>(v);
            else if (t == Halide::Int(32))
                *reinterpret_cast<int32_t *>(e) = static_cast<int32_t>(v);
            else if (t == Halide::Int(64))
                *reinterpret_cast<int64_t *>(e) = static_cast<int64_t>(v);
            else
                throw std::logic_error("fuse_qdq: initializer of unexpected type");
        }
        *g_.add_initializer() = buffer_to_tensor(b, dims, elem_type, name);
        known_[name] = {elem_type, dims, values};
        return name;
    }

    // A scale or zero point as a new initializer: a scalar when it holds one value.
    std::string add_param(const std::string &base, const Known &k) {
        std::vector<int64_t> dims;
        if (k.values.size() != 1) dims = {static_cast<int64_t>(k.values.size())};
        return add_initializer(base, k.elem_type, dims, k.values);
    }

    static NodeProto make_node(const std::string &op, std::vector<std::string> inputs, const std::string &output,
                               const std::string &name) {
        NodeProto n;
        n.set_op_type(op);
        n.set_name(name);
        for (const std::string &in : inputs) n.add_input(in);
        n.add_output(output);
        return n;
    }

    // The Relu (single reader) between QuantizeLinear and its producer, if any; `value` moves
    // to the Relu's input.
    bool skip_relu(std::string *value) const {
        const NodeProto *relu = producer(*value, "Relu");
        if (!relu || uses_.at(*value) != 1) return false;
        *value = relu->input(0);
        return true;
    }

    // QuantizeLinear's constant per-tensor scale and zero point.
    bool quantize_params(const NodeProto &q, Known *scale, Known *zero) const {
        const Known *s = known(q, 1), *z = known(q, 2);
        if (!s || s->values.size() != 1) return false;
        if (q.input_size() > 2 && !q.input(2).empty() && !z) return false;
        *scale = *s;
        *zero = z ? *z : Known{TensorProto::UINT8, {}, {0.0}};
        return z ? z->values.size() == 1 : true;
    }

    bool fuse_linear(const NodeProto &q, std::vector<NodeProto> *out) {
        Known sy, zy;
        if (!quantize_params(q, &sy, &zy)) return false;
        std::string value = q.input(0);
        bool relu = skip_relu(&value);
        auto p = producer_.find(value);
        if (p == producer_.end() || uses_.at(value) != 1) return false;
        const NodeProto &op = g_.node(p->second);
        bool gemm = op.op_type() == "Gemm";
        if ((op.op_type() != "Conv" && !gemm) || !op.domain().empty() || op.input_size() < 2) return false;
        Dequant x, w, b;
        if (!dequant(op.input(0), &x) || !dequant(op.input(1), &w)) return false;
        if (!is_8bit(x.q_type) || !is_8bit(w.q_type) || x.scale.values.size() != 1) return false;
        auto wk = known_.find(w.q);
        if (wk == known_.end()) return false;
        Known weights = wk->second;
        std::vector<int64_t> wdims = weights.dims;
        bool trans_b = false;
        if (gemm) {
            if (attribute_float(op, "alpha", 1.0f) != 1.0f || attribute_float(op, "beta", 1.0f) != 1.0f ||
                attribute_int(op, "transA", 0) != 0 || wdims.size() != 2) {
                return false;
            }
            auto xt = types_.find(op.input(0));
            if (xt == types_.end() || !xt->second.has_shape || xt->second.dims.size() != 2) return false;
            trans_b = attribute_int(op, "transB", 0) != 0;
        }
        if (wdims.empty()) return false;
        int64_t maps = gemm ? (trans_b ? wdims[0] : wdims[1]) : wdims[0];
        int channel_axis = gemm && !trans_b ? 1 : 0;
        if (w.axis < 0) w.axis += static_cast<int>(weights.dims.size());
        size_t per_channel = w.scale.values.size();
        if (per_channel != 1 && (per_channel != static_cast<size_t>(maps) || w.axis != channel_axis)) return false;
        // The bias: int32, zero point 0, a positive scale per tensor or per channel. When it is
        // not exactly x_scale * w_scale[m] (PyTorch and ONNX Runtime write float32 of that
        // product), QLinearConv carries it (flowhls_bias_scale) and requantizes the bias at it.
        std::string bias;
        std::vector<float> bias_scale;
        if (op.input_size() > 2 && !op.input(2).empty()) {
            if (!dequant(op.input(2), &b)) return false;
            auto bk = known_.find(b.q);
            size_t scales = b.scale.values.size();
            if (bk == known_.end() || b.q_type != TensorProto::INT32 || bk->second.values.size() != size_t(maps) ||
                (scales != 1 && scales != size_t(maps))) {
                return false;
            }
            bool product = true;
            for (int64_t m = 0; m < maps; m++) {
                float sb = static_cast<float>(b.scale.values[scales == 1 ? 0 : m]);
                double sw = static_cast<float>(w.scale.values[per_channel == 1 ? 0 : m]);
                if (!(sb > 0.0f) || !std::isfinite(sb) || b.zero.values[b.zero.values.size() == 1 ? 0 : m] != 0) {
                    return false;
                }
                // float32 x float32 is exact in double.
                product &= static_cast<double>(sb) == static_cast<double>(static_cast<float>(x.scale.values[0])) * sw;
                if (scales != 1 || m == 0) bias_scale.push_back(sb);
            }
            if (product) bias_scale.clear();
            bias = add_initializer(b.q + "_q", TensorProto::INT32, {maps}, bk->second.values);
        }
        std::string base = op.name().empty() ? value : op.name();
        // Weights as [M, C, K...] (a Gemm's as [M, K, 1, 1]).
        std::vector<double> wv = weights.values;
        if (gemm) {
            int64_t k = trans_b ? wdims[1] : wdims[0];
            if (!trans_b) {
                std::vector<double> t(wv.size());
                for (int64_t r = 0; r < k; r++) {
                    for (int64_t c = 0; c < maps; c++) t[c * k + r] = wv[r * maps + c];
                }
                wv = t;
            }
            wdims = {maps, k, 1, 1};
        }
        std::vector<std::string> inputs = {x.q,
                                           add_param(base + "_x_scale", x.scale),
                                           add_param(base + "_x_zero_point", x.zero),
                                           add_initializer(w.q + "_q", w.q_type, wdims, wv),
                                           add_param(base + "_w_scale", w.scale),
                                           add_param(base + "_w_zero_point", w.zero),
                                           add_param(base + "_y_scale", sy),
                                           add_param(base + "_y_zero_point", zy)};
        if (!bias.empty()) inputs.push_back(bias);
        std::string result = q.output(0);
        std::string conv_out = relu ? fresh(base + "_qlinear") : result;
        if (gemm) {
            inputs[0] = fresh(base + "_x4");
            std::string shape4 = add_initializer(base + "_shape4", TensorProto::INT64, {4}, {0, -1, 1, 1});
            out->push_back(make_node("Reshape", {x.q, shape4}, inputs[0], inputs[0]));
            std::string y4 = fresh(base + "_y4");
            NodeProto conv = make_node("QLinearConv", inputs, y4, base + "_qlinear");
            if (!bias_scale.empty()) set_bias_scale(conv, bias_scale);
            out->push_back(conv);
            std::string shape2 = add_initializer(base + "_shape2", TensorProto::INT64, {2}, {0, -1});
            out->push_back(make_node("Reshape", {y4, shape2}, conv_out, base + "_flatten"));
        } else {
            NodeProto conv = make_node("QLinearConv", inputs, conv_out, base + "_qlinear");
            for (const auto &a : op.attribute()) *conv.add_attribute() = a;
            if (!bias_scale.empty()) set_bias_scale(conv, bias_scale);
            out->push_back(conv);
        }
        if (relu) out->push_back(make_node("Max", {conv_out, inputs[7]}, result, base + "_relu"));
        return true;
    }

    // The bias's own scale on a fused QLinearConv (read by its converter, ops/Quantize.cpp).
    static void set_bias_scale(NodeProto &conv, const std::vector<float> &scales) {
        onnx::AttributeProto *a = conv.add_attribute();
        a->set_name("flowhls_bias_scale");
        a->set_type(onnx::AttributeProto::FLOATS);
        for (float s : scales) a->add_floats(s);
    }

    // QuantizeLinear([Relu](Add(DequantizeLinear(aq), DequantizeLinear(bq)))), per-tensor
    // constant scales and zero points, into QLinearAdd (ONNX Runtime's com.microsoft op, whose
    // converter requantizes in integers when it proves that exact) and Max(q, zy) for the Relu.
    bool fuse_add(const NodeProto &q, std::vector<NodeProto> *out) {
        Known sy, zy;
        if (!quantize_params(q, &sy, &zy)) return false;
        std::string value = q.input(0);
        bool relu = skip_relu(&value);
        const NodeProto *add = producer(value, "Add");
        if (!add || uses_.at(value) != 1 || add->input_size() != 2) return false;
        Dequant a, b;
        if (!dequant(add->input(0), &a) || !dequant(add->input(1), &b)) return false;
        for (const Dequant *d : {&a, &b}) {
            if (!is_8bit(d->q_type) || d->scale.values.size() != 1) return false;
        }
        std::string base = add->name().empty() ? value : add->name();
        std::vector<std::string> inputs = {a.q,
                                           add_param(base + "_a_scale", a.scale),
                                           add_param(base + "_a_zero_point", a.zero),
                                           b.q,
                                           add_param(base + "_b_scale", b.scale),
                                           add_param(base + "_b_zero_point", b.zero),
                                           add_param(base + "_y_scale", sy),
                                           add_param(base + "_y_zero_point", zy)};
        std::string result = q.output(0);
        std::string sum = relu ? fresh(base + "_qlinear") : result;
        NodeProto n = make_node("QLinearAdd", inputs, sum, base + "_qlinear");
        n.set_domain("com.microsoft");
        out->push_back(n);
        if (relu) out->push_back(make_node("Max", {sum, inputs[7]}, result, base + "_relu"));
        import_contrib_domain();
        return true;
    }

    // QuantizeLinear(Concat(DequantizeLinear(a), ...)) with constant per-tensor scales and zero
    // points into QLinearConcat (com.microsoft), whose converter keeps operands with the output's
    // parameters as they are and requantizes the others in integers where proven exact.
    bool fuse_concat(const NodeProto &q, std::vector<NodeProto> *out) {
        Known sy, zy;
        if (!quantize_params(q, &sy, &zy)) return false;
        const NodeProto *concat = producer(q.input(0), "Concat");
        if (!concat || uses_.at(q.input(0)) != 1 || concat->input_size() < 1) return false;
        std::string base = concat->name().empty() ? q.output(0) : concat->name();
        std::vector<Dequant> operands(static_cast<size_t>(concat->input_size()));
        for (int k = 0; k < concat->input_size(); k++) {
            Dequant &d = operands[static_cast<size_t>(k)];
            if (!dequant(concat->input(k), &d) || !is_8bit(d.q_type) || d.scale.values.size() != 1) return false;
        }
        std::vector<std::string> inputs = {add_param(base + "_y_scale", sy), add_param(base + "_y_zero_point", zy)};
        for (size_t k = 0; k < operands.size(); k++) {
            std::string tag = base + "_x" + std::to_string(k);
            inputs.push_back(operands[k].q);
            inputs.push_back(add_param(tag + "_scale", operands[k].scale));
            inputs.push_back(add_param(tag + "_zero_point", operands[k].zero));
        }
        NodeProto n = make_node("QLinearConcat", inputs, q.output(0), base + "_qlinear");
        n.set_domain("com.microsoft");
        for (const auto &a : concat->attribute()) *n.add_attribute() = a;
        out->push_back(n);
        import_contrib_domain();
        return true;
    }

    // QuantizeLinear(AveragePool|GlobalAveragePool(DequantizeLinear(xq))) with constant per-tensor
    // scales and zero points of one 8-bit type into QLinearAveragePool / QLinearGlobalAveragePool
    // (com.microsoft), whose converter sums in int32 and divides exactly in integers where proven.
    bool fuse_average_pool(const NodeProto &q, std::vector<NodeProto> *out) {
        Known sy, zy;
        if (!quantize_params(q, &sy, &zy)) return false;
        auto p = producer_.find(q.input(0));
        if (p == producer_.end() || uses_.at(q.input(0)) != 1) return false;
        const NodeProto &pool = g_.node(p->second);
        bool global = pool.op_type() == "GlobalAveragePool";
        if ((!global && pool.op_type() != "AveragePool") || !pool.domain().empty() || pool.input_size() != 1) return false;
        Dequant x;
        if (!dequant(pool.input(0), &x) || !is_8bit(x.q_type) || x.scale.values.size() != 1 || x.q_type != zy.elem_type) {
            return false;
        }
        std::string base = pool.name().empty() ? q.output(0) : pool.name();
        std::vector<std::string> inputs = {x.q, add_param(base + "_x_scale", x.scale),
                                           add_param(base + "_x_zero_point", x.zero), add_param(base + "_y_scale", sy),
                                           add_param(base + "_y_zero_point", zy)};
        NodeProto n = make_node(global ? "QLinearGlobalAveragePool" : "QLinearAveragePool", inputs, q.output(0),
                                base + "_qlinear");
        n.set_domain("com.microsoft");
        for (const auto &a : pool.attribute()) *n.add_attribute() = a;
        out->push_back(n);
        import_contrib_domain();
        return true;
    }

    void import_contrib_domain() {
        for (const onnx::OperatorSetIdProto &o : model_.opset_import()) {
            if (o.domain() == "com.microsoft") return;
        }
        onnx::OperatorSetIdProto *o = model_.add_opset_import();
        o->set_domain("com.microsoft");
        o->set_version(1);
    }

    // QuantizeLinear(MaxPool|Flatten|Reshape|Relu(DequantizeLinear(xq))) with one scale and
    // zero point: MaxPool is monotone, Flatten and Reshape move values, Relu is max(xq, zp).
    bool fuse_same_scale(const NodeProto &q, std::vector<NodeProto> *out) {
        Known sy, zy;
        if (!quantize_params(q, &sy, &zy)) return false;
        auto p = producer_.find(q.input(0));
        if (p == producer_.end() || uses_.at(q.input(0)) != 1) return false;
        const NodeProto &op = g_.node(p->second);
        const std::string &type = op.op_type();
        bool relu = type == "Relu";
        if ((!relu && type != "MaxPool" && type != "Flatten" && type != "Reshape") || !op.domain().empty() ||
            op.output_size() != 1) {
            return false;
        }
        Dequant x;
        if (!dequant(op.input(0), &x) || x.scale.values.size() != 1 || x.scale.values != sy.values ||
            x.zero.values != zy.values || x.q_type != zy.elem_type) {
            return false;
        }
        std::string base = op.name().empty() ? q.output(0) : op.name();
        if (relu) {
            out->push_back(make_node("Max", {x.q, add_param(base + "_zero_point", zy)}, q.output(0), base + "_q"));
            return true;
        }
        // Monotone or layout-only: the same op on the integers.
        NodeProto n = op;
        n.set_input(0, x.q);
        n.set_output(0, q.output(0));
        n.set_name(base + "_q");
        out->push_back(n);
        return true;
    }

    // Node i (a QuantizeLinear) replaced by `nodes`; the producers it made unused go later.
    void replace(int i, const std::vector<NodeProto> &nodes) {
        onnx::GraphProto copy = g_;
        g_.clear_node();
        for (int k = 0; k < copy.node_size(); k++) {
            if (k != i) {
                *g_.add_node() = copy.node(k);
                continue;
            }
            for (const NodeProto &n : nodes) *g_.add_node() = n;
        }
    }

    void remove_dead_nodes() {
        bool changed = true;
        while (changed) {
            changed = false;
            index_graph();
            onnx::GraphProto copy = g_;
            g_.clear_node();
            for (const NodeProto &n : copy.node()) {
                bool used = false;
                for (const std::string &o : n.output()) used |= !o.empty() && uses_.count(o) && uses_[o] > 0;
                if (used)
                    *g_.add_node() = n;
                else
                    changed = true;
            }
        }
    }

    onnx::ModelProto &model_;
    onnx::GraphProto &g_;
    std::map<std::string, ValueType> types_;
    std::map<std::string, Known> known_;
    std::set<std::string> names_;
    std::map<std::string, int> producer_;
    std::map<std::string, int> uses_;
};

}  // namespace

int fuse_qdq(onnx::ModelProto &model, const std::string &path) {
    return Fuser(model, path).run();
}

}  // namespace flowhls::onnx_import
