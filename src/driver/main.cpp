// The flowhls command-line tool: the table of subcommands, parsing and error reporting.
#include "driver/cli/Command.h"
#include "flowhls/Error.h"
#include "flowhls/Onnx.h"
#include "support/Interrupt.h"
#include "support/Sizes.h"
#include "support/Text.h"

#include <cmath>
#include <filesystem>
#include <iostream>
#include <new>

namespace flowhls::cli {

CLI::Validator number_in(double lo, double hi) {
    std::string range = "[" + CLI::detail::to_string(lo) + ", " + CLI::detail::to_string(hi) + "]";
    return CLI::Validator(
        [lo, hi, range](std::string &text) -> std::string {
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || v < lo || v > hi) {
                return "'" + text + "' is not a number in " + range;
            }
            return "";
        },
        "NUMBER in " + range);
}

CLI::Validator non_negative_number() {
    return CLI::Validator(
        [](std::string &text) -> std::string {
            double v = 0;
            if (!CLI::detail::lexical_cast(text, v) || !std::isfinite(v) || v < 0) {
                return "'" + text + "' is not a finite number >= 0";
            }
            return "";
        },
        "NUMBER >= 0");
}

CLI::Validator whole_number_in(uint64_t lo, uint64_t hi) {
    std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    return CLI::Validator(
        [lo, hi, range](std::string &text) -> std::string {
            uint64_t v = 0;
            bool ok = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
            for (size_t i = 0; ok && i < text.size(); i++) {
                uint64_t digit = static_cast<uint64_t>(text[i] - '0');
                ok = v <= (UINT64_MAX - digit) / 10;
                v = v * 10 + digit;
            }
            if (!ok || v < lo || v > hi) return "'" + text + "' is not a whole number in " + range;
            return "";
        },
        "INTEGER in " + range);
}

CLI::Validator axi_width() {
    return CLI::Validator(
        [](std::string &text) -> std::string {
            for (int w = 8; w <= 1024; w *= 2) {
                if (text == std::to_string(w)) return "";
            }
            return "'" + text + "' is not an m_axi width: 8, 16, 32, 64, 128, 256, 512 or 1024 bits";
        },
        "BITS");
}

CLI::Validator non_empty() {
    return CLI::Validator([](std::string &text) -> std::string { return text.empty() ? "must not be empty" : ""; },
                          "TEXT");
}

CLI::Validator byte_size() {
    return CLI::Validator(
        [](std::string &text) -> std::string {
            int64_t bytes = flowhls::parse_byte_size(text);
            if (bytes <= 0) return "'" + text + "' is not a memory size such as 8G, 512M or 1000000";
            text = std::to_string(bytes);
            return "";
        },
        "SIZE");
}

std::string self_path() {
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("flowhls") : self.string();
}

}  // namespace flowhls::cli

namespace {

using flowhls::one_line;

void print_error(const std::string &message) { std::cerr << "flowhls: error: " << one_line(message) << "\n"; }

// A parse error of CLI11 as one line, with where to find help.
int parse_error(const CLI::App &app, const CLI::ParseError &e, int argc, char **argv) {
    std::string help = "flowhls";
    for (const CLI::App *sub : app.get_subcommands()) help += " " + sub->get_name();
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') {
        std::string commands;
        for (const CLI::App *sub : app.get_subcommands({})) commands += (commands.empty() ? "" : ", ") + sub->get_name();
        print_error("unknown command '" + std::string(argv[1]) + "' (commands: " + commands + ")");
        return 2;
    }
    print_error(std::string(e.what()) + " (see '" + help + " --help')");
    return 2;
}

// Runs a subcommand: flowhls::Error is bad input (exit code 2), anything else a bug (3).
int run_guarded(const std::function<int()> &run) {
    try {
        return run();
    } catch (const flowhls::UnsupportedModelError &e) {
        print_error(e.summary());
        for (const flowhls::UnsupportedNode &n : e.nodes()) {
            std::cerr << "  " << one_line(flowhls::UnsupportedModelError::describe(n)) << "\n";
        }
        return 2;
    } catch (const flowhls::Error &e) {
        print_error(e.what());
        return 2;
    } catch (const std::filesystem::filesystem_error &e) {  // the environment: permissions, a full disk
        print_error(e.what());
        return 2;
    } catch (const std::bad_alloc &) {
        print_error("out of memory (a smaller --max-memory refuses such inputs before they are allocated)");
        return 2;
    } catch (const std::exception &e) {
        std::cerr << "flowhls: internal error: " << one_line(e.what()) << "\n";
        return 3;
    }
}

}  // namespace

int main(int argc, char **argv) {
    namespace cli = flowhls::cli;
    // Staging directories are removed and children stopped when flowhls is interrupted.
    flowhls::install_interrupt_cleanup();
    CLI::App app{"flowhls: compiles Halide pipelines into dataflow HLS designs and verifies them in C simulation"};
    app.set_version_flag("--version", std::string("flowhls ") + FLOWHLS_VERSION);
    app.require_subcommand(1);
    const std::vector<cli::Command> commands = {
        cli::examples_command(app),   cli::passes_command(app), cli::generators_command(app),
        cli::compile_command(app),    cli::devices_command(app), cli::onnx_ops_command(app),
        cli::bench_command(app),      cli::conformance_command(app), cli::report_command(app),
        cli::csim_command(app),       cli::opt_command(app),     cli::synth_command(app),
        cli::dse_command(app),
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp &e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion &e) {
        return app.exit(e);
    } catch (const CLI::ParseError &e) {
        return parse_error(app, e, argc, argv);
    }
    for (const cli::Command &c : commands) {
        if (c.app->parsed()) return run_guarded(c.run);
    }
    return 2;
}
