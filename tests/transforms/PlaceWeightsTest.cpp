// Tests of place-weights' tiers (ROM, URAM-resident, m_axi) on LeNet-5's weights and of the
// UltraRAM count of the resource model.
#include "TestSupport.h"
#include "analysis/MemoryModel.h"
#include "flowhls/Error.h"
#include "flowhls/Onnx.h"
#include "frontend/halide/Intake.h"
#include "graph/ExtractFilters.h"
#include "transforms/PlaceWeights.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

namespace flowhls {
namespace {

const std::string kLenet = std::string(FLOWHLS_SOURCE_DIR) + "/models/lenet5/model.onnx";

FilterGraph lenet_graph() { return extract_filters(lower_for_hls(import_onnx(kLenet, OnnxImportOptions()), HlsTarget::Vitis)); }

// Buffer name -> channel of the weights (by size: conv1 150, conv2 2400, fc1 48000, fc2 10080,
// fc3 840 floats), after place_weights(options).
std::map<int64_t, ChannelKind> placed(const WeightOptions &options) {
    FilterGraph g = lenet_graph();
    place_weights(g, options);
    std::map<int64_t, ChannelKind> out;
    for (const Buffer &b : g.buffers) {
        if (b.size() == 150 || b.size() == 2400 || b.size() == 48000 || b.size() == 10080 || b.size() == 840) {
            out[b.size()] = b.channel;
        }
    }
    return out;
}

WeightOptions small_part(WeightPlacement placement, int64_t uram_blocks) {
    WeightOptions o;
    o.placement = placement;
    // ROMs in 4,000 bytes (a quarter of the block RAM with URAM, half without): the biases and
    // conv1's weights (1,544 bytes with them), not fc3's (3,360 more).
    o.bram_bytes = (uram_blocks > 0 ? 4 : 2) * 4000;
    o.part = "test";
    o.uram_blocks = uram_blocks;
    o.uram_words = 4096;
    o.uram_bits = 72;
    return o;
}

TEST(PlaceWeights, AutoPutsWhatTheRomsLeftInHalfTheUram) {
    // Half of 4 blocks: fc3's weights (840 words) and conv2's (2,400) take one each, smallest
    // first; fc2's (10,080: 3 blocks) and fc1's (48,000: 12) stay on their m_axi ports.
    std::map<int64_t, ChannelKind> c = placed(small_part(WeightPlacement::Auto, 4));
    EXPECT_EQ(c.at(150), ChannelKind::Rom);
    EXPECT_EQ(c.at(840), ChannelKind::Resident);
    EXPECT_EQ(c.at(2400), ChannelKind::Resident);
    EXPECT_EQ(c.at(10080), ChannelKind::OffChip);
    EXPECT_EQ(c.at(48000), ChannelKind::OffChip);
    // Half of 10: fc2 (3 blocks) fits after them, fc1 does not.
    c = placed(small_part(WeightPlacement::Auto, 10));
    EXPECT_EQ(c.at(10080), ChannelKind::Resident);
    EXPECT_EQ(c.at(48000), ChannelKind::OffChip);
    // Half of 3 blocks: fc3 only (conv2 no longer fits).
    c = placed(small_part(WeightPlacement::Auto, 3));
    EXPECT_EQ(c.at(840), ChannelKind::Resident);
    EXPECT_EQ(c.at(2400), ChannelKind::OffChip);
}

TEST(PlaceWeights, AutoWithoutUramIsUnchanged) {
    std::map<int64_t, ChannelKind> c = placed(small_part(WeightPlacement::Auto, 0));
    EXPECT_EQ(c.at(150), ChannelKind::Rom);
    EXPECT_EQ(c.at(2400), ChannelKind::OffChip);
    EXPECT_EQ(c.at(840), ChannelKind::OffChip);
}

TEST(PlaceWeights, UramMakesEveryWeightResidentOrRefuses) {
    FilterGraph g = lenet_graph();
    PassResult r = place_weights(g, small_part(WeightPlacement::Uram, 960));
    EXPECT_TRUE(r.changed);
    int resident = 0;
    for (const Buffer &b : g.buffers) {
        EXPECT_NE(b.kind, BufferKind::Constant) << b.name;  // every LeNet-5 weight has one reader
        if (b.channel == ChannelKind::Resident) {
            resident++;
            EXPECT_EQ(b.kind, BufferKind::Input);
            EXPECT_FALSE(b.contents.defined());
            EXPECT_NE(std::find(g.args.begin(), g.args.end(), b.name), g.args.end()) << b.name;
        }
    }
    EXPECT_EQ(resident, 10);  // 5 weights and 5 biases
    // conv1..fc3 and the biases: 1 + 1 + 12 + 3 + 1 + 5 x 1 blocks.
    g = lenet_graph();
    EXPECT_THROW(place_weights(g, small_part(WeightPlacement::Uram, 22)), Error);
    g = lenet_graph();
    EXPECT_NO_THROW(place_weights(g, small_part(WeightPlacement::Uram, 23)));
    g = lenet_graph();
    EXPECT_THROW(place_weights(g, small_part(WeightPlacement::Uram, 0)), Error);
}

TEST(PlaceWeights, OptionsGiveUramToVitisOnly) {
    Device d = load_device("xcvu9p", 200.0);
    WeightOptions v = weight_options(WeightPlacement::Auto, d, HlsTarget::Vitis, 512);
    EXPECT_EQ(v.uram_blocks, 960);
    EXPECT_EQ(v.uram_words, 4096);
    EXPECT_EQ(v.axi_width_bits, 512);
    WeightOptions b = weight_options(WeightPlacement::Auto, d, HlsTarget::Bambu, 512);
    EXPECT_EQ(b.uram_blocks, 0);
    EXPECT_EQ(b.axi_width_bits, 0);
    EXPECT_THROW(weight_options(WeightPlacement::Uram, d, HlsTarget::Bambu, 512), Error);
    EXPECT_EQ(weight_options(WeightPlacement::Auto, load_device("xc7z020", 100.0), HlsTarget::Vitis, 0).uram_blocks, 0);
}

TEST(MemoryModel, UramStorageTakesAtLeastOneBlockPerBank) {
    Device d = load_device("xcvu9p", 200.0);
    EXPECT_EQ(uram_for(4096, 72, 4096, 72), 1);
    EXPECT_EQ(uram_for(4097, 32, 4096, 72), 2);
    EXPECT_EQ(uram_for(100, 73, 4096, 72), 2);
    EXPECT_EQ(uram_for(100, 32, 0, 0), 0);
    ArrayPartition none;
    EXPECT_EQ(uram_storage(10080, 32, none, d).uram, 3);
    EXPECT_EQ(uram_storage(10, 32, none, d).uram, 1);  // no register threshold: bound to URAM
    ArrayPartition cyclic;
    cyclic.enabled = true;
    cyclic.kind = PartitionKind::Cyclic;
    cyclic.factor = 4;
    EXPECT_EQ(uram_storage(10080, 32, cyclic, d).uram, 4);  // 4 banks of 2,520 words
    cyclic.factor = 16;
    EXPECT_EQ(uram_storage(589824, 32, cyclic, d).uram, 16 * 9);  // 36,864 words a bank
    ArrayPartition complete;
    complete.enabled = true;
    complete.kind = PartitionKind::Complete;
    Storage regs = uram_storage(8, 32, complete, d);
    EXPECT_EQ(regs.uram, 0);
    EXPECT_EQ(regs.ff, 8 * 32);
}

// The estimate counts the resident weights in URAM and their first-call copy apart from the
// interval (compile --weights uram of LeNet-5 on xcvu9p).
TEST(PlaceWeights, EstimateCountsResidentWeightsInUram) {
    test::TempDir dir;
    std::string out;
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + " --device xcvu9p --clock 200 --weights uram -o " + (dir / "u"), &out), 0)
        << out;
    ASSERT_EQ(test::run_flowhls("compile " + kLenet + " --device xcvu9p --clock 200 -o " + (dir / "r"), &out), 0) << out;
    nlohmann::json u = nlohmann::json::parse(test::read_file(dir / "u/report.json"));
    nlohmann::json r = nlohmann::json::parse(test::read_file(dir / "r/report.json"));
    int64_t channel_urams = 0, resident = 0, fc1 = 0;
    for (const auto &c : u["channels"]) {
        // bind-uram may bind a ping-pong channel to UltraRAM too (its blocks are reported).
        if (c.contains("uram")) channel_urams += c["uram"].get<int64_t>();
        if (c["kind"] != "uram-resident") continue;
        resident++;
        EXPECT_GE(c["uram"].get<int64_t>(), 1) << c.dump();
        if (c["name"] == "w_fc1_weight") fc1 = c["uram"].get<int64_t>();
    }
    EXPECT_EQ(resident, 10);
    EXPECT_GE(fc1, 6);  // 48,000 floats, at most two a word of a 4,096-word block
    EXPECT_EQ(u["design"]["resources"]["URAM"]["used"].get<int64_t>(), channel_urams);
    EXPECT_GT(u["design"]["first_call_cycles"].get<int64_t>(), 61000 / 16);  // 61,706 floats, 16 a beat
    EXPECT_FALSE(r["design"].contains("first_call_cycles"));
    EXPECT_LT(u["design"]["resources"]["BRAM18K"]["used"].get<int64_t>(),
              r["design"]["resources"]["BRAM18K"]["used"].get<int64_t>());
}

}  // namespace
}  // namespace flowhls
