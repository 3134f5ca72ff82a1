// Which device operator (fadd, imul32, ...) an IR expression node is implemented with.
#pragma once

#include <Halide.h>

#include <map>
#include <string>

namespace flowhls {

/// Contract: the name of the device-library operator that computes the top node of `e`
/// ("fadd", "fmul", "iadd32", "imul16", "fcmp", "select", "fcvt", "fsqrt", "fcall", ...), or
/// "" for wires: variables, constants, broadcasts, bit casts, casts between integers, and
/// products by constants (shifts and adds, costed as an adder). Loads and stores are not
/// operators here (the memory model times them). Pure.
std::string operator_of(const Halide::Expr &e);

/// Contract: operator_of(e), except that an integer product of two non-constant operands is
/// named by the widths its operands hold, looked up through `lets` (let name -> value; casts
/// from narrower integers, loads, constants, sums and differences): both at most 4 bits
/// "imul4" (a LUT multiplier: Vitis binds it to fabric), else the wider operand's width
/// rounded up to 8, 16, 32 or 64 bits ("imul8": one DSP for an int8 MAC); and the packed pair
/// flowhls_pack_mul (emit/vitis/PackDsp) is "imul8x2" (two int8 MACs in one DSP).
/// `value_bits`: proven widths of values by name (analysis/IntegerWidths), or null. Pure.
std::string operator_of(const Halide::Expr &e, const std::map<std::string, Halide::Expr> &lets,
                        const std::map<std::string, int> *value_bits = nullptr);

/// Bits an integer operand holds (without the sign extension of a wider type): the proven
/// width of a variable in `value_bits` (may be null), the source of a widening cast, a
/// constant's own width, one more than the wider term of a sum or difference, the value of a
/// let in `lets`; its type's width otherwise.
int operand_bits(const Halide::Expr &e, const std::map<std::string, Halide::Expr> &lets,
                 const std::map<std::string, int> *value_bits);

/// Whether `op` is an integer product by a constant that is not a power of two: what Vitis HLS
/// maps to a DSP multiplier when it cannot be strength-reduced out of a pipeline (the row
/// address of a flattened loop nest).
bool is_constant_index_product(const Halide::Expr &e);

}  // namespace flowhls
