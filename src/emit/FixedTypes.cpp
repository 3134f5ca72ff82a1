// Types and printing of the fixed-point values of --precision (docs/quantization.md): ap_fixed
// on Vitis HLS, stdint integers on PandA-Bambu.
#include "emit/FixedTypes.h"
#include "graph/Precision.h"

#include <cstdio>
#include <set>
#include <stdexcept>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;

namespace {

std::string data_type_name(const Filter &f) { return f.name + "_t"; }
std::string acc_type_name(const Filter &f) { return f.name + "_acc_t"; }

std::string ap_fixed_text(const FixedFormat &x) {
    return "ap_fixed<" + std::to_string(x.width) + ", " + std::to_string(x.integer) + ", AP_RND_CONV, AP_SAT>";
}

// "fixed<16,6>, raw * 2^-10": a format and the value its integers stand for.
std::string scale_text(const FixedFormat &x) { return x.text() + ", raw * 2^-" + std::to_string(x.fraction()); }

// Why the sums have their integer bits: " (max |value| 5.69 proven)" or " (I + 10: not proven)".
std::string sum_text(const FixedFormat &x) {
    if (x.sum_integer <= 0) return " (I + 10 integer bits: not proven)";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", x.sum_max);
    return std::string(" (max |value| ") + buf + " proven)";
}

// What a filter computes, for comments and messages: "ONNX node '/conv1/Conv' (Conv)".
std::string filter_text(const Filter &f) {
    return f.onnx.node.empty() ? "filter " + f.name : "ONNX node '" + f.onnx.node + "' (" + f.onnx.op + ")";
}

// The format of each fixed-point type name of the graph (`<filter>_t`, `<filter>_acc_t`).
std::map<std::string, FixedFormat> type_formats(const FilterGraph &g) {
    std::map<std::string, FixedFormat> out;
    for (const Filter &f : g.filters) {
        if (!f.fixed.enabled()) continue;
        out[data_type_name(f)] = f.fixed;
        out[acc_type_name(f)] = f.fixed.accumulator();
    }
    return out;
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

std::string fixed_c_int_type(int bits) {
    if (bits < 1 || bits > 64) throw std::logic_error("fixed_c_int_type: " + std::to_string(bits) + " bits");
    return bits <= 8 ? "int8_t" : bits <= 16 ? "int16_t" : bits <= 32 ? "int32_t" : "int64_t";
}

std::map<std::string, std::string> fixed_buffer_types(const FilterGraph &g, HlsTarget target) {
    std::map<std::string, std::string> out;
    for (const auto &kv : fixed_buffers(g)) {
        bool rom = g.buffer(kv.first).kind == BufferKind::Constant;
        const int w = kv.second->fixed.width;
        std::string raw = target == HlsTarget::Vitis ? "ap_int<" + std::to_string(w) + ">" : fixed_c_int_type(w);
        out[kv.first] = rom ? raw : data_type_name(*kv.second);
    }
    return out;
}

FixedFormat fixed_rom_format(const FilterGraph &g, const Buffer &b) {
    if (b.kind != BufferKind::Constant) return {};
    const std::map<std::string, const Filter *> owners = fixed_buffers(g);
    auto owner = owners.find(b.name);
    return owner != owners.end() ? owner->second->fixed : FixedFormat();
}

std::string fixed_type_definitions(const FilterGraph &g, HlsTarget target) {
    const bool vitis = target == HlsTarget::Vitis;
    std::string out;
    for (const Filter &f : g.filters) {
        if (!f.fixed.enabled()) continue;
        if (out.empty() && vitis) {
            out = "#include <ap_fixed.h>\n\n// Fixed-point types (flowhls --precision): quantization AP_RND_CONV (round half to even)\n"
                  "// and overflow AP_SAT (saturate) wherever a value is stored; sums and products at full precision.\n";
        } else if (out.empty()) {
            out = "// Fixed-point types (flowhls --precision): a value of fixed<W,I> is a signed integer raw of W bits\n"
                  "// standing for raw * 2^-F (F = W - I fraction bits); rounded half to even and saturated wherever a\n"
                  "// value is stored, sums and products exact (flowhls_fixed_c.h), as the Vitis code's ap_fixed types.\n";
        }
        out += "// " + filter_text(f) + ": " + f.fixed.text() + auto_choice_text(f.fixed) + "\n";
        const FixedFormat acc = f.fixed.accumulator();
        const std::string why = sum_text(f.fixed);
        if (vitis) {
            out += "typedef " + ap_fixed_text(f.fixed) + " " + data_type_name(f) + ";  // its data and weights\n";
            out += "typedef " + ap_fixed_text(acc) + " " + acc_type_name(f) + ";  // its sums and intermediate values" + why + "\n";
        } else {
            out += "typedef " + fixed_c_int_type(f.fixed.width) + " " + data_type_name(f) + ";  // its data and weights: " +
                   scale_text(f.fixed) + "\n";
            out += "typedef int64_t " + acc_type_name(f) + ";  // its sums and intermediate values: " + scale_text(acc) + why + "\n";
        }
    }
    return out.empty() ? out : out + "\n";
}

void add_fixed_values(const FilterGraph &g, const Filter &f, ValueTypes &values, HlsTarget target) {
    std::map<std::string, std::string> buffers = fixed_value_types(g);
    if (buffers.empty()) return;
    FixedPrinting &p = values.fixed;
    const bool c99 = target != HlsTarget::Vitis;
    const std::map<std::string, FixedFormat> formats = type_formats(g);
    p.c99 = c99;
    for (const auto &kv : buffers) {
        if (g.buffer(kv.first).kind == BufferKind::Constant) p.raw_roms[kv.first] = kv.second;
        if (c99) p.formats[kv.first] = formats.at(kv.second);
    }
    if (!f.fixed.enabled()) {
        for (const auto &kv : buffers) p.fixed_buffers.insert(kv.first);
        return;
    }
    p.data = f.fixed;
    p.what = filter_text(f);
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
    if (c99) {
        for (const auto &kv : values.types) {
            auto format = formats.find(kv.second);
            if (format != formats.end()) p.formats[kv.first] = format->second;
        }
        values.comment += "    // Fixed point (--precision " + f.fixed.text() + "): data " + p.data_type + " (" +
                          scale_text(f.fixed) + "), sums " + p.value_type + " (" + scale_text(f.fixed.accumulator()) +
                          "); division and math functions in float.\n";
        return;
    }
    values.comment += "    // Fixed point (--precision " + f.fixed.text() + "): data " + p.data_type + ", sums " + p.value_type +
                      "; division and math functions in float.\n";
}

}  // namespace flowhls
