// Pareto dominance of design points: interval against DSP, BRAM18K and LUT (all minimized).
#include "dse/Pareto.h"

namespace flowhls::dse {

bool dominates(const Objectives &a, const Objectives &b) {
    bool no_worse = a.interval <= b.interval && a.dsp <= b.dsp && a.bram18k <= b.bram18k && a.lut <= b.lut;
    bool better = a.interval < b.interval || a.dsp < b.dsp || a.bram18k < b.bram18k || a.lut < b.lut;
    return no_worse && better;
}

std::vector<size_t> pareto_front(const std::vector<Objectives> &points) {
    std::vector<size_t> front;
    for (size_t i = 0; i < points.size(); i++) {
        bool dominated = false;
        for (size_t j = 0; j < points.size() && !dominated; j++) dominated = j != i && dominates(points[j], points[i]);
        if (!dominated) front.push_back(i);
    }
    return front;
}

}  // namespace flowhls::dse
