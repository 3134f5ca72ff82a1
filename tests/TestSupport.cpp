// Helpers shared by the tests.
#include "TestSupport.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>

namespace flowhls::test {

namespace fs = std::filesystem;

TempDir::TempDir() {
    std::string templ = (fs::temp_directory_path() / "flowhls-test-XXXXXX").string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

namespace {

// The first problem of `value` (at `path`) against `schema`; "" if none.
std::string schema_problem(const nlohmann::json &value, const nlohmann::json &schema, const std::string &path) {
    if (schema.contains("type")) {
        std::string t = schema["type"];
        bool ok = (t == "object" && value.is_object()) || (t == "array" && value.is_array()) ||
                  (t == "string" && value.is_string()) || (t == "boolean" && value.is_boolean()) ||
                  (t == "integer" && value.is_number_integer()) || (t == "number" && value.is_number());
        if (!ok) return path + ": expected " + t;
    }
    if (schema.contains("required")) {
        for (const auto &key : schema["required"]) {
            if (!value.contains(key.get<std::string>())) return path + ": missing " + key.get<std::string>();
        }
    }
    if (value.is_object()) {
        for (const auto &kv : value.items()) {
            const nlohmann::json *sub = nullptr;
            if (schema.contains("properties") && schema["properties"].contains(kv.key())) {
                sub = &schema["properties"][kv.key()];
            } else if (schema.contains("additionalProperties")) {
                sub = &schema["additionalProperties"];
            } else if (schema.contains("properties")) {
                return path + "." + kv.key() + ": not in the schema";
            }
            if (sub) {
                std::string problem = schema_problem(kv.value(), *sub, path + "." + kv.key());
                if (!problem.empty()) return problem;
            }
        }
    }
    if (value.is_array() && schema.contains("items")) {
        for (size_t i = 0; i < value.size(); i++) {
            std::string problem = schema_problem(value[i], schema["items"], path + "[" + std::to_string(i) + "]");
            if (!problem.empty()) return problem;
        }
    }
    return "";
}

}  // namespace

std::string report_schema_problem(const nlohmann::json &report) {
    nlohmann::json schema = nlohmann::json::parse(read_file(std::string(FLOWHLS_SOURCE_DIR) + "/docs/report.schema.json"));
    return schema_problem(report, schema, "report");
}

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

const std::string &python_models(const std::string &script) {
    static std::map<std::string, std::pair<TempDir, std::string>> made;
    auto it = made.find(script);
    if (it == made.end()) {
        it = made.emplace(std::piecewise_construct, std::forward_as_tuple(script), std::forward_as_tuple()).first;
        const std::string &dir = it->second.first.path();
        std::string cmd = "/usr/bin/python3 " + std::string(FLOWHLS_SOURCE_DIR) + "/" + script + " " + dir + " > " +
                          dir + "/log.txt 2>&1";
        if (std::system(cmd.c_str()) == 0) it->second.second = dir;
    }
    return it->second.second;
}

std::string check_golden(const std::string &name, const std::string &actual) {
    std::string path = std::string(FLOWHLS_GOLDEN_DIR) + "/" + name;
    std::string expected = read_file(path);
    if (expected == actual) return "";
    std::string out = fs::absolute(name + ".actual").string();
    std::ofstream(out, std::ios::binary) << actual;
    return "output differs from golden file " + path + "; actual output written to " + out +
           " (copy it over the golden file if the change is intended)";
}

int run_shell(const std::string &command, std::string *output) {
    FILE *p = popen((command + " 2>&1").c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    size_t n;
    output->clear();
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) output->append(buf, n);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_flowhls(const std::string &args, std::string *output) {
    // Every compilation of the suite verifies the graph after each pass.
    std::string verified = args.rfind("compile ", 0) == 0 ? "compile --verify-each " + args.substr(8) : args;
    return run_shell(std::string(FLOWHLS_BIN) + " " + verified, output);
}

HalideProgram small_program() {
    Halide::ImageParam input(Halide::Float(32), 2, "input");
    Halide::Var x("x"), y("y");
    Halide::Func blur("blur"), scaled("scaled");
    blur(x, y) = input(x, y) + input(x + 1, y) + input(x + 2, y);
    scaled(x, y) = blur(x, y) * 0.5f;
    blur.compute_root();
    return HalideProgram{"small", {{input, {8, 4}, 0.0, 1.0}}, {{scaled, {6, 4}}}};
}

HalideProgram normalize_program() {
    Halide::ImageParam in(Halide::Float(32), 2, "in");
    Halide::Var x("x"), y("y");
    Halide::RDom r(0, 4, 0, 3, "r");
    Halide::Func total("total"), out("out");
    total() = 0.0f;
    total() += in(r.x, r.y);
    out(x, y) = in(x, y) / total();
    total.compute_root();
    return HalideProgram{"normalize", {{in, {4, 3}, 0.5, 1.0}}, {{out, {4, 3}}}};
}

}  // namespace flowhls::test
