// Parsing of --precision and its assignment to the filters of a graph.
#include "graph/Precision.h"
#include "flowhls/Error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace flowhls {

namespace {

// The decimal integer `s` (1 to 3 digits), or -1.
int small_number(const std::string &s) {
    if (s.empty() || s.size() > 3) return -1;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    }
    return std::stoi(s);
}

}  // namespace

FixedFormat parse_fixed_format(const std::string &text, const std::string &what) {
    if (text == "float") return {};
    const std::string head = "fixed<";
    size_t comma = text.find(',');
    if (text.compare(0, head.size(), head) != 0 || text.back() != '>' || comma == std::string::npos) {
        throw Error(what + " '" + text + "': expected fixed<W,I> (W total bits, I integer bits) or float");
    }
    int w = small_number(text.substr(head.size(), comma - head.size()));
    int i = small_number(text.substr(comma + 1, text.size() - comma - 2));
    if (w < 1 || w > kMaxFixedWidth) {
        throw Error(what + " '" + text + "': the width W must be an integer from 1 to " + std::to_string(kMaxFixedWidth));
    }
    if (i < 0 || i > w) {
        throw Error(what + " '" + text + "': the integer bits I must be an integer from 0 to W (" + std::to_string(w) + ")");
    }
    return {w, i};
}

void add_precision_argument(const std::string &arg, PrecisionOptions &into) {
    size_t eq = arg.rfind('=');
    if (eq == std::string::npos) {
        into.model = parse_fixed_format(arg, "--precision");
        return;
    }
    std::string key = arg.substr(0, eq);
    if (key.empty()) throw Error("--precision '" + arg + "': expected KEY=fixed<W,I> with an ONNX node name or op type");
    into.overrides.push_back({key, parse_fixed_format(arg.substr(eq + 1), "--precision " + key)});
}

FixedFormat precision_of(const PrecisionOptions &p, const std::string &node, const std::string &op) {
    const FixedFormat *by_op = nullptr, *by_node = nullptr;
    for (const auto &o : p.overrides) {
        if (!node.empty() && o.first == node) by_node = &o.second;
        if (!op.empty() && o.first == op) by_op = &o.second;
    }
    if (by_node) return *by_node;
    if (by_op) return *by_op;
    return p.model;
}

void assign_precision(FilterGraph &g, const PrecisionOptions &p) {
    std::set<std::string> names;
    for (Filter &f : g.filters) {
        names.insert(f.onnx.node);
        names.insert(f.onnx.op);
        bool writes_float = false;
        for (const std::string &w : f.writes) writes_float |= g.buffer(w).type.is_float();
        f.fixed = writes_float ? precision_of(p, f.onnx.node, f.onnx.op) : FixedFormat();
    }
    for (const auto &o : p.overrides) {
        if (!names.count(o.first)) {
            throw Error("--precision " + o.first + "=" + o.second.text() +
                        ": no ONNX node or op type of the model is called '" + o.first + "'");
        }
    }
}

std::map<std::string, const Filter *> fixed_buffers(const FilterGraph &g) {
    std::map<std::string, const Filter *> out;
    for (const Filter &f : g.filters) {
        if (!f.fixed.enabled()) continue;
        for (const std::string &w : f.writes) {
            const Buffer &b = g.buffer(w);
            if (b.kind == BufferKind::Intermediate && b.type.is_float()) out[w] = &f;
        }
        for (const std::string &r : f.reads) {
            const Buffer &b = g.buffer(r);
            if (b.kind == BufferKind::Constant && b.type.is_float() && !out.count(r)) out[r] = &f;
        }
    }
    return out;
}

int64_t fixed_raw(const FixedFormat &f, double v) {
    const double top = std::ldexp(1.0, f.width - 1) - 1, bottom = -std::ldexp(1.0, f.width - 1);
    if (std::isnan(v)) return static_cast<int64_t>(top);
    double scaled = std::ldexp(v, f.fraction());  // exact: a power of two
    if (scaled >= top) return static_cast<int64_t>(top);
    if (scaled <= bottom) return static_cast<int64_t>(bottom);
    double fl = std::floor(scaled), rest = scaled - fl;
    int64_t q = static_cast<int64_t>(fl);
    if (rest > 0.5 || (rest == 0.5 && (q & 1) != 0)) q++;
    return std::min<int64_t>(q, static_cast<int64_t>(top));
}

int stored_bits(const FilterGraph &g, const Buffer &b) {
    if (!b.type.is_float()) return b.type.bits();
    for (const Filter &f : g.filters) {  // as fixed_buffers, without building the map
        if (!f.fixed.enabled()) continue;
        bool writes = b.kind == BufferKind::Intermediate && std::find(f.writes.begin(), f.writes.end(), b.name) != f.writes.end();
        bool reads = b.kind == BufferKind::Constant && std::find(f.reads.begin(), f.reads.end(), b.name) != f.reads.end();
        if (writes || reads) return f.fixed.width;
    }
    return b.type.bits();
}

}  // namespace flowhls
