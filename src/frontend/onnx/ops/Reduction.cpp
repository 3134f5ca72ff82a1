// Converters of reductions: Reduce*, ArgMax, ArgMin.
#include "frontend/onnx/OpSupport.h"

namespace flowhls::onnx_import {

void add_reduction_converters(ConverterTable &t) { (void)t; }

}  // namespace flowhls::onnx_import
