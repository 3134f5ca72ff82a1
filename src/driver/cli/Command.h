// The flowhls command line: one function per subcommand adds its options and its runner.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace flowhls {
struct CsimResult;
}

namespace flowhls::cli {

/// A subcommand: its CLI11 app (options bound to state the runner owns) and what it runs
/// after a successful parse. The runner returns the exit code and throws flowhls::Error for
/// bad input (exit code 2).
struct Command {
    CLI::App *app = nullptr;
    std::function<int()> run;
};

/// One function per subcommand; each adds it to `app`. To add a subcommand, write such a
/// function (in its own file under src/driver/cli/) and list it in main.cpp's table.
Command compile_command(CLI::App &app);
Command csim_command(CLI::App &app);
Command report_command(CLI::App &app);
Command examples_command(CLI::App &app);
Command passes_command(CLI::App &app);
Command generators_command(CLI::App &app);
Command devices_command(CLI::App &app);
Command onnx_ops_command(CLI::App &app);
Command bench_command(CLI::App &app);
Command conformance_command(CLI::App &app);
Command opt_command(CLI::App &app);
Command synth_command(CLI::App &app);
Command dse_command(CLI::App &app);

/// CLI11 validators shared by the subcommands (their failures are parse errors, exit code 2).
/// A finite number in [lo, hi].
CLI::Validator number_in(double lo, double hi);
/// A finite number >= 0.
CLI::Validator non_negative_number();
/// A whole number written in decimal digits, in [lo, hi].
CLI::Validator whole_number_in(uint64_t lo, uint64_t hi);
/// A non-empty string.
CLI::Validator non_empty();
/// An m_axi port width in bits: a power of two from 8 to 1024 (--axi-width).
CLI::Validator axi_width();
/// A memory size ("8G", "512M", "100000"), replaced by its number of bytes.
CLI::Validator byte_size();

/// Prints a C simulation's verdict (and its log when it failed and was not echoed);
/// returns the exit code: 0 passed, 1 failed.
int print_csim_verdict(const CsimResult &result, bool verbose);

/// Runs PandA-Bambu and Verilator on the --target bambu project in `dir` (flowhls synth),
/// prints what they measured and returns the exit code: 0 when the RTL outputs equal the
/// reference, 1 otherwise.
int run_synth_and_print(const std::string &dir, const std::string &bambu, bool verbose);

/// The path of this executable (for commands that run it again on each case).
std::string self_path();

}  // namespace flowhls::cli
