// Small read-only queries on Halide IR shared by the passes and analyses.
#pragma once

#include <Halide.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace flowhls {

/// The value of an integer constant expression (int or uint immediate), by value: Halide's
/// as_const_int points into the expression, so it dangles when the expression is a
/// temporary such as the result of simplify().
std::optional<int64_t> constant_int(const Halide::Expr &e);

/// `read(v)` for element `i` (storage order) of `b` as a value `v` of its C type (float,
/// double, int8_t .. int64_t, uint8_t .. uint64_t; bool as uint8_t): the one switch from a
/// buffer's element type to a value.
template <class Read> auto read_element(const Halide::Buffer<> &b, int64_t i, Read read) {
    const Halide::Type t = b.type();
    const uint8_t *p = static_cast<const uint8_t *>(b.data()) + i * t.bytes();
    auto get = [&](auto v) {
        std::memcpy(&v, p, sizeof v);
        return read(v);
    };
    if (t == Halide::Float(32)) return get(float());
    if (t == Halide::Float(64)) return get(double());
    if (t.is_int() && t.bits() == 8) return get(int8_t());
    if (t.is_int() && t.bits() == 16) return get(int16_t());
    if (t.is_int() && t.bits() == 32) return get(int32_t());
    if (t.is_int() && t.bits() == 64) return get(int64_t());
    if (t.bits() <= 8) return get(uint8_t());  // bool and uint8
    if (t.bits() == 16) return get(uint16_t());
    if (t.bits() == 32) return get(uint32_t());
    return get(uint64_t());
}

/// Element `i` (storage order) of `b` as a constant expression of exactly its type (bool,
/// 8..64-bit integers, float32/64), read by read_element.
Halide::Expr element_constant(const Halide::Buffer<> &b, int64_t i);

/// A list of let bindings, outermost first (as a visitor pushes them on its way in).
using LetBindings = std::vector<std::pair<std::string, Halide::Expr>>;

/// `e` with the let-bound names of `lets` substituted (innermost binding first), simplified.
Halide::Expr resolve_lets(const LetBindings &lets, Halide::Expr e);

/// Names of the buffers a statement or expression loads from, stores to and allocates.
struct BufferAccesses {
    std::set<std::string> loads, stores, allocates;
};
BufferAccesses buffer_accesses(const Halide::Internal::Stmt &s);
BufferAccesses buffer_accesses(const Halide::Expr &e);

/// Names of the variables an expression or statement refers to.
std::set<std::string> referenced_variables(const Halide::Expr &e);
std::set<std::string> referenced_variables(const Halide::Internal::Stmt &s);

/// Every name a statement binds or uses: variables, lets, loops, loaded/stored/allocated
/// buffers (so a pass can make new names that do not collide).
std::set<std::string> names_in(const Halide::Internal::Stmt &s);

/// Whether a statement holds a loop anywhere inside it.
bool contains_loop(const Halide::Internal::Stmt &s);

/// `e` without its clamps by constants (each min or max with a constant operand replaced by
/// its other operand): a padded read's index inside the borders.
Halide::Expr without_constant_clamps(const Halide::Expr &e);

/// Indices of one array that differ from each other by constants: `indices[members[i]]`
/// equals `base + offsets[i]` (base is the index of the first member).
struct ConstantOffsetGroup {
    Halide::Expr base;
    std::vector<size_t> members;
    std::vector<int64_t> offsets;
};

/// Groups `indices` (lets already substituted) by constant difference, in order of first
/// appearance; two indices are in one group when the simplifier proves their difference constant.
std::vector<ConstantOffsetGroup> constant_offset_groups(const std::vector<Halide::Expr> &indices);

/// The index in each dimension of the element at `flat` (an index into the flattened storage
/// of an array of extents `shape`, innermost first): floor(flat / stride) mod extent, the
/// outermost without the mod, each simplified with the variables' `bounds` (so that
/// ((4*y + 1)*220 + x) gives 4*y + 1 and x when x is proved in [0, 220)); two halves ({H, 2},
/// an array packed in pairs) unsplit: select(flat >= H, flat - H, flat) and (flat >= H), for
/// `flat` in [0, 2H). Innermost first.
std::vector<Halide::Expr> dimension_indices(const Halide::Expr &flat, const std::vector<int64_t> &shape,
                                            const Halide::Internal::Scope<Halide::Internal::Interval> &bounds);

}  // namespace flowhls
