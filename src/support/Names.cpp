// halide_base_name (strips the uniquifying "$N" suffixes from Halide names) and fresh_name.
#include "support/Names.h"

#include <cctype>

namespace flowhls {

std::string halide_base_name(const std::string &name) {
    std::string out;
    for (size_t i = 0; i < name.size(); i++) {
        if (name[i] == '$' && i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1]))) {
            size_t j = i + 1;
            while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j]))) j++;
            if (j == name.size() || name[j] == '.') {
                i = j - 1;
                continue;
            }
        }
        out += name[i];
    }
    return out;
}

bool split_halide_loop_name(const std::string &name, HalideLoopName &out) {
    for (size_t at = name.find(".s"); at != std::string::npos; at = name.find(".s", at + 1)) {
        size_t digits = at + 2, end = digits;
        while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) end++;
        if (end == digits || end - digits > 6 || end >= name.size() || name[end] != '.') continue;
        out.func = name.substr(0, at);
        out.stage = std::stoi(name.substr(digits, end - digits));
        out.var = name.substr(end + 1);
        return true;
    }
    return false;
}

std::string fresh_name(const std::string &base, const std::function<bool(const std::string &)> &taken, int first,
                       const std::string &separator) {
    std::string name = base;
    for (int i = first; taken(name); i++) name = base + separator + std::to_string(i);
    return name;
}

std::string fresh_name(const std::string &base, std::set<std::string> &taken, int first, const std::string &separator) {
    std::string name = fresh_name(base, [&](const std::string &n) { return taken.count(n) > 0; }, first, separator);
    taken.insert(name);
    return name;
}

bool loop_name_matches(const std::string &var_in, const std::string &loop) {
    // Halide renames a loop whose minimum is not 0 `VAR.rebased` (a Func computed per block of
    // an outer loop, e.g. a Conv's accumulation per block of output channels): still `VAR`.
    const std::string rebased = ".rebased";
    bool is_rebased = var_in.size() > rebased.size() &&
                      var_in.compare(var_in.size() - rebased.size(), rebased.size(), rebased) == 0;
    const std::string var = is_rebased ? var_in.substr(0, var_in.size() - rebased.size()) : var_in;
    auto ends_with = [&](const std::string &suffix) {
        return var == suffix ||
               (var.size() > suffix.size() && var.compare(var.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                var[var.size() - suffix.size() - 1] == '.');
    };
    return ends_with(loop) || (loop.find('$') == std::string::npos && ends_with(loop + "$x"));
}

}  // namespace flowhls
