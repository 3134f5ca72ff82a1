// Types and printing of the fixed-point values of --precision (docs/quantization.md).
#include "emit/vitis/FixedTypes.h"
#include "graph/Precision.h"

#include <set>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

std::string data_type_name(const Filter &f) { return f.name + "_t"; }
std::string acc_type_name(const Filter &f) { return f.name + "_acc_t"; }

std::string ap_fixed_text(const FixedFormat &x) {
    return "ap_fixed<" + std::to_string(x.width) + ", " + std::to_string(x.integer) + ", AP_RND_CONV, AP_SAT>";
}

// Float lets of a body, and the local arrays that a store of something other than a load
// writes (accumulating arrays, not copies).
struct FloatValues : IRVisitor {
    std::set<std::string> computed_arrays;
    /// Float let -> the buffer it loads ("" when it computes).
    std::map<std::string, std::string> lets;
    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        if (op->value.type().is_float() && op->value.type().lanes() == 1) {
            Expr value = op->value;  // strict_float(x) is x
            const Call *c = value.as<Call>();
            if (c && c->is_intrinsic(Call::strict_float) && c->args.size() == 1) value = c->args[0];
            const Load *l = value.as<Load>();
            lets[op->name] = l ? l->name : "";
        }
        IRVisitor::visit(op);
    }
    void visit(const Store *op) override {
        if (!op->value.as<Load>()) computed_arrays.insert(op->name);
        IRVisitor::visit(op);
    }
};

}  // namespace

std::map<std::string, std::string> fixed_value_types(const FilterGraph &g) {
    std::map<std::string, std::string> out;
    for (const auto &kv : fixed_buffers(g)) out[kv.first] = data_type_name(*kv.second);
    return out;
}

std::map<std::string, std::string> fixed_buffer_types(const FilterGraph &g) {
    std::map<std::string, std::string> out;
    for (const auto &kv : fixed_buffers(g)) {
        bool rom = g.buffer(kv.first).kind == BufferKind::Constant;
        out[kv.first] = rom ? "ap_int<" + std::to_string(kv.second->fixed.width) + ">" : data_type_name(*kv.second);
    }
    return out;
}

std::string fixed_type_definitions(const FilterGraph &g) {
    std::string out;
    for (const Filter &f : g.filters) {
        if (!f.fixed.enabled()) continue;
        if (out.empty()) {
            out = "#include <ap_fixed.h>\n\n// Fixed-point types (flowhls --precision): quantization AP_RND_CONV (round half to even)\n"
                  "// and overflow AP_SAT (saturate) wherever a value is stored; sums and products at full precision.\n";
        }
        std::string what = f.onnx.node.empty() ? "filter " + f.name : "ONNX node '" + f.onnx.node + "' (" + f.onnx.op + ")";
        out += "// " + what + ": " + f.fixed.text() + auto_choice_text(f.fixed) + "\n";
        out += "typedef " + ap_fixed_text(f.fixed) + " " + data_type_name(f) + ";  // its data and weights\n";
        out += "typedef " + ap_fixed_text(f.fixed.accumulator()) + " " + acc_type_name(f) +
               ";  // its sums and intermediate values\n";
    }
    return out.empty() ? out : out + "\n";
}

void add_fixed_values(const FilterGraph &g, const Filter &f, ValueTypes &values) {
    std::map<std::string, std::string> buffers = fixed_value_types(g);
    if (buffers.empty()) return;
    FixedPrinting &p = values.fixed;
    for (const auto &kv : buffers) {
        if (g.buffer(kv.first).kind == BufferKind::Constant) p.raw_roms[kv.first] = kv.second;
    }
    if (!f.fixed.enabled()) {
        for (const auto &kv : buffers) p.fixed_buffers.insert(kv.first);
        return;
    }
    p.value_type = acc_type_name(f);
    p.data_type = data_type_name(f);
    for (const Buffer &b : g.buffers) {
        if (b.type.is_float() && !buffers.count(b.name)) p.float_buffers.insert(b.name);
    }
    FloatValues v;
    f.body.accept(&v);
    for (const LocalBuffer &l : f.locals) {
        if (!l.type.is_float()) continue;
        values.types[l.name] = !l.scalar && !v.computed_arrays.count(l.name) ? p.data_type : p.value_type;
    }
    // A let holding a loaded value keeps the type of what it loads (the operands of the
    // products stay W bits: one DSP for W <= 18); one that computes is a sum (value_type).
    for (const auto &kv : v.lets) {
        auto stored = buffers.find(kv.second);
        auto local = values.types.find(kv.second);
        values.types[kv.first] = kv.second.empty()          ? p.value_type
                                 : stored != buffers.end()  ? stored->second
                                 : local != values.types.end() ? local->second
                                                             : p.data_type;
    }
    values.comment += "    // Fixed point (--precision " + f.fixed.text() + "): data " + p.data_type + ", sums " + p.value_type +
                      "; division and math functions in float.\n";
}

}  // namespace flowhls
