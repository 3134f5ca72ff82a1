// A resource budget on a part: what a design may use (absolute or a share of the part).
#include "dse/Budget.h"

#include "flowhls/Error.h"
#include "support/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

namespace flowhls::dse {

namespace {

struct Field {
    const char *key, *label;
    int64_t Resources::*member;
};

const Field kFields[] = {{"dsp", "DSP", &Resources::dsp},
                         {"bram", "BRAM18K", &Resources::bram18k},
                         {"uram", "URAM", &Resources::uram},
                         {"lut", "LUT", &Resources::lut},
                         {"ff", "FF", &Resources::ff}};

int64_t share_of(int64_t capacity, double percent) {
    return int64_t(std::floor(double(capacity) * percent / 100.0 + 1e-9));
}

// A percentage "60%" or "12.5%" in [0, 100]; -1 if `v` is not one.
double percentage(const std::string &v) {
    if (v.size() < 2 || v.back() != '%') return -1;
    std::string number = v.substr(0, v.size() - 1);
    if (number.find_first_not_of("0123456789.") != std::string::npos || number.front() == '.' ||
        std::count(number.begin(), number.end(), '.') > 1) {
        return -1;
    }
    double p = std::stod(number);
    return p <= 100.0 ? p : -1;
}

// A count "2000"; -1 if `v` is not one (or too long to be one).
int64_t count(const std::string &v) {
    if (v.empty() || v.size() > 15 || v.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoll(v);
}

} // namespace

Resources default_budget(const Device &device) {
    Resources r;
    for (const Field &f : kFields) r.*f.member = share_of(device.capacity.*f.member, kDefaultBudgetShare * 100.0);
    return r;
}

Resources parse_budget(const std::string &text, const Device &device) {
    auto fail = [&](const std::string &why) {
        throw Error("budget '" + text + "': " + why +
                    " (expected KEY=COUNT or KEY=PERCENT% separated by commas, KEY one of dsp, bram, uram, lut, "
                    "ff; or one PERCENT% for all)");
    };
    Resources r = default_budget(device);
    if (text.empty()) fail("empty");
    double all = percentage(text);
    if (all >= 0) {
        for (const Field &f : kFields) r.*f.member = share_of(device.capacity.*f.member, all);
        return r;
    }
    std::set<std::string> seen;
    for (const std::string &entry : split_fields(text, ',')) {
        size_t eq = entry.find('=');
        if (eq == std::string::npos) fail("entry '" + entry + "' has no '='");
        std::string key = entry.substr(0, eq), value = entry.substr(eq + 1);
        const Field *field = nullptr;
        for (const Field &f : kFields) {
            if (key == f.key) field = &f;
        }
        if (!field) fail("unknown resource '" + key + "'");
        if (!seen.insert(key).second) fail("'" + key + "' given twice");
        int64_t capacity = device.capacity.*field->member;
        if (double p = percentage(value); p >= 0) {
            r.*field->member = share_of(capacity, p);
        } else if (int64_t n = count(value); n >= 0) {
            if (n > capacity) {
                fail("" + key + "=" + value + " is more than " + device.part + " has (" + std::to_string(capacity) + ")");
            }
            r.*field->member = n;
        } else {
            fail("'" + value + "' for " + key + " is neither a count nor a percentage in [0, 100]");
        }
    }
    return r;
}

std::vector<std::string> over_budget(const Resources &used, const Resources &budget) {
    std::vector<std::string> out;
    for (const Field &f : kFields) {
        if (used.*f.member > budget.*f.member) {
            out.push_back(std::string(f.label) + " " + std::to_string(used.*f.member) + " > " +
                          std::to_string(budget.*f.member));
        }
    }
    return out;
}

std::string budget_text(const Resources &budget) {
    std::string s;
    for (const Field &f : kFields) {
        s += (s.empty() ? "" : ", ") + std::string(f.label) + " " + std::to_string(budget.*f.member);
    }
    return s;
}

} // namespace flowhls::dse
