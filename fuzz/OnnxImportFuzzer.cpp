// libFuzzer target: the ONNX model loader and importer (validation, libonnx checker, opset
// conversion, shape inference, support check, conversion and constant folding) on any bytes.
#include "FuzzSupport.h"
#include "flowhls/Onnx.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

// The directory of model_path(), removed when the process exits.
char g_dir[] = "/tmp/flowhls-fuzz-XXXXXX";

void remove_model_dir() {
    unlink((std::string(g_dir) + "/model.onnx").c_str());
    rmdir(g_dir);
}

// A model file the importer can read (it takes a path), one per fuzzing process.
const std::string &model_path() {
    static const std::string path = [] {
        if (!mkdtemp(g_dir)) std::abort();
        std::atexit(remove_model_dir);
        return std::string(g_dir) + "/model.onnx";
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
