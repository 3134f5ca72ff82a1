// Prints filter bodies (lowered Halide IR after the prepare passes) as C/C++ statements.
#pragma once

#include "flowhls/Precision.h"

#include <Halide.h>

#include <functional>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace flowhls {

/// How float constants are spelled in generated code. Both read back bit for bit.
enum class FloatLiteralForm {
    /// Shortest round-trip decimal ("0.1f"): valid C99 and C++11/14/17 (Vitis HLS's default
    /// language is C++14, which has no hexadecimal floats).
    Decimal,
    /// Hexadecimal ("0x1.99999ap-4f"): C99 and C++17 only; PandA-Bambu's C keeps it (the
    /// thesis's form, exact without relying on the compiler's decimal conversion).
    Hex,
};

/// Differences between the C dialects flowhls prints.
struct CDialect {
    /// C++ (Vitis HLS) rather than C99.
    bool cplusplus = true;
    /// Label every loop "L_<var>:" (Vitis names loops by their labels).
    bool loop_labels = true;
    /// Print Halide parallel loops as `#pragma omp for` loops (PandA-Bambu).
    bool openmp_parallel = false;
    /// Print vector values as small arrays filled lane by lane (PandA-Bambu).
    bool vectors_as_arrays = false;
    /// Spelling of float constants.
    FloatLiteralForm floats = FloatLiteralForm::Decimal;
};

/// Whether a Halide type's element has a C spelling (bool, float32/64, 8..64-bit integers).
bool c_type_supported(Halide::Type t);

/// The C spelling of a Halide type's element ("float", "uint16_t", ...); the type must be
/// c_type_supported (std::logic_error otherwise).
std::string c_type(Halide::Type t);

/// Whether CPrinter prints call `op` (math functions, the intrinsics it lowers).
bool c_call_supported(const Halide::Internal::Call *op);

/// The expression as Halide prints it, cut at 160 characters (for messages).
std::string short_text(const Halide::Expr &e);

/// The suffix of the flowhls_math.h helpers for a type ("f32", "u16", ...).
std::string helper_suffix(Halide::Type t);

/// A constant as a C literal of exactly its type. Floats read back bit for bit in either
/// form; infinities and NaN are INFINITY and NAN from math.h.
std::string c_literal(const Halide::Expr &constant, FloatLiteralForm floats = FloatLiteralForm::Decimal);

/// Vitis fixed point (--precision): how one filter's float values are printed. In a filter
/// computing in fixed point (`value_type` set) every float expression is a fixed-point C++
/// expression: literals and casts to float are `value_type`, reads of the buffers still float
/// (`float_buffers`: the kernel's float arguments) `data_type`; max/min are flowhls_fx_max/min,
/// and what has no fixed-point form (division, modulo, math functions) is computed in float
/// (flowhls_f32 of its operands) and converted back to `value_type`; stores to float buffers
/// convert with flowhls_f32. In a float filter (`value_type` empty) the reads of `fixed_buffers`
/// (another filter's ap_fixed output) are converted with flowhls_f32.
/// PandA-Bambu (`c99`): C has no such types; the values are the integers of their formats
/// (`formats`), the printer works out the format of every float expression (value =
/// integer * 2^-fraction, and how many bits hold it) and writes the conversions out with
/// flowhls_fixed_c.h's helpers: exact sums and products in int64_t, rounding and saturation
/// where a value is stored, the same bits as the Vitis code (CFixedPrinter.cpp).
struct FixedPrinting {
    std::string value_type, data_type;
    std::set<std::string> float_buffers, fixed_buffers;
    /// ROMs holding the integers of a fixed-point type (ROM -> type): read with flowhls_fx_raw.
    std::map<std::string, std::string> raw_roms;
    bool computes_fixed() const { return !value_type.empty(); }
    /// PandA-Bambu: integers and explicit conversions instead of ap_fixed.
    bool c99 = false;
    /// PandA-Bambu: the format of every fixed-point name the filter uses (lets, locals, buffers, ROMs).
    std::map<std::string, FixedFormat> formats;
    /// PandA-Bambu, a fixed filter: its data format (sums: data.accumulator()) and what it
    /// computes ("ONNX node '/fc1/Gemm' (Gemm)"), for refusals.
    FixedFormat data;
    std::string what;
};

/// PandA-Bambu fixed point (FixedPrinting::c99): a float expression printed as the integer of a
/// format (CFixedPrinter.cpp).
struct CFixedValue {
    std::string text;      ///< C expression of the integer
    int frac = 0;          ///< the value is integer * 2^-frac
    int bits = 1;          ///< a signed integer of this many bits holds every value it takes
    bool int64 = false;    ///< `text` has type int64_t (else a narrower integer type)
    bool constant = false; ///< a constant, `raw`
    int64_t raw = 0;
    /// A product too wide for int64_t, kept as its two operands until it is stored.
    std::string wide_a, wide_b;
    bool wide() const { return !wide_a.empty(); }
};

/// Read-only printer of statements and expressions. The IR must have passed check_printable
/// (emit/PrepareEmission.h) for the same dialect: what it refuses is a std::logic_error here.
class CPrinter {
public:
    /// `scalars`: buffers printed as scalar variables (their accesses drop the index);
    /// `streams`: buffers that are hls::stream FIFOs (a load is `read()`, a store `write()`).
    /// `loop_pragmas`: lines printed at the top of a loop's body, by loop name;
    /// `loop_prefix_pragmas`: lines printed right before the loop's `for` (`#pragma GCC unroll`).
    /// `value_types`: the declared type of let variables narrower than their program type
    /// (`ap_int<17>`); values of such types are cast back to the program type where C++ would
    /// find two conversions (the arms of `?:`); `value_pragmas`: a line printed after a let's
    /// declaration (`#pragma HLS bind_op`).
    explicit CPrinter(CDialect dialect, std::set<std::string> scalars = {}, std::set<std::string> streams = {},
                      std::map<std::string, std::vector<std::string>> loop_pragmas = {},
                      std::map<std::string, std::vector<std::string>> loop_prefix_pragmas = {},
                      std::map<std::string, std::string> value_types = {},
                      std::map<std::string, std::string> value_pragmas = {})
        : dialect(dialect), scalars(std::move(scalars)), streams(std::move(streams)),
          loop_pragmas(std::move(loop_pragmas)), loop_prefix_pragmas(std::move(loop_prefix_pragmas)),
          value_types(std::move(value_types)), value_pragmas(std::move(value_pragmas)) {}

    /// The expression as a C expression (fully parenthesized where it matters).
    std::string expr(const Halide::Expr &e) const;

    /// Prints `s` at `indent` levels (4 spaces each). Loops get labels "L_<var>".
    void stmt(const Halide::Internal::Stmt &s, std::ostream &os, int indent) const;

    /// Arrays printed with their shape (extents innermost first): their flat indices are
    /// printed as one index per dimension, outermost first (`A[4*y + 1][x]`).
    /// `body` is the statement to be printed: its integer lets used only in such indices (which
    /// are printed in terms of the loop variables) are not printed.
    void set_shapes(std::map<std::string, std::vector<int64_t>> shaped, const Halide::Internal::Stmt &body);

    /// Prints the filter's float values in fixed point (FixedPrinting).
    void set_fixed(FixedPrinting f) { fixed = std::move(f); }

    /// Streams of several lanes (arrays of hls::stream): an access is `s[lane].read()`, its
    /// index the lane (drop_stream_index).
    void set_laned_streams(std::set<std::string> laned) { laned_streams = std::move(laned); }

private:
    /// The parts of stmt() for loops and lets.
    void for_stmt(const Halide::Internal::For *f, std::ostream &os, int indent) const;
    void let_stmt(const Halide::Internal::LetStmt *l, std::ostream &os, int indent) const;
    FixedPrinting fixed;
    // PandA-Bambu fixed point (CFixedPrinter.cpp): a float expression as an integer of a format.
    bool c_fixed() const { return fixed.c99 && fixed.computes_fixed(); }
    CFixedValue fx_value(const Halide::Expr &e) const;
    CFixedValue fx_load(const Halide::Internal::Load *l) const;
    CFixedValue fx_binary(const Halide::Expr &e) const;
    CFixedValue fx_call(const Halide::Internal::Call *op) const;
    CFixedValue fx_select(const std::string &condition, const Halide::Expr &a, const Halide::Expr &b) const;
    CFixedValue fx_to_acc(const CFixedValue &v) const;
    std::pair<CFixedValue, CFixedValue> fx_align(const CFixedValue &a, const CFixedValue &b, const Halide::Expr &e) const;
    CFixedValue fx_checked(CFixedValue v, const Halide::Expr &e) const;
    // The integer of `v` in format `to`, rounded and saturated as stored (C text).
    std::string fx_quantize(const CFixedValue &v, const FixedFormat &to, const Halide::Expr &e) const;
    // `v` as a float (C text).
    std::string fx_float(const CFixedValue &v, const Halide::Expr &e) const;
    // A comparison of two float expressions, exact.
    std::string fx_compare(const char *op, const Halide::Expr &a, const Halide::Expr &b) const;
    // Expression `e` of a float buffer or variable `name` as the fixed-point printing reads it.
    std::string fixed_read(const std::string &name, const std::string &text, Halide::Type t) const;
    // `text`, the value of `e`, as a stored value of buffer `name`.
    std::string stored(const std::string &name, const Halide::Expr &e) const;
    CDialect dialect;
    std::set<std::string> scalars;
    std::set<std::string> streams;
    std::map<std::string, std::vector<std::string>> loop_pragmas;
    std::map<std::string, std::vector<std::string>> loop_prefix_pragmas;
    std::map<std::string, std::string> value_types, value_pragmas;
    std::map<std::string, std::vector<int64_t>> shapes;
    /// Lets used only in the indices of arrays printed with their shape: not printed.
    std::set<const Halide::Internal::LetStmt *> unprinted_lets;
    /// While printing one lane of a vector statement: the lane variable.
    mutable std::string lane;
    /// Ranges of the loop variables and integer lets around the statement being printed.
    mutable Halide::Internal::Scope<Halide::Internal::Interval> bounds;
    /// Values of the integer lets around it (in terms of loop variables), for `subscript`.
    mutable std::map<std::string, Halide::Expr> let_values;
    std::set<std::string> laned_streams;
    // "[lane]" for an access of a stream of several lanes, else "".
    std::string fifo_lane(const std::string &name, const Halide::Expr &index) const {
        return laned_streams.count(name) ? "[" + expr(index) + "]" : "";
    }
    // "[i]" or, for an array printed with its shape, "[i_n-1]..[i_0]".
    std::string subscript(const std::string &name, const Halide::Expr &index) const;
    // Prints `target = element` for every lane, under `predicate` when it is not true.
    void vector_stmt(int lanes, const std::function<std::string()> &target,
                     const std::function<std::string()> &element, const Halide::Expr &predicate, std::ostream &os,
                     int indent) const;
    std::string call(const Halide::Internal::Call *op) const;
    std::string binary(const Halide::Expr &e) const;
    // An arm of `?:`: cast to its program type when narrowed types are in use.
    std::string arm(const Halide::Expr &e) const;
};

}  // namespace flowhls
