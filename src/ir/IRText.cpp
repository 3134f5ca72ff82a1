// print_stmt / parse_stmt: the exact text of filter bodies (a subset of Halide IR) and back.
#include "ir/IRText.h"
#include "flowhls/Error.h"
#include "ir/FloatText.h"

#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace flowhls {

using namespace Halide::Internal;
using Halide::Expr;
using Halide::Type;

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }

std::string type_text_of(Type t) {
    std::string s;
    switch (t.code()) {
    case halide_type_int: s = "int"; break;
    case halide_type_uint: s = "uint"; break;
    case halide_type_float: s = "float"; break;
    case halide_type_bfloat: s = "bfloat"; break;
    case halide_type_handle: s = "handle"; break;
    }
    s += std::to_string(t.bits());
    if (t.lanes() != 1) s += "x" + std::to_string(t.lanes());
    return s;
}

// The type a name spells ("float32", "uint8x4"), if it is one.
bool parse_type_text(const std::string &s, Type *out) {
    static const std::pair<const char *, halide_type_code_t> codes[] = {{"uint", halide_type_uint},
                                                                        {"int", halide_type_int},
                                                                        {"bfloat", halide_type_bfloat},
                                                                        {"float", halide_type_float},
                                                                        {"handle", halide_type_handle}};
    for (const auto &c : codes) {
        size_t n = std::strlen(c.first);
        if (s.compare(0, n, c.first) != 0 || s.size() == n) continue;
        size_t x = s.find('x', n);
        std::string bits = s.substr(n, x == std::string::npos ? std::string::npos : x - n);
        std::string lanes = x == std::string::npos ? "1" : s.substr(x + 1);
        auto digits = [](const std::string &d) {
            return !d.empty() && d.size() < 6 && d.find_first_not_of("0123456789") == std::string::npos;
        };
        if (!digits(bits) || !digits(lanes)) return false;
        int b = std::stoi(bits), l = std::stoi(lanes);
        if (b <= 0 || b > 64 || l <= 0) return false;
        *out = Type(c.second, b, l);
        return true;
    }
    return false;
}

// Name -> intrinsic op, for the calls the text names by string.
const std::map<std::string, Call::IntrinsicOp> &intrinsics() {
    static const std::map<std::string, Call::IntrinsicOp> table = [] {
        std::map<std::string, Call::IntrinsicOp> t;
        for (int i = 0; i < Call::IntrinsicOpCount; i++) {
            auto op = static_cast<Call::IntrinsicOp>(i);
            t[Call::get_intrinsic_name(op)] = op;
        }
        return t;
    }();
    return table;
}

std::string float_text(Type t, double v) {
    std::string prefix = "(" + type_text_of(t) + ")";
    if (std::isnan(v)) return prefix + "nan";
    if (std::isinf(v)) return prefix + (v < 0 ? "-inf" : "inf");
    if (t.bits() == 32) return with_point(shortest_decimal(static_cast<float>(v))) + "f";
    if (t.bits() == 64) return with_point(shortest_decimal(v));
    return prefix + with_point(shortest_decimal(v));
}

const char *call_marker(const Call *op) {
    bool intrinsic = intrinsics().count(op->name) > 0;
    switch (op->call_type) {
    case Call::PureIntrinsic: return intrinsic ? "" : "pure_intrinsic:";
    case Call::Intrinsic: return "intrinsic:";
    case Call::PureExtern: return intrinsic ? "pure_extern:" : "";
    case Call::Extern: return "extern:";
    case Call::ExternCPlusPlus: return "extern_cxx:";
    default: return nullptr;
    }
}

const char *memory_type_name(Halide::MemoryType m) {
    switch (m) {
    case Halide::MemoryType::Auto: return "auto";
    case Halide::MemoryType::Heap: return "heap";
    case Halide::MemoryType::Stack: return "stack";
    case Halide::MemoryType::Register: return "register";
    default: return nullptr;
    }
}

const char *for_keyword(ForType t) {
    switch (t) {
    case ForType::Serial: return "for";
    case ForType::Parallel: return "parallel";
    case ForType::Vectorized: return "vectorized";
    case ForType::Unrolled: return "unrolled";
    default: return nullptr;
    }
}

std::string unsupported(const Expr &e) {
    std::ostringstream os;
    os << "<unsupported " << e << ">";
    return os.str();
}

class Printer {
public:
    explicit Printer(int indent0) : indent0(indent0) {}
    std::ostringstream os;

    std::string expr(const Expr &e, bool top = true) {
        if (!e.defined()) return "<undefined>";
        if (const IntImm *i = e.as<IntImm>()) {
            if (e.type() == Halide::Int(32)) return std::to_string(i->value);
            return "(" + type_text_of(e.type()) + ")" + std::to_string(i->value);
        }
        if (const UIntImm *u = e.as<UIntImm>()) return "(" + type_text_of(e.type()) + ")" + std::to_string(u->value);
        if (const FloatImm *f = e.as<FloatImm>()) return float_text(e.type(), f->value);
        if (const StringImm *s = e.as<StringImm>()) return quoted(s->value);
        if (const Variable *v = e.as<Variable>()) return name_text(v->name);
        if (const Cast *c = e.as<Cast>()) return type_text_of(e.type()) + "(" + expr(c->value) + ")";
        if (const Not *n = e.as<Not>()) return "!" + expr(n->a, false);
        if (const Select *s = e.as<Select>()) {
            return "select(" + expr(s->condition) + ", " + expr(s->true_value) + ", " + expr(s->false_value) + ")";
        }
        if (const Load *l = e.as<Load>()) {
            std::string out = "(" + type_text_of(e.type()) + ")" + name_text(l->name) + "[" + expr(l->index);
            if (!is_const_one(l->predicate)) out += " if " + expr(l->predicate);
            return out + "]";
        }
        if (const Ramp *r = e.as<Ramp>()) {
            return "ramp(" + expr(r->base) + ", " + expr(r->stride) + ", " + std::to_string(r->lanes) + ")";
        }
        if (const Broadcast *b = e.as<Broadcast>()) return "broadcast(" + expr(b->value) + ", " + std::to_string(b->lanes) + ")";
        if (const Let *l = e.as<Let>()) {
            return "(let " + name_text(l->name) + " = " + expr(l->value) + " in " + expr(l->body) + ")";
        }
        if (const Call *c = e.as<Call>()) {
            const char *marker = call_marker(c);
            if (!marker) return unsupported(e);
            std::string out;
            if (c->args.empty() || c->args[0].type() != c->type) out = "(" + type_text_of(c->type) + ")";
            out += marker + name_text(c->name) + "(";
            for (size_t i = 0; i < c->args.size(); i++) out += (i ? ", " : "") + expr(c->args[i]);
            return out + ")";
        }
        if (const Min *m = e.as<Min>()) return "min(" + expr(m->a) + ", " + expr(m->b) + ")";
        if (const Max *m = e.as<Max>()) return "max(" + expr(m->a) + ", " + expr(m->b) + ")";
        std::string op;
        Expr a, b;
        auto binary = [&](const char *o, const Expr &x, const Expr &y) {
            op = o;
            a = x;
            b = y;
        };
        if (const Add *n = e.as<Add>()) binary(" + ", n->a, n->b);
        else if (const Sub *n = e.as<Sub>()) binary(" - ", n->a, n->b);
        else if (const Mul *n = e.as<Mul>()) binary("*", n->a, n->b);
        else if (const Div *n = e.as<Div>()) binary("/", n->a, n->b);
        else if (const Mod *n = e.as<Mod>()) binary(" % ", n->a, n->b);
        else if (const EQ *n = e.as<EQ>()) binary(" == ", n->a, n->b);
        else if (const NE *n = e.as<NE>()) binary(" != ", n->a, n->b);
        else if (const LT *n = e.as<LT>()) binary(" < ", n->a, n->b);
        else if (const LE *n = e.as<LE>()) binary(" <= ", n->a, n->b);
        else if (const GT *n = e.as<GT>()) binary(" > ", n->a, n->b);
        else if (const GE *n = e.as<GE>()) binary(" >= ", n->a, n->b);
        else if (const And *n = e.as<And>()) binary(" && ", n->a, n->b);
        else if (const Or *n = e.as<Or>()) binary(" || ", n->a, n->b);
        else return unsupported(e);
        std::string s = expr(a, false) + op + expr(b, false);
        return top ? s : "(" + s + ")";
    }

    void stmt(const Stmt &s) {
        Stmt cur = s;
        while (const Block *b = cur.as<Block>()) {
            item(b->first, false);
            cur = b->rest;
        }
        item(cur, true);
    }

private:
    int indent0;
    int depth = 0;

    void line(const std::string &text) { os << std::string(indent0 + 2 * depth, ' ') << text << "\n"; }
    void nested(const Stmt &body) {
        depth++;
        stmt(body);
        depth--;
    }

    void item(const Stmt &s, bool last) {
        if (!s.defined()) return;
        if (!last && (s.as<Block>() || s.as<LetStmt>())) {
            line("{");
            nested(s);
            line("}");
            return;
        }
        if (const LetStmt *l = s.as<LetStmt>()) {
            line("let " + name_text(l->name) + " = " + expr(l->value));
            stmt(l->body);
        } else if (const For *f = s.as<For>()) {
            const char *kw = for_keyword(f->for_type);
            std::string head = std::string(kw ? kw : "<unsupported loop type>") + " (" + name_text(f->name) + ", " +
                               expr(f->min) + ", " + expr(f->extent) + ")";
            if (f->device_api != Halide::DeviceAPI::None) {
                std::ostringstream api;
                api << f->device_api;
                head += " <unsupported device " + api.str() + ">";
            }
            line(head + " {");
            nested(f->body);
            line("}");
        } else if (const Store *st = s.as<Store>()) {
            std::string index = expr(st->index);
            if (!is_const_one(st->predicate)) index += " if " + expr(st->predicate);
            line(name_text(st->name) + "[" + index + "] = " + expr(st->value));
        } else if (const IfThenElse *i = s.as<IfThenElse>()) {
            line("if (" + expr(i->condition) + ") {");
            nested(i->then_case);
            Stmt rest = i->else_case;
            while (const IfThenElse *elif = rest.as<IfThenElse>()) {
                line("} else if (" + expr(elif->condition) + ") {");
                nested(elif->then_case);
                rest = elif->else_case;
            }
            if (rest.defined()) {
                line("} else {");
                nested(rest);
            }
            line("}");
        } else if (const ProducerConsumer *pc = s.as<ProducerConsumer>()) {
            line(std::string(pc->is_producer ? "produce " : "consume ") + name_text(pc->name) + " {");
            nested(pc->body);
            line("}");
        } else if (const Allocate *a = s.as<Allocate>()) {
            std::string head = "allocate " + name_text(a->name) + "[" + type_text_of(a->type);
            for (const Expr &e : a->extents) head += " * " + expr(e, false);
            head += "]";
            const char *memory = memory_type_name(a->memory_type);
            if (a->memory_type != Halide::MemoryType::Auto) head += std::string(" in ") + (memory ? memory : "<unsupported>");
            if (!is_const_one(a->condition)) head += " if " + expr(a->condition);
            if (a->new_expr.defined() || !a->free_function.empty()) head += " <unsupported custom allocation>";
            line(head + " {");
            nested(a->body);
            line("}");
        } else if (const Free *fr = s.as<Free>()) {
            line("free " + name_text(fr->name));
        } else if (const Evaluate *ev = s.as<Evaluate>()) {
            line("evaluate " + expr(ev->value));
        } else {
            std::ostringstream os;
            os << s;
            std::string text = os.str();
            for (char &c : text) {
                if (c == '\n') c = ' ';
            }
            line("<unsupported " + text.substr(0, 200) + ">");
        }
    }
};

// ---- Parsing ----------------------------------------------------------------------------

enum class Tok { End, Name, Number, String, Punct };

struct Token {
    Tok kind = Tok::End;
    std::string text;
    int line = 0;
};

std::vector<Token> lex(const std::string &src, int first_line) {
    std::vector<Token> out;
    int line = first_line;
    size_t i = 0;
    auto fail = [&](const std::string &m) { throw Error(std::to_string(line) + ": " + m); };
    while (i < src.size()) {
        char c = src[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            i++;
        } else if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
            while (i < src.size() && src[i] != '\n') i++;
        } else if (name_start(c)) {
            size_t j = i;
            while (j < src.size() && name_char(src[j])) j++;
            out.push_back({Tok::Name, src.substr(i, j - i), line});
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            size_t j = i;
            while (j < src.size() && std::isdigit(static_cast<unsigned char>(src[j]))) j++;
            if (j < src.size() && src[j] == '.') {
                j++;
                while (j < src.size() && std::isdigit(static_cast<unsigned char>(src[j]))) j++;
            }
            if (j < src.size() && (src[j] == 'e' || src[j] == 'E')) {
                j++;
                if (j < src.size() && (src[j] == '+' || src[j] == '-')) j++;
                while (j < src.size() && std::isdigit(static_cast<unsigned char>(src[j]))) j++;
            }
            if (j < src.size() && (src[j] == 'f' || src[j] == 'h')) j++;
            out.push_back({Tok::Number, src.substr(i, j - i), line});
            i = j;
        } else if (c == '"') {
            std::string s;
            size_t j = i + 1;
            for (;; j++) {
                if (j >= src.size() || src[j] == '\n') fail("unterminated string");
                if (src[j] == '"') break;
                if (src[j] != '\\') {
                    s += src[j];
                    continue;
                }
                if (++j >= src.size()) fail("unterminated string");
                switch (src[j]) {
                case 'n': s += '\n'; break;
                case 't': s += '\t'; break;
                case 'x':
                    if (j + 2 >= src.size() || !std::isxdigit(static_cast<unsigned char>(src[j + 1])) ||
                        !std::isxdigit(static_cast<unsigned char>(src[j + 2]))) {
                        fail("bad \\x escape");
                    }
                    s += static_cast<char>(std::stoi(src.substr(j + 1, 2), nullptr, 16));
                    j += 2;
                    break;
                default: s += src[j];
                }
            }
            out.push_back({Tok::String, s, line});
            i = j + 1;
        } else {
            static const char *two[] = {"==", "!=", "<=", ">=", "&&", "||"};
            std::string p(1, c);
            for (const char *t : two) {
                if (src.compare(i, 2, t) == 0) p = t;
            }
            if (p.size() == 1 && std::string("()[]{},=<>!+-*/%:").find(c) == std::string::npos) {
                fail(std::string("unexpected character '") + c + "'");
            }
            out.push_back({Tok::Punct, p, line});
            i += p.size();
        }
    }
    out.push_back({Tok::End, "", line});
    return out;
}

class Parser {
public:
    Parser(const std::string &text, int first_line, const VariableTypes &outer) : toks(lex(text, first_line)) {
        for (const auto &v : outer) vars.push(v.first, v.second);
    }

    Stmt body() {
        try {
            Stmt s = list(false);
            if (!s.defined()) fail("expected a statement");
            return s;
        } catch (const Halide::Error &e) {
            fail(std::string("invalid IR: ") + e.what());
        }
    }
    Expr whole_expr() {
        try {
            Expr e = expr();
            if (peek().kind != Tok::End) fail("unexpected '" + peek().text + "' after the expression");
            return e;
        } catch (const Halide::Error &e) {
            fail(std::string("invalid IR: ") + e.what());
        }
    }

private:
    std::vector<Token> toks;
    size_t pos = 0;
    Scope<Type> vars;

    const Token &peek(size_t k = 0) const { return toks[std::min(pos + k, toks.size() - 1)]; }
    bool is(const char *p, size_t k = 0) const {
        const Token &t = peek(k);
        return (t.kind == Tok::Punct || t.kind == Tok::Name) && t.text == p;
    }
    bool is_punct(const char *p, size_t k = 0) const { return peek(k).kind == Tok::Punct && peek(k).text == p; }
    [[noreturn]] void fail(const std::string &m) const { throw Error(std::to_string(peek().line) + ": " + m); }
    Token next() { return toks[std::min(pos++, toks.size() - 1)]; }
    void expect(const char *p) {
        if (!is_punct(p)) fail(std::string("expected '") + p + "', found " + describe(peek()));
        pos++;
    }
    static std::string describe(const Token &t) {
        if (t.kind == Tok::End) return "the end";
        return "'" + t.text + "'";
    }
    std::string name() {
        if (peek().kind != Tok::Name && peek().kind != Tok::String) fail("expected a name, found " + describe(peek()));
        return next().text;
    }
    int64_t integer() {
        bool negative = is_punct("-");
        if (negative) pos++;
        if (peek().kind != Tok::Number || peek().text.find_first_not_of("0123456789") != std::string::npos) {
            fail("expected an integer, found " + describe(peek()));
        }
        int64_t v = std::strtoll(next().text.c_str(), nullptr, 10);
        return negative ? -v : v;
    }
    Type type_name() {
        Type t;
        if (peek().kind != Tok::Name || !parse_type_text(peek().text, &t)) fail("expected a type, found " + describe(peek()));
        pos++;
        return t;
    }

    // ---- statements
    Stmt list(bool braced) {
        std::vector<Stmt> items;
        while (!(braced ? is_punct("}") : peek().kind == Tok::End)) {
            if (peek().kind == Tok::End) fail("expected '}'");
            if (is("let") && peek(1).kind != Tok::Punct) {
                pos++;
                std::string n = name();
                expect("=");
                Expr value = expr();
                vars.push(n, value.type());
                Stmt rest = list(braced);
                vars.pop(n);
                if (!rest.defined()) fail("let " + n + " has no statement after it");
                items.push_back(LetStmt::make(n, value, rest));
                break;
            }
            items.push_back(one());
        }
        if (items.empty()) return Stmt();
        Stmt s = items.back();
        for (size_t i = items.size() - 1; i-- > 0;) s = Block::make(items[i], s);
        return s;
    }
    Stmt braced() {
        expect("{");
        Stmt s = list(true);
        if (!s.defined()) fail("empty block");
        expect("}");
        return s;
    }
    Stmt one() {
        const Token &t = peek();
        if ((t.kind == Tok::Name || t.kind == Tok::String) && is_punct("[", 1)) return store();
        if (is_punct("{")) return braced();
        if (t.kind != Tok::Name) fail("expected a statement, found " + describe(t));
        const std::string kw = t.text;
        if (kw == "for" || kw == "parallel" || kw == "vectorized" || kw == "unrolled") return loop();
        if (kw == "if") return if_stmt();
        if (kw == "produce" || kw == "consume") {
            pos++;
            std::string n = name();
            return ProducerConsumer::make(n, kw == "produce", braced());
        }
        if (kw == "allocate") return allocate();
        if (kw == "free") {
            pos++;
            return Free::make(name());
        }
        if (kw == "evaluate") {
            pos++;
            return Evaluate::make(expr());
        }
        fail("expected a statement, found " + describe(t));
    }
    Stmt store() {
        std::string n = name();
        expect("[");
        Expr index = expr();
        Expr predicate = const_true(index.type().lanes());
        if (is("if")) {
            pos++;
            predicate = expr();
        }
        expect("]");
        expect("=");
        Expr value = expr();
        return Store::make(n, value, index, Parameter(), predicate, ModulusRemainder());
    }
    Stmt loop() {
        std::string kw = next().text;
        ForType t = kw == "for" ? ForType::Serial : kw == "parallel" ? ForType::Parallel
                    : kw == "vectorized"            ? ForType::Vectorized
                                                    : ForType::Unrolled;
        expect("(");
        std::string n = name();
        expect(",");
        Expr min = expr();
        expect(",");
        Expr extent = expr();
        expect(")");
        if (min.type() != extent.type()) fail("loop " + n + ": min and extent of different types");
        vars.push(n, min.type());
        Stmt body = braced();
        vars.pop(n);
        return For::make(n, min, extent, t, Halide::DeviceAPI::None, body);
    }
    Stmt if_stmt() {
        pos++;  // if
        expect("(");
        Expr c = expr();
        expect(")");
        Stmt then_case = braced();
        Stmt else_case;
        if (is("else")) {
            pos++;
            else_case = is("if") ? if_stmt() : braced();
        }
        return IfThenElse::make(c, then_case, else_case);
    }
    Stmt allocate() {
        pos++;
        std::string n = name();
        expect("[");
        Type t = type_name();
        std::vector<Expr> extents;
        while (is_punct("*")) {
            pos++;
            extents.push_back(unary());
        }
        expect("]");
        Halide::MemoryType memory = Halide::MemoryType::Auto;
        if (is("in")) {
            pos++;
            std::string m = name();
            if (m == "heap") memory = Halide::MemoryType::Heap;
            else if (m == "stack") memory = Halide::MemoryType::Stack;
            else if (m == "register") memory = Halide::MemoryType::Register;
            else if (m != "auto") fail("unknown memory type '" + m + "'");
        }
        Expr condition = const_true();
        if (is("if")) {
            pos++;
            condition = expr();
        }
        return Allocate::make(n, t, memory, extents, condition, braced());
    }

    // ---- expressions: precedence climbing over the binary operators
    static int precedence(const std::string &op) {
        if (op == "||") return 1;
        if (op == "&&") return 2;
        if (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") return 3;
        if (op == "+" || op == "-") return 4;
        if (op == "*" || op == "/" || op == "%") return 5;
        return 0;
    }
    Expr expr(int min_prec = 1) {
        Expr a = unary();
        for (;;) {
            const Token &t = peek();
            int p = t.kind == Tok::Punct ? precedence(t.text) : 0;
            if (p < min_prec) return a;
            std::string op = next().text;
            int line = t.line;
            Expr b = expr(p + 1);
            a = binary(op, a, b, line);
        }
    }
    Expr binary(const std::string &op, const Expr &a, const Expr &b, int line) {
        if (a.type() != b.type()) {
            std::ostringstream os;
            os << line << ": operands of '" << op << "' have different types (" << type_text_of(a.type()) << ", "
               << type_text_of(b.type()) << ")";
            throw Error(os.str());
        }
        if (op == "+") return Add::make(a, b);
        if (op == "-") return Sub::make(a, b);
        if (op == "*") return Mul::make(a, b);
        if (op == "/") return Div::make(a, b);
        if (op == "%") return Mod::make(a, b);
        if (op == "==") return EQ::make(a, b);
        if (op == "!=") return NE::make(a, b);
        if (op == "<") return LT::make(a, b);
        if (op == "<=") return LE::make(a, b);
        if (op == ">") return GT::make(a, b);
        if (op == ">=") return GE::make(a, b);
        if (!a.type().is_bool()) throw Error(std::to_string(line) + ": operands of '" + op + "' are not booleans");
        if (op == "&&") return And::make(a, b);
        return Or::make(a, b);
    }
    std::vector<Expr> args() {
        expect("(");
        std::vector<Expr> out;
        if (!is_punct(")")) {
            out.push_back(expr());
            while (is_punct(",")) {
                pos++;
                out.push_back(expr());
            }
        }
        expect(")");
        return out;
    }
    // A literal after its type prefix (or an int32 without one).
    Expr literal(Type t, bool typed) {
        bool negative = is_punct("-");
        if (negative) pos++;
        const Token &tok = peek();
        if (tok.kind == Tok::Name && (tok.text == "inf" || tok.text == "nan")) {
            if (!typed || !t.is_float()) fail("inf and nan need a float type prefix");
            pos++;
            double v = tok.text == "nan" ? std::nan("") : (negative ? -INFINITY : INFINITY);
            return FloatImm::make(t, v);
        }
        if (tok.kind != Tok::Number) fail("expected a number, found " + describe(tok));
        std::string s = next().text;
        std::string digits = (negative ? "-" : "") + s;
        char suffix = s.back();
        bool is_float = s.find_first_of(".eE") != std::string::npos || suffix == 'f' || suffix == 'h';
        if (is_float) {
            Type ft = typed ? t : suffix == 'f' ? Halide::Float(32) : suffix == 'h' ? Halide::Float(16) : Halide::Float(64);
            if (!ft.is_float()) fail("a float literal with type " + type_text_of(t));
            if (suffix == 'f' || suffix == 'h') digits.pop_back();
            if (ft.bits() == 32) return FloatImm::make(ft, std::strtof(digits.c_str(), nullptr));
            return FloatImm::make(ft, std::strtod(digits.c_str(), nullptr));
        }
        if (!typed) t = Halide::Int(32);
        errno = 0;
        if (t.is_uint()) {
            if (negative) fail("a negative unsigned literal");
            uint64_t v = std::strtoull(s.c_str(), nullptr, 10);
            if (errno) fail("literal out of range");
            return UIntImm::make(t, v);
        }
        if (!t.is_int()) fail("an integer literal with type " + type_text_of(t));
        int64_t v = std::strtoll(digits.c_str(), nullptr, 10);
        if (errno) fail("literal out of range");
        return IntImm::make(t, v);
    }
    Expr variable(const std::string &n) {
        if (!vars.contains(n)) fail("variable '" + n + "' is not bound here");
        return Variable::make(vars.get(n), n);
    }
    Expr call(Type t, bool typed) {
        Call::CallType call_type = Call::PureExtern;
        bool marked = false;
        static const std::pair<const char *, Call::CallType> markers[] = {
            {"pure_intrinsic", Call::PureIntrinsic}, {"intrinsic", Call::Intrinsic},
            {"pure_extern", Call::PureExtern},       {"extern", Call::Extern},
            {"extern_cxx", Call::ExternCPlusPlus}};
        for (const auto &m : markers) {
            if (is(m.first) && is_punct(":", 1)) {
                call_type = m.second;
                marked = true;
                pos += 2;
                break;
            }
        }
        std::string n = name();
        if (!marked && intrinsics().count(n)) call_type = Call::PureIntrinsic;
        std::vector<Expr> a = args();
        if (!typed) {
            if (a.empty()) fail("call to " + n + " without arguments needs a type prefix");
            t = a[0].type();
        }
        return Call::make(t, n, a, call_type);
    }
    Expr unary() {
        const Token &t = peek();
        if (is_punct("!")) {
            pos++;
            Expr a = unary();
            if (!a.type().is_bool()) fail("'!' of a non-boolean");
            return Not::make(a);
        }
        if (is_punct("-") || t.kind == Tok::Number) return literal(Halide::Int(32), false);
        if (t.kind == Tok::String && !is_punct("(", 1)) return StringImm::make(next().text);
        if (is_punct("(")) {
            Type ty;
            if (peek(1).kind == Tok::Name && parse_type_text(peek(1).text, &ty) && is_punct(")", 2)) {
                pos += 3;
                return typed(ty);
            }
            if (is("let", 1)) {
                pos += 2;
                std::string n = name();
                expect("=");
                Expr value = expr();
                if (!is("in")) fail("expected 'in'");
                pos++;
                vars.push(n, value.type());
                Expr body = expr();
                vars.pop(n);
                expect(")");
                return Let::make(n, value, body);
            }
            pos++;
            Expr e = expr();
            expect(")");
            return e;
        }
        if (t.kind != Tok::Name && t.kind != Tok::String) fail("expected an expression, found " + describe(t));
        const std::string n = t.text;
        Type ty;
        if (t.kind == Tok::Name && parse_type_text(n, &ty) && is_punct("(", 1)) {
            pos++;
            expect("(");
            Expr v = expr();
            expect(")");
            return Cast::make(ty, v);
        }
        if (t.kind == Tok::Name && is_punct("(", 1)) {
            if (n == "select") {
                pos++;
                std::vector<Expr> a = args();
                if (a.size() != 3) fail("select takes 3 arguments");
                return Select::make(a[0], a[1], a[2]);
            }
            if (n == "min" || n == "max") {
                pos++;
                std::vector<Expr> a = args();
                if (a.size() != 2) fail(n + " takes 2 arguments");
                if (a[0].type() != a[1].type()) fail("operands of " + n + " have different types");
                return n == "min" ? Min::make(a[0], a[1]) : Max::make(a[0], a[1]);
            }
            if (n == "ramp") {
                pos++;
                expect("(");
                Expr base = expr();
                expect(",");
                Expr stride = expr();
                expect(",");
                int64_t lanes = integer();
                expect(")");
                return Ramp::make(base, stride, static_cast<int>(lanes));
            }
            if (n == "broadcast") {
                pos++;
                expect("(");
                Expr v = expr();
                expect(",");
                int64_t lanes = integer();
                expect(")");
                return Broadcast::make(v, static_cast<int>(lanes));
            }
        }
        if (t.kind == Tok::Name && is_punct(":", 1)) return call(Type(), false);
        if (is_punct("(", 1)) return call(Type(), false);
        pos++;
        return variable(n);
    }
    // What follows a "(type)" prefix: a literal, a load or a call.
    Expr typed(Type t) {
        if (is_punct("-") || peek().kind == Tok::Number || is("inf") || is("nan")) return literal(t, true);
        if ((peek().kind == Tok::Name || peek().kind == Tok::String) && is_punct("[", 1)) {
            std::string n = name();
            expect("[");
            Expr index = expr();
            Expr predicate = const_true(t.lanes());
            if (is("if")) {
                pos++;
                predicate = expr();
            }
            expect("]");
            if (index.type().lanes() != t.lanes()) fail("load of " + n + ": index and value lanes differ");
            return Load::make(t, n, index, Halide::Buffer<>(), Parameter(), predicate, ModulusRemainder());
        }
        return call(t, true);
    }
};

}  // namespace

std::string type_text(Type t) { return type_text_of(t); }
bool parse_type(const std::string &text, Type *type) { return parse_type_text(text, type); }

std::string name_text(const std::string &name) {
    bool plain = !name.empty() && name_start(name[0]);
    for (char c : name) plain &= name_char(c);
    return plain ? name : quoted(name);
}

std::string quoted(const std::string &text) {
    std::string out = "\"";
    for (char c : text) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string print_expr(const Expr &e) { return Printer(0).expr(e); }

std::string print_stmt(const Stmt &s, int indent0) {
    Printer p(indent0);
    p.stmt(s);
    return p.os.str();
}

Stmt parse_stmt(const std::string &text, int first_line, const VariableTypes &outer) {
    return Parser(text, first_line, outer).body();
}

Expr parse_expr(const std::string &text, int first_line, const VariableTypes &outer) {
    return Parser(text, first_line, outer).whole_expr();
}

}  // namespace flowhls
