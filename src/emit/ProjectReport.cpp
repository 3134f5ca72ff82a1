// project_report: report.txt (design summary, user directives, QoR estimate).
#include "emit/ProjectReport.h"
#include "emit/QorReport.h"
#include "ir/IRText.h"

#include <sstream>

namespace flowhls {

namespace {

// One line per directive the user gave, saying how the target applies it.
std::vector<std::string> user_directive_lines(const FilterGraph &g, HlsTarget target) {
    bool bambu = target == HlsTarget::Bambu;
    std::vector<std::string> out;
    auto line = [&](const std::string &what, bool bambu_applies, const std::string &how) {
        if (!bambu) out.push_back("applied: " + what);
        else if (bambu_applies) out.push_back("applied: " + what + " (" + how + ")");
        else out.push_back("not applied by PandA-Bambu: " + what + (how.empty() ? "" : " (" + how + ")"));
    };
    for (const Filter &f : g.filters) {
        std::string in = " (filter " + f.function_name + ")";
        if (f.inline_function) line("inline " + f.function_name, true, "static inline always_inline function");
        for (const auto &d : f.directives) {
            if (d.second.inferred) continue;
            const LoopDirective &l = d.second;
            if (l.unroll != 0) {
                line((l.unroll == kUnrollComplete ? std::string("complete unroll") : "unroll factor " + std::to_string(l.unroll)) +
                         " of loop " + d.first + in,
                     true, "#pragma GCC unroll");
            }
            if (l.pipeline_ii > 0) {
                line("pipeline II=" + std::to_string(l.pipeline_ii) + (l.pipeline_inferred ? " (inferred for the unrolled loop)" : "") +
                         " of loop " + d.first + in,
                     false, "");
            }
        }
        for (const LocalBuffer &b : f.locals) {
            if (b.partition.enabled && !b.partition.inferred) line("partition of " + b.name + in + ": " + b.partition.reason, false, "");
        }
    }
    for (const Buffer &b : g.buffers) {
        if (b.partition.enabled && !b.partition.inferred) {
            if (b.is_stream()) out.push_back("not applied: partition of " + b.name + ": it is a FIFO stream");
            else line("partition of " + b.name + ": " + b.partition.reason, false, "");
        }
        if (b.channel_request == ChannelRequest::Stream) {
            line("stream " + b.name + (b.requested_depth > 0 ? " depth " + std::to_string(b.requested_depth) : ""), false,
                 "no FIFOs; it stays an array");
        }
        if (b.channel_request == ChannelRequest::PingPong) line("ping_pong " + b.name, false, "");
        if (!b.interface.inferred) {
            bool bram = b.interface.mode == InterfaceMode::Bram;
            line("interface " + interface_mode_name(b.interface.mode) + " of argument " + b.name +
                     (b.interface.bundle.empty() ? "" : " bundle " + b.interface.bundle),
                 true,
                 bram ? "an array argument is a memory port by default" : "#pragma HLS interface, --interface-type=INFER");
        }
    }
    if (g.dataflow_disabled) line("dataflow region of " + g.name + " off", false, "PandA-Bambu builds no dataflow region");
    return out;
}

// The design part of report.txt: filters, buffers, directives, dataflow verdict.
std::string design_summary(const FilterGraph &g, HlsTarget target) {
    std::ostringstream os;
    os << "flowhls report: kernel " << g.name << "\n\n";
    os << "Filters (in call order):\n";
    for (const Filter &f : g.filters) {
        os << "  " << f.function_name << " (Func " << f.name << ")\n";
    }
    os << "\nBuffers:\n";
    for (const Buffer &b : g.buffers) {
        os << "  " << b.name << ": " << buffer_kind_name(b.kind) << ", " << type_text(b.type) << " x " << b.size()
           << "\n";
    }
    int pipelined = 0;
    for (const Filter &f : g.filters) {
        for (const auto &d : f.directives) pipelined += d.second.inferred && d.second.pipeline_ii > 0;
    }
    if (pipelined) {
        os << "\nDirectives: " << pipelined << " innermost loop(s) pipelined with target II 1 (inferred)";
        if (target == HlsTarget::Bambu) os << "; not applied: PandA-Bambu takes no per-loop pragmas (use its options)";
        os << "\n";
    }
    std::vector<std::string> user = user_directive_lines(g, target);
    if (!user.empty()) {
        os << "\nUser directives (docs/directives.md):\n";
        for (const std::string &line : user) os << "  " << line << "\n";
    }
    os << "\nDataflow: ";
    if (g.dataflow.legal) os << "yes (#pragma HLS DATAFLOW in " << g.name << ")\n";
    else os << "no, filters run sequentially: " << g.dataflow.reason << "\n";
    return os.str();
}

}  // namespace

std::string estimate_text(const DesignEstimate &estimate, const Device &device, const std::string &target_model) {
    std::string text = qor_text(estimate, device);
    if (!target_model.empty()) text += "\n" + target_model;
    return text;
}

std::string project_report(const FilterGraph &graph, HlsTarget target, const DesignEstimate &estimate,
                           const Device &device, const std::string &target_model) {
    return design_summary(graph, target) + "\n" + estimate_text(estimate, device, target_model);
}

}  // namespace flowhls
