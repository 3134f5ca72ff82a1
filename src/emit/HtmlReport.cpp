// html_report / dataflow_dot: the HTML form of the report, with the graph as inline SVG.
#include "emit/HtmlReport.h"
#include "ir/IRText.h"

#include <iomanip>
#include <sstream>

namespace flowhls {

namespace {

std::string escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string bar(double fraction) {
    std::ostringstream os;
    os << "<div class=\"bar\"><div style=\"width:" << std::fixed << std::setprecision(1)
       << std::min(100.0, 100.0 * fraction) << "%\"></div></div>";
    return os.str();
}

}  // namespace

std::string html_escape(const std::string &text) { return escape(text); }

std::string dataflow_dot(const FilterGraph &g, const DesignEstimate &e) {
    std::ostringstream os;
    os << "digraph \"" << g.name << "\" {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n"
       << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (const Buffer &b : g.buffers) {
        if (b.kind == BufferKind::Intermediate) continue;
        os << "  \"arg_" << b.name << "\" [shape=ellipse, label=\"" << b.name << "\\n" << type_text(b.type) << " x "
           << b.size() << "\"];\n";
    }
    for (size_t i = 0; i < g.filters.size(); i++) {
        int64_t latency = i < e.filters.size() ? e.filters[i].latency : 0;
        os << "  \"f" << i << "\" [shape=box, style=filled, fillcolor=\"#dde8f5\", label=\"" << g.filters[i].name
           << "\\n" << latency << " cycles\"];\n";
    }
    for (const Buffer &b : g.buffers) {
        std::string label = b.name + "\\n" + type_text(b.type) + " x " + std::to_string(b.size());
        for (int p : b.producers) {
            if (b.kind == BufferKind::Output) {
                os << "  \"f" << p << "\" -> \"arg_" << b.name << "\";\n";
                continue;
            }
            for (int c : b.consumers) {
                if (c != p) os << "  \"f" << p << "\" -> \"f" << c << "\" [label=\"" << label << "\"];\n";
            }
        }
        if (b.kind == BufferKind::Input) {
            for (int c : b.consumers) os << "  \"arg_" << b.name << "\" -> \"f" << c << "\";\n";
        }
    }
    os << "}\n";
    return os.str();
}

std::string html_report(const FilterGraph &g, const DesignEstimate &e, const Device &d, const std::string &svg) {
    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>flowhls report: " << escape(g.name)
       << "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;color:#222}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
          "th{background:#eef}td.name{text-align:left}.bar{width:120px;height:10px;background:#eee}"
          ".bar div{height:10px;background:#4a7cc0}.bad{color:#b00;font-weight:bold}\n</style></head><body>\n";
    os << "<h1>Kernel <code>" << escape(g.name) << "</code></h1>\n";
    os << "<p>" << escape(d.part) << " (" << escape(d.board) << ") at " << d.clock_mhz << " MHz. Dataflow: "
       << (g.dataflow.legal ? "yes" : "no (" + escape(g.dataflow.reason) + ")") << ".</p>\n";
    os << "<table><tr><th>latency (cycles)</th><th>interval (cycles)</th><th>throughput (samples/s)</th></tr><tr><td>"
       << e.latency << "</td><td>" << e.interval << "</td><td>" << std::setprecision(6) << e.throughput
       << "</td></tr></table>\n";
    os << "<h2>Resources</h2>\n<table><tr><th>resource</th><th>used</th><th>capacity</th><th>share</th><th></th></tr>\n";
    struct Row {
        const char *name;
        int64_t used, cap;
    };
    for (const Row &r : {Row{"DSP", e.total.dsp, d.capacity.dsp}, Row{"BRAM18K", e.total.bram18k, d.capacity.bram18k},
                         Row{"LUT", e.total.lut, d.capacity.lut}, Row{"FF", e.total.ff, d.capacity.ff}}) {
        double share = r.cap > 0 ? static_cast<double>(r.used) / static_cast<double>(r.cap) : 0.0;
        os << "<tr><td class=\"name\">" << r.name << "</td><td>" << r.used << "</td><td>" << r.cap << "</td><td"
           << (r.used > r.cap ? " class=\"bad\"" : "") << ">" << std::fixed << std::setprecision(1) << 100.0 * share
           << "%</td><td>" << bar(share) << "</td></tr>\n";
    }
    os << "</table>\n<h2>Filters</h2>\n<table><tr><th>filter</th><th>latency</th><th></th><th>DSP</th><th>BRAM18K</th>"
          "<th>LUT</th><th>FF</th><th>pipelined loops (trip, II, what sets it)</th></tr>\n";
    int64_t slowest = 1;
    for (const FilterEstimate &f : e.filters) slowest = std::max(slowest, f.latency);
    for (const FilterEstimate &f : e.filters) {
        std::string loops;
        for (const LoopEstimate &l : f.loops) {
            if (!l.pipelined) continue;
            loops += escape(l.name) + " (" + std::to_string(l.trip) + ", II " + std::to_string(l.ii) + ", " +
                     escape(l.ii_reason) + ")<br>";
        }
        os << "<tr><td class=\"name\">" << escape(f.name) << "</td><td>" << f.latency << "</td><td>"
           << bar(static_cast<double>(f.latency) / static_cast<double>(slowest)) << "</td><td>" << f.resources.dsp
           << "</td><td>" << f.resources.bram18k << "</td><td>" << f.resources.lut << "</td><td>" << f.resources.ff
           << "</td><td class=\"name\">" << loops << "</td></tr>\n";
    }
    os << "</table>\n<h2>Dataflow graph</h2>\n";
    if (svg.empty()) {
        os << "<p>Graphviz <code>dot</code> is not installed: the graph is not drawn (see graph.txt).</p>\n";
    } else {
        os << svg << "\n";
    }
    os << "</body></html>\n";
    return os.str();
}

}  // namespace flowhls
