// check_dataflow_legality: single-producer/single-consumer rules of a dataflow region.
#include "analysis/DataflowLegality.h"

#include <set>

namespace flowhls {

namespace {

std::string names_of(const FilterGraph &g, const std::vector<int> &ids) {
    std::string out;
    for (size_t i = 0; i < ids.size(); i++) {
        if (i) out += i + 1 == ids.size() ? " and " : ", ";
        out += "'" + g.filters[ids[i]].name + "'";
    }
    return out;
}

// Consumers other than the producers themselves (a filter may read back what it writes).
std::vector<int> other_consumers(const Buffer &b) {
    std::set<int> producers(b.producers.begin(), b.producers.end());
    std::vector<int> out;
    for (int c : b.consumers) {
        if (!producers.count(c)) out.push_back(c);
    }
    return out;
}

}  // namespace

DataflowVerdict check_dataflow_legality(const FilterGraph &g) {
    DataflowVerdict v;
    v.checked = true;
    if (g.filters.size() < 2) {
        v.reason = "a single filter: no concurrency between filters to exploit";
        return v;
    }
    for (const Filter &f : g.filters) {
        if (!f.returns.empty()) {
            v.reason = "filter '" + f.name + "' returns its result '" + f.returns + "' as a function value";
            return v;
        }
    }
    for (const Buffer &b : g.buffers) {
        std::vector<int> readers = other_consumers(b);
        if (b.producers.size() > 1) {
            v.reason = "buffer '" + b.name + "' is written by " + std::to_string(b.producers.size()) +
                       " filters (" + names_of(g, b.producers) + ")";
            return v;
        }
        switch (b.kind) {
        case BufferKind::Constant:  // a ROM: each reader gets its own copy
            break;
        case BufferKind::Input:
            if (b.consumers.size() > 1) {
                v.reason = "input '" + b.name + "' is read by " + std::to_string(b.consumers.size()) +
                           " filters (" + names_of(g, b.consumers) + ")";
                return v;
            }
            break;
        case BufferKind::Output:
            if (!readers.empty()) {
                v.reason = "output '" + b.name + "' is read by " + names_of(g, readers) +
                           ", which did not write it";
                return v;
            }
            break;
        case BufferKind::Intermediate:
            if (b.producers.empty()) {
                v.reason = "buffer '" + b.name + "' is read but never written";
                return v;
            }
            if (readers.size() != 1) {
                v.reason = "buffer '" + b.name + "' is read by " + std::to_string(readers.size()) +
                           " filters (" + names_of(g, readers) + "); dataflow needs exactly one consumer";
                return v;
            }
            if (readers[0] < b.producers[0]) {
                v.reason = "buffer '" + b.name + "' is read by '" + g.filters[readers[0]].name +
                           "' before '" + g.filters[b.producers[0]].name + "' writes it";
                return v;
            }
            break;
        }
    }
    v.legal = true;
    return v;
}

}  // namespace flowhls
