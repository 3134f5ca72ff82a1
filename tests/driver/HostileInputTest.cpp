// Hostile input never crashes flowhls: every case of the regression corpus (fuzz/regression,
// written by fuzz/generate.py) and every abused option is one `flowhls: error:` line and exit
// code 2 with nothing left behind, or, for the valid edge cases, a passing C simulation.
#include "OnnxModelBuilder.h"
#include "TestSupport.h"
#include "support/Sizes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(FLOWHLS_SOURCE_DIR) + "/fuzz/regression";

// Files of the corpus under `kind`, sorted (a directory with a model counts as its model).
std::vector<std::string> corpus(const std::string &kind) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(kCorpus + "/" + kind, ec)) {
        if (e.is_directory()) files.push_back((e.path() / "model.onnx").string());
        else files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string case_name(const ::testing::TestParamInfo<std::string> &info) {
    fs::path p(info.param);
    std::string name = p.filename() == "model.onnx" ? p.parent_path().filename().string() : p.stem().string();
    std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return name;
}

// The lines of `out` starting with `prefix`.
int lines_starting(const std::string &out, const std::string &prefix) {
    std::istringstream in(out);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) n += line.rfind(prefix, 0) == 0;
    return n;
}

// Entries of `dir` other than `expected`.
std::vector<std::string> leftovers(const std::string &dir, const std::vector<std::string> &expected) {
    std::vector<std::string> extra;
    for (const fs::directory_entry &e : fs::directory_iterator(dir)) {
        std::string name = e.path().filename().string();
        if (std::find(expected.begin(), expected.end(), name) == expected.end()) extra.push_back(name);
    }
    return extra;
}

// "TEXT  ==> EXPECTED" split in two (EXPECTED empty when there is no arrow).
std::pair<std::string, std::string> split_expectation(const std::string &line) {
    size_t at = line.find("  ==> ");
    if (at == std::string::npos) return {line, ""};
    return {line.substr(0, at), line.substr(at + 6)};
}

// The part of the error message expected for `file` of the corpus (fuzz/regression/messages.txt).
std::string expected_message(const std::string &file) {
    std::ifstream in(kCorpus + "/messages.txt");
    std::string line;
    while (std::getline(in, line)) {
        auto [name, text] = split_expectation(line);
        if (!line.empty() && line[0] != '#' && kCorpus + "/" + name == file) return text;
    }
    ADD_FAILURE() << file << " has no line in fuzz/regression/messages.txt";
    return "";
}

// Runs flowhls with `args` and checks the contract for bad input; returns its output.
std::string expect_refused(const std::string &args, const test::TempDir &dir, const std::vector<std::string> &mine) {
    std::string out;
    int rc = test::run_flowhls(args, &out);
    EXPECT_EQ(rc, 2) << args << "\n" << out;
    EXPECT_EQ(lines_starting(out, "flowhls: error: "), 1) << args << "\n" << out;
    // Besides it, only the list of unsupported nodes.
    EXPECT_EQ(lines_starting(out, "flowhls: error: ") + lines_starting(out, "  node '"),
              static_cast<int>(std::count(out.begin(), out.end(), '\n')))
        << out;
    EXPECT_EQ(out.find("internal error"), std::string::npos) << out;
    EXPECT_EQ(out.find("Halide"), std::string::npos) << out;
    for (char c : out) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << "control byte in: " << out;
    EXPECT_EQ(leftovers(dir.path(), mine), std::vector<std::string>()) << args;
    return out;
}

// The error line names the case's file and says what its class is about.
void expect_cause(const std::string &out, const std::string &file) {
    EXPECT_NE(out.find("'" + file + "'"), std::string::npos) << out;
    std::string expected = expected_message(file);
    EXPECT_NE(out.find(expected), std::string::npos) << "expected '" << expected << "' in: " << out;
}

class InvalidModel : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidModel, IsRefused) {
    test::TempDir dir;
    expect_cause(expect_refused("compile '" + GetParam() + "' --max-memory 64M -o " + (dir / "out/p"), dir, {}),
                 GetParam());
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidModel, ::testing::ValuesIn(corpus("invalid")), case_name);

class InvalidTestData : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidTestData, IsRefusedByCompileAndCsim) {
    test::TempDir dir;
    expect_cause(
        expect_refused("compile " + kCorpus + "/relu4.onnx --inputs '" + GetParam() + "' -o " + (dir / "p"), dir, {}),
        GetParam());
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidTestData, ::testing::ValuesIn(corpus("data")), case_name);

class InvalidDirectives : public ::testing::TestWithParam<std::string> {};

TEST_P(InvalidDirectives, AreRefused) {
    test::TempDir dir;
    expect_cause(expect_refused("compile -e gemm --directives '" + GetParam() + "' -o " + (dir / "p"), dir, {}),
                 GetParam());
}

INSTANTIATE_TEST_SUITE_P(Corpus, InvalidDirectives, ::testing::ValuesIn(corpus("directives")), case_name);

// A test data directory whose files are not numbered input_0.pb, input_1.pb, ... (a gap, a
// leading zero) is refused, not read in a guessed order.
TEST(InvalidTestDataDirectory, NumberingIsChecked) {
    const std::string data = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/test_data_set_0";
    const std::pair<const char *, const char *> cases[] = {{"input_1.pb", "has input_1.pb but no input_0.pb"},
                                                         {"input_00.pb", "'input_00.pb' is not numbered input_0.pb"}};
    for (auto [wrong, message] : cases) {
        test::TempDir dir;
        fs::create_directory(dir / "data");
        fs::copy_file(data + "/input_0.pb", dir / ("data/" + std::string(wrong)));
        fs::copy_file(data + "/output_0.pb", dir / "data/output_0.pb");
        std::string out = expect_refused("compile " + std::string(FLOWHLS_SOURCE_DIR) +
                                             "/models/lenet5/model.onnx --test-data " + (dir / "data") + " -o " +
                                             (dir / "p"),
                                         dir, {"data"});
        EXPECT_NE(out.find(message), std::string::npos) << out;
    }
}

// Without --max-memory the budget is half the physical memory: a chain of 1 GB tensors that
// needs more is refused with that budget before anything is allocated.
TEST(MemoryBudget, DefaultIsHalfThePhysicalMemory) {
    int64_t physical = physical_memory_bytes();
    if (physical <= 0) GTEST_SKIP() << "the physical memory is unknown here";
    ASSERT_EQ(default_memory_budget(), physical / 2);
    test::TempDir dir;
    test::OnnxModelBuilder b("chain");
    b.input("x", {16384, 16384});
    std::string v = "x";
    for (int64_t gb = 1; gb <= physical / 2 / (int64_t(1) << 30) + 1; gb++) v = b.op("Relu", {v});
    b.rename_output(v, "y");
    b.output("y", {16384, 16384});
    std::string model = b.write(dir / "chain.onnx");
    std::string out = expect_refused("compile " + model + " -o " + (dir / "p"), dir, {"chain.onnx"});
    EXPECT_NE(out.find("more than the memory budget of " + byte_size_text(physical / 2)), std::string::npos) << out;
}

// Valid models at the edges (integer division by zero and INT_MIN / -1 folded, in test data
// and in random inputs; long chains of views): compiled and simulated under the sanitizers.
class EdgeModel : public ::testing::TestWithParam<std::string> {};

TEST_P(EdgeModel, CompilesAndSimulatesUnderSanitizers) {
    test::TempDir dir;
    std::string out;
    EXPECT_EQ(test::run_flowhls("compile '" + GetParam() + "' -o " + (dir / "p") + " --csim --sanitize", &out), 0)
        << out;
    EXPECT_NE(out.find("csim: PASS"), std::string::npos) << out;
    EXPECT_EQ(leftovers(dir.path(), {"p"}), std::vector<std::string>());
}

INSTANTIATE_TEST_SUITE_P(Corpus, EdgeModel, ::testing::ValuesIn(corpus("valid")), case_name);

// Option values and paths a user can get wrong: fuzz/regression/options.txt, one command per
// line with {out} (an output directory), {tmp} (the test's directory), {file} (a regular file
// in it), {relu} (a valid model) and '' (an empty argument), then "  ==> " and a part of the
// error line it must print.
std::vector<std::string> option_cases() {
    std::ifstream in(kCorpus + "/options.txt");
    std::vector<std::string> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#') cases.push_back(line);
    }
    return cases;
}

std::string substitute(std::string text, const std::string &key, const std::string &value) {
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
        text.replace(at, key.size(), value);
    }
    return text;
}

class AbusedOption : public ::testing::TestWithParam<std::string> {};

TEST_P(AbusedOption, IsRefused) {
    test::TempDir dir;
    std::ofstream(dir / "file") << "not a directory\n";
    auto [args, expected] = split_expectation(GetParam());
    args = substitute(args, "{out}", dir / "out");
    args = substitute(args, "{tmp}", dir.path());
    args = substitute(args, "{file}", dir / "file");
    args = substitute(args, "{relu}", kCorpus + "/relu4.onnx");
    std::string out = expect_refused(args, dir, {"file"});
    EXPECT_FALSE(expected.empty()) << "no expected message in options.txt for: " << args;
    EXPECT_NE(out.find(expected), std::string::npos) << "expected '" << expected << "' in: " << out;
}

INSTANTIATE_TEST_SUITE_P(Corpus, AbusedOption, ::testing::ValuesIn(option_cases()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                             return "line" + std::to_string(info.index);
                         });

}  // namespace
}  // namespace flowhls
