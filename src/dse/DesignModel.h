// The design model the exploration reasons on: nodes (loop nests), their trip counts and the
// affine accesses that connect them through buffers. Plain data, no Halide IR.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flowhls::dse {

/// One loop of a node's perfect nest, outermost first.
struct DseLoop {
    std::string name;
    int64_t trip = 1;
    /// Carries an accumulation: unrolling it lengthens the chain of the accumulating operation
    /// inside one iteration instead of adding independent work.
    bool reduction = false;
};

/// One access of a node to a buffer: index of dimension d = sum over loops l of
/// coef[d][l] x loop l (+ a constant the model does not need). Dimensions outermost first.
struct DseAccess {
    std::string buffer;
    bool store = false;
    std::vector<std::vector<int64_t>> coef;
};

/// One node (a filter, an ONNX layer): its nest and accesses; `intensity` is its work
/// (iterations x operations), which the intensity-aware step shares parallelism by.
struct DseNode {
    std::string name;
    std::vector<DseLoop> loops;
    std::vector<DseAccess> accesses;
    int64_t intensity = 0;
};

/// A buffer the nodes access, dimensions outermost first.
struct DseBuffer {
    std::string name;
    std::vector<int64_t> shape;
};

struct DesignModel {
    std::vector<DseNode> nodes;
    std::vector<DseBuffer> buffers;
};

} // namespace flowhls::dse
