// The fixed-point types of the code of a float model compiled with --precision: ap_fixed for
// Vitis HLS, stdint integers for PandA-Bambu (docs/quantization.md).
#pragma once

#include "emit/KernelEmitter.h"
#include "flowhls/Target.h"
#include "graph/FilterGraph.h"

#include <map>
#include <string>

namespace flowhls {

/// Contract: the element types of the buffers of `g` holding fixed-point data, by name: the
/// intermediate float buffers a filter with Filter::fixed writes (its data type, `<filter>_t`)
/// and the float ROMs such a filter reads (the integers of the values in the first reader's
/// data format W, fixed_raw: `ap_int<W>` read back with flowhls_fx_raw on Vitis, where a ROM of
/// ap_fixed initialized from float literals takes AMD's headers minutes to compile; the
/// smallest intN_t holding W bits on PandA-Bambu). Kernel arguments stay float. Empty when no
/// filter is fixed. Pure.
std::map<std::string, std::string> fixed_buffer_types(const FilterGraph &g, HlsTarget target);

/// Contract: the fixed-point type of the values of those buffers (`<filter>_t`, ROMs too:
/// fixed_buffer_types declares a ROM as the integers of its values). Pure.
std::map<std::string, std::string> fixed_value_types(const FilterGraph &g);

/// Contract: the format whose integers (fixed_raw) ROM `b` holds: its first fixed reader's
/// data format; disabled when `b` is not such a ROM. Pure.
FixedFormat fixed_rom_format(const FilterGraph &g, const Buffer &b);

/// Contract: kernel.h's lines for them, two typedefs per fixed filter (`<filter>_t`,
/// `<filter>_acc_t`) with a comment naming the ONNX node: on Vitis ap_fixed with AP_RND_CONV,
/// AP_SAT after `#include <ap_fixed.h>`; on PandA-Bambu the smallest intN_t holding the format
/// (int64_t for the sums), with the format and its scale in the comment. "" when no filter is
/// fixed. Pure.
std::string fixed_type_definitions(const FilterGraph &g, HlsTarget target);

/// Contract: adds to `values` how filter `f` prints its float values (FixedPrinting): for a
/// fixed filter its float lets and scalar locals in `<filter>_acc_t`, its local arrays in
/// `<filter>_t` when they only copy loaded values (line and window buffers) else
/// `<filter>_acc_t`, and a comment; for a float filter the fixed buffers it reads. On
/// PandA-Bambu also the format of every fixed-point name it uses (FixedPrinting::formats).
/// Pure.
void add_fixed_values(const FilterGraph &g, const Filter &f, ValueTypes &values, HlsTarget target);

/// Contract: the smallest of int8_t, int16_t, int32_t, int64_t holding a signed `bits`-bit
/// integer (1 <= bits <= 64). Pure.
std::string fixed_c_int_type(int bits);

}  // namespace flowhls
