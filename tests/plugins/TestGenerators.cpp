// Halide Generators built as a plugin library for the --generator tests.
#include <Halide.h>

namespace {

using namespace Halide;

// A horizontal box blur of `taps` pixels followed by a gain, its first stage at the root.
class BoxBlur : public Generator<BoxBlur> {
public:
    GeneratorParam<int> taps{"taps", 3};
    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Expr sum = 0.0f;
        for (int i = 0; i < taps; i++) sum = sum + input(x + i, y);
        blur(x, y) = sum / static_cast<float>(static_cast<int>(taps));
        output(x, y) = blur(x, y) * 1.5f;
    }
    void schedule() { blur.compute_root(); }

private:
    Var x{"x"}, y{"y"};
    Func blur{"blur"};
};

// Two uint8 inputs blended into one output, computed per row with line buffering.
class Blend : public Generator<Blend> {
public:
    Input<Buffer<uint8_t>> a{"a", 2};
    Input<Buffer<uint8_t>> b{"b", 2};
    Output<Buffer<uint8_t>> output{"output", 2};

    void generate() {
        mixed(x, y) = cast<uint8_t>((cast<uint16_t>(a(x, y)) * 3 + cast<uint16_t>(b(x, y))) / 4);
        output(x, y) = max(mixed(x, y), mixed(x + 1, y));
    }
    void schedule() { mixed.store_root().compute_at(output, y); }

private:
    Var x{"x"}, y{"y"};
    Func mixed{"mixed"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BoxBlur, test_box_blur)
HALIDE_REGISTER_GENERATOR(Blend, test_blend)
