// How the arrays a filter accesses are implemented (registers, RAM, ports, FIFOs) and their storage.
#pragma once

#include "analysis/Device.h"
#include "graph/FilterGraph.h"

#include <map>
#include <string>

namespace flowhls {

/// The implementation of an array as the HLS tool builds it.
enum class MemoryKind {
    Register,  ///< scalars, complete partitions, arrays within the register threshold
    LocalRam,  ///< block RAM inside the design: filter locals, ping-pong buffers, ROMs
    Port,      ///< a kernel argument on a block-RAM port (Vitis ap_memory)
    Axi,       ///< a kernel argument in external memory behind an m_axi port
    Fifo,      ///< a stream (hls::stream, AXI4-Stream argument)
};

/// One array a filter loads from or stores to.
struct ArrayInfo {
    MemoryKind kind = MemoryKind::LocalRam;
    ArrayPartition partition;
    int64_t size = 0;  ///< elements
    int bits = 32;
    /// An m_axi argument's port width in bits when widened (ArgInterface::width_bits), else 0.
    int axi_width_bits = 0;
};

/// How a buffer between filters is implemented; the one place the estimator reads a buffer's
/// channel kind (and, for an on-chip port, its interface: block RAM or AXI4-Stream).
struct ChannelImplementation {
    /// "stream", "ping-pong" (double buffer of a dataflow region), "array" (sequential top),
    /// "scalar" (passed by value), "rom", or "argument" (a kernel argument).
    std::string kind;
    MemoryKind memory = MemoryKind::LocalRam;
    /// Copies of the storage (2 for ping-pong).
    int copies = 1;
};

/// Contract: the implementation of `buffer` as its ChannelKind says (ping-pong or array as
/// check-dataflow decided; never re-derived from the dataflow verdict). Pure.
ChannelImplementation channel_of(const Buffer &buffer);

/// Contract: every buffer and local array `filter` can access, with its memory kind, partition,
/// size and element width: kernel arguments by interface (bram: Port, m_axi: Axi, axis: Fifo),
/// streams as Fifo (a stream of several lanes as that many FIFOs: a cyclic partition of its
/// lane indices), scalars, complete partitions and arrays of at most
/// device.register_threshold_bits bits as Register, the rest LocalRam. Pure.
std::map<std::string, ArrayInfo> filter_arrays(const FilterGraph &graph, const Filter &filter, const Device &device);

/// Block RAMs (18Kb) for `depth` words of `width` bits: the cheapest of the 16Kx1 ... 512x36
/// aspect ratios.
int64_t bram18k_for(int64_t depth, int width);

/// UltraRAM blocks for `depth` words of `width` bits in blocks of `words` words of at most
/// `bits` bits (0 when the part has none: words or bits 0).
int64_t uram_for(int64_t depth, int width, int64_t words, int bits);

/// Storage of an array: block RAMs, UltraRAMs, or flip-flops for registers.
struct Storage {
    int64_t bram18k = 0, uram = 0, ff = 0, lut = 0;
};

/// Contract: storage of an array of `size` words of `bits` bits with `partition`: per bank, each
/// rounded up to whole BRAM18K (banks within the register threshold take none); an unpartitioned
/// array that fits one UltraRAM block of the device and would need at least
/// device.uram_min_bram18k block RAMs takes that UltraRAM instead (what Vitis HLS 2023.2 does
/// with the corpus's 2560..4096-word arrays); a complete partition takes size x bits flip-flops.
/// Pure.
Storage array_storage(int64_t size, int bits, const ArrayPartition &partition, const Device &device);

/// Contract: storage of a URAM-resident array (ChannelKind::Resident) of `size` words of
/// `bits` bits with `partition`: each bank at least one UltraRAM (uram_for of its depth); a
/// complete partition takes size x bits flip-flops; packed in pairs (ArrayPartition::pairs):
/// pairs / banks words of 2 x bits a bank. Pure.
Storage uram_storage(int64_t size, int bits, const ArrayPartition &partition, const Device &device);

/// Most words of one bank of an array bound to LUT RAM (bind-lutram): up to four 64-word LUT
/// RAMs and a 4:1 multiplexer per bit (one LUT6; a window-buffers ring's bank of 168 words).
constexpr int64_t kLutramMaxDepth = 256;

/// Contract: whether an array of `size` words of `bits` bits with `partition` is one
/// bind-lutram binds to LUT RAM: not completely partitioned, each bank at most kLutramMaxDepth
/// words and more than device.register_threshold_bits bits (a bank array_storage would put in a
/// block RAM). Pure.
bool lutram_fits(int64_t size, int bits, const ArrayPartition &partition, const Device &device);

/// Contract: storage of an array bound to LUT RAM (LocalBuffer::lutram): per bank, simple
/// dual-port distributed RAM of 64-word LUT RAMs, 4 LUTs per 3 bits (RAM64M, 7-series and
/// UltraScale alike), a LUT per bit for the multiplexer of a bank deeper than 64 words and a
/// flip-flop per bit for its read register; no block RAM. Pure.
Storage lutram_storage(int64_t size, int bits, const ArrayPartition &partition, const Device &device);

/// Contract: what Vitis HLS's synthesis report counts for a FIFO of `depth` words of `bits`:
/// one BRAM18K when it is larger than the register threshold (shift registers otherwise),
/// whatever the depth — csynth reports a block per FIFO, implementation maps deep FIFOs to
/// more. Pure.
int64_t fifo_bram18k(int64_t depth, int bits, const Device &device);

}  // namespace flowhls
