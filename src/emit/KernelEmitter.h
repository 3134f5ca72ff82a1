// Kernel emitter shared by the targets: a function per filter and the top function.
#pragma once

#include "emit/CPrinter.h"
#include "emit/EmittedFile.h"
#include "flowhls/Target.h"
#include "graph/FilterGraph.h"

#include <string>
#include <vector>

namespace flowhls {

/// How a target's kernel source looks.
struct KernelStyle {
    CDialect dialect;
    /// Name of the kernel source file ("kernel.cpp", "kernel.c").
    std::string source_file;
    /// Tool named in the header comment ("Vitis HLS", "PandA-Bambu").
    std::string tool;
    /// Vitis interface pragmas on the top function and `#pragma HLS DATAFLOW` when legal.
    bool vitis_pragmas = false;
    /// What PandA-Bambu honours of the user's directives: `#pragma GCC unroll`, always_inline
    /// functions and `#pragma HLS interface port=X mode=...` on the top function.
    bool bambu_pragmas = false;
    /// Buffers marked as streams become hls::stream FIFOs (otherwise they stay arrays).
    bool streams = false;
};

/// Contract: prints the graph (after the pass pipeline: legal names, no Let expressions,
/// dataflow verdict set) in `style`: a static function per filter, the top function (the main
/// filter) declaring intermediate buffers as local arrays and calling the filters in order.
/// Read-only. Returns kernel.h and the kernel source.
std::vector<EmittedFile> emit_kernel(const FilterGraph &graph, const KernelStyle &style);

/// Intermediate arrays larger than this many bytes are declared static in the top function.
constexpr int64_t kStaticArrayBytes = 64 * 1024;

/// Source files emit_kernel writes for the graph's Constant buffers (one per ROM), relative
/// to the project directory.
std::vector<std::string> rom_source_files(const FilterGraph &graph, HlsTarget target);

/// The Vitis ARRAY_PARTITION pragma line of array `name` ("" if `p` is not enabled).
std::string vitis_partition_pragma(const std::string &name, const ArrayPartition &p);

/// The C parameter declaration of buffer `b` ("const float input[4096]").
std::string array_parameter(const Buffer &b, bool read_only);

}  // namespace flowhls
