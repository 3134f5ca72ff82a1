// A program run through the front end and the pass pipeline, for tests of passes and analyses.
#pragma once

#include "flowhls/Compiler.h"
#include "frontend/halide/Intake.h"
#include "graph/ExtractFilters.h"
#include "transforms/Pipeline.h"

#include <string>
#include <vector>

namespace flowhls::test {

/// `program` lowered for `target`, extracted and run through the pass pipeline with FIFO
/// channels or not and the passes in `disabled` skipped.
inline FilterGraph prepared_graph(const HalideProgram &program, bool fifo_channels = true,
                                  std::vector<std::string> disabled = {}, HlsTarget target = HlsTarget::Vitis) {
    FilterGraph g = extract_filters(lower_for_hls(program, target));
    PipelineOptions o;
    o.fifo_channels = fifo_channels;
    o.disabled = std::move(disabled);
    o.verify_each = true;
    run_pipeline(g, o);
    return g;
}

}  // namespace flowhls::test
