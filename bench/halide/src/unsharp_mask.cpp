// Unsharp masking: polymage/unsharp.go in Halide.
//
// The image is planar, img(x, y, c) at column x, row y, channel c (the
// port's img[c][y][x]), with a 2-pixel ghost zone; the port's blurx is
// the 5-tap filter across rows and blury the one across columns.
// Weight 3 and threshold 0.001 are the port's constants.
#include "Halide.h"

namespace {

using namespace Halide;

class UnsharpMask : public Generator<UnsharpMask> {
public:
    GeneratorParam<int> R{"R", 2048};
    GeneratorParam<int> C{"C", 2048};

    Input<Buffer<float>> img{"img", 3};
    Output<Buffer<float>> mask{"mask", 3};

    void generate() {
        blurx(x, y, c) = (img(x, y - 2, c) + img(x, y - 1, c) * 4.0f + img(x, y, c) * 6.0f +
                          img(x, y + 1, c) * 4.0f + img(x, y + 2, c)) * 0.0625f;
        blury(x, y, c) = (blurx(x - 2, y, c) + blurx(x - 1, y, c) * 4.0f + blurx(x, y, c) * 6.0f +
                          blurx(x + 1, y, c) * 4.0f + blurx(x + 2, y, c)) * 0.0625f;
        sharpen(x, y, c) = img(x, y, c) * 4.0f - blury(x, y, c) * 3.0f;
        mask(x, y, c) = select(abs(img(x, y, c) - blury(x, y, c)) < 0.001f, img(x, y, c), sharpen(x, y, c));
    }

    void schedule() {
        if (auto_schedule) {
            img.set_estimates({{0, C + 4}, {0, R + 4}, {0, 3}});
            mask.set_estimates({{2, C}, {2, R}, {0, 3}});
            return;
        }
        // In the style of Halide's apps/unsharp CPU schedule: strips of
        // 32 rows in parallel, each row's channels in turn, the blur
        // across rows computed one row at a time just before the row of
        // output that needs it (the blur across columns and the rest
        // inlined), everything vectorized along the row. The last strip
        // is guarded, so that fewer than 32 rows work too.
        const int vec = natural_vector_size<float>();
        mask.reorder(x, c, y)
            .split(y, y, yi, 32, TailStrategy::GuardWithIf)
            .parallel(y)
            .vectorize(x, vec);
        blurx.compute_at(mask, c).vectorize(x, vec);
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, yi{"yi"};
    Func blurx{"blurx"}, blury{"blury"}, sharpen{"sharpen"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(UnsharpMask, unsharp_mask)
