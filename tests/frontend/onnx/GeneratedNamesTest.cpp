// The generated code of an ONNX model names loops and buffers after the op's dimensions and the ONNX values.
#include "TestSupport.h"
#include "flowhls/Compiler.h"
#include "flowhls/Onnx.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>

using namespace flowhls;

namespace {

// The text of generated function `name` (its comment lines before it included), "" if absent.
std::string function_text(const std::string &kernel, const std::string &name) {
    size_t at = kernel.find(" " + name + "(");
    if (at == std::string::npos) return "";
    size_t begin = kernel.rfind("\n\n", at);
    size_t end = kernel.find("\n}\n", at);
    begin = begin == std::string::npos ? 0 : begin + 2;
    return kernel.substr(begin, end == std::string::npos ? std::string::npos : end + 3 - begin);
}

// Every label (L_name:) of a function, in order.
std::vector<std::string> labels(const std::string &function) {
    std::vector<std::string> out;
    std::regex label("\\b(L_[A-Za-z0-9_]+):");
    for (auto it = std::sregex_iterator(function.begin(), function.end(), label); it != std::sregex_iterator(); ++it) {
        out.push_back((*it)[1]);
    }
    return out;
}

class Lenet5Names : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        HalideProgram p =
            import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
        dir = new test::TempDir();
        CompileOptions o;
        o.verify_each = true;
        o.output_dir = dir->path() + "/p";
        CompileResult r = compile(p, o);
        graph = new std::string(r.graph_dump);
        kernel = new std::string(test::read_file(dir->path() + "/p/kernel.cpp"));
    }
    static void TearDownTestSuite() {
        delete graph;
        delete kernel;
        delete dir;
    }
    static test::TempDir *dir;
    static std::string *graph, *kernel;
};

test::TempDir *Lenet5Names::dir = nullptr;
std::string *Lenet5Names::graph = nullptr;
std::string *Lenet5Names::kernel = nullptr;

TEST_F(Lenet5Names, ConvLoopsAreNamedAfterItsDimensionsAndTheNodeIsInAComment) {
    std::string conv = function_text(*kernel, "compute_conv2");
    ASSERT_FALSE(conv.empty()) << *kernel;
    EXPECT_NE(conv.find("// ONNX node '/conv2/Conv' (Conv) -> '/conv2/Conv_output_0'\n"), std::string::npos) << conv;
    EXPECT_EQ(labels(conv), (std::vector<std::string>{"L_co", "L_oy", "L_ox", "L_ci", "L_ky", "L_kx"})) << conv;
    EXPECT_NE(conv.find("L_co: for (int32_t co = 0; co < 16; co++) {"), std::string::npos) << conv;
    EXPECT_NE(conv.find("L_ci: for (int32_t ci = 0; ci < 6; ci++) {"), std::string::npos) << conv;
    EXPECT_NE(conv.find("L_kx: for (int32_t kx = 0; kx < 5; kx++) {"), std::string::npos) << conv;
    // The stream it writes is the ONNX value's name without the op type.
    EXPECT_NE(conv.find("hls::stream<float> &conv2)"), std::string::npos) << conv;
    // The graph records the node explicitly (graph.txt's onnx line).
    EXPECT_NE(graph->find("filter conv2 -> compute_conv2\n  onnx node \"/conv2/Conv\" op \"Conv\" outputs "
                          "\"/conv2/Conv_output_0\" values \"/conv2/Conv_output_0\"\n"),
              std::string::npos)
        << *graph;
}

TEST_F(Lenet5Names, PoolGemmAndElementwiseLoopsAreNamed) {
    std::string pool = function_text(*kernel, "compute_MaxPool");
    EXPECT_EQ(labels(pool), (std::vector<std::string>{"L_co", "L_oy", "L_ox", "L_ky", "L_kx"})) << pool;
    EXPECT_NE(pool.find("// ONNX node '/MaxPool' (MaxPool) -> '/MaxPool_output_0'\n"), std::string::npos) << pool;
    std::string gemm = function_text(*kernel, "compute_fc1");
    EXPECT_EQ(labels(gemm), (std::vector<std::string>{"L_j", "L_k"})) << gemm;
    std::string relu = function_text(*kernel, "compute_Relu");  // a Relu after a Conv: the Conv's dimensions
    EXPECT_EQ(labels(relu), (std::vector<std::string>{"L_co", "L_oy", "L_ox"})) << relu;
}

TEST_F(Lenet5Names, IdentifiersAreShortAndLabelsUniquePerFunction) {
    std::string code = std::regex_replace(*kernel, std::regex("//[^\n]*"), "");  // comments name ONNX values
    std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
    size_t longest = 0;
    std::string longest_name;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), identifier); it != std::sregex_iterator(); ++it) {
        if (it->length() > static_cast<long>(longest)) longest = it->length(), longest_name = it->str();
    }
    EXPECT_LE(longest, 24u) << longest_name;  // "compute_MaxPool_1" and the like; was 41 with "_output_0_op"
    EXPECT_EQ(code.find("_output_0"), std::string::npos) << code;
    for (size_t at = kernel->find("\nstatic "); at != std::string::npos; at = kernel->find("\nstatic ", at + 1)) {
        size_t end = kernel->find("\n}\n", at);
        std::vector<std::string> l = labels(kernel->substr(at, end - at));
        std::set<std::string> unique(l.begin(), l.end());
        EXPECT_EQ(unique.size(), l.size()) << kernel->substr(at, end - at);
    }
}

}  // namespace
