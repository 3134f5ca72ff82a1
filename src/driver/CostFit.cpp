// cost_sample / fit_costs / cross_validate: the fitted LUT/FF costs and their held-out error.
#include "driver/CostFit.h"
#include "analysis/QorEstimator.h"
#include "graph/FilterGraph.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace flowhls {

namespace {

const char *kFabricAdder = "fadd_fabric";

// The device with fitted term `term` at cost (lut, ff) = (v, v), the other fitted terms at 0.
Device with_costs(const Device &device, const std::vector<std::string> &terms, const std::string &term, int v) {
    Device d = device;
    for (const std::string &t : terms) {
        int c = t == term ? v : 0;
        if (t == kFabricAdder) {
            d.operators[t].lut = c;
            d.operators[t].ff = c;
        } else {
            d.control[t] = {c, c};
        }
    }
    return d;
}

// Solves m x = r (square, small) by Gaussian elimination with partial pivoting; a pivot
// near zero leaves its unknown at 0.
std::vector<double> solve(std::vector<std::vector<double>> m, std::vector<double> r) {
    size_t n = r.size();
    std::vector<size_t> pivot_col(n, n);
    for (size_t c = 0, row = 0; c < n && row < n; c++) {
        size_t best = row;
        for (size_t i = row + 1; i < n; i++) {
            if (std::fabs(m[i][c]) > std::fabs(m[best][c])) best = i;
        }
        if (std::fabs(m[best][c]) < 1e-12) continue;
        std::swap(m[best], m[row]);
        std::swap(r[best], r[row]);
        for (size_t i = 0; i < n; i++) {
            if (i == row) continue;
            double f = m[i][c] / m[row][c];
            for (size_t k = c; k < n; k++) m[i][k] -= f * m[row][k];
            r[i] -= f * r[row];
        }
        pivot_col[row++] = c;
    }
    std::vector<double> x(n, 0.0);
    for (size_t row = 0; row < n; row++) {
        if (pivot_col[row] < n) x[pivot_col[row]] = r[row] / m[row][pivot_col[row]];
    }
    return x;
}

// Least squares over the columns in `set` (the others 0), by the normal equations.
std::vector<double> least_squares(const std::vector<std::vector<double>> &a, const std::vector<double> &b,
                                  const std::vector<bool> &set) {
    size_t n = set.size();
    std::vector<size_t> cols;
    for (size_t j = 0; j < n; j++) {
        if (set[j]) cols.push_back(j);
    }
    std::vector<std::vector<double>> m(cols.size(), std::vector<double>(cols.size(), 0.0));
    std::vector<double> r(cols.size(), 0.0);
    for (size_t i = 0; i < a.size(); i++) {
        for (size_t p = 0; p < cols.size(); p++) {
            r[p] += a[i][cols[p]] * b[i];
            for (size_t q = 0; q < cols.size(); q++) m[p][q] += a[i][cols[p]] * a[i][cols[q]];
        }
    }
    std::vector<double> s = solve(m, r), x(n, 0.0);
    for (size_t p = 0; p < cols.size(); p++) x[cols[p]] = s[p];
    return x;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// |relative error| of a sample's LUT (lut = true) or FF estimate with costs `c`.
double error_with(const CostSample &s, const std::vector<double> &c, bool lut) {
    double est = static_cast<double>(lut ? s.fixed_lut : s.fixed_ff);
    for (size_t j = 0; j < c.size(); j++) est += static_cast<double>(s.counts[j]) * c[j];
    double vitis = static_cast<double>(lut ? s.vitis_lut : s.vitis_ff);
    return std::fabs(est - vitis) / vitis;
}

}  // namespace

std::vector<std::string> fitted_cost_terms(const Device &device) {
    std::vector<std::string> terms;
    for (const auto &kv : device.control) terms.push_back(kv.first);
    if (device.operators.count(kFabricAdder)) terms.push_back(kFabricAdder);
    std::sort(terms.begin(), terms.end());
    return terms;
}

CostSample cost_sample(const FilterGraph &graph, const Device &device) {
    std::vector<std::string> terms = fitted_cost_terms(device);
    CostSample s;
    s.terms = terms;
    DesignEstimate table = estimate_design(graph, device, QorOptions());
    DesignEstimate fixed = estimate_design(graph, with_costs(device, terms, "", 0), QorOptions());
    s.table_lut = table.total.lut;
    s.table_ff = table.total.ff;
    s.fixed_lut = fixed.total.lut;
    s.fixed_ff = fixed.total.ff;
    int64_t lut = s.fixed_lut, ff = s.fixed_ff;
    for (const std::string &t : terms) {
        DesignEstimate unit = estimate_design(graph, with_costs(device, terms, t, 1), QorOptions());
        int64_t n = unit.total.lut - fixed.total.lut;
        if (unit.total.ff - fixed.total.ff != n) throw std::logic_error("cost_sample: LUT and FF counts of " + t + " differ");
        s.counts.push_back(n);
        bool adder = t == kFabricAdder;
        s.table_cost_lut.push_back(adder ? device.op(t).lut : device.control_cost(t).lut);
        s.table_cost_ff.push_back(adder ? device.op(t).ff : device.control_cost(t).ff);
        lut += n * s.table_cost_lut.back();
        ff += n * s.table_cost_ff.back();
    }
    if (lut != s.table_lut || ff != s.table_ff) throw std::logic_error("cost_sample: the LUT/FF model is not linear in its costs");
    return s;
}

std::vector<double> nnls(const std::vector<std::vector<double>> &a, const std::vector<double> &b) {
    size_t n = a.empty() ? 0 : a[0].size();
    std::vector<double> x(n, 0.0);
    std::vector<bool> in_set(n, false);
    auto gradient = [&] {
        std::vector<double> w(n, 0.0);
        for (size_t i = 0; i < a.size(); i++) {
            double r = b[i];
            for (size_t j = 0; j < n; j++) r -= a[i][j] * x[j];
            for (size_t j = 0; j < n; j++) w[j] += a[i][j] * r;
        }
        return w;
    };
    const double tol = 1e-10;
    for (size_t outer = 0; outer < 3 * n + 3; outer++) {
        std::vector<double> w = gradient();
        size_t t = n;
        for (size_t j = 0; j < n; j++) {
            if (!in_set[j] && w[j] > tol && (t == n || w[j] > w[t])) t = j;
        }
        if (t == n) break;
        in_set[t] = true;
        for (size_t inner = 0; inner < 3 * n + 3; inner++) {
            std::vector<double> s = least_squares(a, b, in_set);
            double alpha = 1.0;
            bool feasible = true;
            for (size_t j = 0; j < n; j++) {
                if (in_set[j] && s[j] <= tol) {
                    feasible = false;
                    if (x[j] - s[j] > 0) alpha = std::min(alpha, x[j] / (x[j] - s[j]));
                }
            }
            if (feasible) {
                x = s;
                break;
            }
            for (size_t j = 0; j < n; j++) {
                if (!in_set[j]) continue;
                x[j] += alpha * (s[j] - x[j]);
                if (x[j] <= tol) {
                    x[j] = 0.0;
                    in_set[j] = false;
                }
            }
        }
    }
    return x;
}

CostFit fit_costs(const std::vector<CostSample> &samples, size_t skip, const std::string &skip_family) {
    CostFit fit;
    for (bool lut : {true, false}) {
        std::vector<std::vector<double>> a;
        std::vector<double> b;
        for (size_t i = 0; i < samples.size(); i++) {
            const CostSample &s = samples[i];
            if (s.terms != samples[0].terms) throw std::logic_error("fit_costs: designs with different cost terms");
            int64_t vitis = lut ? s.vitis_lut : s.vitis_ff;
            if (i == skip || (!skip_family.empty() && s.family == skip_family) || vitis <= 0) continue;
            double w = 1.0 / static_cast<double>(vitis);
            std::vector<double> row;
            for (int64_t c : s.counts) row.push_back(static_cast<double>(c) * w);
            a.push_back(row);
            b.push_back(static_cast<double>(vitis - (lut ? s.fixed_lut : s.fixed_ff)) * w);
        }
        (lut ? fit.lut : fit.ff) = nnls(a, b);
    }
    return fit;
}

std::vector<HeldOutError> cross_validate(const std::vector<CostSample> &samples) {
    CostFit all = fit_costs(samples);
    std::vector<HeldOutError> out;
    for (bool lut : {true, false}) {
        HeldOutError h;
        h.metric = lut ? "LUT" : "FF";
        std::vector<double> table, refit, design, family;
        for (size_t i = 0; i < samples.size(); i++) {
            const CostSample &s = samples[i];
            int64_t vitis = lut ? s.vitis_lut : s.vitis_ff;
            if (vitis <= 0) continue;
            int64_t own = lut ? s.table_lut : s.table_ff;
            table.push_back(std::fabs(static_cast<double>(own - vitis)) / static_cast<double>(vitis));
            refit.push_back(error_with(s, lut ? all.lut : all.ff, lut));
            CostFit d = fit_costs(samples, i), f = fit_costs(samples, static_cast<size_t>(-1), s.family);
            design.push_back(error_with(s, lut ? d.lut : d.ff, lut));
            family.push_back(error_with(s, lut ? f.lut : f.ff, lut));
            if (design.back() >= h.design_worst) {
                h.design_worst = design.back();
                h.design_worst_name = s.design;
            }
            if (family.back() >= h.family_worst) {
                h.family_worst = family.back();
                h.family_worst_name = s.design;
            }
        }
        h.designs = static_cast<int>(table.size());
        h.table_median = median(table);
        h.table_worst = table.empty() ? 0 : *std::max_element(table.begin(), table.end());
        h.refit_median = median(refit);
        h.refit_worst = refit.empty() ? 0 : *std::max_element(refit.begin(), refit.end());
        h.design_median = median(design);
        h.family_median = median(family);
        out.push_back(h);
    }
    return out;
}

}  // namespace flowhls
