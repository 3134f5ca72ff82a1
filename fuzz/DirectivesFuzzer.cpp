// libFuzzer target: the directives JSON reader on any bytes.
#include "FuzzSupport.h"
#include "flowhls/Directives.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    flowhls::fuzz::expect_clean([&] { flowhls::parse_directives_json(text, "fuzz.json"); });
    return 0;
}
