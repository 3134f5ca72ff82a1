// compare_trace: each filter output a trace testbench saved against the reference value of its
// ONNX value, in the order the top function computes them.
#include "driver/CsimTrace.h"
#include "flowhls/Error.h"
#include "frontend/onnx/TensorData.h"
#include "flowhls/Precision.h"
#include "support/Paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

constexpr double kDefaultAtol = 1e-5, kDefaultRtol = 1e-4;

// The tab-separated fields of `line`.
std::vector<std::string> fields(const std::string &line) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, '\t')) out.push_back(field);
    return out;
}

// The data lines of a file (neither empty nor starting with '#').
std::vector<std::string> data_lines(const std::string &path, const std::string &what) {
    std::istringstream in(read_file_bytes(path, what, int64_t(1) << 26));
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#') out.push_back(line);
    }
    return out;
}

}  // namespace

std::string unescape_trace_name(const std::string &s, const std::string &where) {
    std::string out;
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            throw Error(where + ": bad %-escape in '" + s + "'");
        }
        out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
    }
    return out;
}

namespace {

// A reference value: its node, op, shape and file (index.txt of the reference directory).
struct ReferenceValue {
    std::string node, op, shape, file;
};

std::map<std::string, ReferenceValue> read_reference_index(const std::string &reference) {
    std::string index = (fs::path(reference) / "index.txt").string();
    std::error_code ec;
    if (!fs::is_regular_file(index, ec)) {
        throw Error("'" + reference + "' has no index.txt; write the reference with models/trace_reference.py");
    }
    std::map<std::string, ReferenceValue> values;
    for (const std::string &line : data_lines(index, "trace reference index")) {
        std::vector<std::string> f = fields(line);
        bool plain_file = f.size() == 5 && !f[4].empty() && f[4].find('/') == std::string::npos &&
                          f[4].find("..") == std::string::npos;
        if (!plain_file) throw Error("'" + index + "' is not a trace reference index (line '" + line + "')");
        values[unescape_trace_name(f[0], index)] = {unescape_trace_name(f[1], index), f[2], f[3], f[4]};
    }
    return values;
}

std::string number(double v) {
    std::ostringstream os;
    os << std::setprecision(6) << v;
    return os.str();
}

// Compares the design's values of `row` (saved to `got_path`) with the reference file.
void compare_row(TraceRow &row, const std::string &got_path, const std::string &want_path, double atol, double rtol) {
    std::error_code ec;
    if (!fs::is_regular_file(got_path, ec)) {
        throw Error("the trace testbench did not save '" + got_path + "' (did the simulation stop early?)");
    }
    onnx_import::TestTensor got = onnx_import::read_test_tensor(got_path);
    onnx_import::TestTensor want = onnx_import::read_test_tensor(want_path);
    std::vector<double> g = onnx_import::buffer_doubles(got.values), w = onnx_import::buffer_doubles(want.values);
    row.integer = !got.values.type().is_float();
    if (g.size() != w.size()) {
        row.status =
            "size differs (" + std::to_string(g.size()) + " values, reference " + std::to_string(w.size()) + ")";
        return;
    }
    row.count = static_cast<int64_t>(g.size());
    for (size_t i = 0; i < g.size(); i++) {
        if (std::isnan(g[i]) && std::isnan(w[i])) continue;
        double err = std::fabs(g[i] - w[i]);
        if (std::isnan(err)) err = INFINITY;
        row.max_abs = std::max(row.max_abs, err);
        bool bad = row.integer ? err != 0.0 : !(err <= atol + rtol * std::fabs(w[i]));
        row.mismatches += bad;
    }
    row.status = row.mismatches ? "DIVERGES" : "match";
}

std::string error_text(const TraceRow &r) {
    if (r.lsb > 0) return number(r.max_abs) + " (" + number(r.max_abs / r.lsb) + " LSB)";
    return r.integer ? number(r.max_abs) + " LSB" : number(r.max_abs);
}

std::string table(const TraceReport &t, const std::string &reference) {
    std::ostringstream os;
    os << "trace against " << reference << " (floating-point values within atol " << t.atol << " + rtol " << t.rtol
       << " x |ref|; integers exactly, errors in LSB)\n";
    size_t width = 6, dtype = 6, error = 14;
    for (const TraceRow &r : t.rows) {
        width = std::max(width, (r.node.empty() ? r.value : r.node).size() + 2);
        dtype = std::max(dtype, r.dtype.size() + 2);
        if (r.count) error = std::max(error, error_text(r).size() + 2);
    }
    os << std::left << std::setw(4) << "#" << std::setw(static_cast<int>(width)) << "node" << std::setw(18) << "op"
       << std::setw(18) << "shape" << std::setw(static_cast<int>(dtype)) << "dtype" << std::setw(static_cast<int>(error))
       << "max abs err" << std::setw(18)
       << "mismatches"
       << "status\n";
    for (size_t i = 0; i < t.rows.size(); i++) {
        const TraceRow &r = t.rows[i];
        std::string node = r.node.empty() ? r.value : r.node;
        os << std::setw(4) << i + 1 << std::setw(static_cast<int>(width)) << node << std::setw(18)
           << (r.op.empty() ? "-" : r.op) << std::setw(18) << (r.shape.empty() ? "-" : r.shape)
           << std::setw(static_cast<int>(dtype)) << r.dtype << std::setw(static_cast<int>(error))
           << (r.count ? error_text(r) : "-") << std::setw(18)
           << (r.count ? std::to_string(r.mismatches) + "/" + std::to_string(r.count) : "-") << r.status << "\n";
    }
    if (t.first_divergence < 0) {
        os << "trace: every compared filter output matches the reference\n";
    } else {
        const TraceRow &r = t.rows[t.first_divergence];
        os << "trace: first divergence at node '" << (r.node.empty() ? r.value : r.node) << "' (" << r.op
           << ", ONNX value '" << r.value << "', filter " << r.filter << "): max abs error " << error_text(r) << ", "
           << r.mismatches << " of " << r.count << " values off\n";
    }
    return os.str();
}

std::string json(const TraceReport &t, const std::string &reference) {
    nlohmann::ordered_json j;
    j["reference"] = reference;
    j["atol"] = t.atol;
    j["rtol"] = t.rtol;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const TraceRow &r : t.rows) {
        rows.push_back({{"filter", r.filter},
                        {"buffer", r.buffer},
                        {"value", r.value},
                        {"node", r.node},
                        {"op", r.op},
                        {"shape", r.shape},
                        {"dtype", r.dtype},
                        {"integer", r.integer},
                        {"lsb", r.lsb},
                        {"count", r.count},
                        {"max_abs_error", r.max_abs},
                        {"mismatches", r.mismatches},
                        {"status", r.status}});
    }
    j["rows"] = rows;
    if (t.first_divergence >= 0) {
        j["first_divergence"] = t.rows[t.first_divergence].node.empty() ? t.rows[t.first_divergence].value
                                                                        : t.rows[t.first_divergence].node;
    } else {
        j["first_divergence"] = nullptr;
    }
    return j.dump(2) + "\n";
}

}  // namespace

TraceReport compare_trace(const std::string &dir, const std::string &reference, double atol, double rtol) {
    TraceReport t;
    t.atol = atol >= 0 ? atol : kDefaultAtol;
    t.rtol = rtol >= 0 ? rtol : kDefaultRtol;
    std::map<std::string, ReferenceValue> ref = read_reference_index(reference);
    std::string manifest = (fs::path(dir) / "trace.txt").string();
    fs::path saved = fs::path(dir) / "build" / "trace";
    for (const std::string &line : data_lines(manifest, "trace manifest")) {
        std::vector<std::string> f = fields(line);
        if (f.size() != 5)
            throw Error("'" + manifest + "' is not a trace manifest flowhls writes (line '" + line + "')");
        TraceRow row;
        row.filter = f[0];
        row.buffer = f[1];
        row.dtype = f[3];
        if (row.dtype.rfind("fixed<", 0) == 0) row.lsb = std::ldexp(1.0, -parse_fixed_format(row.dtype, manifest).fraction());
        // The first of the values the filter holds (computed, then views) the reference has.
        std::istringstream names(f[2]);
        std::string name;
        auto it = ref.end();
        while (names >> name && it == ref.end()) {
            std::string value = unescape_trace_name(name, manifest);
            if (row.value.empty()) row.value = value;
            it = ref.find(value);
            if (it != ref.end()) row.value = value;
        }
        if (it == ref.end()) {
            row.status = "no reference";
        } else {
            row.node = it->second.node;
            row.op = it->second.op;
            row.shape = it->second.shape;
            compare_row(row, (saved / (row.buffer + ".npy")).string(), (fs::path(reference) / it->second.file).string(),
                        t.atol, t.rtol);
        }
        if (row.status == "DIVERGES" && t.first_divergence < 0) t.first_divergence = static_cast<int>(t.rows.size());
        t.rows.push_back(row);
    }
    t.text = table(t, reference);
    t.json = json(t, reference);
    std::ofstream out(saved / "trace.json", std::ios::binary);
    out << t.json;
    if (!out) throw Error("cannot write '" + (saved / "trace.json").string() + "'");
    return t;
}

}  // namespace flowhls
