// The device library: FPGA capacities and per-clock operator costs (devices/*.json).
#pragma once

#include <Halide.h>

#include <map>
#include <string>
#include <vector>

namespace flowhls {

/// Cost of one operator instance at the chosen clock.
struct OperatorCost {
    int latency = 0;  ///< cycles from operands to result
    /// Cycles on a loop-carried recurrence: the tool picks a shorter core configuration there
    /// to lower the II (and reports the timing it then misses); `latency` when not given.
    int recurrence_latency = 0;
    int dsp = 0;
    int lut = 0;
    int ff = 0;
};

/// LUTs and flip-flops of a piece of control logic.
struct ControlCost {
    int lut = 0, ff = 0;
};

/// Resource totals of a part.
struct Resources {
    int64_t dsp = 0, bram18k = 0, uram = 0, lut = 0, ff = 0;
};

/// One FPGA part with its operator table evaluated at a clock.
struct Device {
    std::string part, board, family;
    /// Names of the part for the tools' scripts.
    std::string vitis_part, bambu_device;
    double clock_mhz = 100.0;
    Resources capacity;
    /// Memory ports of an array (block RAM, simple dual port: 1 read + 1 write).
    int read_ports = 1, write_ports = 1;
    int64_t bram18k_bits = 18432;
    /// Arrays with at most this many bits are kept in registers/LUTs, not block RAM.
    int64_t register_threshold_bits = 1024;
    /// UltraRAM block geometry (0 words: the part has none), and the block RAMs an array must
    /// need before the tool puts it in one UltraRAM instead (arrays that fit one block).
    int64_t uram_words = 0;
    int uram_bits = 0;
    int64_t uram_min_bram18k = 0;
    /// External memory behind m_axi ports: kind ("DDR4", "HBM2"), channels, total bandwidth
    /// and the latency of a read (request to data).
    std::string offchip_kind;
    int offchip_channels = 1;
    double offchip_bandwidth_gbps = 0.0;
    double offchip_read_latency_ns = 0.0;
    /// Operator name ("fadd", "imul32", "load", ...) -> cost at clock_mhz.
    std::map<std::string, OperatorCost> operators;
    /// Control logic the tool adds, by what it controls: "function" (a module's FSM and
    /// handshakes), "pipeline" (a pipelined loop), "loop" (a sequential loop), "flattened_level"
    /// (each loop flattened into a pipeline: counter and index select), "fifo" (a stream),
    /// "ping_pong" (a double buffer's switch), "local_ram" (a RAM's address and enable logic),
    /// "port_bank" (the interface of one bank of a block-RAM argument), "memory_op" (the address
    /// and data registers of a load or store), "index_multiplier" (its pipeline registers).
    std::map<std::string, ControlCost> control;

    /// The control cost `name` (zero when the table has none).
    ControlCost control_cost(const std::string &name) const;

    /// The cost of operator `name`; throws std::logic_error if the table lacks it.
    const OperatorCost &op(const std::string &name) const;
};

/// Names of the parts in the device library, sorted.
std::vector<std::string> device_names();

/// Loads part `name` with its operator latencies at `clock_mhz`. Throws flowhls::Error for an
/// unknown part (listing the known ones) or a clock outside (0, 1000] MHz.
Device load_device(const std::string &name, double clock_mhz);

}  // namespace flowhls
