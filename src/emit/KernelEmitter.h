// Kernel emitter shared by the targets: a function per filter and the top function.
#pragma once

#include "emit/CPrinter.h"
#include "emit/EmittedFile.h"
#include "flowhls/Target.h"
#include "graph/FilterGraph.h"

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace flowhls {

/// Declared types of a filter's values narrower than their program type.
struct ValueTypes {
    /// Let variable or scalar local -> C++ type ("ap_int<17>").
    std::map<std::string, std::string> types;
    /// Let variable -> pragma line printed after its declaration (bind_op).
    std::map<std::string, std::string> pragmas;
    /// Comment lines printed at the top of the filter's body (why these types).
    std::string comment;
    /// How its float values are printed in fixed point (--precision; Vitis).
    FixedPrinting fixed;
};

/// What a target adds to the shared kernel printer (pragmas, function qualifiers). Vitis and
/// PandA-Bambu implement it in emit/vitis and emit/bambu; the defaults add nothing.
class KernelHooks {
public:
    virtual ~KernelHooks() = default;
    /// Pragma lines for the directive of a loop: `body` at the top of its body, `before`
    /// right before its `for`.
    virtual void loop_pragmas(const LoopDirective &, std::vector<std::string> & /*body*/,
                              std::vector<std::string> & /*before*/) const {}
    /// What precedes the return type of filter function `f`.
    virtual std::string function_prefix(const Filter &) const { return "static "; }
    /// Lines at the top of the body of filter function `f`.
    virtual std::string function_pragmas(const Filter &) const { return ""; }
    /// Lines after the declaration of array `name` (a filter local, an intermediate buffer or,
    /// from top_pragmas, a kernel argument) partitioned as `p`.
    virtual std::string array_pragmas(const std::string & /*name*/, const ArrayPartition &) const { return ""; }
    /// Lines after the declaration of the static array a filter copies URAM-resident weight
    /// `name` into (ChannelKind::Resident), or of a local array bind-uram bound to UltraRAM
    /// (LocalBuffer::uram): the storage binding.
    virtual std::string resident_pragmas(const std::string & /*name*/) const { return ""; }
    /// The binding of a local array's banks to LUT RAM (bind-lutram).
    virtual std::string lutram_pragmas(const std::string & /*name*/) const { return ""; }
    /// Lines at the top of the top function (interfaces, dataflow).
    virtual std::string top_pragmas(const FilterGraph &) const { return ""; }
    /// Lines after the declaration of intermediate stream `b`.
    virtual std::string stream_pragmas(const Buffer &) const { return ""; }
    /// How filter `f`'s values are declared where the target differs from their program type
    /// (ap_int<W>), with pragma lines after some let declarations; default: as in the program.
    virtual ValueTypes value_types(const FilterGraph &, const Filter &) const { return {}; }
    /// `#include` lines the kernel source of `g` needs beyond the common ones
    /// (`value_types_used`: some filter has value types).
    virtual std::string kernel_includes(const FilterGraph &, bool /*value_types_used*/) const { return ""; }
    /// Element types of buffers declared other than their program type (the ap_fixed types of
    /// --precision), by buffer name; default: none.
    virtual std::map<std::string, std::string> buffer_types(const FilterGraph &) const { return {}; }
    /// Lines of kernel.h before the ROM declarations (includes and typedefs of those types).
    virtual std::string header_definitions(const FilterGraph &) const { return ""; }
    /// The fixed-point format whose integers (graph/Precision's fixed_raw) ROM `b` holds
    /// instead of its float values; disabled (the values as literals) by default.
    virtual FixedFormat rom_format(const FilterGraph &, const Buffer &) const { return {}; }
};

/// How a target's kernel source looks.
struct KernelStyle {
    CDialect dialect;
    /// Name of the kernel source file ("kernel.cpp", "kernel.c").
    std::string source_file;
    /// Tool named in the header comment ("Vitis HLS", "PandA-Bambu").
    std::string tool;
    /// The target's pragmas and qualifiers (never null).
    std::shared_ptr<const KernelHooks> hooks = std::make_shared<KernelHooks>();
    /// Buffers marked as streams become hls::stream FIFOs (otherwise they stay arrays).
    bool streams = false;
};

/// The buffers filter `f` prints as variables (`scalars`: scalar intermediates and locals) and
/// as FIFOs (`streams`: stream channels when the style has them); added to the sets.
void printed_as_values(const FilterGraph &graph, const Filter &f, const KernelStyle &style,
                       std::set<std::string> &scalars, std::set<std::string> &streams);

/// Contract: prints the graph (after the pass pipeline: legal names, no Let expressions,
/// dataflow verdict set; check_emittable passed for `style`) in `style`: a static function per filter, the top function (the main
/// filter) declaring intermediate buffers as local arrays and calling the filters in order.
/// Read-only. Returns kernel.h and the kernel source.
std::vector<EmittedFile> emit_kernel(const FilterGraph &graph, const KernelStyle &style);

/// Prints the top function of `graph` (emit_kernel's, declaring the intermediate buffers and
/// calling the filters in order) called `name`, with the text `after_call` returns (if set)
/// after each filter's call (the trace testbench dumps the filter's output there). Read-only.
void print_top_function(const FilterGraph &graph, const KernelStyle &style, const std::string &name,
                        const std::function<std::string(const Filter &)> &after_call, std::ostream &out);

/// Intermediate arrays larger than this many bytes are declared static in the top function.
constexpr int64_t kStaticArrayBytes = 64 * 1024;

/// Source files emit_kernel writes for the graph's Constant buffers (one per ROM), relative
/// to the project directory.
std::vector<std::string> rom_source_files(const FilterGraph &graph, HlsTarget target);

/// The C parameter declaration of buffer `b` ("const float input[4096]"; an array partitioned
/// in several dimensions with its shape: "float C[200][220]").
std::string array_parameter(const Buffer &b, bool read_only);

/// The extents of an array of `size` elements as declared: "[4096]", or, partitioned in
/// several dimensions, its shape outermost first ("[200][220]").
std::string array_extents(int64_t size, const ArrayPartition &partition);

}  // namespace flowhls
