// The ap_fixed types of the Vitis code of a float model compiled with --precision.
#pragma once

#include "emit/KernelEmitter.h"
#include "graph/FilterGraph.h"

#include <map>
#include <string>

namespace flowhls {

/// Contract: the element types of the buffers of `g` holding fixed-point data, by name: the
/// intermediate float buffers a filter with Filter::fixed writes (its data type, `<filter>_t`)
/// and the float ROMs such a filter reads (`ap_int<W>` of the first reader's data format W:
/// the ROM holds the values' integers, fixed_raw, read back with flowhls_fx_raw; a ROM of
/// ap_fixed initialized from float literals takes AMD's headers minutes to compile). Kernel arguments stay
/// float. Empty when no filter is fixed. Pure.
std::map<std::string, std::string> fixed_buffer_types(const FilterGraph &g);

/// Contract: the fixed-point type of the values of those buffers (`<filter>_t`, ROMs too:
/// fixed_buffer_types declares a ROM `ap_int<W>`, the integers of its values). Pure.
std::map<std::string, std::string> fixed_value_types(const FilterGraph &g);

/// Contract: kernel.h's lines for them: `#include <ap_fixed.h>` and two typedefs per fixed
/// filter (`<filter>_t`, `<filter>_acc_t`, ap_fixed with AP_RND_CONV, AP_SAT) with a comment
/// naming the ONNX node; "" when no filter is fixed. Pure.
std::string fixed_type_definitions(const FilterGraph &g);

/// Contract: adds to `values` how filter `f` prints its float values (FixedPrinting): for a
/// fixed filter its float lets and scalar locals in `<filter>_acc_t`, its local arrays in
/// `<filter>_t` when they only copy loaded values (line and window buffers) else
/// `<filter>_acc_t`, and a comment; for a float filter the fixed buffers it reads. Pure.
void add_fixed_values(const FilterGraph &g, const Filter &f, ValueTypes &values);

}  // namespace flowhls
