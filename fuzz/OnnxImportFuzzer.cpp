// libFuzzer target: the ONNX model loader and importer (validation, libonnx checker, opset
// conversion, shape inference, support check, conversion and constant folding) on any bytes.
#include "FuzzSupport.h"
#include "flowhls/Onnx.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

// A model file the importer can read (it takes a path), one per fuzzing process.
const std::string &model_path() {
    static const std::string path = [] {
        char dir[] = "/tmp/flowhls-fuzz-XXXXXX";
        if (!mkdtemp(dir)) std::abort();
        return std::string(dir) + "/model.onnx";
    }();
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    {
        std::ofstream out(model_path(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    }
    flowhls::OnnxImportOptions options;
    options.max_memory_bytes = int64_t(256) << 20;
    flowhls::fuzz::expect_clean([&] { flowhls::import_onnx(model_path(), options); });
    return 0;
}
