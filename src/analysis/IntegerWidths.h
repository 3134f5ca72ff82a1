// Value ranges of a filter's integer data path: the narrowest exact width of every value.
#pragma once

#include "graph/FilterGraph.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace flowhls {

/// The proven range of one integer value of a filter and the width that holds it exactly.
struct IntegerWidth {
    int64_t lo = 0, hi = 0;
    /// Bits of the narrowest two's complement (lo < 0) or unsigned type holding [lo, hi].
    int bits = 1;
    bool is_signed = false;
    /// Bits of the value's type in the program (int32 for an accumulator).
    int program_bits = 32;
    /// A reduction accumulator (a scalar local updated as `acc = acc + term`).
    bool accumulator = false;
    /// How an accumulator's bound was found: "sum |w| * max|x| + bias" (weights of a ROM, per
    /// output) or "n * max|term| + init" (interval of the term only).
    std::string bound;
};

/// Contract: the ranges of the integer values of filter `f` of `g` that are narrower than
/// their program type: LetStmt variables computed from loaded data (not index arithmetic) and
/// scalar accumulators. Loads from ROMs take the range of the ROM's contents, other loads their
/// type's; loop variables their bounds. An accumulator `acc = init; for r...: acc = acc + a * b`
/// (one init, one update) where `a` reads one ROM element is bounded per value of the loops
/// outside the reduction by `init + sum over the reduction of max(a * b)` (the sum of |w| times
/// max |x| bound; its minimum alike), otherwise by the trip count times the term's interval.
/// A value whose interval arithmetic leaves its type's range (it could wrap) is not listed.
/// Only scalar int/uint values are listed (64-bit ones too: the int64 requantization product),
/// each narrower than 64 bits. Pure.
std::map<std::string, IntegerWidth> integer_widths(const FilterGraph &g, const Filter &f);

/// Contract: the interval of integer expression `e` of `g` (lets already substituted): ROM
/// loads take the range of the ROM's contents, other loads and free variables their type's;
/// the products of flowhls_pack_lo/hi (PackDsp) those of the products they extract. nullopt for
/// values that are not integers. Pure.
std::optional<std::pair<int64_t, int64_t>> value_range(const FilterGraph &g, const Halide::Expr &e);

/// Whether `e` is flowhls_pack_lo/hi(flowhls_pack_mul(hi, lo, x)) (lets substituted); then
/// `*product` is the product it extracts (lo * x or hi * x).
bool unpacked_product(const Halide::Expr &e, Halide::Expr *product);

/// Contract: the exact value of integer expression `e` for the loop variables `env`, reading
/// integer ROMs' contents; nullopt when it is not an expression of them and ROMs (or a cast
/// would wrap, a division by zero). Pure.
std::optional<int64_t> integer_value(const FilterGraph &g, const Halide::Expr &e,
                                     const std::vector<std::pair<std::string, int64_t>> &env);

/// The width of the narrowest type holding [lo, hi] (signed when lo < 0).
IntegerWidth width_of_range(int64_t lo, int64_t hi);

}  // namespace flowhls
