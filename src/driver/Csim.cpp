// run_csim: checks that a project holds the code flowhls wrote, builds its testbench with its
// Makefile and runs it.
#include "flowhls/Csim.h"
#include "driver/CalibrationRanges.h"
#include "driver/CsimTrace.h"
#include "flowhls/Error.h"
#include "frontend/onnx/TensorData.h"
#include "support/EmbeddedFiles.h"
#include "support/Npy.h"
#include "support/OutputDir.h"
#include "support/Paths.h"
#include "support/Process.h"
#include "support/Sha256.h"
#include "support/Text.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
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

// The data files data/manifest.txt lists, by kind ("input", "output"), in program order.
void read_data_manifest(const std::string &dir, std::vector<std::string> *inputs, std::vector<std::string> *outputs) {
    std::string path = (fs::path(dir) / "data" / "manifest.txt").string();
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        throw Error("'" + dir + "' has no data/manifest.txt; recompile it to use --inputs/--expected");
    }
    std::istringstream in(read_file_bytes(path, "data manifest", 1 << 20));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::string kind, file;
        fields >> kind >> file;
        bool plain = file.rfind("data/", 0) == 0 && file.find('/', 5) == std::string::npos && file.size() > 9 &&
                     file.compare(file.size() - 4, 4, ".npy") == 0 && file.find("..") == std::string::npos;
        if ((kind != "input" && kind != "output") || !plain) {
            throw Error("'" + path + "' is not a data manifest flowhls writes (line '" + line + "')");
        }
        (kind == "input" ? inputs : outputs)->push_back(file);
    }
}

// A data directory holding the project's data with `inputs` and `expected` replacing the
// files data/manifest.txt lists; returns its path relative to the project.
std::string custom_data(const std::string &dir, const CsimOptions &o) {
    fs::path project(dir);
    std::vector<std::string> input_files, output_files;
    read_data_manifest(dir, &input_files, &output_files);
    if (!o.inputs.empty() && o.inputs.size() != input_files.size()) {
        throw Error("--inputs gives " + std::to_string(o.inputs.size()) + " file(s); the kernel has " +
                    std::to_string(input_files.size()) + " input(s)");
    }
    if (!o.expected.empty() && o.expected.size() != output_files.size()) {
        throw Error("--expected gives " + std::to_string(o.expected.size()) + " file(s); the kernel has " +
                    std::to_string(output_files.size()) + " output(s)");
    }
    fs::path custom = project / "build" / "data-custom";
    std::error_code ec;
    fs::remove_all(custom, ec);
    fs::create_directories(custom, ec);
    if (ec) throw Error("cannot create '" + custom.string() + "': " + ec.message());
    for (const fs::directory_entry &e : fs::directory_iterator(project / "data", ec)) {
        std::error_code file_ec;
        if (!e.is_regular_file(file_ec)) continue;
        fs::copy_file(e.path(), custom / e.path().filename(), fs::copy_options::overwrite_existing, file_ec);
        if (file_ec) throw Error("cannot copy '" + e.path().string() + "': " + file_ec.message());
    }
    if (ec) throw Error("cannot read '" + (project / "data").string() + "': " + ec.message());
    auto replace = [&](const std::string &given, const std::string &target) {
        onnx_import::TestTensor t = onnx_import::read_test_tensor(given);
        onnx_import::TestTensor current = onnx_import::read_test_tensor((project / target).string());
        std::string descr = npy_descr(t.values.type());
        if (t.values.type() != current.values.type()) {
            throw Error("'" + given + "' holds " + descr + " values; " + target + " has another element type");
        }
        if (t.values.number_of_elements() != current.values.number_of_elements()) {
            throw Error("'" + given + "' holds " + std::to_string(t.values.number_of_elements()) + " values; " + target +
                        " needs " + std::to_string(current.values.number_of_elements()));
        }
        std::ofstream(custom / fs::path(target).filename(), std::ios::binary) << npy_bytes(t.values);
    };
    for (size_t i = 0; i < o.inputs.size(); i++) replace(o.inputs[i], input_files[i]);
    for (size_t i = 0; i < o.expected.size(); i++) replace(o.expected[i], output_files[i]);
    return "build/data-custom";
}

// csim compiles and runs the project's code: every file it may use (all but data/ and
// build/) must be one flowhls wrote, unchanged, as the marker's manifest lists them.
void check_project_files(const std::string &dir) {
    std::map<std::string, std::string> manifest = read_project_manifest(dir);
    if (!manifest.count("Makefile")) throw Error("'" + dir + "' is not a flowhls project (its manifest has no Makefile)");
    for (const auto &f : manifest) {
        if (f.first.rfind("data/", 0) == 0) continue;
        fs::path path = fs::path(dir) / f.first;
        std::error_code ec;
        if (fs::is_symlink(path, ec) || !fs::is_regular_file(path, ec)) {
            throw Error("'" + dir + "': " + f.first + ", which flowhls wrote, is missing or not a regular file");
        }
        if (sha256_hex(read_file_bytes(path.string(), "project file", int64_t(1) << 31)) != f.second) {
            throw Error("'" + dir + "': " + f.first + " differs from what flowhls wrote; csim builds and runs only " +
                        "code flowhls generated (run 'make csim' in the project to simulate your changes)");
        }
    }
    fs::path root(dir);
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::string rel = fs::relative(it->path(), root, ec).string();
        if (rel == "data" || rel == "build") {
            it.disable_recursion_pending();
            continue;
        }
        std::error_code kind_ec;
        if (it->is_directory(kind_ec) && !it->is_symlink(kind_ec)) continue;
        if (rel == kProjectMarker) continue;
        if (!manifest.count(rel)) {
            throw Error("'" + dir + "': " + rel + " was not written by flowhls; csim builds and runs only code " +
                        "flowhls generated (remove it, or run 'make csim' in the project)");
        }
    }
}

// Contract: `flowhls csim --trace MODEL.onnx` in one step: writes the embedded float64 reference
// (models/trace_reference.py and the evaluator it imports) under `dir`/build/trace-reference/,
// runs it on `model` with the inputs the simulation gets (`o.inputs`, else the project's data
// files), and returns the directory of the reference values it wrote. Throws flowhls::Error
// naming the interpreter and the reference's last line when it fails.
std::string run_trace_reference(const std::string &dir, const std::string &model, const CsimOptions &o,
                                std::ostream *echo) {
    fs::path root = fs::absolute(fs::path(dir) / "build" / "trace-reference");
    std::error_code ec;
    fs::remove_all(root, ec);
    std::vector<std::string> inputs = o.inputs;
    if (inputs.empty()) {
        std::vector<std::string> outputs;
        read_data_manifest(dir, &inputs, &outputs);
        for (std::string &in : inputs) in = fs::absolute(fs::path(dir) / in).string();
    }
    std::vector<std::string> args = {fs::absolute(model).string(), (root / "values").string()};
    for (const std::string &in : inputs) args.push_back(fs::absolute(in).string());
    run_reference_script(root.string(), args, dir, "the trace reference", echo);
    return (root / "values").string();
}

}  // namespace

CsimResult run_csim(const std::string &dir, const CsimOptions &options) {
    require_directory(dir, "project directory");
    check_project_files(dir);
    const bool trace = !options.trace_reference.empty();
    std::error_code model_ec;
    const bool trace_model = trace && fs::is_regular_file(options.trace_reference, model_ec);
    if (trace) {
        if (!trace_model) require_directory(options.trace_reference, "trace reference directory");
        std::error_code ec;
        if (!fs::is_regular_file(fs::path(dir) / "trace.txt", ec)) {
            throw Error("'" + dir + "' has no trace testbench (trace.txt): --trace needs a project compiled from an " +
                        "ONNX model by this flowhls");
        }
        if (options.sanitize) throw Error("--trace and --sanitize cannot be combined");
        fs::remove_all(fs::path(dir) / "build" / "trace", ec);
        fs::create_directories(fs::path(dir) / "build" / "trace", ec);
        if (ec) throw Error("cannot create '" + (fs::path(dir) / "build" / "trace").string() + "': " + ec.message());
    }
    std::ostream *echo = options.echo ? &std::cout : nullptr;
    const std::string binary = trace ? "build/csim-trace" : options.sanitize ? "build/csim-sanitize" : "build/csim";
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
    if (trace && !line.empty()) {
        std::string reference = trace_model ? run_trace_reference(dir, options.trace_reference, options, echo)
                                            : options.trace_reference;
        result.trace = compare_trace(dir, reference, options.atol, options.rtol);
        result.traced = true;
        if (result.trace.first_divergence >= 0) {
            const TraceRow &r = result.trace.rows[result.trace.first_divergence];
            result.passed = false;
            result.verdict = "FAIL: filter outputs diverge from the reference from node '" +
                             (r.node.empty() ? r.value : r.node) + "' on (the simulation: " + line + ")";
        }
    }
    return result;
}

}  // namespace flowhls
