// print_graph / parse_graph: the FilterGraph as exact text and back.
#include "graph/GraphText.h"
#include "flowhls/Error.h"
#include "ir/IRText.h"

#include <charconv>
#include <cctype>
#include <cstring>
#include <map>
#include <sstream>

namespace flowhls {

namespace {

using Halide::Type;

// ---- Printing -----------------------------------------------------------------------------

std::string join_names(const std::vector<std::string> &names, const char *sep = ", ") {
    if (names.empty()) return "-";
    std::string out;
    for (size_t i = 0; i < names.size(); i++) out += (i ? sep : "") + name_text(names[i]);
    return out;
}

std::string filter_names(const FilterGraph &g, const std::vector<int> &ids) {
    std::vector<std::string> names;
    for (int id : ids) {
        names.push_back(id >= 0 && id < static_cast<int>(g.filters.size()) ? g.filters[id].name : "#" + std::to_string(id));
    }
    return join_names(names);
}

std::string int_list(const std::vector<int64_t> &v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); i++) out += (i ? ", " : "") + std::to_string(v[i]);
    return out + "]";
}

std::string partition_line(const ArrayPartition &p, const char *indent) {
    bool any = p.enabled || p.kind != PartitionKind::Cyclic || p.factor != 0 || p.inferred || !p.reason.empty() ||
               p.reshape || p.pairs != 0;
    if (!any) return "";
    std::string out = std::string(indent) + "partition:";
    if (!p.enabled) out += " none";
    if (p.enabled || p.kind != PartitionKind::Cyclic) out += " " + partition_kind_name(p.kind);
    if (p.factor != 0) out += " factor " + std::to_string(p.factor);
    if (p.reshape) out += " reshape";
    if (!p.dims.empty()) {
        // A partition of several dimensions: the shape (innermost first), then per dimension.
        out += " shape " + std::to_string(p.shape.size());
        for (int64_t e : p.shape) out += " " + std::to_string(e);
        out += " dims " + std::to_string(p.dims.size());
        for (const DimensionPartition &d : p.dims) {
            out += " " + std::to_string(d.dim) + " " + partition_kind_name(d.kind) + " " + std::to_string(d.factor);
        }
    }
    if (p.pairs != 0) out += " pairs " + std::to_string(p.pairs);
    if (p.inferred) out += " inferred";
    if (!p.reason.empty()) out += " " + quoted(p.reason);
    return out + "\n";
}

bool default_plan(const LineBufferPlan &p) {
    LineBufferPlan d;
    return p.planes == d.planes && p.height == d.height && p.width == d.width && p.rows == d.rows && p.cols == d.cols &&
           p.first_plane == d.first_plane && p.first_row == d.first_row && p.first_col == d.first_col &&
           p.out_planes == d.out_planes && p.out_rows == d.out_rows && p.out_cols == d.out_cols &&
           p.consumer == d.consumer && p.lines.empty() && p.window.empty();
}

const char *request_name(ChannelRequest r) {
    switch (r) {
    case ChannelRequest::Auto: return "auto";
    case ChannelRequest::Stream: return "stream";
    case ChannelRequest::PingPong: return "ping-pong";
    }
    return "?";
}

void print_buffer(const FilterGraph &g, const Buffer &b, std::ostream &os) {
    os << "  buffer " << name_text(b.name) << ": " << buffer_kind_name(b.kind) << " " << type_text(b.type)
       << int_list(b.shape) << "  producers: " << filter_names(g, b.producers)
       << "  consumers: " << filter_names(g, b.consumers) << "\n";
    os << "    channel: " << channel_kind_name(b.channel);
    if (b.is_stream() || b.stream_depth != kStreamDepth) os << " depth " << b.stream_depth;
    if (b.stream_lanes != 1) os << " lanes " << b.stream_lanes << " stride " << b.stream_lane_stride;
    if (!b.channel_reason.empty()) os << " " << quoted(b.channel_reason);
    os << "\n";
    if (!b.dims.empty()) os << "    dims: " << int_list(b.dims) << "\n";
    if (!b.margin.empty()) os << "    margin: " << int_list(b.margin) << "\n";
    if (b.line_buffer_words != 0) os << "    line buffer words: " << b.line_buffer_words << "\n";
    if (b.channel_request != ChannelRequest::Auto || b.requested_depth != 0) {
        os << "    request: " << request_name(b.channel_request);
        if (b.requested_depth != 0) os << " depth " << b.requested_depth;
        os << "\n";
    }
    const ArgInterface &i = b.interface;
    if (i.mode != InterfaceMode::MAxi || !i.bundle.empty() || !i.inferred || i.width_bits != 0) {
        os << "    interface: " << interface_mode_name(i.mode);
        if (!i.bundle.empty()) os << " bundle " << name_text(i.bundle);
        if (i.width_bits != 0) os << " width " << i.width_bits;
        if (!i.inferred) os << " (directive)";
        os << "\n";
    }
    os << partition_line(b.partition, "    ");
    if (b.uram) os << "    storage: uram\n";
    const LineBufferPlan &p = b.line_buffer;
    if (!default_plan(p)) {
        os << "    line buffer: planes " << p.planes << " height " << p.height << " width " << p.width << " window "
           << p.rows << " by " << p.cols << " first " << p.first_plane << " " << p.first_row << " " << p.first_col
           << " outputs " << p.out_planes << " " << p.out_rows << " " << p.out_cols
           << " consumer " << filter_names(g, {p.consumer}) << " lines " << name_text(p.lines) << " window "
           << name_text(p.window) << "\n";
    }
    const WindowBufferPlan &w = b.window_buffer;
    if (w.consumer >= 0) {
        os << "    window buffer: height " << w.height << " width " << w.width << " channels " << w.channels << " ring "
           << w.ring_rows << " outputs " << w.out_rows << " stride " << w.stride << " last " << w.last_row
           << " consumer " << filter_names(g, {w.consumer}) << " ring " << name_text(w.ring) << "\n";
    }
}

void print_filter(const Filter &f, std::ostream &os) {
    os << "filter " << name_text(f.name) << " -> " << name_text(f.function_name) << "\n";
    if (!f.returns.empty()) os << "  returns " << name_text(f.returns) << "\n";
    if (f.inline_function) os << "  inline (directive)\n";
    if (!f.onnx.empty()) {
        const OnnxOrigin &o = f.onnx;
        os << "  onnx";
        if (o.node.empty() && o.op.empty())
            os << " copy of";
        else
            os << " node " << quoted(o.node) << " op " << quoted(o.op) << " outputs";
        for (const std::string &v : o.outputs) os << " " << quoted(v);
        if (!o.values.empty()) os << " values";
        for (const std::string &v : o.values) os << " " << quoted(v);
        os << "\n";
    }
    for (const auto &d : f.directives) {
        os << "  loop " << name_text(d.first) << ":";
        if (d.second.pipeline_ii != 0) os << " pipeline II=" << d.second.pipeline_ii;
        if (d.second.unroll == kUnrollComplete) os << " unroll complete";
        else if (d.second.unroll != 0) os << " unroll " << d.second.unroll;
        if (d.second.pipeline_inferred) os << " pipeline-inferred";
        if (d.second.inferred) os << " inferred";
        if (d.second.dataflow) os << " dataflow";
        os << "\n";
    }
    os << "  reads: " << join_names(f.reads) << "\n";
    os << "  writes: " << join_names(f.writes) << "\n";
    for (const LocalBuffer &l : f.locals) {
        os << "  local " << name_text(l.name) << ": " << type_text(l.type) << "[" << l.size << "]"
           << (l.scalar ? " scalar" : "") << (l.uram ? " uram" : "") << (l.lutram ? " lutram" : "");
        if (!l.ping_pong_loop.empty()) os << " ping-pong " << name_text(l.ping_pong_loop);
        os << "\n";
        if (!l.dims.empty()) os << "    dims: " << int_list(l.dims) << "\n";
        os << partition_line(l.partition, "    ");
    }
    if (f.body.defined()) os << "  body:\n" << print_stmt(f.body, 4);
}

// The raw bits of element `i` as hexadecimal digits (two per byte, most significant first).
std::string element_hex(const Halide::Buffer<> &data, int64_t i) {
    int bytes = data.type().bytes();
    const uint8_t *p = static_cast<const uint8_t *>(data.data()) + i * bytes;
    uint64_t v = 0;
    std::memcpy(&v, p, bytes);  // little-endian host
    char buf[24];
    std::snprintf(buf, sizeof buf, "%0*llx", bytes * 2, static_cast<unsigned long long>(v));
    return buf;
}

void print_contents(const Buffer &b, std::ostream &os) {
    if (!b.contents.defined()) return;
    int64_t n = static_cast<int64_t>(b.contents.number_of_elements());
    os << "contents " << name_text(b.name) << ": " << type_text(b.contents.type()) << "[" << n << "]\n";
    for (int64_t i = 0; i < n; i++) os << (i % 16 == 0 ? "  " : " ") << element_hex(b.contents, i) << (i % 16 == 15 || i == n - 1 ? "\n" : "");
}

// ---- Parsing ------------------------------------------------------------------------------

class LineReader {
public:
    LineReader(const std::string &text, int line, const std::string &source) : s(text), line(line), source(source) {}

    [[noreturn]] void fail(const std::string &m) const {
        throw Error(source + ":" + std::to_string(line) + ": " + m + " (in \"" + s + "\")");
    }
    void spaces() {
        while (i < s.size() && s[i] == ' ') i++;
    }
    bool at_end() {
        spaces();
        return i >= s.size();
    }
    void end() {
        if (!at_end()) fail("unexpected '" + s.substr(i) + "'");
    }
    bool accept(const char *lit) {
        spaces();
        size_t n = std::strlen(lit);
        if (s.compare(i, n, lit) != 0) return false;
        // A word must end at a word boundary.
        if (std::isalnum(static_cast<unsigned char>(lit[n - 1])) && i + n < s.size() &&
            (std::isalnum(static_cast<unsigned char>(s[i + n])) || s[i + n] == '_')) {
            return false;
        }
        i += n;
        return true;
    }
    void expect(const char *lit) {
        if (!accept(lit)) fail(std::string("expected '") + lit + "'");
    }
    bool peek_quote() {
        spaces();
        return i < s.size() && s[i] == '"';
    }
    std::string quoted_text() {
        spaces();
        if (i >= s.size() || s[i] != '"') fail("expected a quoted string");
        std::string out;
        for (i++;; i++) {
            if (i >= s.size()) fail("unterminated string");
            char c = s[i];
            if (c == '"') break;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (++i >= s.size()) fail("unterminated string");
            if (s[i] == 'n') out += '\n';
            else if (s[i] == 't') out += '\t';
            else if (s[i] == 'x' && i + 2 < s.size()) {
                out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else out += s[i];
        }
        i++;
        return out;
    }
    // A name as name_text writes it.
    std::string name() {
        if (peek_quote()) return quoted_text();
        size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '.' || s[j] == '$')) j++;
        if (j == i) fail("expected a name");
        std::string out = s.substr(i, j - i);
        i = j;
        return out;
    }
    std::vector<std::string> names() {
        if (accept("-")) return {};
        std::vector<std::string> out = {name()};
        while (accept(",")) out.push_back(name());
        return out;
    }
    int64_t integer() {
        spaces();
        size_t j = i;
        if (j < s.size() && s[j] == '-') j++;
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) j++;
        if (j == i || (j == i + 1 && s[i] == '-')) fail("expected an integer");
        int64_t v = 0;
        auto [end, ec] = std::from_chars(s.data() + i, s.data() + j, v);
        if (ec != std::errc() || end != s.data() + j) fail("integer out of range");
        i = j;
        return v;
    }
    std::vector<int64_t> int_list() {
        expect("[");
        std::vector<int64_t> out;
        if (accept("]")) return out;
        out.push_back(integer());
        while (accept(",")) out.push_back(integer());
        expect("]");
        return out;
    }
    Type type() {
        spaces();
        size_t j = i;
        while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) j++;
        std::string t = s.substr(i, j - i);
        i = j;
        Type out;
        if (!parse_type(t, &out)) fail("expected a type, found '" + t + "'");
        return out;
    }
    std::string hex_word() {
        spaces();
        size_t j = i;
        while (j < s.size() && std::isxdigit(static_cast<unsigned char>(s[j]))) j++;
        if (j == i) fail("expected hexadecimal digits");
        std::string out = s.substr(i, j - i);
        i = j;
        return out;
    }

private:
    const std::string &s;
    int line;
    const std::string &source;
    size_t i = 0;
};

struct Line {
    int number;
    int indent;
    std::string text;  // without the indentation
};

class GraphParser {
public:
    GraphParser(const std::string &text, std::string source) : source(std::move(source)) {
        std::istringstream in(text);
        std::string raw;
        int n = 0;
        while (std::getline(in, raw)) {
            n++;
            size_t indent = raw.find_first_not_of(' ');
            if (indent == std::string::npos) continue;
            std::string body = raw.substr(indent);
            if (body.rfind("//", 0) == 0) continue;
            lines.push_back({n, static_cast<int>(indent), body});
        }
    }

    FilterGraph parse() {
        if (lines.empty()) throw Error(source + ": empty graph");
        LineReader head = reader(lines[0]);
        head.expect("graph");
        g.name = head.name();
        head.end();
        size_t k = 1;
        while (k < lines.size() && lines[k].indent > 0) k = graph_attribute(k);
        while (k < lines.size()) {
            LineReader r = reader(lines[k]);
            if (r.accept("filter")) k = filter(k, r);
            else if (r.accept("contents")) k = contents(k, r);
            else r.fail("expected 'filter' or 'contents'");
        }
        resolve();
        return g;
    }

private:
    std::string source;
    std::vector<Line> lines;
    FilterGraph g;
    // Filter names used before the filters are read (producers and consumers of each buffer,
    // line-buffer consumers), with their lines; resolved at the end.
    std::vector<std::pair<std::vector<std::string>, int>> pending_lists;
    std::vector<std::pair<size_t, std::pair<std::string, int>>> consumer_names;
    std::vector<std::pair<size_t, std::pair<std::string, int>>> ring_consumer_names;
    std::vector<std::string> calls;
    int calls_line = 0;

    LineReader reader(const Line &l) { return LineReader(l.text, l.number, source); }

    // The attribute lines below lines[k] (indented deeper), each read to its end by
    // `attribute(reader, index)`, which returns false for an unknown attribute and may read
    // lines below its own by advancing the index; returns the index of the line after them.
    template <class Read> size_t attribute_lines(size_t k, const char *what, Read attribute) {
        int indent = lines[k].indent;
        for (k++; k < lines.size() && lines[k].indent > indent; k++) {
            LineReader a = reader(lines[k]);
            if (!attribute(a, k)) a.fail(std::string("unknown ") + what + " attribute");
            a.end();
        }
        return k;
    }

    // Attribute lines of the graph's header (buffers and the main filter).
    size_t graph_attribute(size_t k) {
        LineReader r = reader(lines[k]);
        if (r.accept("buffer")) return buffer(k, r);
        if (r.accept("main")) {
            std::string n = r.name();
            if (n != g.name) r.fail("main '" + n + "' is not the graph's name '" + g.name + "'");
            r.expect("(");
            if (!r.accept(")")) {
                g.args.push_back(r.name());
                while (r.accept(",")) g.args.push_back(r.name());
                r.expect(")");
            }
            r.expect("calls:");
            while (!r.at_end()) calls.push_back(r.name());
            calls_line = lines[k].number;
        } else if (r.accept("dataflow:")) {
            g.dataflow.checked = !r.accept("unchecked");
            if (r.accept("yes")) g.dataflow.legal = true;
            else if (!r.accept("no") && g.dataflow.checked) r.fail("expected 'yes' or 'no'");
            if (r.peek_quote()) g.dataflow.reason = r.quoted_text();
        } else if (r.accept("dataflow directive: off")) {
            g.dataflow_disabled = true;
        } else if (r.accept("token simulation:")) {
            g.token_check = r.quoted_text();
        } else {
            r.fail("expected a buffer, main, dataflow or token simulation line");
        }
        r.end();
        return k + 1;
    }

    static BufferKind buffer_kind(LineReader &r) {
        for (BufferKind k : {BufferKind::Input, BufferKind::Output, BufferKind::Intermediate, BufferKind::Constant}) {
            if (r.accept(buffer_kind_name(k))) return k;
        }
        r.fail("expected a buffer kind");
    }
    static ChannelKind channel_kind(LineReader &r) {
        // Longest names first ("stream" is a suffix of "line-buffered stream").
        for (ChannelKind k : {ChannelKind::Resident, ChannelKind::LineBufferedStream, ChannelKind::WindowBufferedStream, ChannelKind::OffChip, ChannelKind::Port, ChannelKind::Rom,
                              ChannelKind::Array, ChannelKind::PingPong, ChannelKind::Scalar, ChannelKind::Stream}) {
            if (r.accept(channel_kind_name(k))) return k;
        }
        r.fail("expected a channel kind");
    }
    static ArrayPartition partition(LineReader &r) {
        ArrayPartition p;
        p.enabled = !r.accept("none");
        for (PartitionKind k : {PartitionKind::Cyclic, PartitionKind::Block, PartitionKind::Complete}) {
            if (r.accept(partition_kind_name(k).c_str())) p.kind = k;
        }
        if (r.accept("factor")) p.factor = r.integer();
        if (r.accept("reshape")) p.reshape = true;
        if (r.accept("shape")) {
            for (int64_t n = r.integer(); n > 0; n--) p.shape.push_back(r.integer());
            r.expect("dims");
            for (int64_t n = r.integer(); n > 0; n--) {
                DimensionPartition d;
                d.dim = static_cast<int>(r.integer());
                bool kind = false;
                for (PartitionKind k : {PartitionKind::Cyclic, PartitionKind::Complete}) {
                    if (!kind && r.accept(partition_kind_name(k).c_str())) {
                        d.kind = k;
                        kind = true;
                    }
                }
                if (!kind) r.fail("expected cyclic or complete");
                d.factor = r.integer();
                p.dims.push_back(d);
            }
        }
        if (r.accept("pairs")) p.pairs = r.integer();
        if (r.accept("inferred")) p.inferred = true;
        if (r.peek_quote()) p.reason = r.quoted_text();
        r.end();
        return p;
    }

    // The buffer of lines[k], `r` past its "buffer"; returns the index of the line after it.
    size_t buffer(size_t k, LineReader &r) {
        Buffer b;
        b.name = r.name();
        r.expect(":");
        b.kind = buffer_kind(r);
        b.channel = Buffer::default_channel(b.kind);
        b.type = r.type();
        b.shape = r.int_list();
        r.expect("producers:");
        pending_lists.push_back({r.names(), lines[k].number});
        r.expect("consumers:");
        pending_lists.push_back({r.names(), lines[k].number});
        r.end();
        k = attribute_lines(k, "buffer", [&](LineReader &a, size_t &k) {
            if (a.accept("channel:")) {
                b.channel = channel_kind(a);
                if (a.accept("depth")) b.stream_depth = a.integer();
                if (a.accept("lanes")) {
                    b.stream_lanes = a.integer();
                    a.expect("stride");
                    b.stream_lane_stride = a.integer();
                }
                if (a.peek_quote()) b.channel_reason = a.quoted_text();
            } else if (a.accept("dims:")) {
                b.dims = a.int_list();
            } else if (a.accept("margin:")) {
                b.margin = a.int_list();
            } else if (a.accept("line buffer words:")) {
                b.line_buffer_words = a.integer();
            } else if (a.accept("request:")) {
                if (a.accept("stream")) b.channel_request = ChannelRequest::Stream;
                else if (a.accept("ping-pong")) b.channel_request = ChannelRequest::PingPong;
                else a.expect("auto");
                if (a.accept("depth")) b.requested_depth = a.integer();
            } else if (a.accept("interface:")) {
                if (a.accept("m_axi")) b.interface.mode = InterfaceMode::MAxi;
                else if (a.accept("axis")) b.interface.mode = InterfaceMode::Axis;
                else if (a.accept("bram")) b.interface.mode = InterfaceMode::Bram;
                else a.fail("expected m_axi, axis or bram");
                if (a.accept("bundle")) b.interface.bundle = a.name();
                if (a.accept("width")) b.interface.width_bits = static_cast<int>(a.integer());
                b.interface.inferred = !a.accept("(directive)");
            } else if (a.accept("partition:")) {
                b.partition = partition(a);
            } else if (a.accept("storage:")) {
                a.expect("uram");
                b.uram = true;
            } else if (a.accept("line buffer:")) {
                LineBufferPlan &p = b.line_buffer;
                const std::pair<const char *, std::vector<int64_t *>> numbers[] = {
                    {"planes", {&p.planes}},
                    {"height", {&p.height}},
                    {"width", {&p.width}},
                    {"window", {&p.rows}},
                    {"by", {&p.cols}},
                    {"first", {&p.first_plane, &p.first_row, &p.first_col}},
                    {"outputs", {&p.out_planes, &p.out_rows, &p.out_cols}}};
                for (const auto &n : numbers) {
                    a.expect(n.first);
                    for (int64_t *v : n.second) *v = a.integer();
                }
                a.expect("consumer");
                consumer_names.push_back({g.buffers.size(), {a.name(), lines[k].number}});
                a.expect("lines");
                p.lines = a.name();
                a.expect("window");
                p.window = a.name();
            } else if (a.accept("window buffer:")) {
                WindowBufferPlan &w = b.window_buffer;
                const std::pair<const char *, int64_t *> numbers[] = {
                    {"height", &w.height}, {"width", &w.width},     {"channels", &w.channels}, {"ring", &w.ring_rows},
                    {"outputs", &w.out_rows}, {"stride", &w.stride}, {"last", &w.last_row}};
                for (const auto &n : numbers) {
                    a.expect(n.first);
                    *n.second = a.integer();
                }
                a.expect("consumer");
                ring_consumer_names.push_back({g.buffers.size(), {a.name(), lines[k].number}});
                a.expect("ring");
                w.ring = a.name();
            } else {
                return false;
            }
            return true;
        });
        g.buffers.push_back(b);
        return k;
    }

    // A filter's ONNX origin, `a` past its "onnx": node N op O outputs V..., or copy of V...;
    // then values V... when traced.
    static OnnxOrigin onnx_origin(LineReader &a) {
        OnnxOrigin o;
        if (a.accept("node")) {
            o.node = a.quoted_text();
            a.expect("op");
            o.op = a.quoted_text();
            a.expect("outputs");
        } else {
            a.expect("copy of");
        }
        while (a.peek_quote()) o.outputs.push_back(a.quoted_text());
        if (a.accept("values")) {
            o.values.push_back(a.quoted_text());
            while (a.peek_quote()) o.values.push_back(a.quoted_text());
        }
        if (o.empty()) a.fail("an ONNX origin names no node and no value");
        return o;
    }

    // The filter of lines[k], `r` past its "filter"; returns the index of the line after it.
    size_t filter(size_t k, LineReader &r) {
        Filter f;
        f.name = r.name();
        r.expect("->");
        f.function_name = r.name();
        r.end();
        k = attribute_lines(k, "filter", [&](LineReader &a, size_t &k) {
            if (a.accept("returns")) {
                f.returns = a.name();
            } else if (a.accept("inline (directive)")) {
                f.inline_function = true;
            } else if (a.accept("onnx")) {
                f.onnx = onnx_origin(a);
            } else if (a.accept("loop")) {
                std::string n = a.name();
                a.expect(":");
                LoopDirective d;
                if (a.accept("pipeline II=")) d.pipeline_ii = static_cast<int>(a.integer());
                if (a.accept("unroll")) d.unroll = a.accept("complete") ? kUnrollComplete : a.integer();
                d.pipeline_inferred = a.accept("pipeline-inferred");
                d.inferred = a.accept("inferred");
                d.dataflow = a.accept("dataflow");
                f.directives[n] = d;
            } else if (a.accept("reads:")) {
                f.reads = a.names();
            } else if (a.accept("writes:")) {
                f.writes = a.names();
            } else if (a.accept("local")) {
                LocalBuffer l;
                l.name = a.name();
                a.expect(":");
                l.type = a.type();
                a.expect("[");
                l.size = a.integer();
                a.expect("]");
                l.scalar = a.accept("scalar");
                l.uram = a.accept("uram");
                l.lutram = a.accept("lutram");
                if (a.accept("ping-pong")) l.ping_pong_loop = a.name();
                a.end();
                k = attribute_lines(k, "local", [&](LineReader &d, size_t &) {
                    if (d.accept("dims:")) l.dims = d.int_list();
                    else if (d.accept("partition:")) l.partition = partition(d);
                    else return false;
                    return true;
                }) - 1;
                f.locals.push_back(l);
            } else if (a.accept("body:")) {
                a.end();
                int indent = lines[k].indent;
                // The body's lines, blank lines kept so that errors name the right line.
                std::string text;
                int first = lines[k].number + 1, last = first;
                while (k + 1 < lines.size() && lines[k + 1].indent > indent) {
                    const Line &l = lines[++k];
                    text += std::string(l.number - last, '\n') + l.text + "\n";
                    last = l.number + 1;
                }
                try {
                    f.body = parse_stmt(text, first);
                } catch (const Error &e) {
                    throw Error(source + ":" + e.what());
                }
            } else {
                return false;
            }
            return true;
        });
        g.filters.push_back(f);
        return k;
    }

    // The contents of a buffer at lines[k], `r` past its "contents"; returns the index of the
    // line after them.
    size_t contents(size_t k, LineReader &r) {
        std::string n = r.name();
        r.expect(":");
        Type t = r.type();
        r.expect("[");
        int64_t count = r.integer();
        r.expect("]");
        r.end();
        Buffer *b = nullptr;
        for (Buffer &x : g.buffers) {
            if (x.name == n) b = &x;
        }
        if (!b) r.fail("contents of '" + n + "', which is not a buffer");
        std::vector<int> dims;
        int64_t product = 1;
        for (int64_t e : b->shape) {
            dims.push_back(static_cast<int>(e));
            product *= e;
        }
        if (product != count) dims = {static_cast<int>(count)};
        Halide::Buffer<> data(t, dims);
        uint8_t *p = static_cast<uint8_t *>(data.data());
        int64_t i = 0;
        for (k++; k < lines.size() && lines[k].indent > 0; k++) {
            LineReader a = reader(lines[k]);
            while (!a.at_end()) {
                std::string w = a.hex_word();
                if (static_cast<int>(w.size()) != t.bytes() * 2) a.fail("expected " + std::to_string(t.bytes() * 2) + " hexadecimal digits");
                if (i >= count) a.fail("more than " + std::to_string(count) + " values");
                uint64_t v = std::stoull(w, nullptr, 16);
                std::memcpy(p + i * t.bytes(), &v, t.bytes());
                i++;
            }
        }
        if (i != count) r.fail(std::to_string(i) + " values, expected " + std::to_string(count));
        b->contents = data;
        return k;
    }

    int filter_id(const std::string &n, int line) const {
        if (n.size() > 1 && n[0] == '#') {
            int id = -1;
            auto [end, ec] = std::from_chars(n.data() + 1, n.data() + n.size(), id);
            if (ec != std::errc() || end != n.data() + n.size() || id < 0) {
                throw Error(source + ":" + std::to_string(line) + ": '" + n + "' is not a filter number");
            }
            return id;
        }
        for (size_t i = 0; i < g.filters.size(); i++) {
            if (g.filters[i].name == n) return static_cast<int>(i);
        }
        throw Error(source + ":" + std::to_string(line) + ": no filter named '" + n + "'");
    }

    void resolve() {
        for (size_t i = 0; i < g.buffers.size(); i++) {
            for (int which = 0; which < 2; which++) {
                const auto &names = pending_lists[2 * i + which];
                std::vector<int> &ids = which == 0 ? g.buffers[i].producers : g.buffers[i].consumers;
                for (const std::string &n : names.first) ids.push_back(filter_id(n, names.second));
            }
        }
        for (const auto &c : consumer_names) g.buffers[c.first].line_buffer.consumer = filter_id(c.second.first, c.second.second);
        for (const auto &c : ring_consumer_names) {
            g.buffers[c.first].window_buffer.consumer = filter_id(c.second.first, c.second.second);
        }
        if (calls.size() != g.filters.size()) {
            throw Error(source + ":" + std::to_string(calls_line) + ": main calls " + std::to_string(calls.size()) +
                        " filter(s) but the graph has " + std::to_string(g.filters.size()));
        }
        for (size_t i = 0; i < calls.size(); i++) {
            if (calls[i] != g.filters[i].name) {
                throw Error(source + ":" + std::to_string(calls_line) + ": main calls '" + calls[i] + "' where filter " +
                            std::to_string(i) + " is '" + g.filters[i].name + "'");
            }
        }
    }
};

}  // namespace

std::string print_graph(const FilterGraph &graph) {
    std::ostringstream os;
    os << "graph " << name_text(graph.name) << "\n";
    for (const Buffer &b : graph.buffers) print_buffer(graph, b, os);
    os << "  main " << name_text(graph.name) << "(";
    for (size_t i = 0; i < graph.args.size(); i++) os << (i ? ", " : "") << name_text(graph.args[i]);
    os << ") calls:";
    for (const Filter &f : graph.filters) os << " " << name_text(f.name);
    os << "\n";
    const DataflowVerdict &d = graph.dataflow;
    os << "  dataflow:";
    if (!d.checked) os << " unchecked";
    if (d.legal) os << " yes";
    else if (d.checked) os << " no";
    if (!d.reason.empty()) os << " " << quoted(d.reason);
    os << "\n";
    if (graph.dataflow_disabled) os << "  dataflow directive: off\n";
    if (!graph.token_check.empty()) os << "  token simulation: " << quoted(graph.token_check) << "\n";
    for (const Filter &f : graph.filters) print_filter(f, os);
    for (const Buffer &b : graph.buffers) print_contents(b, os);
    return os.str();
}

FilterGraph parse_graph(const std::string &text, const std::string &source) { return GraphParser(text, source).parse(); }

}  // namespace flowhls
