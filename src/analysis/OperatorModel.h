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

/// Contract: operator_of(e), except that integer products and sums are named by the widths
/// their operands hold, looked up through `lets` (let name -> value; casts from narrower
/// integers, constants, sums and differences, proven widths of variables and scalar loads).
/// A product of two non-constant operands, or of a value narrower than its type (a proven
/// data-path width, never index arithmetic) by a constant of more than two set bits (a
/// requantization multiplier; other constants stay shifts and adds): both at most 4 bits
/// "imul4" (a LUT multiplier:
/// Vitis binds it to fabric); else by the DSP48E2 27 x 18 signed multipliers it takes (an
/// unsigned operand counts a sign bit; partial products wholly above the kept result bits
/// dropped): one "imul8" (operands of at most 8 bits: an int8 MAC) or "imul16", two "imul24",
/// more "imul32" / "imul64" by the wider operand (as before). A sum or difference: "iadd" with
/// the sum's width rounded up to 8, 16, 24, 32, 48 or 64 bits. A division or modulo of such a
/// data value by a constant power of two (the requantization's rounding shift): "" (a shift
/// or a mask). The packed pair
/// flowhls_pack_mul (emit/vitis/PackDsp) is "imul8x2" (two int8 MACs in one DSP).
/// `value_bits`: proven widths of values by name (analysis/IntegerWidths), or null. Pure.
std::string operator_of(const Halide::Expr &e, const std::map<std::string, Halide::Expr> &lets,
                        const std::map<std::string, int> *value_bits = nullptr);

/// Contract: the operator of node `e` of a filter whose float values are in fixed point
/// (--precision, data format `data`, sums in emit/FixedTypes's accumulator format of
/// `acc_bits` bits): float sums and differences "iadd" by the accumulator's width (rounded as
/// for integers); float products of two non-constant operands by the DSP48E2s of their widths
/// (a loaded or converted operand, directly or through `lets`, `data_bits` bits, another
/// `acc_bits`): one "imul8"/"imul16",
/// two "imul24", more "imul32"/"imul64"; products by a constant as adders; float comparisons,
/// min and max "icmp32"/"icmp64" by the accumulator's width; a conversion from an integer a
/// wire; everything else (integer nodes, division, math functions, conversions to integers)
/// `otherwise` (the operator_of the caller found). Pure.
std::string fixed_operator_of(const Halide::Expr &e, const std::string &otherwise,
                              const std::map<std::string, Halide::Expr> &lets, int data_bits, int acc_bits);

/// Bits an integer operand holds (without the sign extension of a wider type): the proven
/// width of a variable in `value_bits` (may be null), the source of a widening cast, a
/// constant's own width, one more than the wider term of a sum or difference, the sum of a
/// product's factors' widths, the proven width of a scalar load in `value_bits`, the value of
/// a let in `lets`; its type's width otherwise.
int operand_bits(const Halide::Expr &e, const std::map<std::string, Halide::Expr> &lets,
                 const std::map<std::string, int> *value_bits);

/// Whether `op` is an integer product by a constant that is not a power of two: what Vitis HLS
/// maps to a DSP multiplier when it cannot be strength-reduced out of a pipeline (the row
/// address of a flattened loop nest).
bool is_constant_index_product(const Halide::Expr &e);

}  // namespace flowhls
