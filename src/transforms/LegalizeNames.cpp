// legalize_names: renames buffers, functions and variables to unique C identifiers.
#include "transforms/LegalizeNames.h"
#include "support/Names.h"

#include <cctype>
#include <map>
#include <set>

namespace flowhls {

using namespace Halide::Internal;

namespace {

// Words the generated code cannot use as names: C/C++ keywords, types, helpers and the
// math functions it calls.
const std::set<std::string> &reserved_words() {
    static const std::set<std::string> words = {
        "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case",
        "catch", "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr", "const_cast",
        "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
        "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if", "inline", "int",
        "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
        "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "restrict", "return",
        "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
        "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
        "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
        "main", "std", "hls", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
        "uint32_t", "uint64_t", "size_t", "abs", "min", "max", "exp", "log", "sqrt", "pow", "floor",
        "ceil", "round", "trunc", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
        "tanh", "asinh", "acosh", "atanh", "fabs", "fmin", "fmax", "fmod", "erf", "isnan", "isinf",
        "NAN", "INFINITY", "memcpy", "printf", "stdin", "stdout", "stderr", "errno"};
    return words;
}

// The part of a Halide loop name a reader needs: "conv.s1.r$x.xo" (Func, stage, dimension,
// split) is "r$x.xo"; an RDom named after its Func ("conv_r.x") loses the Func's name. The
// Func is the filter's (or a producer computed inside it); the stage is visible from the
// nesting. Names of other shapes are kept whole.
std::string short_loop_name(const std::string &loop) {
    std::string name = halide_base_name(loop);
    size_t first = name.find('.');
    if (first == std::string::npos) return loop;
    size_t second = name.find('.', first + 1);
    if (second == std::string::npos || second + 1 >= name.size()) return loop;
    std::string stage = name.substr(first + 1, second - first - 1);
    if (stage.size() < 2 || stage[0] != 's' || stage.find_first_not_of("0123456789", 1) != std::string::npos) return loop;
    std::string func = name.substr(0, first), rest = name.substr(second + 1);
    if (rest.size() > func.size() + 1 && rest.compare(0, func.size(), func) == 0 && rest[func.size()] == '_') {
        rest = rest.substr(func.size() + 1);
    }
    return rest;
}

class NameTable {
public:
    explicit NameTable(std::set<std::string> used = {}) : used(std::move(used)) {}

    // A fresh legal name derived from `original`.
    std::string fresh(const std::string &original) {
        std::string base = c_identifier(halide_base_name(original));
        if (base.rfind("flowhls", 0) == 0) base = "v_" + base;  // the helpers' prefix
        std::string name =
            fresh_name(base, [&](const std::string &n) { return used.count(n) || reserved_words().count(n); });
        used.insert(name);
        return name;
    }
    const std::set<std::string> &names() const { return used; }

private:
    std::set<std::string> used;
};

// Renames buffers (by map) and scoped variables (fresh name per binding) in a filter body.
class RenameInFilter : public IRMutator {
public:
    RenameInFilter(NameTable &table, const std::map<std::string, std::string> &buffers)
        : table(table), buffers(buffers) {}
    bool changed = false;
    /// New names of each loop (a name bound twice gets two), for the loop directives.
    std::map<std::string, std::vector<std::string>> loop_names;

private:
    NameTable &table;
    const std::map<std::string, std::string> &buffers;
    std::map<std::string, std::vector<std::string>> vars;
    int temporaries = 0;
    using IRMutator::visit;

    // Buffers allocated inside the body (kept in place in parallel loops), innermost last.
    std::vector<std::pair<std::string, std::string>> allocated;

    std::string buffer_name(const std::string &n) {
        for (auto it = allocated.rbegin(); it != allocated.rend(); ++it) {
            if (it->first == n) return it->second;
        }
        auto it = buffers.find(n);
        std::string out = it == buffers.end() ? n : it->second;
        changed |= out != n;
        return out;
    }
    // Halide's generated temporaries ("t123": a letter and a process-wide counter) are
    // numbered per filter in order of appearance, so output does not depend on history.
    static bool is_generated_temporary(const std::string &n) {
        return n.size() > 1 && std::islower(static_cast<unsigned char>(n[0])) &&
               n.find_first_not_of("0123456789", 1) == std::string::npos;
    }
    // Binds `n` to a fresh name derived from `wanted` (default: `n` itself).
    std::string bind(const std::string &n, const std::string &wanted = "") {
        std::string base = !wanted.empty() ? wanted : n;
        std::string fresh =
            table.fresh(is_generated_temporary(n) ? std::string(1, n[0]) + std::to_string(temporaries++) : base);
        changed |= fresh != n;
        vars[n].push_back(fresh);
        return fresh;
    }
    void unbind(const std::string &n) { vars[n].pop_back(); }

    Halide::Expr visit(const Variable *op) override {
        auto it = vars.find(op->name);
        if (it == vars.end() || it->second.empty()) return op;
        return Variable::make(op->type, it->second.back());
    }
    Halide::Expr visit(const Load *op) override {
        return Load::make(op->type, buffer_name(op->name), mutate(op->index), op->image, op->param,
                          mutate(op->predicate), op->alignment);
    }
    Stmt visit(const Store *op) override {
        return Store::make(buffer_name(op->name), mutate(op->value), mutate(op->index), op->param,
                           mutate(op->predicate), op->alignment);
    }
    Stmt visit(const For *op) override {
        Halide::Expr min = mutate(op->min), extent = mutate(op->extent);
        std::string n = bind(op->name, short_loop_name(op->name));
        loop_names[op->name].push_back(n);
        Stmt body = mutate(op->body);
        unbind(op->name);
        return For::make(n, min, extent, op->for_type, op->device_api, body);
    }
    Stmt visit(const LetStmt *op) override {
        Halide::Expr value = mutate(op->value);
        std::string n = bind(op->name);
        Stmt body = mutate(op->body);
        unbind(op->name);
        return LetStmt::make(n, value, body);
    }
    Halide::Expr visit(const Let *op) override {
        Halide::Expr value = mutate(op->value);
        std::string n = bind(op->name);
        Halide::Expr body = mutate(op->body);
        unbind(op->name);
        return Let::make(n, value, body);
    }
    Stmt visit(const Allocate *op) override {
        std::string fresh = table.fresh(op->name);
        changed |= fresh != op->name;
        allocated.emplace_back(op->name, fresh);
        Stmt body = mutate(op->body);
        allocated.pop_back();
        return Allocate::make(fresh, op->type, op->memory_type, op->extents, op->condition, body, op->new_expr,
                              op->free_function);
    }
    Stmt visit(const ProducerConsumer *op) override {
        return ProducerConsumer::make(buffer_name(op->name), op->is_producer, mutate(op->body));
    }
};

}  // namespace

std::string c_identifier(const std::string &name) {
    std::string out;
    for (char c : name) {
        bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        char ch = ok ? c : '_';
        if (ch == '_' && !out.empty() && out.back() == '_') continue;
        out += ch;
    }
    while (out.size() > 1 && out.back() == '_') out.pop_back();
    if (out.empty() || out == "_") out = "v";
    if (std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
    return out;
}

PassResult legalize_names(FilterGraph &graph) {
    PassResult result;
    NameTable global;
    auto note = [&](const std::string &before, const std::string &after) {
        if (before != after) result.changed = true;
    };

    std::string kernel = global.fresh(graph.name);
    note(graph.name, kernel);
    graph.name = kernel;

    std::map<std::string, std::string> buffer_map;
    for (Buffer &b : graph.buffers) {
        std::string n = global.fresh(b.name);
        note(b.name, n);
        buffer_map[b.name] = n;
        b.name = n;
    }
    for (std::string &a : graph.args) a = buffer_map.at(a);
    for (Filter &f : graph.filters) {
        std::string n = global.fresh("compute_" + c_identifier(f.name));
        note(f.function_name, n);
        f.function_name = n;
        if (!f.returns.empty()) f.returns = buffer_map.at(f.returns);
    }

    for (Filter &f : graph.filters) {
        NameTable local(global.names());
        std::map<std::string, std::string> names = buffer_map;
        for (LocalBuffer &l : f.locals) {
            std::string n = local.fresh(l.name);
            note(l.name, n);
            names[l.name] = n;
            l.name = n;
        }
        RenameInFilter rename(local, names);
        f.body = rename.mutate(f.body);
        result.changed |= rename.changed;
        // Loop directives follow their loops (a directive on a loop that no longer exists goes).
        std::map<std::string, LoopDirective> directives;
        for (const auto &d : f.directives) {
            auto it = rename.loop_names.find(d.first);
            if (it == rename.loop_names.end()) continue;
            for (const std::string &n : it->second) directives[n] = d.second;
        }
        result.changed |= directives.size() != f.directives.size();
        f.directives = directives;
        // A ping-pong local follows its dataflow loop.
        for (LocalBuffer &l : f.locals) {
            auto it = rename.loop_names.find(l.ping_pong_loop);
            if (!l.ping_pong_loop.empty() && it != rename.loop_names.end() && !it->second.empty()) {
                l.ping_pong_loop = *it->second.begin();
            }
        }
    }
    recompute_edges(graph);
    return result;
}

}  // namespace flowhls
