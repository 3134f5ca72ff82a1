// The graph's text form round trips: every example x schedule x target and the model zoo,
// after extraction and after every pass; the parser's errors name the line.
#include "IrBuilder.h"
#include "TestSupport.h"
#include "emit/bambu/BambuEmitter.h"
#include "emit/vitis/VitisEmitter.h"
#include "flowhls/Error.h"
#include "flowhls/Examples.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/Intake.h"
#include "graph/ExtractFilters.h"
#include "graph/GraphText.h"
#include "ir/IRText.h"
#include "transforms/Pipeline.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

using namespace Halide::Internal;

std::string ids(const std::vector<int> &v) {
    std::string s;
    for (int i : v) s += std::to_string(i) + ",";
    return s;
}

bool same_partition(const ArrayPartition &a, const ArrayPartition &b) {
    return a.enabled == b.enabled && a.kind == b.kind && a.factor == b.factor && a.inferred == b.inferred &&
           a.reason == b.reason;
}

bool same_contents(const Halide::Buffer<> &a, const Halide::Buffer<> &b) {
    if (a.defined() != b.defined()) return false;
    if (!a.defined()) return true;
    return a.type() == b.type() && a.number_of_elements() == b.number_of_elements() &&
           std::memcmp(a.data(), b.data(), a.size_in_bytes()) == 0;
}

// The first field in which two graphs differ ("" if none).
std::string difference(const FilterGraph &a, const FilterGraph &b) {
    if (a.name != b.name || a.args != b.args) return "name or args";
    if (a.dataflow.checked != b.dataflow.checked || a.dataflow.legal != b.dataflow.legal ||
        a.dataflow.reason != b.dataflow.reason || a.token_check != b.token_check ||
        a.dataflow_disabled != b.dataflow_disabled) {
        return "dataflow";
    }
    if (a.buffers.size() != b.buffers.size() || a.filters.size() != b.filters.size()) return "counts";
    for (size_t i = 0; i < a.buffers.size(); i++) {
        const Buffer &x = a.buffers[i], &y = b.buffers[i];
        const LineBufferPlan &p = x.line_buffer, &q = y.line_buffer;
        bool same = x.name == y.name && x.type == y.type && x.shape == y.shape && x.kind == y.kind &&
                    ids(x.producers) == ids(y.producers) && ids(x.consumers) == ids(y.consumers) &&
                    x.channel == y.channel && same_contents(x.contents, y.contents) &&
                    x.channel_reason == y.channel_reason && x.stream_depth == y.stream_depth &&
                    x.line_buffer_words == y.line_buffer_words && x.channel_request == y.channel_request &&
                    x.requested_depth == y.requested_depth && x.dims == y.dims && same_partition(x.partition, y.partition) &&
                    x.interface.mode == y.interface.mode && x.interface.bundle == y.interface.bundle &&
                    x.interface.inferred == y.interface.inferred && p.planes == q.planes && p.height == q.height &&
                    p.width == q.width && p.rows == q.rows && p.cols == q.cols && p.first_plane == q.first_plane &&
                    p.first_row == q.first_row && p.first_col == q.first_col && p.out_planes == q.out_planes &&
                    p.out_rows == q.out_rows && p.out_cols == q.out_cols && p.consumer == q.consumer &&
                    p.lines == q.lines && p.window == q.window;
        if (!same) return "buffer " + x.name;
    }
    for (size_t i = 0; i < a.filters.size(); i++) {
        const Filter &x = a.filters[i], &y = b.filters[i];
        if (x.name != y.name || x.function_name != y.function_name || x.reads != y.reads || x.writes != y.writes ||
            x.returns != y.returns || x.inline_function != y.inline_function || x.onnx != y.onnx ||
            x.locals.size() != y.locals.size() || x.directives.size() != y.directives.size()) {
            return "filter " + x.name;
        }
        if (!equal(x.body, y.body)) return "body of filter " + x.name;
        for (size_t j = 0; j < x.locals.size(); j++) {
            const LocalBuffer &l = x.locals[j], &m = y.locals[j];
            if (l.name != m.name || l.type != m.type || l.size != m.size || l.scalar != m.scalar || l.dims != m.dims ||
                !same_partition(l.partition, m.partition)) {
                return "local " + l.name;
            }
        }
        for (const auto &d : x.directives) {
            auto e = y.directives.find(d.first);
            if (e == y.directives.end() || e->second.pipeline_ii != d.second.pipeline_ii ||
                e->second.unroll != d.second.unroll || e->second.inferred != d.second.inferred ||
                e->second.pipeline_inferred != d.second.pipeline_inferred) {
                return "directive " + d.first;
            }
        }
    }
    return "";
}

// `g` printed, parsed and printed again: the same graph and the same text.
::testing::AssertionResult round_trips(const FilterGraph &g) {
    std::string text = print_graph(g);
    FilterGraph back;
    try {
        back = parse_graph(text, "dump");
    } catch (const Error &e) {
        return ::testing::AssertionFailure() << e.what() << "\n" << text;
    }
    std::string diff = difference(g, back);
    if (!diff.empty()) return ::testing::AssertionFailure() << "parsed graph differs in " << diff << "\n" << text;
    std::string again = print_graph(back);
    if (again != text) return ::testing::AssertionFailure() << "reprinted text differs:\n" << text << "\n----\n" << again;
    return ::testing::AssertionSuccess();
}

// Runs the pipeline pass by pass on `g`, checking the round trip after extraction and after each
// pass; a second run continues each time from the parsed text. Both end with the same kernel.
void check_program(const HalideProgram &program, HlsTarget target, const std::string &what,
                   bool constants_in_rom = false) {
    LoweredProgram lowered;
    try {
        lowered = lower_for_hls(program, target);
    } catch (const Error &) {
        return;  // a schedule this target does not take
    }
    FilterGraph g = extract_filters(lowered);
    FilterGraph via_text = g;
    ASSERT_TRUE(round_trips(g)) << what << " after extraction";
    PipelineOptions o;
    o.fifo_channels = target == HlsTarget::Vitis;
    o.verify_each = true;
    o.directives.directives = program.directives.directives();
    o.directives.aliases = program.directive_aliases;
    o.weights.placement = constants_in_rom ? WeightPlacement::Rom : WeightPlacement::Axi;
    o.weights.bram_bytes = int64_t(1) << 40;
    for (const PassDescription &p : pipeline_passes()) {
        run_passes(g, {p.name}, o);
        ASSERT_TRUE(round_trips(g)) << what << " after " << p.name;
        run_passes(via_text, {p.name}, o);
        via_text = parse_graph(print_graph(via_text));
    }
    ProjectSettings settings;
    settings.target = target;
    auto emit = [&](const FilterGraph &x) {
        return target == HlsTarget::Vitis ? emit_vitis_files(x, settings) : emit_bambu_files(x, settings);
    };
    std::vector<EmittedFile> a = emit(g), b = emit(via_text);
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); i++) EXPECT_EQ(a[i].contents, b[i].contents) << what << ": " << a[i].path;
}

TEST(GraphText, EveryExampleScheduleAndTargetRoundTripsAfterEveryPass) {
    int checked = 0;
    for (const ExampleInfo &e : list_examples()) {
        for (const std::string &s : e.schedules) {
            for (HlsTarget t : {HlsTarget::Vitis, HlsTarget::Bambu}) {
                check_program(build_example(e.name, s), t, e.name + "/" + s + "/" + hls_target_name(t));
                checked++;
            }
        }
        // No random schedules of the Stream-HLS examples yet (see DifferentialTest's example_names).
        if (e.name.rfind("shls_", 0) != 0) {
            check_program(build_example(e.name, "random:3"), HlsTarget::Vitis, e.name + "/random:3");
        }
    }
    EXPECT_GT(checked, 30);
}

TEST(GraphText, LeNetWithWeightsInRomRoundTrips) {
    HalideProgram p = import_onnx(std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx", OnnxImportOptions());
    check_program(p, HlsTarget::Vitis, "lenet5 (ROM)", true);
    check_program(p, HlsTarget::Vitis, "lenet5 (m_axi)", false);
}

// The MLP and ResNet-18 exported by the zoo_export ctest fixture (skipped without it).
TEST(GraphTextZoo, ExportedModelsRoundTrip) {
    int found = 0;
    for (const char *model : {"mlp", "resnet18"}) {
        std::string path = std::string(FLOWHLS_ZOO_DIR) + "/" + model + "/model.onnx";
        if (!std::filesystem::exists(path)) continue;
        found++;
        check_program(import_onnx(path, OnnxImportOptions()), HlsTarget::Vitis, model);
    }
    if (found == 0) GTEST_SKIP() << "no exported models in " << FLOWHLS_ZOO_DIR << " (ctest fixture zoo_export)";
}

TEST(GraphText, ExpressionsKeepTypesAndBits) {
    Halide::Expr x = Variable::make(Halide::Int(32), "x");
    for (const Halide::Expr &e :
         {Halide::Expr(0.1f) + Halide::cast<float>(x), Halide::Expr(-0.0f) * Halide::Expr(1e-45f),
          make_const(Halide::Int(16), -7) + Halide::cast<int16_t>(x), Halide::Expr(0.1) / Halide::cast<double>(x),
          make_const(Halide::UInt(64), UINT64_MAX) - Halide::cast<uint64_t>(x),
          Select::make(x < 3 && x != 0, x * 2, min(x, 5) % 3), Halide::strict_float(Halide::Expr(2.5f) * 3.0f),
          Halide::Internal::Call::make(Halide::Float(32), "sqrt_f32", {Halide::Expr(2.0f)}, Call::PureExtern),
          abs(Halide::cast<int8_t>(x)), make_const(Halide::Float(32), INFINITY) - make_const(Halide::Float(32), -INFINITY),
          Ramp::make(x, 2, 4) + Broadcast::make(1, 4), Let::make("y", x + 1, Variable::make(Halide::Int(32), "y") * 2)}) {
        std::string text = print_expr(e);
        Halide::Expr back = parse_expr(text, 1, {{"x", Halide::Int(32)}});
        EXPECT_TRUE(equal(e, back)) << text << " -> " << print_expr(back);
        EXPECT_EQ(print_expr(back), text);
    }
    EXPECT_EQ(print_expr(Halide::Expr(0.1f) + Halide::cast<float>(x)), "0.1f + float32(x)");
    EXPECT_EQ(print_expr(make_const(Halide::Int(16), -7)), "(int16)-7");
}

TEST(GraphText, HandWrittenTextParsesWithPrecedence) {
    Halide::Expr e = parse_expr("1 + 2*3 - 4", 1);
    EXPECT_EQ(print_expr(e), "(1 + (2*3)) - 4");
    Stmt s = parse_stmt("for (x, 0, 4) {\n  let y = x*2\n  out[y] = (float32)in[x] + 1.0f\n}\n", 1);
    EXPECT_EQ(print_stmt(s, 0), "for (x, 0, 4) {\n  let y = x*2\n  out[y] = (float32)in[x] + 1.0f\n}\n");
}

// One filter copying an 8-element input to the output.
FilterGraph test_graph_for_errors() {
    FilterGraph g;
    g.name = "k";
    g.args = {"in", "out"};
    g.buffers = {Buffer("in", Halide::Float(32), {8}, BufferKind::Input),
                 Buffer("out", Halide::Float(32), {8}, BufferKind::Output)};
    Filter f;
    f.name = "copy";
    f.function_name = "compute_copy";
    f.body = test::loop("x", 8, test::store("out", test::load("in", test::var("x")), test::var("x")));
    g.filters = {f};
    recompute_edges(g);
    return g;
}

// A filter's ONNX origin (node, op, outputs, traced values; or a copy) prints as one line and
// reads back; names with quotes, spaces and '%' survive.
TEST(GraphText, OnnxOriginsRoundTrip) {
    for (const OnnxOrigin &o : {OnnxOrigin{"/conv1/Conv", "Conv", {"a b", "c\"d"}, {"a b", "view%1"}},
                                OnnxOrigin{"n", "Split", {"x", "y"}, {}}, OnnxOrigin{"", "", {"x"}, {"x"}},
                                OnnxOrigin{"", "", {"x"}, {}}}) {
        FilterGraph g = test_graph_for_errors();
        g.filters[0].onnx = o;
        std::string text = print_graph(g);
        EXPECT_NE(text.find("  onnx "), std::string::npos) << text;
        FilterGraph back = parse_graph(text, "g.txt");
        EXPECT_TRUE(back.filters[0].onnx == o) << text;
        EXPECT_EQ(print_graph(back), text);
    }
    std::string text = print_graph(test_graph_for_errors());
    std::string copy = text;
    copy.insert(copy.find("  reads:"), "  onnx copy of \"x\"\n");
    EXPECT_EQ(parse_graph(copy, "g.txt").filters[0].onnx.text(), "copy of ONNX value 'x'");
    copy = text;
    copy.insert(copy.find("  reads:"), "  onnx node \"n\" outputs \"x\"\n");
    EXPECT_THROW(parse_graph(copy, "g.txt"), Error);
}

TEST(GraphText, ErrorsNameTheLine) {
    auto error_of = [](const std::string &text) {
        try {
            parse_graph(text, "g.txt");
        } catch (const Error &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    std::string ok = print_graph(test_graph_for_errors());
    EXPECT_EQ(error_of(ok), "no error");
    EXPECT_NE(error_of("graph k\n  buffer in: input float32[8  producers: -  consumers: -\n").find("g.txt:2: expected"),
              std::string::npos);
    std::string bad_body = ok;
    bad_body.replace(bad_body.find("= (float32)in[x]"), 16, "= (float32)in[z]");
    EXPECT_NE(error_of(bad_body).find("variable 'z' is not bound here"), std::string::npos) << error_of(bad_body);
    EXPECT_NE(error_of(bad_body).find("g.txt:"), std::string::npos);
}

}  // namespace
}  // namespace flowhls

namespace flowhls {
namespace {

TEST(Opt, BadGraphFilesAreOneErrorLineWithExitCodeTwo) {
    test::TempDir dir;
    std::ofstream(dir / "syntax.graph") << "graph k\n  buffer in: input float32[8  producers: -  consumers: -\n";
    std::string out;
    EXPECT_EQ(test::run_flowhls("opt " + (dir / "syntax.graph") + " --pass=dead-code", &out), 2) << out;
    EXPECT_EQ(out.rfind("flowhls: error: " + (dir / "syntax.graph") + ":2: expected ']'", 0), 0u) << out;
    // Edges out of sync with the body: the verifier refuses the input.
    FilterGraph g = test_graph_for_errors();
    g.buffers[0].consumers.clear();
    std::ofstream(dir / "edges.graph") << print_graph(g);
    EXPECT_EQ(test::run_flowhls("opt " + (dir / "edges.graph") + " --pass=dead-code", &out), 2) << out;
    EXPECT_NE(out.find("invalid filter graph: buffer in: producers [] and consumers [] but the bodies give [] and [copy]"),
              std::string::npos)
        << out;
    EXPECT_EQ(test::run_flowhls("opt " + (dir / "edges.graph") + " --pass=no-such-pass", &out), 2) << out;
    EXPECT_EQ(test::run_flowhls("opt " + (dir / "missing.graph") + " --pass=dead-code", &out), 2) << out;
    EXPECT_NE(out.find("cannot read graph file"), std::string::npos) << out;
}

}  // namespace
}  // namespace flowhls
