// run_csim: builds a generated project's testbench with its Makefile and runs it.
#include "flowhls/Csim.h"
#include "flowhls/Error.h"
#include "support/OutputDir.h"
#include "support/Process.h"
#include "frontend/onnx/TensorData.h"
#include "support/Npy.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

std::string number(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

// The last line of `log` that starts with PASS or FAIL.
std::string verdict_line(const std::string &log) {
    std::istringstream in(log);
    std::string line, found;
    while (std::getline(in, line)) {
        if (line.rfind("PASS", 0) == 0 || line.rfind("FAIL", 0) == 0) found = line;
    }
    return found;
}

bool o_has_custom_data(const CsimOptions &o) { return !o.inputs.empty() || !o.expected.empty(); }

// A data directory holding the project's data with `inputs` and `expected` replacing the
// files data/manifest.txt lists; returns its path relative to the project.
std::string custom_data(const std::string &dir, const CsimOptions &o) {
    fs::path project(dir);
    std::ifstream in(project / "data" / "manifest.txt");
    if (!in) throw Error("'" + dir + "' has no data/manifest.txt; recompile it to use --inputs/--expected");
    std::vector<std::string> input_files, output_files;
    std::string kind, file;
    while (in >> kind) {
        if (kind == "#") {
            std::getline(in, file);
            continue;
        }
        in >> file;
        (kind == "input" ? input_files : output_files).push_back(file);
    }
    if (!o.inputs.empty() && o.inputs.size() != input_files.size()) {
        throw Error("--inputs gives " + std::to_string(o.inputs.size()) + " file(s); the kernel has " +
                    std::to_string(input_files.size()) + " input(s)");
    }
    if (!o.expected.empty() && o.expected.size() != output_files.size()) {
        throw Error("--expected gives " + std::to_string(o.expected.size()) + " file(s); the kernel has " +
                    std::to_string(output_files.size()) + " output(s)");
    }
    fs::path custom = project / "build" / "data-custom";
    fs::remove_all(custom);
    fs::create_directories(custom);
    for (const fs::directory_entry &e : fs::directory_iterator(project / "data")) {
        fs::copy_file(e.path(), custom / e.path().filename(), fs::copy_options::overwrite_existing);
    }
    auto replace = [&](const std::string &given, const std::string &target) {
        onnx_import::TestTensor t = onnx_import::read_test_tensor(given);
        std::string current = project.string() + "/" + target;
        std::ifstream old(current, std::ios::binary);
        std::string header(128, '\0');
        old.read(&header[0], 128);
        std::string descr = npy_descr(t.values.type());
        if (header.find("'descr': '" + descr + "'") == std::string::npos) {
            throw Error("'" + given + "' holds " + descr + " values; " + target + " has another element type");
        }
        size_t header_len = static_cast<unsigned char>(header[8]) | (static_cast<unsigned char>(header[9]) << 8);
        uintmax_t count = (fs::file_size(current) - 10 - header_len) / t.values.type().bytes();
        if (count != t.values.number_of_elements()) {
            throw Error("'" + given + "' holds " + std::to_string(t.values.number_of_elements()) + " values; " + target +
                        " needs " + std::to_string(count));
        }
        std::ofstream(custom / fs::path(target).filename(), std::ios::binary) << npy_bytes(t.values);
    };
    for (size_t i = 0; i < o.inputs.size(); i++) replace(o.inputs[i], input_files[i]);
    for (size_t i = 0; i < o.expected.size(); i++) replace(o.expected[i], output_files[i]);
    return "build/data-custom";
}

}  // namespace

CsimResult run_csim(const std::string &dir, const CsimOptions &options) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw Error("'" + dir + "' is not a directory");
    if (!fs::exists(fs::path(dir) / "Makefile", ec) || !fs::exists(fs::path(dir) / kProjectMarker, ec)) {
        throw Error("'" + dir + "' is not a flowhls project (no Makefile or " + kProjectMarker + ")");
    }
    std::ostream *echo = options.echo ? &std::cout : nullptr;
    const std::string binary = options.sanitize ? "build/csim-sanitize" : "build/csim";
    CsimResult result;
    ProcessResult build = run_process({"make", "--no-print-directory", binary}, dir, echo);
    result.log = build.output;
    if (build.status != 0) {
        result.verdict = build.status == -1 ? "FAIL: could not run make" : "FAIL: the testbench did not compile";
        return result;
    }
    result.built = true;
    std::string data = o_has_custom_data(options) ? custom_data(dir, options) : "data";
    std::vector<std::string> argv = {"./" + binary, data};
    if (options.atol >= 0.0) argv.insert(argv.end(), {"--atol", number(options.atol)});
    if (options.rtol >= 0.0) argv.insert(argv.end(), {"--rtol", number(options.rtol)});
    ProcessResult run = run_process(argv, dir, echo);
    result.log += run.output;
    std::string line = verdict_line(run.output);
    result.passed = run.status == 0 && line.rfind("PASS", 0) == 0;
    if (!line.empty()) {
        result.verdict = line;
    } else {
        result.verdict = "FAIL: the simulation exited with status " + std::to_string(run.status) + " without a verdict";
    }
    if (!result.passed && line.rfind("PASS", 0) == 0) {
        result.verdict = "FAIL: the simulation printed PASS but exited with status " + std::to_string(run.status);
    }
    return result;
}

}  // namespace flowhls
