// The FPGA devices PandA-Bambu 2024.10 has characterized, and the choice of one for a part.
#pragma once

#include "analysis/Device.h"

#include <string>
#include <vector>

namespace flowhls {

/// Names `bambu --device-name` accepts: the devices PandA-Bambu 2024.10 ships a
/// characterization for (its share/panda/technology/*.data), sorted.
const std::vector<std::string> &bambu_characterized_devices();

/// Contract: the Bambu device for part `device`. The device library's `bambu_device`
/// ("xc7z020,-1,clg400,VVD" or "xc7z020-1clg484-VVD") is used when Bambu knows it; otherwise a
/// characterized device of the same die and speed grade in another package (same fabric, same
/// timing; for xc7z020 the clg484 package of the PYNQ-Z1's clg400 part). A part Bambu has no
/// characterization of is refused with flowhls::Error naming the closest devices it has.
std::string bambu_device_name(const Device &device);

/// The characterized devices closest to `name` (same series first), at most `count`, best first.
std::vector<std::string> closest_bambu_devices(const std::string &name, size_t count = 3);

}  // namespace flowhls
