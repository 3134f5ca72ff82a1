// Sizes of tensors and memory: overflow-checked products, limits, byte counts as text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls {

/// The most bytes one tensor may take: Halide buffers (JIT reference, constant folding) index
/// with 32-bit integers.
constexpr int64_t kMaxTensorBytes = (int64_t(1) << 31) - 1;

/// `a * b` into `out`; false when a factor is negative or the product overflows int64.
bool checked_multiply(int64_t a, int64_t b, int64_t *out);

/// The number of elements of a tensor of shape `dims` times `element_bytes`, or -1 when a
/// dimension is negative or the product exceeds `limit` (no overflow on the way).
int64_t checked_bytes(const std::vector<int64_t> &dims, int64_t element_bytes, int64_t limit);

/// Bytes as text for messages: "812 bytes", "3.1 MB", "4.0 GB" (powers of 1024).
std::string byte_size_text(int64_t bytes);

/// Parses a memory size: a number of bytes with an optional suffix K, M, G or T (powers of
/// 1024; "8G", "512M", "100000"). Returns -1 when `text` is not such a size.
int64_t parse_byte_size(const std::string &text);

/// The physical memory of this machine in bytes (0 when unknown).
int64_t physical_memory_bytes();

/// The default memory budget of a compilation: half of the physical memory (8 GB when it
/// is unknown).
int64_t default_memory_budget();

}  // namespace flowhls
