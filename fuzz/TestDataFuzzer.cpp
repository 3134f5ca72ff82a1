// libFuzzer target: the test data readers (.npy and TensorProto .pb) on any bytes.
#include "FuzzSupport.h"
#include "frontend/onnx/TensorData.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string bytes(reinterpret_cast<const char *>(data), size);
    flowhls::fuzz::expect_clean([&] { flowhls::onnx_import::parse_test_tensor(bytes, "fuzz.npy", true); });
    flowhls::fuzz::expect_clean([&] { flowhls::onnx_import::parse_test_tensor(bytes, "fuzz.pb", false); });
    return 0;
}
