// Public entry point: PandA-Bambu synthesis and Verilator RTL co-simulation of a project.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace flowhls {

/// Options of a synthesis run.
struct SynthOptions {
    /// The bambu command: an executable, or a directory holding bin/bambu; "" = bambu on PATH.
    std::string bambu;
    /// Extra bambu options, appended to run_bambu.sh's command line.
    std::vector<std::string> extra_args;
    /// Where Bambu's whole output is copied as it arrives (nothing when null).
    std::ostream *echo = nullptr;
    /// Where one line per stage of the run goes (front end, scheduling, RTL simulation...).
    std::ostream *progress = nullptr;
    /// Seconds after which the run is killed (0: no limit).
    double timeout_seconds = 0.0;
};

/// What PandA-Bambu and Verilator measured for a project.
struct SynthMeasurement {
    /// "PandA 2024.10 - Revision 683d87153-main" and "Verilator 5.006 2023-01-22".
    std::string bambu_version, verilator_version;
    /// Bambu device and clock period of run_bambu.sh.
    std::string device;
    double clock_period_ns = 0.0;
    /// Cycles of the top function in the RTL simulation (-1: not simulated).
    int64_t cycles = -1;
    /// Bambu's estimates after binding: LUTs (its area figure for Xilinx parts) and flip-flops of
    /// the top function, DSPs summed over the synthesized functions, and the lowest estimated
    /// maximum frequency of their schedules (MHz).
    int64_t lut = -1, ff = -1, dsp = -1;
    /// Bambu could not estimate the multiplexers ("inf"): `lut` counts the rest only.
    bool lut_lower_bound = false;
    double fmax_mhz = 0.0;
    /// Block RAMs of the arrays Bambu placed in BRAM (from the generated Verilog, 18 Kb blocks).
    int64_t bram18k = -1;
    /// Bytes Bambu allocated in on-chip memories.
    int64_t memory_bytes = -1;
    /// The testbench's report of the RTL outputs (one line per output and its PASS/FAIL line).
    std::vector<std::string> testbench_lines;
    /// Mismatches Bambu's own check found between the RTL and the C function's outputs.
    std::vector<std::string> bambu_mismatches;
    /// The testbench's final verdict line ("PASS: ..." or "FAIL: ..."), "" if it did not run.
    std::string testbench_verdict;
    /// The last error Bambu printed ("" if none).
    std::string error;
};

/// Outcome of a synthesis run.
struct SynthResult {
    bool synthesized = false;  ///< Bambu wrote the Verilog
    bool simulated = false;    ///< the RTL co-simulation ran to the end
    bool passed = false;       ///< ... and every RTL output equals the reference
    /// One line: "PASS: ..." or "FAIL: ..." with the reason.
    std::string verdict;
    SynthMeasurement measured;
    /// Wall time of the run in seconds.
    double seconds = 0.0;
    /// The measured section added to report.txt (beside flowhls's estimate).
    std::string report;
    /// Bambu's output, also in bambu/bambu.log of the project.
    std::string log;
};

/// The bambu executable: `given` (an executable, or a directory with bin/bambu), else bambu on
/// PATH. Throws flowhls::Error saying how to get PandA-Bambu when there is none.
std::string find_bambu(const std::string &given);

/// Runs the project's run_bambu.sh (the exact command line, with BAMBU set to the executable
/// found) in `dir`, reads what Bambu and Verilator measured and adds it to report.txt,
/// report.json and report.html beside flowhls's estimate. Throws flowhls::Error when `dir` is
/// not a --target bambu project, or Bambu or Verilator cannot be found.
SynthResult run_synth(const std::string &dir, const SynthOptions &options);

/// Reads the figures of a finished Bambu run: its output `log`, the testbench's output
/// `testbench_log` (HLS_output/simulation/testbench.log) and the Verilog of the design.
SynthMeasurement parse_bambu_run(const std::string &log, const std::string &testbench_log, const std::string &verilog,
                                 const std::string &top);

}  // namespace flowhls
