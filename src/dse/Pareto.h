// Pareto dominance of design points: interval against DSP, BRAM18K and LUT (all minimized).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace flowhls::dse {

/// What the exploration minimizes, per point.
struct Objectives {
    int64_t interval = 0, dsp = 0, bram18k = 0, lut = 0;
};

/// Whether `a` dominates `b`: no worse in every objective and better in at least one.
bool dominates(const Objectives &a, const Objectives &b);

/// Contract: the indices (ascending) of the points of `points` no other point dominates (points
/// with equal objectives all stay). Pure; quadratic in the number of points.
std::vector<size_t> pareto_front(const std::vector<Objectives> &points);

}  // namespace flowhls::dse
