// Parsing of --precision and its assignment to the filters of a graph.
#include "graph/Precision.h"
#include "flowhls/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

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
    if (text == "auto") return {kAutoFixedWidth, 0, true};
    if (text.compare(0, 5, "auto<") == 0) {
        int w = text.back() == '>' ? small_number(text.substr(5, text.size() - 6)) : -1;
        if (w < 1 || w > kMaxFixedWidth) {
            throw Error(what + " '" + text + "': expected auto or auto<W> with W an integer from 1 to " +
                        std::to_string(kMaxFixedWidth));
        }
        return {w, 0, true};
    }
    const std::string head = "fixed<";
    size_t comma = text.find(',');
    if (text.compare(0, head.size(), head) != 0 || text.back() != '>' || comma == std::string::npos) {
        throw Error(what + " '" + text + "': expected fixed<W,I> (W total bits, I integer bits), auto<W> or float");
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

FixedFormat auto_fixed_format(int width, double max_abs) {
    int needed = 1;  // 2^(needed-1) > max_abs
    if (max_abs > 0) {
        int e = 0;
        std::frexp(max_abs, &e);  // max_abs = m * 2^e, 0.5 <= m < 1: needs e + 1 bits
        needed = std::max(1, std::min(e + 1, 1 << 20));
    }
    FixedFormat f{width, std::clamp(needed + kAutoHeadroomBits, 1, width)};
    f.measured = max_abs;
    return f;
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

namespace {

// max |value| of a float constant buffer's contents (0 for others).
double max_abs_contents(const Buffer &b) {
    double m = 0;
    if (!b.contents.defined() || !b.contents.type().is_float()) return m;
    if (b.contents.type().bits() == 32) {
        Halide::Buffer<float>(b.contents).for_each_value([&](float v) { m = std::max(m, std::fabs(double(v))); });
    } else if (b.contents.type().bits() == 64) {
        Halide::Buffer<double>(b.contents).for_each_value([&](double v) { m = std::max(m, std::fabs(v)); });
    }
    return m;
}

// Whether filter `f` reads a kernel input (the input load).
bool reads_kernel_input(const FilterGraph &g, const Filter &f) {
    for (const std::string &r : f.reads) {
        if (g.buffer(r).kind == BufferKind::Input) return true;
    }
    return false;
}

// Whether filter `f` reads a graph input directly (a kernel input without contents, i.e. not
// weights passed as an m_axi argument): on PandA-Bambu, which has no input load filter, the
// first node converts the input to its own format, which must hold the input's range too.
bool reads_graph_input(const FilterGraph &g, const Filter &f) {
    for (const std::string &r : f.reads) {
        const Buffer &b = g.buffer(r);
        if (b.kind == BufferKind::Input && !b.contents.defined()) return true;
    }
    return false;
}

// The ONNX nodes computed by several filters of which one holds no ONNX value: an intermediate
// step (Softmax's max and sum of exponentials) whose range is not measured.
std::set<std::string> nodes_with_intermediates(const FilterGraph &g) {
    std::set<std::string> out;
    for (const Filter &f : g.filters) {
        if (!f.onnx.node.empty() && f.onnx.values.empty()) out.insert(f.onnx.node);
    }
    return out;
}

// The format auto<W> gives filter `f`: from the measured ranges of the ONNX values it holds
// and its weights (the constants it reads); a copy takes its value's producer's format (or its
// value's range), the input load the graph inputs' range (so does a node reading the input
// directly, on PandA-Bambu). Every filter of a node with an
// unmeasured intermediate (`partial`), and any other filter holding no measured value, stays
// float: a filter converts what it reads from float buffers to its own format, which must hold it.
FixedFormat resolve_auto(const FilterGraph &g, const Filter &f, const FixedFormat &spec, const CalibrationRanges &c,
                         const std::set<std::string> &partial) {
    if (c.samples <= 0) {
        throw Error("--precision " + spec.text() + " needs value ranges measured on calibration inputs " +
                    "(flowhls compile measures them for ONNX models)");
    }
    if (partial.count(f.onnx.node)) return FixedFormat();
    const bool copy = f.onnx.node.empty() && f.onnx.op.empty() && !f.onnx.outputs.empty();
    if (copy) {
        for (const Filter &p : g.filters) {
            if (&p == &f) break;
            const auto &v = p.onnx.values;
            if (p.fixed.enabled() && std::find(v.begin(), v.end(), f.onnx.outputs[0]) != v.end()) return p.fixed;
        }
    }
    const bool input_load = f.onnx.empty() && reads_kernel_input(g, f);
    double m = input_load || reads_graph_input(g, f) ? c.inputs : 0.0;
    bool found = input_load;
    for (const std::string &v : copy ? f.onnx.outputs : f.onnx.values) {
        auto it = c.values.find(v);
        if (it != c.values.end()) m = std::max(m, it->second), found = true;
    }
    if (!found) return FixedFormat();
    for (const std::string &r : f.reads) {
        const Buffer &b = g.buffer(r);
        m = std::max(m, max_abs_contents(b));  // ROMs, and weights passed as m_axi arguments
    }
    FixedFormat out = auto_fixed_format(spec.width, m);
    out.samples = c.samples;
    return out;
}

}  // namespace

void assign_precision(FilterGraph &g, const PrecisionOptions &p) {
    const std::set<std::string> partial = nodes_with_intermediates(g);
    std::set<std::string> names;
    for (Filter &f : g.filters) {
        names.insert(f.onnx.node);
        names.insert(f.onnx.op);
        bool writes_float = false;
        for (const std::string &w : f.writes) writes_float |= g.buffer(w).type.is_float();
        f.fixed = writes_float ? precision_of(p, f.onnx.node, f.onnx.op) : FixedFormat();
        if (f.fixed.automatic) f.fixed = resolve_auto(g, f, f.fixed, p.calibration, partial);
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

std::string auto_choice_text(const FixedFormat &f) {
    if (f.measured < 0) return "";
    std::ostringstream os;
    os << std::setprecision(6) << " (--precision auto<" << f.width << ">: max |value| " << f.measured << " over "
       << f.samples << " calibration sample(s) and the weights; " << f.integer << " integer bits including "
       << kAutoHeadroomBits << " of headroom)";
    return os.str();
}

std::string precision_report_text(const FilterGraph &g) {
    std::ostringstream os;
    for (const Filter &f : g.filters) {
        if (!f.fixed.enabled()) continue;
        if (os.tellp() == 0) {
            os << "\nFixed-point formats (--precision; ap_fixed<W,I>, AP_RND_CONV round half to even, AP_SAT saturate;"
               << "\nauto: I holds the max |value| measured on the calibration inputs and the weights, + "
               << kAutoHeadroomBits << " bit of headroom):\n";
        }
        std::string node = f.onnx.node.empty() ? "(" + f.name + ")" : f.onnx.node;
        os << "  " << node << " (" << (f.onnx.op.empty() ? "-" : f.onnx.op) << "): " << f.fixed.text();
        if (f.fixed.measured >= 0) os << std::setprecision(6) << ", max |value| " << f.fixed.measured;
        os << "; sums " << f.fixed.accumulator().text();
        if (f.fixed.sum_integer > 0) os << std::setprecision(6) << " (max |value| " << f.fixed.sum_max << " proven)";
        else os << " (I + 10: not proven)";
        os << "\n";
    }
    return os.str();
}

std::string precision_report_json(const FilterGraph &g) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const Filter &f : g.filters) {
        if (!f.fixed.enabled()) continue;
        nlohmann::ordered_json r = {{"filter", f.name},        {"node", f.onnx.node},
                                    {"op", f.onnx.op},         {"format", f.fixed.text()},
                                    {"width", f.fixed.width},  {"integer", f.fixed.integer},
                                    {"auto", f.fixed.measured >= 0}};
        if (f.fixed.measured >= 0) {
            r["max_abs"] = f.fixed.measured;
            r["samples"] = f.fixed.samples;
        }
        r["sums"] = f.fixed.accumulator().text();
        r["sums_proven"] = f.fixed.sum_integer > 0;
        if (f.fixed.sum_integer > 0) r["sums_max_abs"] = f.fixed.sum_max;
        rows.push_back(r);
    }
    return rows.dump(2);
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
