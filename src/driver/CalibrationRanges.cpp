// measure_calibration_ranges and the embedded float64 reference it shares with csim --trace.
#include "driver/CalibrationRanges.h"
#include "driver/CsimTrace.h"
#include "flowhls/Error.h"
#include "frontend/halide/Reference.h"
#include "support/EmbeddedFiles.h"
#include "support/Npy.h"
#include "support/Paths.h"
#include "support/Process.h"
#include "support/Text.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace flowhls {

namespace fs = std::filesystem;

namespace {

// A temporary directory, removed with everything in it when this goes out of scope.
struct TemporaryDirectory {
    fs::path path;
    TemporaryDirectory() {
        std::string pattern = (fs::temp_directory_path() / "flowhls-calibration-XXXXXX").string();
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        if (!mkdtemp(name.data())) throw Error("cannot create a temporary directory under " + fs::temp_directory_path().string());
        path = name.data();
    }
    ~TemporaryDirectory() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    TemporaryDirectory(const TemporaryDirectory &) = delete;
    TemporaryDirectory &operator=(const TemporaryDirectory &) = delete;
};

bool tensor_file(const fs::path &p) { return p.extension() == ".npy" || p.extension() == ".pb"; }

// The calibration files of the --calibration arguments, directories expanded (sorted).
std::vector<std::string> calibration_files(const std::vector<std::string> &args) {
    std::vector<std::string> out;
    for (const std::string &a : args) {
        std::error_code ec;
        if (fs::is_directory(a, ec)) {
            std::vector<std::string> found;
            for (const auto &e : fs::directory_iterator(a, ec)) {
                if (e.is_regular_file(ec) && tensor_file(e.path())) found.push_back(fs::absolute(e.path()).string());
            }
            if (found.empty()) throw Error("--calibration '" + a + "': the directory holds no .npy or .pb file");
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (!fs::is_regular_file(a, ec)) {
            throw Error("--calibration '" + a + "': no such file or directory");
        } else if (!tensor_file(a)) {
            throw Error("--calibration '" + a + "': expected a .npy or .pb tensor file or a directory of them");
        } else {
            out.push_back(fs::absolute(a).string());
        }
    }
    return out;
}

CalibrationRanges read_ranges(const std::string &path) {
    CalibrationRanges r;
    std::istringstream in(read_file_bytes(path, "calibration ranges", int64_t(1) << 26));
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> f = split_fields(line, '\t');
        if (f.size() == 2 && f[0] == "samples") {
            r.samples = std::atoi(f[1].c_str());
        } else if (f.size() == 3 && f[0] == "input") {
            r.inputs = std::max(r.inputs, std::strtod(f[2].c_str(), nullptr));
        } else if (f.size() == 5 && f[0] == "value") {
            r.values[unescape_trace_name(f[1], path)] = std::strtod(f[4].c_str(), nullptr);
        } else if (!line.empty()) {
            throw Error("'" + path + "' is not a ranges file trace_reference.py writes (line '" + line + "')");
        }
    }
    if (r.samples <= 0) throw Error("the calibration measured no sample");
    return r;
}

}  // namespace

std::string reference_python() {
    const char *env = std::getenv("FLOWHLS_PYTHON");
    if (env && *env) return env;
    std::error_code ec;
    return fs::is_regular_file("/usr/bin/python3", ec) ? "/usr/bin/python3" : "python3";
}

void run_reference_script(const std::string &root, const std::vector<std::string> &args, const std::string &cwd,
                          const std::string &what, std::ostream *echo) {
    fs::path scripts = fs::path(root) / "scripts";
    std::error_code ec;
    fs::create_directories(scripts, ec);
    if (ec) throw Error("cannot create '" + scripts.string() + "': " + ec.message());
    for (const EmbeddedFile &f : reference_scripts()) {
        std::ofstream out(scripts / fs::path(f.path).filename(), std::ios::binary);
        out << f.contents;
        if (!out) throw Error("cannot write '" + (scripts / fs::path(f.path).filename()).string() + "'");
    }
    std::vector<std::string> argv = {reference_python(), (scripts / "trace_reference.py").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    ProcessResult run = run_process(argv, cwd, echo);
    if (run.status == 0) return;
    std::string last;
    for (const std::string &l : split_fields(run.output, '\n')) {
        if (!l.empty()) last = l;
    }
    throw Error(what + " (" + argv[0] + " trace_reference.py, which needs numpy and onnx) failed" +
                (run.status == -1  ? std::string(": could not run it")
                 : last.empty() ? ": exit status " + std::to_string(run.status)
                                : ": " + one_line(last)));
}

CalibrationRanges measure_calibration_ranges(const std::string &model, const std::vector<std::string> &calibration,
                                             const std::vector<Halide::Buffer<>> &default_inputs, std::ostream *echo) {
    std::vector<std::string> files = calibration_files(calibration);
    TemporaryDirectory tmp;
    if (files.empty()) {
        for (size_t i = 0; i < default_inputs.size(); i++) {
            fs::path p = tmp.path / ("input_" + std::to_string(i) + ".npy");
            std::ofstream out(p, std::ios::binary);
            out << npy_bytes(default_inputs[i]);
            if (!out) throw Error("cannot write '" + p.string() + "'");
            files.push_back(p.string());
        }
    }
    std::string out = (tmp.path / "ranges.txt").string();
    std::vector<std::string> args = {"--ranges", fs::absolute(model).string(), out};
    args.insert(args.end(), files.begin(), files.end());
    run_reference_script(tmp.path.string(), args, tmp.path.string(),
                         "--precision auto: measuring value ranges on the calibration inputs with the float64 reference",
                         echo);
    return read_ranges(out);
}

void measure_auto_precision(const std::string &model, const std::vector<std::string> &calibration,
                            const HalideProgram &program, CompileOptions &options, std::ostream *echo) {
    if (!options.precision.automatic()) {
        if (!calibration.empty()) throw Error("--calibration is for --precision auto (formats from measured ranges)");
        return;
    }
    if (model.empty()) {
        throw Error("--precision auto measures value ranges with the model's float64 reference: it needs an ONNX "
                    "model, not an example or generator (give fixed<W,I>)");
    }
    std::vector<Halide::Buffer<>> inputs = program.test_inputs;
    if (inputs.empty() && calibration.empty()) {
        std::vector<Halide::Buffer<>> all = random_inputs(program, options.seed);
        for (size_t i = 0; i < program.inputs.size() && i < all.size(); i++) {
            if (!program.inputs[i].constant.defined()) inputs.push_back(all[i]);
        }
    }
    options.precision.calibration = measure_calibration_ranges(model, calibration, inputs, echo);
}

}  // namespace flowhls
