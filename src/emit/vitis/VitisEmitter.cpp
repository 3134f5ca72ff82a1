// emit_vitis_files: the Vitis HLS flavour of the kernel and its Tcl script.
#include "emit/vitis/VitisEmitter.h"
#include "analysis/IntegerWidths.h"
#include "analysis/OperatorModel.h"
#include "emit/KernelEmitter.h"
#include "emit/FixedTypes.h"
#include "emit/vitis/PackDsp.h"
#include "graph/Precision.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace flowhls {

namespace {

// The ARRAY_PARTITION pragma line of array `name` ("" if `p` is not enabled); ARRAY_RESHAPE
// for a reshape (its banks packed side by side into one word).
std::string partition_pragma(const std::string &name, const ArrayPartition &p) {
    if (p.pairs > 0) {
        // Packed in pairs ([2][pairs]): dim 1's two elements one word of twice the width, dim 2
        // banked as the flat array was (pairs is a multiple of the banks).
        std::string lines = "#pragma HLS ARRAY_RESHAPE variable=" + name + " type=complete dim=1\n";
        if (p.enabled && p.factor > 1) {
            lines += "#pragma HLS ARRAY_PARTITION variable=" + name + " type=" + partition_kind_name(p.kind) +
                     " factor=" + std::to_string(p.factor) + " dim=2\n";
        }
        return lines;
    }
    if (!p.enabled) return "";
    if (p.reshape && p.dims.empty()) {
        return "#pragma HLS ARRAY_RESHAPE variable=" + name + " type=" + partition_kind_name(p.kind) +
               " factor=" + std::to_string(p.factor) + " dim=1\n";
    }
    if (!p.dims.empty()) {
        // One pragma per partitioned dimension; C's dim=1 is the outermost (Halide's last).
        std::string lines;
        for (const DimensionPartition &d : p.dims) {
            lines += "#pragma HLS ARRAY_PARTITION variable=" + name + " type=" + partition_kind_name(d.kind);
            if (d.kind != PartitionKind::Complete) lines += " factor=" + std::to_string(d.factor);
            lines += " dim=" + std::to_string(p.shape.size() - static_cast<size_t>(d.dim)) + "\n";
        }
        return lines;
    }
    std::string line = "#pragma HLS ARRAY_PARTITION variable=" + name + " type=" + partition_kind_name(p.kind);
    if (p.kind != PartitionKind::Complete) line += " factor=" + std::to_string(p.factor);
    return line + " dim=1\n";
}

std::string ap_type(const IntegerWidth &w) {
    return std::string(w.is_signed ? "ap_int<" : "ap_uint<") + std::to_string(w.bits) + ">";
}

// Let name -> value as written, in a filter body.
std::map<std::string, Halide::Expr> let_values(const Halide::Internal::Stmt &body) {
    struct Lets : Halide::Internal::IRVisitor {
        std::map<std::string, Halide::Expr> values;
        using IRVisitor::visit;
        void visit(const Halide::Internal::LetStmt *op) override {
            values[op->name] = op->value;
            IRVisitor::visit(op);
        }
    } lets;
    body.accept(&lets);
    return lets.values;
}

// ap_int<W>/ap_uint<W> for the integer values of `f` narrower than their program type, a
// comment naming the filter (the ONNX node's output) with the accumulators' ranges, and LUT
// multipliers (bind_op impl=fabric) for products of operands of at most 4 bits.
ValueTypes ap_int_types(const FilterGraph &g, const Filter &f) {
    std::map<std::string, IntegerWidth> widths = integer_widths(g, f);
    ValueTypes out;
    std::ostringstream c;
    int others = 0;
    for (const auto &kv : widths) {
        out.types[kv.first] = ap_type(kv.second);
        if (!kv.second.accumulator) {
            others++;
            continue;
        }
        const IntegerWidth &w = kv.second;
        c << "    // Accumulator " << kv.first << " in [" << w.lo << ", " << w.hi << "] (" << w.bound
          << "): " << ap_type(w) << ", not int" << w.program_bits << "_t.\n";
    }
    std::map<std::string, Halide::Expr> lets = let_values(f.body);
    std::map<std::string, int> bits;
    for (const auto &kv : widths) bits[kv.first] = kv.second.bits;
    int fabric = 0;
    for (const auto &kv : lets) {
        const Halide::Internal::Mul *m = kv.second.as<Halide::Internal::Mul>();
        if (!m || !kv.second.type().is_int_or_uint() || Halide::Internal::is_const(m->a) ||
            Halide::Internal::is_const(m->b)) {
            continue;
        }
        if (operator_of(kv.second, lets, &bits) == "imul4") {  // the estimator's LUT multiplier
            out.pragmas[kv.first] = "#pragma HLS bind_op variable=" + kv.first + " op=mul impl=fabric";
            fabric++;
        }
    }
    if (!out.types.empty() || fabric > 0) {
        out.comment = "    // Integer widths of " + f.name + " (the ONNX node's output), from value ranges proven by flowhls:\n" +
                      c.str() + "    // " + std::to_string(others) +
                      " other value(s) declared ap_int/ap_uint narrower than their C type";
        if (fabric > 0) out.comment += "; " + std::to_string(fabric) + " product(s) of <= 4-bit operands in LUTs";
        out.comment += ".\n";
    }
    return out;
}

// Vitis HLS pragmas: PIPELINE/UNROLL, INLINE, ARRAY_PARTITION, STREAM depths, the top
// function's INTERFACE pragmas and DATAFLOW when the graph is a legal dataflow region.
class VitisHooks : public KernelHooks {
public:
    void loop_pragmas(const LoopDirective &d, std::vector<std::string> &body, std::vector<std::string> &) const override {
        // A dataflow loop: its body's tasks (the block copy into its ping-pong locals, the
        // computation) overlap across iterations.
        if (d.dataflow) body.push_back("#pragma HLS DATAFLOW");
        if (d.pipeline_ii > 0) body.push_back("#pragma HLS PIPELINE II=" + std::to_string(d.pipeline_ii));
        if (d.unroll != 0) {
            body.push_back(d.unroll == kUnrollComplete ? "#pragma HLS UNROLL"
                                                       : "#pragma HLS UNROLL factor=" + std::to_string(d.unroll));
        }
    }
    std::string function_pragmas(const Filter &f) const override { return f.inline_function ? "#pragma HLS INLINE\n" : ""; }
    std::string array_pragmas(const std::string &name, const ArrayPartition &p) const override {
        return partition_pragma(name, p);
    }
    std::string resident_pragmas(const std::string &name) const override {
        return "#pragma HLS bind_storage variable=" + name + " type=ram_2p impl=uram\n";
    }
    std::string lutram_pragmas(const std::string &name) const override {
        return "#pragma HLS bind_storage variable=" + name + " type=ram_s2p impl=lutram\n";
    }
    std::string stream_pragmas(const Buffer &b) const override {
        return "#pragma HLS STREAM variable=" + b.name + " depth=" + std::to_string(b.stream_depth) + "\n";
    }
    ValueTypes value_types(const FilterGraph &g, const Filter &f) const override {
        ValueTypes v = ap_int_types(g, f);
        add_fixed_values(g, f, v, HlsTarget::Vitis);
        return v;
    }
    std::string kernel_includes(const FilterGraph &g, bool value_types_used) const override {
        std::string lines = value_types_used ? "#include <ap_int.h>\n" : "";
        if (uses_dsp_packing(g)) lines += "#include \"flowhls_pack.h\"\n";
        if (!fixed_value_types(g).empty()) lines += "#include \"flowhls_fixed.h\"\n";
        return lines;
    }
    std::map<std::string, std::string> buffer_types(const FilterGraph &g) const override {
        return fixed_buffer_types(g, HlsTarget::Vitis);
    }
    std::string header_definitions(const FilterGraph &g) const override {
        return fixed_type_definitions(g, HlsTarget::Vitis);
    }
    FixedFormat rom_format(const FilterGraph &g, const Buffer &b) const override { return fixed_rom_format(g, b); }
    std::string top_pragmas(const FilterGraph &g) const override {
        std::ostringstream k;
        int bundle = 0;
        for (const std::string &a : g.args) {
            const Buffer &b = g.buffer(a);
            std::string own_bundle = "gmem" + std::to_string(bundle++);
            switch (b.interface.mode) {
            case InterfaceMode::MAxi:
                k << "#pragma HLS INTERFACE m_axi port=" << b.name << " offset=slave bundle="
                  << (b.interface.bundle.empty() ? own_bundle : b.interface.bundle) << " depth=" << b.size();
                // Automatic port widening (place-weights' --axi-width): bursts of consecutive
                // elements read up to this many bits per beat.
                if (b.interface.width_bits > 0) k << " max_widen_bitwidth=" << b.interface.width_bits;
                k << "\n";
                break;
            // Vitis accepts axis on an array argument accessed in order (checked by detect-streams).
            case InterfaceMode::Axis: k << "#pragma HLS INTERFACE axis port=" << b.name << "\n"; break;
            case InterfaceMode::Bram: k << "#pragma HLS INTERFACE bram port=" << b.name << "\n"; break;
            }
        }
        k << "#pragma HLS INTERFACE s_axilite port=return\n";
        for (const Buffer &b : g.buffers) {
            // A URAM-resident weight's partitions are its reader's static copy's.
            if (b.kind != BufferKind::Intermediate && b.channel != ChannelKind::Resident) {
                k << partition_pragma(b.name, b.partition);
            }
        }
        if (g.dataflow.legal) {
            k << "#pragma HLS DATAFLOW\n";
        } else {
            k << "    // Sequential (no dataflow): " << g.dataflow.reason << ".\n";
        }
        return k.str();
    }
};

// The widest widened m_axi port of `g` in bits (0: none).
int widest_port(const FilterGraph &g) {
    int bits = 0;
    for (const std::string &a : g.args) {
        const Buffer &b = g.buffer(a);
        if (b.interface.mode == InterfaceMode::MAxi) bits = std::max(bits, b.interface.width_bits);
    }
    return bits;
}

std::string tcl(const FilterGraph &g, const ProjectSettings &s) {
    std::ostringstream os;
    os << "# Vitis HLS script for kernel " << g.name << " (generated by flowhls).\n"
       << "# Run from this directory: vitis_hls -f run_hls.tcl\n"
       << "open_project -reset hls_" << g.name << "\n"
       << "set_top " << g.name << "\n"
       << "add_files kernel.cpp -cflags \"-Iinclude\"\n";
    for (const std::string &rom : rom_source_files(g, HlsTarget::Vitis)) {
        os << "add_files " << rom << " -cflags \"-I.\"\n";
    }
    os
       << "add_files -tb tb.cpp -cflags \"-Iinclude\"\n"
       << "add_files -tb data\n"
       << "open_solution -reset solution1 -flow_target vivado\n"
       << "set_part {" << s.vitis_part << "}\n";
    // Widening needs the pointers aligned to the widened beat (the Vivado flow assumes no
    // alignment; the Vitis kernel flow assumes 64 bytes): the host must allocate them so.
    if (int bits = widest_port(g)) os << "config_interface -m_axi_alignment_byte_size " << bits / 8 << "\n";
    os
       << "create_clock -period " << std::setprecision(6) << 1000.0 / s.clock_mhz << " -name default\n"
       << "csim_design -argv \"data\"\n"
       << "csynth_design\n"
       << "cosim_design -argv \"data\"\n"
       << "exit\n";
    return os.str();
}

}  // namespace

KernelStyle vitis_kernel_style() {
    KernelStyle style;
    style.dialect.cplusplus = true;
    style.dialect.loop_labels = true;
    style.source_file = kernel_source_file(HlsTarget::Vitis);
    style.tool = "Vitis HLS";
    style.hooks = std::make_shared<VitisHooks>();
    style.streams = true;
    return style;
}

std::vector<EmittedFile> emit_vitis_files(const FilterGraph &graph, const ProjectSettings &settings) {
    std::vector<EmittedFile> files = emit_kernel(graph, vitis_kernel_style());
    files.push_back({"run_hls.tcl", tcl(graph, settings)});
    return files;
}

}  // namespace flowhls
