// The schedule file (schedule.json): loop transformations in the JSON form, the canonical writer
// (read(write(s)) == s, same bytes), and bad entries refused with the key path.
#include "TestSupport.h"
#include "flowhls/Directives.h"
#include "flowhls/Error.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace flowhls {
namespace {

namespace fs = std::filesystem;

bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// Every directive and transformation kind the file form has.
const char *kEverything = R"({
  "conv1": {"schedule": [{"split": {"loop": "co", "outer": "coo", "inner": "coi", "factor": 8}},
                         {"split": {"loop": "ox", "outer": "oxo", "inner": "oxi", "factor": 3, "tail": "guard_with_if"}},
                         {"reorder": ["coi", "coo", "oxi", "oxo", "oy", "n"]},
                         {"fuse": {"inner": "oy", "outer": "n", "fused": "row"}}],
            "storage": ["co", "ox", "oy", "n"], "pipeline": [{"loop": "oxi", "ii": 2}], "stream": true},
  "conv1#acc": {"compute_at": {"func": "conv1", "loop": "oxo"}, "in": {"input": "w", "func": "conv1", "loop": "coo"},
                "schedule": [{"stage": 1, "split": {"loop": "ci", "outer": "cio", "inner": "cii", "factor": 4}},
                             {"stage": 1, "reorder": ["coi", "ox", "kx", "ky", "cii", "cio"]},
                             {"stage": 1, "unroll": {"loop": "kx", "factor": 3}}],
                "unroll": [{"loop": "coi"}, {"loop": "cii", "factor": 2}]},
  "pool": {"compute_root": true, "store_at": {"func": "conv1", "loop": "oy", "stage": 0},
           "partition": [{"dim": 0, "type": "cyclic", "factor": 4}, {"type": "complete"}], "ping_pong": true,
           "inline": true, "interface": {"mode": "m_axi", "bundle": "in"}},
  "A": {"interface": "bram", "stream": {"depth": 8}},
  "kernel": {"dataflow": false}
})";

TEST(ScheduleJson, ReaderParsesLoopTransformations) {
    HlsSchedule s = parse_directives_json(kEverything, "s.json");
    ASSERT_EQ(s.transforms().size(), 12u);
    const LoopTransform &split = s.transforms()[0];
    EXPECT_EQ(split.kind, LoopTransform::Kind::Split);
    EXPECT_EQ(split.func, "conv1");
    EXPECT_EQ(split.stage, 0);
    EXPECT_EQ(split.loop, "co");
    EXPECT_EQ(split.factor, 8);
    EXPECT_EQ(split.origin, "s.json: conv1.schedule[0]");
    EXPECT_EQ(s.transforms()[1].tail, Halide::TailStrategy::GuardWithIf);
    int compute_at = 0, stage1 = 0, in = 0;
    for (const LoopTransform &t : s.transforms()) {
        if (t.kind == LoopTransform::Kind::In) {
            in++;
            EXPECT_EQ(t.func, "conv1#acc");
            EXPECT_EQ(t.input, "w");
            EXPECT_EQ(t.at_func, "conv1");
            EXPECT_EQ(t.at_loop, "coo");
            EXPECT_EQ(t.stage, -1);
            continue;
        }
        if (t.kind == LoopTransform::Kind::ComputeAt) {
            compute_at++;
            EXPECT_EQ(t.func, "conv1#acc");
            EXPECT_EQ(t.at_func, "conv1");
            EXPECT_EQ(t.at_loop, "oxo");
            EXPECT_EQ(t.stage, -1);
        }
        if (t.func == "conv1#acc" && t.kind != LoopTransform::Kind::ComputeAt) stage1 += t.stage == 1;
    }
    EXPECT_EQ(compute_at, 1);
    EXPECT_EQ(in, 1);
    EXPECT_EQ(stage1, 3);
}

TEST(ScheduleJson, WriterRoundTripsAndIsCanonical) {
    HlsSchedule s = parse_directives_json(kEverything, "s.json");
    std::string text = write_schedule_json(s);
    HlsSchedule back = parse_directives_json(text, "w.json");
    EXPECT_TRUE(back == s) << text;
    EXPECT_EQ(write_schedule_json(back), text);
    // One directive or transformation per line; targets and keys sorted.
    EXPECT_TRUE(has(text, "  \"conv1#acc\": {\n    \"compute_at\": {\"func\":\"conv1\",\"loop\":\"oxo\"},\n")) << text;
    EXPECT_TRUE(has(text, "    \"in\": [\n      {\"func\":\"conv1\",\"input\":\"w\",\"loop\":\"coo\"}\n    ],\n")) << text;
    EXPECT_TRUE(has(text, "      {\"split\":{\"factor\":4,\"inner\":\"cii\",\"loop\":\"ci\",\"outer\":\"cio\"},\"stage\":1},\n"))
        << text;
    EXPECT_LT(text.find("\"A\""), text.find("\"conv1\""));
    // A schedule built with the C++ API in another order writes the same bytes. Halide names a
    // Func "conv1$N" when a "conv1" exists already in the process (other tests), so the file
    // side uses the names the Funcs really got.
    Halide::Func conv1("conv1"), pool("pool");
    auto named = [&](std::string text) {
        for (auto [from, to] : {std::pair<std::string, std::string>{"@conv1", conv1.name()}, {"@pool", pool.name()}}) {
            for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
                text.replace(at, from.size(), to);
            }
        }
        return text;
    };
    HlsSchedule api;
    api.reorder_storage(conv1, {"co", "ox", "oy", "n"}).compute_root(pool);
    api.split(conv1, "co", "coo", "coi", 8).pipeline(conv1, Halide::Var("oxi"), 2);
    HlsSchedule file = parse_directives_json(named(R"({"@pool": {"compute_root": true},
        "@conv1": {"pipeline": {"loop": "oxi", "ii": 2}, "storage": ["co", "ox", "oy", "n"],
                  "schedule": [{"split": {"loop": "co", "outer": "coo", "inner": "coi", "factor": 8}}]}})"),
                                             "f.json");
    EXPECT_TRUE(api == file);
    EXPECT_EQ(write_schedule_json(api), write_schedule_json(file));
    EXPECT_EQ(write_schedule_json(api), named(R"({
  "@conv1": {
    "pipeline": [
      {"ii":2,"loop":"oxi"}
    ],
    "schedule": [
      {"split":{"factor":8,"inner":"coi","loop":"co","outer":"coo"}}
    ],
    "storage": ["co","ox","oy","n"]
  },
  "@pool": {
    "compute_root": true
  }
}
)"));
    EXPECT_FALSE(api == HlsSchedule());
    EXPECT_EQ(write_schedule_json(HlsSchedule()), "{}\n");
}

TEST(ScheduleJson, WhatTheFileCannotHoldIsRefused) {
    Halide::Func f("f");
    HlsSchedule s;
    s.stream(f, 2).stream(f, 4);
    EXPECT_THROW(write_schedule_json(s), Error);
}

TEST(ScheduleJson, BadEntriesNameTheKeyPath) {
    const std::pair<const char *, const char *> cases[] = {
        {R"({"f": {"schedule": [{"splitt": {}}]}})", "f.schedule[0].splitt: unknown key (allowed: fuse, reorder, split, stage, unroll)"},
        {R"({"f": {"schedule": [{"split": {"loop": "x", "outer": "xo", "inner": "xi", "factor": 1}}]}})",
         "f.schedule[0].split.factor: expected an integer in [2, 1048576], got 1"},
        {R"({"f": {"schedule": [{"split": {"loop": "x", "outer": "xo", "inner": "xi"}}]}})", "f.schedule[0].split: missing key 'factor'"},
        {R"({"f": {"schedule": [{"split": {"loop": "x", "outer": "xi", "inner": "xi", "factor": 2}}]}})",
         "f.schedule[0].split: the outer and inner loops need different names"},
        {R"({"f": {"schedule": [{"split": {"loop": "x", "outer": "xo", "inner": "xi", "factor": 2, "tail": "wrap"}}]}})",
         "f.schedule[0].split.tail: unknown tail strategy 'wrap'"},
        {R"({"f": {"schedule": [{"reorder": ["x", "y"], "fuse": {"inner": "x", "outer": "y", "fused": "z"}}]}})",
         "f.schedule[0]: expected exactly one of split, reorder, fuse, unroll"},
        {R"({"f": {"schedule": [{"reorder": ["x", "x"]}]}})", "f.schedule[0].reorder: 'x' is listed twice"},
        {R"({"f": {"schedule": [{"stage": -1, "reorder": ["x", "y"]}]}})", "f.schedule[0].stage: expected an integer in [0, 64]"},
        {R"({"f": {"schedule": {"reorder": ["x", "y"]}}})", "f.schedule: expected a list of steps, got object"},
        {R"({"f": {"compute_at": {"func": "g"}}})", "f.compute_at: missing key 'loop'"},
        {R"({"f": {"storage": []}})", "f.storage: expected a non-empty list of loop names"},
        {R"({"f": {"in": {"func": "g", "loop": "x"}}})", "f.in: missing key 'input'"},
        {R"({"f": {"compute_root": 1}})", "f.compute_root: expected true or false"},
    };
    for (const auto &c : cases) {
        try {
            parse_directives_json(c.first, "bad.json");
            ADD_FAILURE() << "accepted: " << c.first;
        } catch (const Error &e) {
            EXPECT_TRUE(has(e.what(), "directives file 'bad.json', ")) << e.what();
            EXPECT_TRUE(has(e.what(), c.second)) << c.first << "\n" << e.what();
        }
    }
}

TEST(ScheduleJson, TransformationsHalideOrTheProgramRefuseExitWithTwo) {
    const std::pair<const char *, const char *> cases[] = {
        {R"({"nope": {"schedule": [{"reorder": ["i", "j"]}]}})", "nope.schedule[0]: unknown Func 'nope' (the program's Funcs: A_im, B_im, C_im, C_out)"},
        {R"({"C_out": {"schedule": [{"stage": 1, "reorder": ["j", "zz"]}]}})",
         "C_out.schedule[0]: Func 'C_out' stage 1 has no loop 'zz' (its loops, innermost first: j, k$x, i)"},
        {R"({"C_out": {"schedule": [{"stage": 2, "reorder": ["j", "i"]}]}})",
         "C_out.schedule[0]: Func 'C_out' has no stage 2 (stages: 0 = the pure definition, 1 = its update)"},
        {R"({"C_out": {"storage": ["j", "k"]}})", "C_out.storage: Func 'C_out' has no dimension 'k' (its dimensions: j, i)"},
        {R"({"C_out": {"schedule": [{"split": {"loop": "j", "outer": "i", "inner": "ji", "factor": 2}}]}})",
         "C_out.schedule[0]: Halide refuses the split: Error: In schedule for C_out, can't create var i using a split"},
        {R"({"C_out": {"in": {"input": "D", "func": "C_out", "loop": "i"}}})",
         "C_out.in: Func 'C_out' reads no kernel input 'D' (it reads: C, A, B)"},
    };
    test::TempDir dir;
    for (const auto &c : cases) {
        std::ofstream(dir / "d.json") << c.first;
        std::string out;
        int rc = test::run_flowhls("compile --example pb_gemm --size mini --directives " + (dir / "d.json") + " -o " +
                                       (dir / "out"),
                                   &out);
        EXPECT_EQ(rc, 2) << c.first << "\n" << out;
        EXPECT_TRUE(has(out, "flowhls: error: " + (dir / "d.json") + ": " + c.second)) << c.first << "\n" << out;
        EXPECT_FALSE(fs::exists(dir / "out")) << c.first;
    }
}

}  // namespace
}  // namespace flowhls
