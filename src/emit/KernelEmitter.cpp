// emit_kernel: the FilterGraph printed as C/C++ for an HLS tool.
#include "emit/KernelEmitter.h"
#include "graph/Precision.h"
#include "ir/IRQueries.h"
#include "support/Text.h"

#include <algorithm>
#include <functional>
#include <sstream>

namespace flowhls {

namespace {

bool contains(const std::vector<std::string> &v, const std::string &s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string join(const std::vector<std::string> &names) {
    if (names.empty()) return "nothing";
    std::string s;
    for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
    return s;
}

// Buffers a filter takes as parameters: those it only reads, then those it writes, each in
// graph order.
std::vector<const Buffer *> filter_parameters(const FilterGraph &g, const Filter &f) {
    std::vector<const Buffer *> out;
    for (const Buffer &b : g.buffers) {
        if (contains(f.reads, b.name) && !contains(f.writes, b.name)) out.push_back(&b);
    }
    for (const Buffer &b : g.buffers) {
        if (contains(f.writes, b.name)) out.push_back(&b);
    }
    return out;
}

std::string top_signature(const FilterGraph &g) {
    std::string sig = "void " + g.name + "(";
    for (size_t i = 0; i < g.args.size(); i++) {
        const Buffer &b = g.buffer(g.args[i]);
        sig += (i ? ", " : "") + array_parameter(b, b.kind == BufferKind::Input);
    }
    return sig + ")";
}

// Parameters of a filter's function: what it takes (not what it returns).
std::vector<const Buffer *> call_parameters(const FilterGraph &g, const Filter &f) {
    std::vector<const Buffer *> out;
    for (const Buffer *b : filter_parameters(g, f)) {
        if (b->name != f.returns) out.push_back(b);
    }
    return out;
}

using TypeNames = std::map<std::string, std::string>;

// The element type buffer `b` is declared with: its entry of `types`, else its program type.
std::string element_type(const Buffer &b, const TypeNames &types) {
    auto t = types.find(b.name);
    return t != types.end() ? t->second : c_type(b.type);
}

std::string stream_type(const Buffer &b, const TypeNames &types) { return "hls::stream<" + element_type(b, types) + ">"; }

// The parameter name of URAM-resident weight `b`'s m_axi port in its reader's function (the
// static copy the body reads takes the buffer's name).
std::string resident_port(const Buffer &b) { return b.name + "_axi"; }

std::string parameter(const Filter &f, const Buffer &b, bool streams, const TypeNames &types) {
    if (b.is_scalar()) return element_type(b, types) + " " + b.name;  // by value
    if (b.channel == ChannelKind::Resident) return "const " + element_type(b, types) + " " + resident_port(b) + "[" + std::to_string(b.size()) + "]";
    if (streams && b.is_stream()) {
        if (b.stream_lanes > 1) return stream_type(b, types) + " " + b.name + "[" + std::to_string(b.stream_lanes) + "]";
        return stream_type(b, types) + " &" + b.name;
    }
    bool read_only = !contains(f.writes, b.name);
    return std::string(read_only ? "const " : "") + element_type(b, types) + " " + b.name + array_extents(b.size(), b.partition);
}

// Arrays a filter accesses that are partitioned in several dimensions: printed with their shape.
std::map<std::string, std::vector<int64_t>> shaped_arrays(const FilterGraph &g, const Filter &f) {
    std::map<std::string, std::vector<int64_t>> out;
    for (const Buffer &b : g.buffers) {
        if (b.partition.enabled && !b.partition.dims.empty()) out[b.name] = b.partition.shape;
        if (b.partition.pairs > 0) out[b.name] = {b.partition.pairs, 2};  // packed: [2][pairs]
    }
    for (const LocalBuffer &l : f.locals) {
        if (l.partition.enabled && !l.partition.dims.empty()) out[l.name] = l.partition.shape;
    }
    return out;
}

// The first call's copy of URAM-resident weight `b` packed in pairs (ArrayPartition::pairs):
// element j and j + pairs written together, one whole [2][pairs] word an iteration (the tail
// past the weight's size, which nothing reads, written zero).
void print_packed_load(const Buffer &b, const KernelStyle &style, std::ostream &os) {
    const std::string pairs = std::to_string(b.partition.pairs), size = std::to_string(b.size());
    os << "        for (int j = 0; j < " << pairs << "; j++) {\n";
    std::vector<std::string> body, before;
    style.hooks->loop_pragmas(LoopDirective{1, 0}, body, before);
    for (const std::string &line : body) os << line << "\n";
    os << "            " << b.name << "[0][j] = " << resident_port(b) << "[j];\n"
       << "            " << b.name << "[1][j] = j + " << pairs << " < " << size << " ? " << resident_port(b) << "[j + "
       << pairs << "] : 0;\n"
       << "        }\n"
       << "        " << b.name << "_loaded = true;\n"
       << "    }\n";
}

// The static copy of URAM-resident weight `b` in its reader (declaration, storage binding,
// partitions) and the copy from its port on the kernel's first call only: UltraScale+ URAM has
// no initial contents (docs/dataflow.md, "URAM-resident weights").
void print_resident_copy(const Buffer &b, const KernelStyle &style, const TypeNames &types, std::ostream &os) {
    os << "    // " << b.name << ": URAM-resident weight, copied from its m_axi port on the first call, kept across calls.\n"
       << "    static " << element_type(b, types) << " " << b.name << array_extents(b.size(), b.partition) << ";\n"
       << style.hooks->resident_pragmas(b.name) << style.hooks->array_pragmas(b.name, b.partition)
       << "    static bool " << b.name << "_loaded = false;\n"
       << "    if (!" << b.name << "_loaded) {\n"
       << "    " << b.name << "_load:\n";
    if (b.partition.pairs > 0) {
        print_packed_load(b, style, os);
        return;
    }
    os << "        for (int i = 0; i < " << b.size() << "; i++) {\n";
    std::vector<std::string> body, before;
    style.hooks->loop_pragmas(LoopDirective{1, 0}, body, before);
    for (const std::string &line : body) os << line << "\n";
    std::string element = b.name;
    if (b.partition.enabled && !b.partition.dims.empty()) {
        int64_t stride = 1;
        std::vector<std::string> indices;
        for (int64_t extent : b.partition.shape) {
            indices.insert(indices.begin(), "[(i / " + std::to_string(stride) + ") % " + std::to_string(extent) + "]");
            stride *= extent;
        }
        for (const std::string &index : indices) element += index;
    } else {
        element += "[i]";
    }
    os << "            " << element << " = " << resident_port(b) << "[i];\n"
       << "        }\n"
       << "        " << b.name << "_loaded = true;\n"
       << "    }\n";
}

void print_filter(const FilterGraph &g, const Filter &f, const KernelStyle &style, const ValueTypes &values,
                  const TypeNames &types, std::ostream &os) {
    const CDialect &dialect = style.dialect;
    // The declaration of local `l` at `indent` with its storage pragmas.
    auto declare = [&](const LocalBuffer &l, const std::string &indent) {
        std::ostringstream d;
        auto declared = values.types.find(l.name);
        d << indent << (declared != values.types.end() ? declared->second : c_type(l.type)) << " " << l.name;
        if (!l.scalar) d << array_extents(l.size, l.partition);
        // Registers (completely partitioned locals) start at zero: warm-up reads are defined.
        if (!l.scalar && l.partition.enabled && l.partition.kind == PartitionKind::Complete) d << " = {0}";
        d << ";\n";
        if (!l.scalar) d << style.hooks->array_pragmas(l.name, l.partition);
        if (l.uram) d << style.hooks->resident_pragmas(l.name);  // bind-uram: its banks in UltraRAM
        if (l.lutram) d << style.hooks->lutram_pragmas(l.name);  // bind-lutram: its banks in LUT RAM
        return d.str();
    };
    std::set<std::string> scalars, streams;
    printed_as_values(g, f, style, scalars, streams);
    std::map<std::string, std::vector<std::string>> pragmas, prefix_pragmas;
    for (const auto &d : f.directives) {
        std::vector<std::string> body, before;
        style.hooks->loop_pragmas(d.second, body, before);
        if (!body.empty()) pragmas[d.first] = body;
        if (!before.empty()) prefix_pragmas[d.first] = before;
    }
    // A dataflow loop's ping-pong locals are declared in its body (the region): its channels.
    for (const LocalBuffer &l : f.locals) {
        if (l.ping_pong_loop.empty()) continue;
        std::string text = declare(l, "        ");
        std::vector<std::string> &lines = pragmas[l.ping_pong_loop];
        for (size_t start = 0; start < text.size();) {
            size_t end = text.find('\n', start);
            lines.push_back(text.substr(start, end - start));
            start = end + 1;
        }
    }
    CPrinter printer(dialect, scalars, streams, pragmas, prefix_pragmas, values.types, values.pragmas);
    printer.set_shapes(shaped_arrays(g, f), f.body);
    printer.set_fixed(values.fixed);
    std::set<std::string> laned;
    for (const std::string &name : streams) {
        if (g.buffer(name).stream_lanes > 1) laned.insert(name);
    }
    printer.set_laned_streams(laned);
    os << "// Filter " << f.name << ": reads " << join(f.reads) << "; writes " << join(f.writes) << ".\n";
    // A record of traced values alone (no node, nothing copied) names nothing.
    if (!f.onnx.node.empty() || !f.onnx.outputs.empty()) os << "// " << one_line(f.onnx.text()) << "\n";
    os << style.hooks->function_prefix(f) << (f.returns.empty() ? "void" : element_type(g.buffer(f.returns), types)) << " " << f.function_name
       << "(";
    std::vector<const Buffer *> params = call_parameters(g, f);
    for (size_t i = 0; i < params.size(); i++) os << (i ? ", " : "") << parameter(f, *params[i], style.streams, types);
    os << ") {\n";
    os << style.hooks->function_pragmas(f);
    os << values.comment;
    if (!f.returns.empty()) os << "    " << element_type(g.buffer(f.returns), types) << " " << f.returns << ";\n";
    for (const LocalBuffer &l : f.locals) {
        if (l.ping_pong_loop.empty()) os << declare(l, "    ");
    }
    for (const Buffer *b : params) {
        if (b->channel == ChannelKind::Resident) print_resident_copy(*b, style, types, os);
    }
    printer.stmt(f.body, os, 1);
    if (!f.returns.empty()) os << "    return " << f.returns << ";\n";
    os << "}\n\n";
}

// Element `i` (storage order) of a constant buffer as a C literal.
std::string element_literal(const Halide::Buffer<> &data, int64_t i, FloatLiteralForm floats) {
    return c_literal(element_constant(data, i), floats);
}

std::string rom_declaration(const Buffer &b, const TypeNames &types) {
    return "const " + element_type(b, types) + " " + b.name + "[" + std::to_string(b.size()) + "]";
}

// One source file defining a ROM with its contents, eight values per line (float literals
// converted to the declared type, an ap_fixed, by its constructor).
std::string rom_source(const Buffer &b, FloatLiteralForm floats, const TypeNames &types, const FixedFormat &raw) {
    std::ostringstream os;
    os << "// On-chip ROM " << b.name << " (" << b.size() << " values; generated by flowhls).\n"
       << "#include \"kernel.h\"\n\n"
       << rom_declaration(b, types) << " = {";
    for (int64_t i = 0; i < b.size(); i++) {
        std::string literal;
        if (raw.enabled()) {
            const Halide::Internal::FloatImm *v = element_constant(b.contents, i).as<Halide::Internal::FloatImm>();
            literal = std::to_string(fixed_raw(raw, v ? v->value : 0.0));
        } else {
            literal = element_literal(b.contents, i, floats);
        }
        os << (i % 8 == 0 ? "\n    " : " ") << literal << ",";
    }
    os << "\n};\n";
    return os.str();
}

}  // namespace

void printed_as_values(const FilterGraph &g, const Filter &f, const KernelStyle &style, std::set<std::string> &scalars,
                       std::set<std::string> &streams) {
    for (const Buffer &b : g.buffers) {
        if (b.is_scalar()) scalars.insert(b.name);
        if (style.streams && b.is_stream()) streams.insert(b.name);
    }
    for (const LocalBuffer &l : f.locals) {
        if (l.scalar) scalars.insert(l.name);
    }
}

std::vector<std::string> rom_source_files(const FilterGraph &g, HlsTarget target) {
    std::vector<std::string> out;
    for (const Buffer &b : g.buffers) {
        if (b.kind == BufferKind::Constant) {
            out.push_back("rom/" + b.name + (target == HlsTarget::Vitis ? ".cpp" : ".c"));
        }
    }
    return out;
}

std::string array_extents(int64_t size, const ArrayPartition &partition) {
    if (partition.pairs > 0) return "[2][" + std::to_string(partition.pairs) + "]";  // packed in pairs
    if (!partition.enabled || partition.dims.empty()) return "[" + std::to_string(size) + "]";
    std::string out;
    for (auto it = partition.shape.rbegin(); it != partition.shape.rend(); ++it) out += "[" + std::to_string(*it) + "]";
    return out;
}

std::string array_parameter(const Buffer &b, bool read_only) {
    // A URAM-resident weight's argument is its m_axi port, flat; its reader's copy is banked.
    const bool flat = b.channel == ChannelKind::Resident;
    return std::string(read_only ? "const " : "") + c_type(b.type) + " " + b.name +
           array_extents(b.size(), flat ? ArrayPartition() : b.partition);
}

void print_top_function(const FilterGraph &g, const KernelStyle &style, const std::string &name,
                        const std::function<std::string(const Filter &)> &after_call, std::ostream &k) {
    std::string sig = top_signature(g);
    const TypeNames types = style.hooks->buffer_types(g);
    k << "void " << name << sig.substr(sig.find('(')) << " {\n";
    k << style.hooks->top_pragmas(g);
    for (const std::string &a : g.args) {
        const Buffer &b = g.buffer(a);
        if (b.consumers.empty() && b.producers.empty()) k << "    (void)" << b.name << ";  // not read by the design\n";
    }
    for (const Buffer &b : g.buffers) {
        if (b.kind != BufferKind::Intermediate) continue;
        if (style.streams && b.is_stream()) {
            if (b.stream_lanes > 1) {  // one FIFO per lane
                k << "    " << stream_type(b, types) << " " << b.name << "[" << b.stream_lanes << "];\n";
            } else {
                k << "    " << stream_type(b, types) << " " << b.name << "(\"" << b.name << "\");\n";
            }
            k << style.hooks->stream_pragmas(b);
            continue;
        }
        // Large arrays are static: a C simulation's stack cannot hold them.
        bool is_static = !b.is_scalar() && b.size() * b.type.bytes() > kStaticArrayBytes;
        k << "    " << (is_static ? "static " : "") << element_type(b, types) << " " << b.name;
        if (!b.is_scalar()) k << array_extents(b.size(), b.partition);
        k << ";\n";
        if (!b.is_scalar()) k << style.hooks->array_pragmas(b.name, b.partition);
        if (b.uram) k << style.hooks->resident_pragmas(b.name);  // bind-uram: its copies in UltraRAM
    }
    for (const Filter &f : g.filters) {
        k << "    " << (f.returns.empty() ? "" : f.returns + " = ") << f.function_name << "(";
        std::vector<const Buffer *> params = call_parameters(g, f);
        for (size_t i = 0; i < params.size(); i++) k << (i ? ", " : "") << params[i]->name;
        k << ");\n";
        if (after_call) k << after_call(f);
    }
    k << "}\n";
}

std::vector<EmittedFile> emit_kernel(const FilterGraph &g, const KernelStyle &style) {
    for (const Buffer &b : g.buffers) {
        if (b.is_stream() && !style.streams) {
            throw std::logic_error("emit_kernel: buffer " + b.name + " is a stream but the target has no FIFOs");
        }
    }
    std::string guard = "FLOWHLS_KERNEL_" + g.name + "_H";
    std::transform(guard.begin(), guard.end(), guard.begin(), [](unsigned char c) { return std::toupper(c); });

    std::ostringstream h;
    h << "// Kernel " << g.name << ": top-level function of the HLS design (generated by flowhls).\n"
      << "#ifndef " << guard << "\n#define " << guard << "\n\n#include <stdint.h>\n\n";
    const TypeNames types = style.hooks->buffer_types(g);
    h << style.hooks->header_definitions(g);
    bool any_rom = false;
    for (const Buffer &b : g.buffers) {
        if (b.kind != BufferKind::Constant) continue;
        if (!any_rom) h << "// On-chip ROMs (constant weights), defined in rom/.\n";
        any_rom = true;
        h << "extern " << rom_declaration(b, types) << ";\n";
    }
    h << (any_rom ? "\n" : "") << top_signature(g) << ";\n\n#endif  // " << guard << "\n";

    std::ostringstream k;
    k << "// Kernel " << g.name << " for " << style.tool << " (generated by flowhls): " << g.filters.size()
      << " filter(s) called from the top function.\n"
      << "#include \"kernel.h\"\n#include \"flowhls_math.h\"\n";
    bool any_stream = false;
    for (const Buffer &b : g.buffers) any_stream |= style.streams && b.is_stream() && b.kind == BufferKind::Intermediate;
    if (any_stream) k << "#include <hls_stream.h>\n";
    std::vector<ValueTypes> values;
    bool any_value_type = false;
    for (const Filter &f : g.filters) {
        values.push_back(style.hooks->value_types(g, f));
        any_value_type |= !values.back().types.empty();
    }
    k << style.hooks->kernel_includes(g, any_value_type);
    k << "\n";
    for (size_t i = 0; i < g.filters.size(); i++) print_filter(g, g.filters[i], style, values[i], types, k);

    print_top_function(g, style, g.name, nullptr, k);
    std::vector<EmittedFile> files = {{"kernel.h", h.str()}, {style.source_file, k.str()}};
    HlsTarget target = style.dialect.cplusplus ? HlsTarget::Vitis : HlsTarget::Bambu;
    std::vector<std::string> roms = rom_source_files(g, target);
    size_t r = 0;
    for (const Buffer &b : g.buffers) {
        if (b.kind == BufferKind::Constant) files.push_back({roms.at(r++), rom_source(b, style.dialect.floats, types, style.hooks->rom_format(g, b))});
    }
    return files;
}

}  // namespace flowhls
