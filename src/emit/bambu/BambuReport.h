// What PandA-Bambu measured, printed for report.txt, report.json and report.html.
#pragma once

#include "analysis/BambuTiming.h"
#include "flowhls/Synth.h"

#include <nlohmann/json.hpp>

#include <string>

namespace flowhls {

/// flowhls's estimate printed beside the measurement.
struct SynthEstimate {
    int64_t latency_cycles = -1;
    /// Which model made it ("Vitis model", "Bambu model").
    std::string model;
};

/// Contract: the Bambu-model estimate as a report.txt section (cycles per filter and total).
std::string bambu_model_text(const BambuEstimate &estimate);
/// The "bambu_estimate" object of report.json.
nlohmann::json bambu_model_json(const BambuEstimate &estimate);

/// "PandA-Bambu 2024.10 - Revision 683d87153-main + Verilator 5.006 2023-01-22".
std::string synth_tool_label(const SynthMeasurement &m);

/// Marker that starts the measured section in report.txt (it replaces an earlier one).
extern const char *const kSynthSectionTitle;

/// Contract: the measured section of report.txt (title line first), read-only.
std::string synth_report_text(const SynthResult &result, const SynthEstimate &estimate);
/// The "measured" object of report.json.
nlohmann::json synth_report_json(const SynthResult &result, const SynthEstimate &estimate);
/// The measured section of report.html (a <section id="measured"> element).
std::string synth_report_html(const SynthResult &result, const SynthEstimate &estimate);

}  // namespace flowhls
