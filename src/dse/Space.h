// The design space of a program: per filter, the knobs the exploration turns; a point's schedule.
#pragma once

#include "flowhls/Directives.h"
#include "flowhls/HalideProgram.h"
#include "graph/FilterGraph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

/// The most FIFOs (lanes) a jammed filter's copy-out writes per cycle (OrderOption::lane_loop).
constexpr int64_t kMaxStreamLanes = 16;

/// One loop order a filter can take, and the HLS unroll factors of its pipelined loop in it.
struct OrderOption {
    /// "default" (the program's own order) or "reduction outside" (the reduction loops moved
    /// outside the innermost pure loop, which removes the accumulation's recurrence).
    std::string name;
    /// The loop transformations making this order (none for "default").
    std::vector<LoopTransform> transforms;
    /// The loop unrolled (by variable name) and the Funcs (schedule keys) it is unrolled in.
    std::string unroll_loop;
    std::vector<std::string> unroll_keys;
    /// Unroll factors, 1 first (unroll_factors: divisors of the loop's trip count up to
    /// kMaxUnroll and a few non-divisors between them).
    std::vector<int64_t> factors;
    /// The trip count of `unroll_loop` the factors were taken from (0: unknown); a factor that
    /// does not divide it is an HLS partial unroll with guarded copies, never the split form.
    int64_t unroll_trip = 0;
    /// Unroll-and-jam (`jams` empty: not offered): the pure loop `jam_loop` enclosing the
    /// pipelined loop in stage `jam_stage` of `jam_key` is split by a factor into
    /// `jam_outer`, `jam_inner`; the inner loop is moved innermost (`jam_order`, the stage's
    /// loops innermost first after the split) and unrolled completely in the HLS tool, so
    /// that many independent iterations of the pipelined loop run in each of its iterations.
    std::string jam_key, jam_loop, jam_outer, jam_inner;
    int jam_stage = 0;
    std::vector<std::string> jam_order;
    /// Jam factors, 1 first, then the divisors of `jam_loop`'s trip count up to kMaxUnroll
    /// (up to twice that for a reduction jam, below).
    std::vector<int64_t> jams;
    /// With a plain jam (no helper) chosen: the unroll loop split into `unroll_outer`,
    /// `unroll_inner` (names free in the Func; empty: not offered), the inner loop moved
    /// innermost, inside the jam's point loop, and unrolled completely, instead of an HLS
    /// partial unroll of the pipelined loop around the jam. A value the jam's copies compute
    /// that does not depend on the unroll loop (gemm's alpha*A[i][k] of a jammed row) is then
    /// computed once per jam copy (hoist-invariants moves it out of the inner loop), not once
    /// per unrolled copy of the whole body.
    std::string unroll_outer, unroll_inner;
    /// With a plain jam of an update stage: the loops of the Func's initialization, innermost
    /// first, with the jam loop split the same way and its point loop innermost (empty: not
    /// jammed). Without it the initialization's pipeline runs at the unroll alone (pb_2mm's
    /// tmp = 0: 34,200 cycles of 318,952; pb_gemm's C = beta C: 4,000 of 196,031 at u11/j5).
    /// Any initialization takes it (a pure definition: independent elements); its operators
    /// (gemm's beta fmuls) are loops of the same function as the update's and share its units.
    std::vector<std::string> jam_init_order;
    /// Output-channel jam of an accumulation in a helper Func (empty: none): `jam_key` is then
    /// the filter, whose loop `jam_loop` (outside the helper's compute_at loop) is split and its
    /// point loop moved innermost, so the helper is computed per block of `jam_loop`; in stage
    /// `jam_helper_stage` of the helper `jam_helper_key`, its own loop `jam_loop` (trip: the
    /// jam factor) is moved innermost (`jam_helper_order`) and unrolled completely.
    std::string jam_helper_key;
    int jam_helper_stage = 0;
    std::vector<std::string> jam_helper_order;
    /// The helper's initialization (stage 0) with the same loop innermost, so that it also
    /// writes the block's channels in one pipelined iteration.
    std::vector<std::string> jam_helper_init_order;
    /// Per-block weight copy of a "reduction outside" helper without a jam (a Gemm/MatMul whose
    /// helper is computed at `i`, its weights in external memory: `jam_copy_inputs`), 0: none.
    /// The helper's pipelined pure loop `jam_loop` (p) is split by `block_copy_rows` x the unroll
    /// factor U into `jam_outer`, `jam_inner` in stage `jam_stage` of `jam_key`, the block loop
    /// moved outside the reductions (`jam_order`: [p_i, reductions..., p_o, rest]) and each
    /// input copied on chip per block (`in` at `jam_outer`): a block's `J x K` weights are
    /// contiguous in the transB layout, one burst through the widened port (`J x K / 16`
    /// cycles at 512 bits), then `K x J / U` iterations at II 1 whose accumulator recurrence
    /// spans `block_copy_rows` iterations (the fadd's delay) instead of strided port reads
    /// (one a cycle at best). The unroll applies to `jam_inner` in the helper; only factors U
    /// with `block_copy_rows x U` dividing p's trip and U <= kMaxBlockCopyUnroll are offered.
    int64_t block_copy_rows = 0;
    /// The kernel inputs in external memory (m_axi) the helper reads indexed by `jam_loop` (a
    /// Conv's weights and bias): at a jam, each is copied per block (`in` at `jam_outer`, a local buffer
    /// of the block's J x Cin x KH x KW weights loaded by one burst), so the J jammed reads hit
    /// on-chip banks instead of one port. In an "hwc" order (no jam_helper_key) the copy is at
    /// the helper's own block loop `jam_outer`, which jam_order then puts outside the reductions.
    std::vector<std::string> jam_copy_inputs;
    /// Per input of `jam_copy_inputs`, the Func whose calls the copy serves: empty for the
    /// helper itself; the wrapper the helper reads the input through otherwise (an int8
    /// accumulation reads its weights through their centering Func `..._op_w`, `w - zero
    /// point`, which the helper inlines: the copy then replaces that Func's reads).
    std::vector<std::string> jam_copy_readers;
    /// With a helper computed per row (the filter's loop `row` enclosing the pipelined pure
    /// loop p): the filter's loop enclosing `row` (empty: none), where the helper is computed
    /// instead when the jam is 1 (at a jam, its block loop `jam_outer`). The helper then covers
    /// whole blocks of rows, so its reduction nest (`row` outside the reductions, p inside) is
    /// perfect and flattened into one pipeline per block, and its initialization and copy-out
    /// loops too: the pipelines fill once per block instead of once per row (LeNet-5's conv1 at
    /// `u14/j2/ii3`: 15,463 -> 13,681 cycles, estimates). Its reads and writes keep their order.
    /// Offered when a block row's words (p's trip x row's trip) are at most kMaxBlockWords.
    std::string block_at;
    /// "Helper per map" (Choice::map), offered by an "hwc" order with `jam_copy_inputs`: the
    /// filter's loop the helper is then computed at (`map_at`, the outermost, n) instead of the
    /// row, and the helper's row loop (`map_row`) that jam_order's block loop moves outside, so
    /// that each block's weights are copied once per map instead of once per block and row
    /// (ResNet-18 224x224 layer4: 7 copies of 18,432 cycles per block down to 1). The price:
    /// the helper reads the whole input map, which becomes a ping-pong buffer instead of a ring
    /// of rows (block RAM). Empty when not offered.
    std::string map_at, map_row;
    /// The streaming (HWC) layout: this order writes the filter's 4-D output rows outermost,
    /// columns next, channels innermost, as `models/reduction_schedule.py --hwc` does, so that a
    /// convolution or pool reading it takes it from a FIFO through a ring of rows
    /// (window-buffers). Its name is "hwc"; the search never flips a node into or out of it
    /// alone (the layout pays along a whole chain).
    bool hwc = false;
    /// The jam of a reduction loop (an update without a pure loop, whose left-hand side
    /// indexes by both of its innermost reduction loops r0 (innermost) and r1: pb_bicg's `sq`,
    /// s[j] over the rows and q[i] over the columns). `jam_loop` is whichever of r0, r1 has the
    /// larger divisor within twice kMaxUnroll (r1 on a tie), split into `jam_outer`,
    /// `jam_inner`; the other is the pipelined loop (`unroll_loop`, factors {1}: an unroll of
    /// it would chain the carried sum's terms). `jam_order` puts the point loop innermost (for
    /// r0, r1 moves inside the block loop), unrolled completely: each pipelined iteration adds
    /// J terms to the sum whose element the pipelined loop indexes (not carried) and one term
    /// to each of J elements of the other (carried). Each sum keeps its order. Jams go up to
    /// the fill's limit (twice kMaxUnroll; the other steps stop at kMaxUnroll).
    bool reduction_jam = false;
    /// With a reduction jam J: partitions of `jam_key`'s Func, per dimension of `extent`,
    /// cyclic by the smallest divisor of the extent that is at least J (a dimension the jam
    /// loop indexes), or complete (a dimension indexed by a pure loop the program unrolls:
    /// pb_bicg's s/q channel), so that the J elements and the other sum's element are in
    /// distinct banks; infer-partitions, on the flattened array, proves no such partition.
    struct Partition {
        int dim = 0;
        int64_t extent = 0;
        bool complete = false;
    };
    std::vector<Partition> jam_partitions;
    /// With a reduction jam J: the constant initialization's innermost loop, indexing the
    /// cyclic dimension, HLS-unrolled by that cyclic factor (empty: none).
    std::string jam_init_unroll;
    /// "hwc" order with a jam J of its helper: the filter's channel loop (innermost; empty:
    /// none), which copies the helper's row out to the filter's output. At a jam it is split by
    /// the largest divisor of J up to kMaxStreamLanes (`lane_outer`, `lane_inner`) and the
    /// inner loop unrolled completely, so that the copy-out writes that many channels per
    /// cycle: into as many FIFOs when the output is a stream (detect-streams' lanes), which a
    /// convolution or pool reading it through a ring takes in one iteration too. Only where
    /// the copy-out is a real share of a row when it requantizes (`lane_requantizes`): the
    /// helper's reduction (`lane_taps` terms per output) at most 8 x J (the int8 ResNet-18
    /// stem, 147 terms at j64; not the int8 3x3 convs, whose copy-outs are a few percent of
    /// their rows and whose lanes would cost an int8 requantization's DSPs each).
    std::string lane_loop, lane_outer, lane_inner;
    int64_t lane_taps = 0;
    /// The copy-out's lanes requantize (an int8 QLinearConv: each lane a 3-DSP product), so
    /// they are offered only where the copy-out is a real share of a row (`lane_taps` at most
    /// 8 x J); a float copy-out takes lanes at every jam (no DSP: a FIFO write per lane).
    bool lane_requantizes = false;
    /// "hwc" order of a float node without a helper (an element-wise Relu or Add): at unroll 1,
    /// it follows the lanes of the streams it reads (point_schedule): when every node writing
    /// what it reads writes U > 1 lanes (a jammed convolution's copy-out, or a node following),
    /// its channel loop (`lane_loop`, trip `unroll_trip`) is split by U into `lane_outer`,
    /// `lane_inner` and the inner loop unrolled completely, so that it reads and writes a lane
    /// each per copy in one cycle, as the convolution or pool after it does through its ring.
    bool lane_follows = false;
};

/// The knobs of one filter.
struct NodeKnobs {
    std::string filter;  ///< the filter's name (its Func) in the graph and the estimate
    std::string key;     ///< how the schedule names it (the ONNX node name, or the Func name)
    std::vector<OrderOption> orders;  ///< at least one; orders[0] is "default"
};

/// The knobs of every filter that has some, in filter order.
struct DesignSpace {
    std::vector<NodeKnobs> nodes;
    /// Per node, the other nodes it shares a buffer with (one writes what the other reads),
    /// ascending.
    std::vector<std::vector<int>> connected;
    /// How two connected nodes walk the buffer (the writer's Func) they share: per dimension
    /// of it, the loop variable of each node indexing it ("" when the index is not a plain
    /// loop variable). The factors (unroll or jam) of the two loops of one dimension should
    /// divide one another, so that one cyclic partition of that dimension serves both nodes.
    struct Link {
        int writer = 0, reader = 0;
        std::vector<std::string> writer_vars, reader_vars;
    };
    std::vector<Link> links;
    /// Per node, the nodes whose outputs its filter reads (the producers of its input
    /// buffers in the extracted graph, constants aside), ascending; -1 for a buffer no node
    /// writes (a kernel input, a filter without knobs). Unlike `links` it sees through the
    /// Funcs inlined into a filter (an ONNX Relu's `_op`).
    std::vector<std::vector<int>> inputs;
    /// The program's top function is sequential (its dataflow directive off) and at least two
    /// nodes have knobs: every point but the naive one inlines the nodes' filters into it, so the
    /// HLS tool shares the operators of filters that do not run at the same time (docs/qor.md;
    /// pb_mvt's two products at u25: 128 DSP inlined, 253 as two functions).
    bool inline_nodes = false;
};


/// A point of the space: per node, the order index, the index of the unroll factor and the
/// index of the jam factor (0: no jam) in that order, and the II of its pipelined loop (0: the
/// inferred II 1; > 1: a `pipeline` directive with that II on the order's unrolled loop, so the
/// HLS tool shares the loop's operators; only the trim step sets it, at unroll and jam 1).
struct Choice {
    int order = 0, unroll = 0, jam = 0;
    int ii = 0;
    /// The helper computed per map (OrderOption::map_at; only with a jam, where offered).
    bool map = false;
    /// The block copy double-buffered (offers_ping_pong): the copy's loop is a dataflow loop
    /// (Directive::Kind::DataflowLoop), the copy of block b + 1 overlapping the computation with
    /// block b, at the price of a second copy of the block buffer.
    bool ping_pong = false;
    bool operator==(const Choice &o) const {
        return order == o.order && unroll == o.unroll && jam == o.jam && ii == o.ii && map == o.map &&
               ping_pong == o.ping_pong;
    }
};
using PointChoices = std::vector<Choice>;

/// The factor point `c` of node `n` gives loop variable `var`: the unroll factor for the
/// unrolled loop, the jam factor for the jam loop, else 1.
int64_t loop_factor(const NodeKnobs &n, const Choice &c, const std::string &var);

/// Whether `o` at `c` copies blocks of its inputs on chip (a Gemm's block copy,
/// OrderOption::block_copy_rows, or a jam's copy of `jam_copy_inputs`), so that Choice::ping_pong
/// can double-buffer them.
bool offers_ping_pong(const OrderOption &o, const Choice &c);

/// The index of the "hwc" order of `n` (OrderOption::hwc), -1 when it has none.
int hwc_order(const NodeKnobs &n);

/// The largest HLS unroll (and jam) factor the space offers for one loop (infer-partitions'
/// bank limit for consecutive elements).
constexpr int64_t kMaxUnroll = 64;
/// The block copy's rows per unrolled copy (OrderOption::block_copy_rows: the fadd's delay at
/// the usual clocks, so the accumulator's recurrence spans that many iterations) and its
/// largest unroll (a 512-bit beat's 16 floats: beyond it the copy outlasts the MACs).
constexpr int64_t kBlockCopyRows = 4;
constexpr int64_t kMaxBlockCopyUnroll = 16;
/// The largest helper block per jammed channel (words) OrderOption::block_at offers.
constexpr int64_t kMaxBlockWords = 1024;

/// The most copies of a filter's pipelined body (unroll x jam) a point may ask for (issue 14:
/// 2,560 and 9,024 DSPs need several hundred MACs a cycle). infer-partitions banks the rows
/// such copies read with a cyclic factor up to this (kMaxRowBanks) and the estimator
/// materializes up to this many copies (kMaxUnrollCopies).
constexpr int64_t kMaxCopies = 1024;

/// Non-divisor unroll factors (unroll_factors): a factor whose last iteration runs guarded
/// copies is offered only when it wastes at most 1/kNonDivisorWaste of the trip in guarded
/// copies and lies at least kNonDivisorStepNum/kNonDivisorStepDen (20%) above the factor before it,
/// with no divisor within that step above it (divisors are preferred).
constexpr int64_t kNonDivisorWaste = 20;
constexpr int64_t kNonDivisorStepNum = 6, kNonDivisorStepDen = 5;

/// The unroll factors of a loop of trip count `trip`, ascending: 1, the divisors of `trip` up
/// to kMaxUnroll, and between them the non-divisors `d` (up to min(trip - 1, kMaxUnroll)) that
/// (a) are the smallest factor giving ceil(trip / d) iterations, (b) leave at most
/// trip / kNonDivisorWaste guarded copies idle, (c) are at least 20% above the factor before
/// and (d) have no divisor within 20% above them. The HLS tool unrolls such a loop with
/// an exit check per copy; the estimator prices ceil(trip / d) iterations of d guarded copies.
/// Pure.
std::vector<int64_t> unroll_factors(int64_t trip);

/// Contract: the knobs of `program` read from `extracted`, the filter graph extracted from the
/// program's default lowering (loops named `FUNC.sN.VAR`, constant trips). For each filter F:
/// when F (or a helper Func computed inside it, an ONNX node's accumulation) has an update
/// whose innermost loops are reduction loops and an innermost pure loop p, the order
/// "reduction outside" (reorder p inside the reduction loops; a helper is computed at F's loop
/// enclosing p so it covers p's whole range) and, per order, the HLS unroll of its innermost
/// loop (p, or the innermost reduction loop in the default order) by unroll_factors of its trip
/// count (the divisors only in an order that has a jam); other filters: the unroll of their
/// innermost loop. Schedule keys use
/// the ONNX node names (`NODE`, `NODE#acc`) where the program has those aliases. Then the
/// unroll-and-jam knob of every order whose unrolled loop is in the filter's own Func (not a
/// helper computed inside it): in the stage whose innermost loop (after the order's reorder)
/// is the unrolled loop, the nearest pure loop outside it, when its trip count has divisors in
/// (1, kMaxUnroll] and the names `VARo`, `VARi` are free in that stage. An output-channel jam
/// copies per block the inputs `extracted` has in external memory (Input buffers with an
/// OffChip channel: run place-weights on it first) that a stage of its helper reads indexed by
/// the jam loop (OrderOption::jam_copy_inputs). A "reduction outside" order of a helper with
/// no jam (a Gemm/MatMul: computed at `i`) whose update alone reads such inputs indexed by p
/// copies them per block of kBlockCopyRows x U rows of p instead (OrderOption::block_copy_rows).
/// Last, the order "hwc"
/// (OrderOption::hwc) of every filter whose Func has 4 arguments [x, y, c, n] (innermost
/// first) and one pure definition: (a) other than an ONNX Conv: the reorder [c, x, y, n], its
/// unroll the channel loop c (when an accumulation helper, a pool's window, is computed inside
/// at x with its channel loop innermost: that helper's channel loop, by the divisors of its trip);
/// (b) an ONNX Conv whose accumulation is a helper with
/// the pure loops x and c in its update: the filter reordered [c, x, y, n], the helper computed
/// at the filter's y and its update reordered [x, c, reductions..., rest] (a whole row of all
/// channels per y, the reduction outside x and c: no recurrence), the unroll x (in the helper
/// only) and the jam of the helper's c (split by J into `co`, `ci` names `VARo`/`VARi`, the
/// point loop innermost, unrolled completely): J output channels per pipelined iteration
/// without changing the filter's HWC order, unlike the output-channel jam of "reduction
/// outside", which moves the block loop of c outside y; when the helper's update reads inputs
/// in external memory indexed by c that no other stage reads (jam_copy_inputs), the block loop
/// goes outside the reductions instead ([ci, x, reductions..., co, rest...]) and each of those
/// inputs is copied per block and row (`in` at the helper's block loop), or per block and map
/// at a point that sets Choice::map (OrderOption::map_at). A filter whose only
/// order is the default one of an update without a pure loop, a program output whose
/// left-hand side indexes by both of the update's innermost reduction loops, gets the
/// reduction jam (OrderOption::reduction_jam) instead of the unroll of its innermost loop.
/// inline_nodes is set
/// when the program's dataflow directive turns its top off and two or more nodes have knobs.
/// Pure.
DesignSpace build_space(const HalideProgram &program, const FilterGraph &extracted);

/// The copies of the pipelined loop's body one iteration runs at `c` in `n`: the unroll
/// factor times the jam factor (at most kMaxCopies at every point the search evaluates).
int64_t total_unroll(const NodeKnobs &n, const Choice &c);

/// Contract: the schedule of point `choices` of `space` (one Choice per node, indices in
/// range): each node's order transforms and, for a factor > 1, its unroll directives; for an
/// II > 1 (Choice::ii), a `pipeline` directive with that II on the unrolled loop in each of the
/// order's unroll keys. The
/// all-zero point is the empty schedule (the default design). A jam factor J > 1 adds, after
/// the order's transforms, the split of the jam loop by J, the reorder `jam_order` and the
/// complete HLS unroll of the inner loop (an output-channel jam: also the helper's reorders and
/// unroll, and an `in` copy at `jam_outer` of each of `jam_copy_inputs`; with Choice::map the
/// helper's compute_at moves to `map_at` and `jam_outer` goes outside `map_row`). With
/// DesignSpace::inline_nodes, every node's filter gets an `inline` directive (not at the
/// all-zero point). With Choice::ping_pong where offers_ping_pong, a `dataflow_loop` directive
/// on the copies' loop (`jam_outer` of `jam_key`). Pure.
HlsSchedule point_schedule(const DesignSpace &space, const PointChoices &choices);

/// A short text of a point ("tmp:outside/u10/j4 D_out:default/u2 relu:hwc/u1 sm:default/u1/ii32";
/// only nodes off the default; `/jJ` only for a jam, `/iiN` only for an II, `/pp` for a
/// double-buffered block copy), "naive" for the all-zero point.
std::string point_text(const DesignSpace &space, const PointChoices &choices);

}  // namespace flowhls::dse
