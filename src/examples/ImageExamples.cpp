// Bundled image pipelines: brighten_blur, gaussian, harris, unsharp, upsample.
#include "examples/ExampleRegistry.h"

namespace flowhls {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::Var;

namespace {

// Stages named in `names` are computed per row of `consumer` and stored at the root, so
// Halide's sliding window turns their storage into line buffers.
void line_buffer(const HalideProgram &p, const std::string &consumer, const std::vector<std::string> &names) {
    Func c = stage(p, consumer);
    Var y = c.args()[1];
    for (const std::string &n : names) stage(p, n).store_root().compute_at(c, y);
}

ExampleDef brighten_blur() {
    ExampleDef d;
    d.name = "brighten_blur";
    d.description = "brighten (x2) then 2x2 box blur of a 65x65 uint16 image (the unified-buffer paper's example)";
    d.algorithm = [](const std::string &) {
        ImageParam input(Halide::UInt(16), 2, "input");
        Var x("x"), y("y");
        Func brighten("brighten"), blur("blur");
        brighten(x, y) = input(x, y) * Halide::cast<uint16_t>(2);
        blur(x, y) = (brighten(x, y) + brighten(x + 1, y) + brighten(x, y + 1) + brighten(x + 1, y + 1)) /
                     Halide::cast<uint16_t>(4);
        return HalideProgram{"brighten_blur", {{input, {65, 65}, 0, 1023}}, {{blur, {64, 64}}}};
    };
    d.schedules = {
        {"root", "every stage computed at the root, one filter each", schedule_all_root},
        {"linebuffer", "brighten computed per output row into a sliding line buffer",
         [](const HalideProgram &p) { line_buffer(p, "blur", {"brighten"}); }},
    };
    return d;
}

ExampleDef gaussian() {
    ExampleDef d;
    d.name = "gaussian";
    d.description = "3x3 gaussian blur (1-2-1 kernel, separable) of a 66x66 float image";
    d.algorithm = [](const std::string &) {
        ImageParam input(Halide::Float(32), 2, "input");
        Var x("x"), y("y");
        Func hw_input("hw_input"), blur_x("blur_x"), out("blur_y");
        hw_input(x, y) = input(x, y);
        blur_x(x, y) = (hw_input(x, y) + 2.0f * hw_input(x + 1, y) + hw_input(x + 2, y)) * 0.25f;
        out(x, y) = (blur_x(x, y) + 2.0f * blur_x(x, y + 1) + blur_x(x, y + 2)) * 0.25f;
        return HalideProgram{"gaussian", {{input, {66, 66}, 0.0, 1.0}}, {{out, {64, 64}}}};
    };
    d.schedules = {
        {"root", "every stage computed at the root, one filter each", schedule_all_root},
        {"linebuffer", "input copy and horizontal blur computed per output row into line buffers",
         [](const HalideProgram &p) { line_buffer(p, "blur_y", {"hw_input", "blur_x"}); }},
        {"vectorized", "line buffers, with x vectorized by 8 in every stage (bambu maps vectors; vitis refuses it)",
         [](const HalideProgram &p) {
             line_buffer(p, "blur_y", {"hw_input", "blur_x"});
             for (const char *name : {"hw_input", "blur_x", "blur_y"}) {
                 Func f = stage(p, name);
                 f.vectorize(f.args()[0], 8);
             }
         }},
    };
    return d;
}

ExampleDef harris() {
    ExampleDef d;
    d.name = "harris";
    d.description = "Harris corner response (Sobel gradients, 3x3 box sums, det - k*trace^2) of a 68x68 float image";
    d.algorithm = [](const std::string &) {
        ImageParam input(Halide::Float(32), 2, "input");
        Var x("x"), y("y");
        Func in("hw_input"), ix("grad_x"), iy("grad_y"), ixx("grad_xx"), iyy("grad_yy"), ixy("grad_xy");
        Func sxx("lxx"), syy("lyy"), sxy("lxy"), out("corner");
        in(x, y) = input(x, y);
        ix(x, y) = (in(x + 2, y) - in(x, y)) + 2.0f * (in(x + 2, y + 1) - in(x, y + 1)) + (in(x + 2, y + 2) - in(x, y + 2));
        iy(x, y) = (in(x, y + 2) - in(x, y)) + 2.0f * (in(x + 1, y + 2) - in(x + 1, y)) + (in(x + 2, y + 2) - in(x + 2, y));
        ixx(x, y) = ix(x, y) * ix(x, y);
        iyy(x, y) = iy(x, y) * iy(x, y);
        ixy(x, y) = ix(x, y) * iy(x, y);
        auto box = [&](Func f) {
            Expr s = 0.0f;
            for (int j = 0; j < 3; j++) {
                for (int i = 0; i < 3; i++) s = s + f(x + i, y + j);
            }
            return s;
        };
        sxx(x, y) = box(ixx);
        syy(x, y) = box(iyy);
        sxy(x, y) = box(ixy);
        Expr det = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y);
        Expr trace = sxx(x, y) + syy(x, y);
        out(x, y) = det - 0.04f * trace * trace;
        return HalideProgram{"harris", {{input, {68, 68}, 0.0, 1.0}}, {{out, {64, 64}}}};
    };
    d.schedules = {
        {"root", "every stage computed at the root, one filter each", schedule_all_root},
        {"linebuffer", "gradients and box sums computed per output row into line buffers, products inlined",
         [](const HalideProgram &p) { line_buffer(p, "corner", {"hw_input", "grad_x", "grad_y", "lxx", "lyy", "lxy"}); }},
        {"inline", "everything inlined into the output: no intermediate storage, maximal recomputation",
         [](const HalideProgram &) {}},
    };
    return d;
}

ExampleDef unsharp() {
    ExampleDef d;
    d.name = "unsharp";
    d.description = "unsharp mask (5-tap gaussian blur, sharpen by the difference) of a 68x68 float image";
    d.algorithm = [](const std::string &) {
        ImageParam input(Halide::Float(32), 2, "input");
        Var x("x"), y("y");
        Func in("hw_input"), blur_y("blur_y"), blur_x("blur_x"), sharpen("sharpen"), out("sharpened");
        const float k[5] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};
        in(x, y) = input(x, y);
        Expr by = 0.0f, bx = 0.0f;
        for (int i = 0; i < 5; i++) by = by + k[i] * in(x, y + i);
        blur_y(x, y) = by;
        for (int i = 0; i < 5; i++) bx = bx + k[i] * blur_y(x + i, y);
        blur_x(x, y) = bx;
        sharpen(x, y) = 2.0f * in(x + 2, y + 2) - blur_x(x, y);
        out(x, y) = Halide::clamp(sharpen(x, y), 0.0f, 1.0f);
        return HalideProgram{"unsharp", {{input, {68, 68}, 0.0, 1.0}}, {{out, {64, 64}}}};
    };
    d.schedules = {
        {"root", "every stage computed at the root, one filter each", schedule_all_root},
        {"linebuffer", "input copy and blurs computed per output row into line buffers, sharpen inlined",
         [](const HalideProgram &p) { line_buffer(p, "sharpened", {"hw_input", "blur_y", "blur_x"}); }},
    };
    return d;
}

ExampleDef upsample() {
    ExampleDef d;
    d.name = "upsample";
    d.description = "2x nearest-neighbour upsampling (pixel repetition) of a 64x64 uint16 image to 128x128";
    d.algorithm = [](const std::string &) {
        ImageParam input(Halide::UInt(16), 2, "input");
        Var x("x"), y("y");
        Func in("hw_input"), out("upsampled");
        in(x, y) = input(x, y);
        out(x, y) = in(x / 2, y / 2);
        return HalideProgram{"upsample", {{input, {64, 64}, 0, 65535}}, {{out, {128, 128}}}};
    };
    d.schedules = {
        {"root", "input copy and output computed at the root", schedule_all_root},
        {"linebuffer", "input row copied per output row into a line buffer",
         [](const HalideProgram &p) { line_buffer(p, "upsampled", {"hw_input"}); }},
    };
    return d;
}

}  // namespace

std::vector<ExampleDef> image_examples() { return {brighten_blur(), gaussian(), harris(), unsharp(), upsample()}; }

}  // namespace flowhls
