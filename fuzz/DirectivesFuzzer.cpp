// libFuzzer target: the directives JSON reader on any bytes; what it accepts, the canonical
// writer must give back unchanged.
#include "FuzzSupport.h"
#include "flowhls/Directives.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    flowhls::fuzz::expect_clean([&] {
        flowhls::HlsSchedule s = flowhls::parse_directives_json(text, "fuzz.json");
        std::string written = flowhls::write_schedule_json(s);
        if (flowhls::parse_directives_json(written, "written.json") != s) {
            std::fprintf(stderr, "fuzz: write_schedule_json does not round-trip:\n%s", written.c_str());
            std::abort();
        }
    });
    return 0;
}
