// frontier_svg: interval against DSPs of every explored point, log-log, as inline SVG.
#include "dse/FrontierPlot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace flowhls::dse {

namespace {

constexpr double kWidth = 640, kHeight = 400;
constexpr double kLeft = 80, kRight = 20, kTop = 36, kBottom = 50;

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

// A log10 axis over [lo, hi] (values >= 1) mapped onto [from, to] pixels.
struct LogAxis {
    double lo = 0, hi = 1, from = 0, to = 1;
    LogAxis(double min_value, double max_value, double from_px, double to_px) : from(from_px), to(to_px) {
        lo = std::log10(std::max(1.0, min_value));
        hi = std::log10(std::max(1.0, max_value));
        if (hi - lo < 1.0) {  // at least one decade, centred
            double mid = (lo + hi) / 2;
            lo = std::max(0.0, mid - 0.5);
            hi = lo + 1.0;
        }
        double pad = (hi - lo) * 0.05;
        lo = std::max(0.0, lo - pad);
        hi += pad;
    }
    double at(double v) const { return from + (std::log10(std::max(1.0, v)) - lo) / (hi - lo) * (to - from); }
    // Tick values 1, 2, 5 x 10^k inside the axis (only decades when it spans more than 3).
    std::vector<double> ticks() const {
        std::vector<double> t;
        for (int k = static_cast<int>(std::floor(lo)); k <= static_cast<int>(std::ceil(hi)); k++) {
            for (double m : {1.0, 2.0, 5.0}) {
                if (m != 1.0 && hi - lo > 3.0) continue;
                double v = m * std::pow(10.0, k), l = std::log10(v);
                if (l >= lo && l <= hi) t.push_back(v);
            }
        }
        return t;
    }
};

std::string tick_label(double v) {
    char b[32];
    if (v >= 1e6) std::snprintf(b, sizeof b, "%gM", v / 1e6);
    else if (v >= 1e3) std::snprintf(b, sizeof b, "%gk", v / 1e3);
    else std::snprintf(b, sizeof b, "%g", v);
    return b;
}

// The axes with their ticks, grid lines and labels.
std::string axes(const LogAxis &x, const LogAxis &y) {
    std::string s;
    double x0 = kLeft, x1 = kWidth - kRight, y0 = kHeight - kBottom, y1 = kTop;
    for (double v : x.ticks()) {
        std::string px = num(x.at(v));
        s += "<line x1=\"" + px + "\" y1=\"" + num(y1) + "\" x2=\"" + px + "\" y2=\"" + num(y0) +
             "\" stroke=\"#eee\"/><text x=\"" + px + "\" y=\"" + num(y0 + 16) + "\" text-anchor=\"middle\">" +
             tick_label(v) + "</text>\n";
    }
    for (double v : y.ticks()) {
        std::string py = num(y.at(v));
        s += "<line x1=\"" + num(x0) + "\" y1=\"" + py + "\" x2=\"" + num(x1) + "\" y2=\"" + py +
             "\" stroke=\"#eee\"/><text x=\"" + num(x0 - 6) + "\" y=\"" + num(y.at(v) + 4) +
             "\" text-anchor=\"end\">" + tick_label(v) + "</text>\n";
    }
    s += "<rect x=\"" + num(x0) + "\" y=\"" + num(y1) + "\" width=\"" + num(x1 - x0) + "\" height=\"" + num(y0 - y1) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
    s += "<text x=\"" + num((x0 + x1) / 2) + "\" y=\"" + num(kHeight - 12) +
         "\" text-anchor=\"middle\">DSP (estimate)</text>\n";
    s += "<text transform=\"translate(16," + num((y0 + y1) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">interval, cycles (estimate)</text>\n";
    return s;
}

// A five-pointed star of radius `r` centred on (cx, cy).
std::string star(double cx, double cy, double r) {
    std::string pts;
    for (int i = 0; i < 10; i++) {
        double a = -M_PI / 2 + i * M_PI / 5, rr = i % 2 ? r * 0.45 : r;
        pts += (i ? " " : "") + num(cx + rr * std::cos(a)) + "," + num(cy + rr * std::sin(a));
    }
    return "<polygon points=\"" + pts + "\" fill=\"#d33\" stroke=\"#800\"/>";
}

}  // namespace

std::string frontier_svg(const SearchResult &result, const Resources &budget) {
    std::vector<size_t> ok;
    for (size_t i = 0; i < result.points.size(); i++) {
        if (result.points[i].ok) ok.push_back(i);
    }
    if (ok.empty()) return "";
    double dmin = 1e300, dmax = 0, imin = 1e300, imax = 0;
    for (size_t i : ok) {
        const EvaluatedPoint &p = result.points[i];
        dmin = std::min(dmin, static_cast<double>(p.total.dsp));
        dmax = std::max(dmax, static_cast<double>(p.total.dsp));
        imin = std::min(imin, static_cast<double>(p.interval));
        imax = std::max(imax, static_cast<double>(p.interval));
    }
    // The budget line is drawn when it lies within a decade of the points.
    bool budget_line = budget.dsp > 0 && budget.dsp <= dmax * 10;
    if (budget_line) dmax = std::max(dmax, static_cast<double>(budget.dsp));
    LogAxis x(dmin, dmax, kLeft, kWidth - kRight), y(imin, imax, kHeight - kBottom, kTop);
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
                    num(kHeight) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    s += "<text x=\"" + num(kLeft) + "\" y=\"20\" font-size=\"13\">Explored points (estimates): " +
         std::to_string(ok.size()) + " compiled, Pareto frontier joined, chosen point starred</text>\n";
    s += axes(x, y);
    if (budget_line) {
        std::string px = num(x.at(static_cast<double>(budget.dsp)));
        s += "<line x1=\"" + px + "\" y1=\"" + num(kTop) + "\" x2=\"" + px + "\" y2=\"" + num(kHeight - kBottom) +
             "\" stroke=\"#d33\" stroke-dasharray=\"5,4\"/><text x=\"" + px + "\" y=\"" + num(kTop - 4) +
             "\" text-anchor=\"end\" fill=\"#d33\">DSP budget " + std::to_string(budget.dsp) + "</text>\n";
    }
    std::vector<size_t> front;
    for (size_t i : ok) {
        if (result.points[i].pareto) front.push_back(i);
    }
    std::sort(front.begin(), front.end(), [&](size_t a, size_t b) {
        const EvaluatedPoint &p = result.points[a], &q = result.points[b];
        return p.total.dsp != q.total.dsp ? p.total.dsp < q.total.dsp
                                          : p.interval != q.interval ? p.interval > q.interval : a < b;
    });
    if (front.size() > 1) {
        std::string pts;
        for (size_t i : front) {
            const EvaluatedPoint &p = result.points[i];
            pts += (pts.empty() ? "" : " ") + num(x.at(static_cast<double>(p.total.dsp))) + "," +
                   num(y.at(static_cast<double>(p.interval)));
        }
        s += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"#4a7cc0\" stroke-width=\"1.5\"/>\n";
    }
    for (size_t i : ok) {
        const EvaluatedPoint &p = result.points[i];
        std::string colour = p.pareto ? "#4a7cc0" : "#999";
        s += "<circle cx=\"" + num(x.at(static_cast<double>(p.total.dsp))) + "\" cy=\"" +
             num(y.at(static_cast<double>(p.interval))) + "\" r=\"3.5\" fill=\"" + (p.fits ? colour : "none") +
             "\" stroke=\"" + colour + "\"><title>point " + std::to_string(i) + " (" + p.origin + "): interval " +
             std::to_string(p.interval) + " cycles, DSP " + std::to_string(p.total.dsp) + ", BRAM18K " +
             std::to_string(p.total.bram18k) + ", LUT " + std::to_string(p.total.lut) +
             (p.fits ? "" : ", over budget") + "</title></circle>\n";
    }
    if (result.chosen >= 0) {
        const EvaluatedPoint &c = result.points[static_cast<size_t>(result.chosen)];
        double cx = x.at(static_cast<double>(c.total.dsp)), cy = y.at(static_cast<double>(c.interval));
        s += star(cx, cy, 8) + "<text x=\"" + num(cx + 10) + "\" y=\"" + num(cy - 8) + "\">chosen: point " +
             std::to_string(result.chosen) + "</text>\n";
    }
    s += "</svg>\n";
    return s;
}

}  // namespace flowhls::dse
