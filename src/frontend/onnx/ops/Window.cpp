// Sliding-window geometry shared by Conv, ConvTranspose and the pooling ops.
#include "frontend/onnx/ops/Window.h"

#include <cmath>

namespace flowhls::onnx_import {

WindowGeometry window_geometry(const NodeContext &ctx, const Tensor &x, const std::vector<int64_t> &kernel,
                               bool allow_ceil) {
    size_t n = kernel.size();
    if (x.rank() != static_cast<int>(n) + 2) {
        ctx.unsupported("kernel rank " + std::to_string(n) + " does not match input rank " + std::to_string(x.rank()));
    }
    WindowGeometry g;
    g.strides = ctx.attr_ints("strides", std::vector<int64_t>(n, 1));
    g.dilations = ctx.attr_ints("dilations", std::vector<int64_t>(n, 1));
    std::vector<int64_t> pads = ctx.attr_ints("pads", std::vector<int64_t>(2 * n, 0));
    if (g.strides.size() != n || g.dilations.size() != n || pads.size() != 2 * n) {
        ctx.unsupported("strides, dilations or pads do not match the kernel rank");
    }
    std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
    bool ceil_mode = allow_ceil && ctx.attr_int("ceil_mode", 0) != 0;
    for (size_t i = 0; i < n; i++) {
        int64_t d = x.shape[2 + i], s = g.strides[i], dil = g.dilations[i];
        if (s <= 0 || dil <= 0 || kernel[i] <= 0) ctx.unsupported("non-positive stride, dilation or kernel");
        int64_t effective = dil * (kernel[i] - 1) + 1;
        int64_t begin = pads[i], end = pads[n + i];
        if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
            int64_t out = (d + s - 1) / s;
            int64_t total = std::max<int64_t>(0, (out - 1) * s + effective - d);
            begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
            end = total - begin;
        } else if (auto_pad == "VALID") {
            begin = end = 0;
        } else if (auto_pad != "NOTSET") {
            ctx.unsupported("auto_pad " + auto_pad);
        }
        int64_t span = d + begin + end - effective;
        if (span < 0) ctx.unsupported("the window is larger than the padded input");
        int64_t positions = ceil_mode ? (span + s - 1) / s : span / s;
        g.pad_begin.push_back(begin);
        g.pad_end.push_back(end);
        g.output.push_back(positions + 1);
        g.reads_outside |= begin > 0 || positions * s + effective - begin > d;
    }
    return g;
}

Halide::Expr inside(const Tensor &x, const std::vector<Halide::Expr> &spatial) {
    size_t lead = x.shape.size() - spatial.size();
    Halide::Expr ok = Halide::Internal::const_true();
    for (size_t i = 0; i < spatial.size(); i++) {
        ok = ok && spatial[i] >= 0 && spatial[i] < static_cast<int>(x.shape[lead + i]);
    }
    return ok;
}

Halide::Expr padded_at(const Tensor &x, const std::vector<Halide::Expr> &leading,
                       const std::vector<Halide::Expr> &spatial, Halide::Expr pad, bool may_be_outside) {
    std::vector<Halide::Expr> idx = leading;
    if (!may_be_outside) {
        idx.insert(idx.end(), spatial.begin(), spatial.end());
        return x.at(idx);
    }
    size_t lead = leading.size();
    for (size_t i = 0; i < spatial.size(); i++) {
        idx.push_back(Halide::clamp(spatial[i], 0, static_cast<int>(x.shape[lead + i]) - 1));
    }
    return Halide::select(inside(x, spatial), x.at(idx), pad);
}

}  // namespace flowhls::onnx_import
