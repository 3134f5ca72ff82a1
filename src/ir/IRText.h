// The exact text form of the Halide IR in filter bodies, and its parser.
#pragma once

#include <Halide.h>

#include <map>
#include <string>

namespace flowhls {

/// Contract: prints `e` so that parse_expr gives it back node for node: every constant with
/// its exact type and value (floats as shortest round-trip decimals), loads with their type,
/// calls with their type when it is not their first argument's, binary operations nested in
/// another operation parenthesized, strict_float() shown. Constructs outside the subset of
/// filter bodies (shuffles, vector reductions, GPU loops, ...) print as `<unsupported ...>`,
/// which the parser refuses. Load/store alignment, and Halide's image/parameter references,
/// are not part of the text (nothing after lowering reads them).
std::string print_expr(const Halide::Expr &e);

/// Contract: prints `s` one statement per line at `indent` levels (2 spaces each after the
/// first `indent0` spaces), Halide's layout: `for (x, min, extent) {`, `let x = v` whose
/// body is the rest of its block, `{ ... }` around a let or block that does not end its
/// block, `if`/`else`, `produce`/`consume`, stores `buf[index] = value`.
std::string print_stmt(const Halide::Internal::Stmt &s, int indent0);

/// Variables bound outside the text being parsed, with their types.
using VariableTypes = std::map<std::string, Halide::Type>;

/// Contract: parses what print_stmt prints (and hand-written text in the same syntax:
/// binary operators with the usual precedence, parentheses optional). `first_line` numbers
/// the text's first line in error messages. Throws flowhls::Error "LINE: message" on a
/// syntax error, an unbound variable or operands of different types.
Halide::Internal::Stmt parse_stmt(const std::string &text, int first_line, const VariableTypes &outer = {});
/// The same for one expression.
Halide::Expr parse_expr(const std::string &text, int first_line = 1, const VariableTypes &outer = {});

/// The text of a type ("float32", "uint1", "int32x4").
std::string type_text(Halide::Type t);
/// Parses what type_text writes; false if `text` is not a type.
bool parse_type(const std::string &text, Halide::Type *type);

/// `name` as the text form writes it: as is when it is a name token ([A-Za-z_][A-Za-z0-9_.$]*),
/// else quoted with C escapes.
std::string name_text(const std::string &name);
/// A quoted string with C escapes (\" \\ \n \t \xHH).
std::string quoted(const std::string &text);

}  // namespace flowhls
