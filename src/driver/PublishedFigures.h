// The published figures of bench/reference (embedded in the binary) as CSV tables.
#pragma once

#include <string>
#include <vector>

namespace flowhls {

/// Rows of cells, the header row first.
using CsvTable = std::vector<std::vector<std::string>>;

/// Splits CSV text into rows of cells (cells hold no quoted commas or newlines).
CsvTable parse_csv(const std::string &text);

/// Contract: the published table `name` (a path relative to bench/reference, e.g.
/// "hida_kernels.csv"): read from directory `dir` when it is not empty, else the copy embedded
/// in the binary at build time. Throws flowhls::Error when it cannot be read.
CsvTable published_table(const std::string &name, const std::string &dir = "");

}  // namespace flowhls
